"""The payload TypedDicts mirror what the dashboard's documents select, field for field."""

from __future__ import annotations

from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    NamedTypeNode,
    OperationDefinitionNode,
    SelectionSetNode,
    parse,
)

from dashboard import payloads, queries, stats_payloads

# Root field, the union member read (None: the field is not a union), the TypedDict.
SHAPES = [
    ("search", "SearchPayload", payloads.SearchPayload),
    ("chat", "ChatPayload", payloads.ChatPayload),
    ("timeline", "TimelinePayload", payloads.TimelinePayload),
    ("tesis", None, payloads.TesisRecord),
    ("monitoring", "MonitoringReport", stats_payloads.MonitoringReport),
    ("searchLog", None, stats_payloads.LogEntry),
    ("feedback", "FeedbackResult", stats_payloads.FeedbackResult),
    ("corpusStats", "CorpusStatsType", stats_payloads.CorpusStats),
    ("feedbackSummary", "FeedbackSummary", stats_payloads.FeedbackSummary),
]


def _fields(
    selection: SelectionSetNode, fragments: dict[str, FragmentDefinitionNode], on: str | None
) -> dict[str, FieldNode]:
    """The fields selected, fragments spread, inline fragments kept only when ``on`` that type."""
    out: dict[str, FieldNode] = {}
    for node in selection.selections:
        if isinstance(node, FieldNode) and node.name.value != "__typename":
            out[node.name.value] = node
        elif isinstance(node, FragmentSpreadNode):
            out.update(_fields(fragments[node.name.value].selection_set, fragments, None))
        elif isinstance(node, InlineFragmentNode) and _names(node.type_condition, on):
            out.update(_fields(node.selection_set, fragments, None))
    return out


def _names(condition: NamedTypeNode | None, member: str | None) -> bool:
    return condition is not None and condition.name.value == member


def _inner(annotation: Any) -> Any:
    """The TypedDict inside ``X``, ``X | None`` or ``list[X]``; None for a scalar."""
    if is_typeddict(annotation):
        return annotation
    if get_origin(annotation) in (list, Union, UnionType):
        found = [_inner(a) for a in get_args(annotation) if a is not type(None)]
        return next((f for f in found if f is not None), None)
    return None


def _compare(
    shape: Any, fields: dict[str, FieldNode], fragments: dict[str, FragmentDefinitionNode], at: str
) -> None:
    hints = get_type_hints(shape)
    assert set(hints) == set(fields), at
    for name, node in fields.items():
        inner = _inner(hints[name])
        assert (inner is not None) == (node.selection_set is not None), f"{at}.{name}"
        if node.selection_set is not None:
            _compare(inner, _fields(node.selection_set, fragments, None), fragments, f"{at}.{name}")


@pytest.mark.parametrize(("root", "member", "shape"), SHAPES, ids=[s[0] for s in SHAPES])
def test_payload_mirrors_the_selection(root: str, member: str | None, shape: Any) -> None:
    document = parse(queries.ALL[root])
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    field = next(s for s in operation.selection_set.selections if isinstance(s, FieldNode))
    assert field.name.value == root and field.selection_set is not None
    _compare(shape, _fields(field.selection_set, fragments, member), fragments, root)

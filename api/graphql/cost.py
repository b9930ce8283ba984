"""What a GraphQL document will cost, measured in one linear pass before validation runs.

A document can be small and still expand enormously: 24 fragments, each spreading the previous
one twice, name 2**24 fields. Every fragment is measured once (memoized), so the walk is linear
in the size of the document, and a cycle is reported instead of followed. The measure gives:

- ``selections``: fields after expanding every fragment spread;
- ``depth``: fields nested below a root field (``{ a { b } }`` is 1; introspection fields not
  counted), as strawberry's depth limiter counted before;
- ``aliases``: aliased fields after expansion;
- ``cost``: the work the root fields ask for (see ``ROOT_COSTS``), each alias charged again.

``check_document`` turns a measure over the limits into one readable ``GraphQLError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    ObjectValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValueNode,
    VariableNode,
)

from api.core.references import MAX_REFERENCES_LIMIT
from api.services.monitoring import MAX_LOG_LIMIT, MAX_WINDOW_HOURS
from api.services.search import MAX_TOP_K
from api.services.timeline import MAX_LIMIT

Arguments = Callable[[str, str | None], int | None]


def _get(args: Arguments, name: str, key: str | None, default: int, high: int) -> int:
    """An argument's value, clamped to what its resolver accepts: a larger one is refused
    there as an ``InputError`` before any work, so it is charged as the largest valid one."""
    value = args(name, key)
    return min(default if value is None else value, high)


def _days(args: Arguments) -> int:
    hours = _get(args, "windowHours", None, 168, MAX_WINDOW_HOURS)
    return max(1, -(-hours // 24))


def _search(args: Arguments) -> int:
    return 10 + _get(args, "input", "topK", 10, MAX_TOP_K)


def _chat(args: Arguments) -> int:
    return 10 + 2 * _get(args, "input", "maxReferences", 5, MAX_REFERENCES_LIMIT)


def _dated(args: Arguments) -> int:
    return 10 + _get(args, "limit", None, 5, MAX_LIMIT)


# Cost of one occurrence of a root field, from its arguments (``args(name, inner)`` reads an
# integer argument, or a field of an input-object argument). Unlisted fields cost 1.
ROOT_COSTS: dict[str, Callable[[Arguments], int]] = {
    "search": _search,
    "judge": _search,
    "chat": _chat,
    "chatStream": _chat,
    "compareRankings": lambda args: 2 * _search(args),
    "timeline": lambda args: _get(args, "input", "limit", 50, MAX_LIMIT),
    "earliest": _dated,
    "latest": _dated,
    "monitoring": _days,
    "alerts": _days,
    "feedbackSummary": _days,
    "searchLog": lambda args: _get(args, "limit", None, 20, MAX_LOG_LIMIT),
    "corpusStats": lambda args: 10,
    "distribution": lambda args: 5,
}


@dataclass(frozen=True, slots=True)
class Measure:
    """A document's four counts (see above); ``Limits`` is the most each may be."""

    selections: int = 0
    depth: int = 0
    aliases: int = 0
    cost: int = 0

    def __add__(self, other: Measure) -> Measure:
        return Measure(
            self.selections + other.selections,
            max(self.depth, other.depth),
            self.aliases + other.aliases,
            self.cost + other.cost,
        )


class Limits(Measure):
    """The largest measure a document may have; by default the schema's."""

    __slots__ = ()

    def __init__(
        self, selections: int = 2000, depth: int = 10, aliases: int = 15, cost: int = 1000
    ) -> None:
        super().__init__(selections, depth, aliases, cost)


class _Walker:
    def __init__(self, document: DocumentNode, variables: Mapping[str, Any]) -> None:
        self.fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        self.variables = variables
        self.defaults: dict[str, Any] = {}
        self.memo: dict[tuple[str, bool], Measure] = {}
        self.visiting: set[str] = set()

    def operation(self, op: OperationDefinitionNode) -> Measure:
        self.defaults = {
            v.variable.name.value: v.default_value for v in op.variable_definitions or ()
        }
        return self.selection_set(op.selection_set, root=True)

    def selection_set(self, node: SelectionSetNode | None, root: bool) -> Measure:
        total = Measure()
        for selection in node.selections if node else ():
            if isinstance(selection, FieldNode):
                total += self.field(selection, root)
            elif isinstance(selection, InlineFragmentNode):
                total += self.selection_set(selection.selection_set, root)
            elif isinstance(selection, FragmentSpreadNode):
                total += self.spread(selection.name.value, root)
        return total

    def spread(self, name: str, root: bool) -> Measure:
        found = self.memo.get((name, root))
        if found is not None:
            return found
        fragment = self.fragments.get(name)
        if fragment is None:
            return Measure()  # unknown fragment: validation reports it
        if name in self.visiting:
            raise GraphQLError(f"Fragment '{name}' spreads itself (a cycle).")
        self.visiting.add(name)
        measured = self.selection_set(fragment.selection_set, root)
        self.visiting.discard(name)
        self.memo[(name, root)] = measured
        return measured

    def field(self, node: FieldNode, root: bool) -> Measure:
        name = node.name.value
        inner = self.selection_set(node.selection_set, root=False)
        introspection = name.startswith("__")
        cost = 0
        if root and name in ROOT_COSTS:
            cost = ROOT_COSTS[name](lambda arg, key: self.argument(node, arg, key))
        elif not introspection:
            cost = 1 if root else 0
        return Measure(
            selections=1 + inner.selections,
            depth=0 if introspection else 1 + inner.depth,
            aliases=(1 if node.alias else 0) + inner.aliases,
            cost=cost + inner.cost,
        )

    def argument(self, node: FieldNode, name: str, key: str | None) -> int | None:
        for arg in node.arguments or ():
            if arg.name.value == name:
                return self.integer(arg.value, key)
        return None

    def integer(self, value: ValueNode | None, key: str | None) -> int | None:
        if isinstance(value, VariableNode):
            var = value.name.value
            if var in self.variables:
                return _as_int(self.variables[var], key)
            return self.integer(self.defaults.get(var), key)
        if key is not None:
            if isinstance(value, ObjectValueNode):
                inner = next((f.value for f in value.fields if f.name.value == key), None)
                return self.integer(inner, None)
            return None
        if isinstance(value, IntValueNode):
            return _clamp(value.value)
        return None


def _clamp(text: str) -> int | None:
    if len(text.lstrip("-")) > 9:  # far over any bound; validation rejects it anyway
        return 10**9
    try:
        return max(0, int(text))
    except ValueError:
        return None


def _as_int(value: Any, key: str | None) -> int | None:
    if key is not None:
        inner: Any = value.get(key) if isinstance(value, dict) else None
        return _as_int(inner, None)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return int(max(0, min(value, 10**9)))


def measure(
    document: DocumentNode, variables: Mapping[str, Any] | None, operation_name: str | None
) -> Measure:
    """The largest measure among the operations that could run (the named one, if given)."""
    walker = _Walker(document, variables or {})
    found = Measure()
    for definition in document.definitions:
        if not isinstance(definition, OperationDefinitionNode):
            continue
        if operation_name and (definition.name is None or definition.name.value != operation_name):
            continue
        m = walker.operation(definition)
        found = Measure(
            max(found.selections, m.selections),
            max(found.depth, m.depth - 1),
            max(found.aliases, m.aliases),
            max(found.cost, m.cost),
        )
    return found


def check_document(
    document: DocumentNode,
    variables: Mapping[str, Any] | None,
    operation_name: str | None,
    limits: Limits,
) -> None:
    """Raise one ``GraphQLError`` (code ``QUERY_TOO_COMPLEX``) when a limit is exceeded."""
    m = measure(document, variables, operation_name)
    problems = [
        (
            m.selections > limits.selections,
            f"{m.selections} fields after expanding fragments (at most {limits.selections})",
        ),
        (m.depth > limits.depth, f"depth {m.depth} exceeds the maximum of {limits.depth}"),
        (m.aliases > limits.aliases, f"{m.aliases} aliases (at most {limits.aliases} aliases)"),
        (
            m.cost > limits.cost,
            f"cost {m.cost} exceeds the maximum query cost of {limits.cost} "
            "(search topK, monitoring/alerts windowHours, searchLog limit and each alias count)",
        ),
    ]
    reasons = [text for hit, text in problems if hit]
    if reasons:
        raise GraphQLError(
            "Query refused: " + "; ".join(reasons) + ".",
            extensions={
                "code": "QUERY_TOO_COMPLEX",
                "selections": m.selections,
                "depth": m.depth,
                "aliases": m.aliases,
                "cost": m.cost,
            },
        )

"""Variables holding text no store or reply can encode (a lone surrogate, JSON ``"\\ud800"``).

The request decoder lets them through inside ``variables`` only, so that one bad record in an
``ingestTesis`` batch is rejected alone, by name, by the record validator. Anywhere else the
request is refused here, naming the variable path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphql import DocumentNode, FieldNode, GraphQLError, OperationDefinitionNode, VariableNode

from api.core.text import unencodable_at

# (root field, argument) whose values are validated record by record downstream.
PER_RECORD = {("ingestTesis", "records")}


def unencodable_path(value: Any, path: str) -> str | None:
    """The path of the first string in ``value`` that UTF-8 cannot encode, or None."""
    if isinstance(value, str):
        return None if unencodable_at(value) is None else path
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = unencodable_path(item, f"{path}[{i}]")
            if found:
                return found
    if isinstance(value, dict):
        for key, item in value.items():
            found = unencodable_path(key, path) or unencodable_path(item, f"{path}.{key}")
            if found:
                return found
    return None


def _per_record_variables(document: DocumentNode) -> set[str]:
    names: set[str] = set()
    for definition in document.definitions:
        if not isinstance(definition, OperationDefinitionNode):
            continue
        for selection in definition.selection_set.selections:
            if not isinstance(selection, FieldNode):
                continue
            for arg in selection.arguments or ():
                if (selection.name.value, arg.name.value) in PER_RECORD and isinstance(
                    arg.value, VariableNode
                ):
                    names.add(arg.value.name.value)
    return names


def check_variables(document: DocumentNode, variables: Mapping[str, Any] | None) -> None:
    """Raise a ``GraphQLError`` naming a variable with unencodable text, unless that variable
    feeds a per-record argument (its records are rejected one by one, by name)."""
    if not variables:
        return
    allowed = _per_record_variables(document)
    for name, value in variables.items():
        if name in allowed:
            continue
        found = unencodable_path(value, f"${name}")
        if found:
            found = found.encode("utf-8", "backslashreplace").decode("utf-8")
            raise GraphQLError(
                f"{found}: not valid Unicode (a lone surrogate).",
                extensions={"code": "BAD_USER_INPUT"},
            )

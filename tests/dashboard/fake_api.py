"""An in-process GraphQL API for the dashboard tests: the real SDL (plus announced operations
it lacks yet) executed by graphql-core over canned data, behind a patched ``httpx.post``.

Every document the dashboard sends is validated against that SDL, so a misspelt field fails
the test instead of passing silently.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
from graphql import (
    ExecutionResult,
    GraphQLSchema,
    GraphQLUnionType,
    ObjectTypeDefinitionNode,
    OperationDefinitionNode,
    build_schema,
    graphql_sync,
    parse,
    print_ast,
    subscribe,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "schema.graphql"
ANNOUNCED_FILE = Path(__file__).with_name("announced.graphql")
_ERRORS = {"InputError", "ServiceError"}


def build(announced: bool = True, sdl: str | None = None) -> GraphQLSchema:
    """``schema.graphql`` (or ``sdl``), plus the announced root fields it does not have."""
    base = sdl if sdl is not None else SCHEMA_FILE.read_text(encoding="utf-8")
    parts = [base]
    if announced:
        parts += [_announced_types(base), *_extensions(base)]
    schema = build_schema("\n".join(parts))
    for t in schema.type_map.values():
        if isinstance(t, GraphQLUnionType):
            t.resolve_type = _resolve_member
    return schema


def _announced_types(base: str) -> str:
    """announced.graphql without the scalars ``base`` already declares."""
    lines = ANNOUNCED_FILE.read_text(encoding="utf-8").splitlines()
    declared = set(re.findall(r"^scalar (\w+)", base, flags=re.MULTILINE))
    return "\n".join(
        line for line in lines if not (line.startswith("scalar ") and line.split()[1] in declared)
    )


def _extensions(base: str) -> list[str]:
    """``extend type Query/Mutation`` with each announced root field no root of ``base`` has."""
    base_schema = build_schema(base)
    roots = [base_schema.query_type, base_schema.mutation_type, base_schema.subscription_type]
    present = {name for root in roots if root for name in root.fields}
    out: list[str] = []
    for node in parse(ANNOUNCED_FILE.read_text(encoding="utf-8")).definitions:
        if not isinstance(node, ObjectTypeDefinitionNode) or not node.name.value.startswith("Ann"):
            continue
        root_name = node.name.value.removeprefix("Ann")
        if root_name not in ("Query", "Mutation"):
            continue
        root = base_schema.query_type if root_name == "Query" else base_schema.mutation_type
        fields = [print_ast(f) for f in node.fields or () if f.name.value not in present]
        if fields:
            head = f"extend type {root.name}" if root else f"type {root_name}"
            out.append(head + " {\n" + "\n".join(fields) + "\n}")
            if root is None and "schema {" in base:
                out.append(f"extend schema {{ mutation: {root_name} }}")
    return out


def _resolve_member(value: Any, info: Any, union: GraphQLUnionType) -> str | None:
    """``__typename`` if given, else the first non-error member having every key of ``value``."""
    if isinstance(value, Mapping) and value.get("__typename"):
        return str(value["__typename"])
    keys = set(value) - {"__typename"} if isinstance(value, Mapping) else set()
    members = [m for m in union.types if m.name not in _ERRORS]
    for member in members:
        if keys <= set(member.fields):
            return member.name
    return members[0].name if members else None


class FakeApi:
    """Patch ``httpx.post`` with :meth:`post`; ``root`` maps root fields to values/callables."""

    def __init__(self, root: Mapping[str, Any], announced: bool = True) -> None:
        self.schema = build(announced)
        self.root = dict(root)
        self.calls: list[tuple[list[str], dict[str, Any]]] = []
        self.errors: list[str] = []

    def called(self, field: str) -> list[dict[str, Any]]:
        """The variables of each call that selected root field ``field``."""
        return [v for fields, v in self.calls if field in fields]

    def post(self, url: str, *, json: Mapping[str, Any], **_: Any) -> httpx.Response:
        document, variables = json["query"], dict(json.get("variables") or {})
        op = next(d for d in parse(document).definitions if isinstance(d, OperationDefinitionNode))
        fields = [s.name.value for s in op.selection_set.selections]  # type: ignore[attr-defined]
        self.calls.append((fields, variables))
        result = graphql_sync(
            self.schema, document, root_value=self.root, variable_values=variables
        )
        body: dict[str, Any] = {"data": result.data}
        if result.errors:
            body["errors"] = [e.formatted for e in result.errors]
            if not fields[0].startswith("__"):
                self.errors += [e.message for e in result.errors]
        return httpx.Response(200, json=body, request=httpx.Request("POST", url))

    def subscribe(self, url: str, document: str, variables: Mapping[str, Any]) -> Iterator[dict]:
        """``dashboard.client._subscribe``: run the subscription with graphql-core."""
        op = next(d for d in parse(document).definitions if isinstance(d, OperationDefinitionNode))
        fields = [s.name.value for s in op.selection_set.selections]  # type: ignore[attr-defined]
        self.calls.append((fields, dict(variables)))

        async def collect() -> list[ExecutionResult]:
            stream = subscribe(
                self.schema, parse(document), root_value=self.root, variable_values=dict(variables)
            )
            if inspect.isawaitable(stream):
                stream = await stream
            if isinstance(stream, ExecutionResult):
                return [stream]
            return [r async for r in stream]

        for result in asyncio.run(collect()):
            if result.errors:
                self.errors += [e.message for e in result.errors]
            yield dict(result.data or {})


def refused(url: str, **_: Any) -> httpx.Response:
    """``httpx.post`` while the API is down."""
    raise httpx.ConnectError("[Errno 111] Connection refused", request=httpx.Request("POST", url))


Resolver = Callable[..., Any]

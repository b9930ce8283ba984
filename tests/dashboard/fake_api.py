"""An in-process GraphQL API for the dashboard tests: the real SDL executed by graphql-core
over canned data, behind a patched ``httpx.post``.

Every document the dashboard sends is validated against that SDL, so a misspelt field fails
the test instead of passing silently. Introspection is off, as with
``VIGENCIA_GRAPHQL_INTROSPECTION=false``: a document asking for ``__schema`` or ``__type`` is
refused (and recorded in ``errors``), so every page test runs without it.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
from graphql import (
    ExecutionResult,
    GraphQLSchema,
    GraphQLUnionType,
    OperationDefinitionNode,
    build_schema,
    graphql_sync,
    parse,
    subscribe,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "schema.graphql"
_ERRORS = {"InputError", "ServiceError"}


def build(sdl: str | None = None) -> GraphQLSchema:
    """``schema.graphql`` (or ``sdl``) as an executable schema over canned values."""
    schema = build_schema(sdl if sdl is not None else SCHEMA_FILE.read_text(encoding="utf-8"))
    for t in schema.type_map.values():
        if isinstance(t, GraphQLUnionType):
            t.resolve_type = _resolve_member
    return schema


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

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.schema = build()
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
        if "__schema" in document or "__type(" in document:
            self.errors.append("introspection attempted")
            body = {"data": None, "errors": [{"message": "GraphQL introspection is not allowed"}]}
            return httpx.Response(200, json=body, request=httpx.Request("POST", url))
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

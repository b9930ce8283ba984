"""Expected failures as schema values: ``InputError`` names the field, ``ServiceError`` the
backend. List fields, which cannot return a union, raise them as coded GraphQL errors."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import strawberry
from graphql import GraphQLError
from starlette.concurrency import run_in_threadpool

from api.core.redact import redact
from api.errors import EmbedderError, InvalidRequest, LogError, StoreError
from api.graphql.context import Context, Info
from api.graphql.types import InputError, Outcome, ServiceError

# What resolvers catch; anything else propagates and is masked.
EXPECTED = (InvalidRequest, LogError, StoreError, EmbedderError)
_SERVICES = ((LogError, "log"), (StoreError, "store"), (EmbedderError, "embedder"))
MAX_MESSAGE = 240
log = logging.getLogger("vigencia.errors")

P = ParamSpec("P")
T = TypeVar("T")
R = TypeVar("R")


def public_message(exc: Exception) -> str:
    """What a client may read of a backend failure: no credentials, keys, URLs or paths."""
    text = redact(str(exc), hide_locations=True)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def service_error(exc: Exception) -> ServiceError:
    name = next((n for kind, n in _SERVICES if isinstance(exc, kind)), "store")
    log.warning("%s failure: %s", name, redact(str(exc)))  # the detail stays server-side
    return ServiceError(service=name, message=public_message(exc))


def failure(exc: Exception) -> InputError | ServiceError:
    """The union member for an expected failure."""
    if isinstance(exc, InvalidRequest):
        return InputError(field=exc.field, message=exc.reason)
    return service_error(exc)


def graphql_error(exc: Exception) -> GraphQLError:
    """For list fields: the same failures as readable, coded GraphQL errors."""
    found = failure(exc)
    if isinstance(found, InputError):
        return GraphQLError(
            f"{found.field}: {found.message}",
            extensions={"code": "BAD_USER_INPUT", "field": found.field},
        )
    return GraphQLError(
        f"{found.service} unavailable: {found.message}",
        extensions={"code": "SERVICE_UNAVAILABLE", "service": found.service},
    )


async def outcome(
    into: Callable[[T], R], call: Callable[P, T], *args: P.args, **kwargs: P.kwargs
) -> Outcome[R]:
    """Run a service call off the event loop; its value through ``into``, or the expected
    failure as a union member (the one try/except of every union-returning resolver)."""
    try:
        value = await run_in_threadpool(call, *args, **kwargs)
    except EXPECTED as exc:
        return failure(exc)
    return into(value)


def input_field(
    input_type: type[Any], into: Callable[[T], R], call: Callable[[Context, Any], T], doc: str
) -> Any:
    """A field ``(input: input_type)`` of the union it is annotated with, answering
    ``outcome(into, call(context, input.to_core()))``: the input converts in the worker too,
    so a malformed one (too many filter items) answers as an ``InputError``."""

    async def resolve(info: Info, input: Any) -> Any:
        return await outcome(into, lambda: call(info.context, input.to_core()))

    resolve.__annotations__ = {"info": Info, "input": input_type}
    return strawberry.field(resolver=resolve, description=doc)


async def listed(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """The same for list fields: the value, or the failure raised as a coded GraphQL error."""
    try:
        return await run_in_threadpool(call, *args, **kwargs)
    except EXPECTED as exc:
        raise graphql_error(exc) from exc

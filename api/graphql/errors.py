"""Expected failures as schema values: ``InputError`` names the field, ``ServiceError`` the
backend. List fields, which cannot return a union, raise them as coded GraphQL errors."""

from __future__ import annotations

from graphql import GraphQLError

from api.embeddings.base import EmbedderError
from api.graphql.types import InputError, ServiceError
from api.monitoring.log_base import LogError
from api.search import InvalidRequest
from api.store.base import StoreError

# What resolvers catch; anything else propagates and is masked.
EXPECTED = (InvalidRequest, LogError, StoreError, EmbedderError)
_SERVICES = ((LogError, "log"), (StoreError, "store"), (EmbedderError, "embedder"))


def service_error(exc: Exception) -> ServiceError:
    name = next((n for kind, n in _SERVICES if isinstance(exc, kind)), "store")
    return ServiceError(service=name, message=str(exc))


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

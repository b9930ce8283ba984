"""The schema, with abuse limits and error masking. Export: ``make schema``."""

from __future__ import annotations

from collections.abc import Callable

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    ValidationCache,
)
from strawberry.extensions.base_extension import SchemaExtension

from api.embeddings.base import EmbedderError
from api.graphql.chat import ChatQuery, ChatSubscription, CompareAnswersQuery
from api.graphql.corpus import CorpusQuery
from api.graphql.monitoring import MonitoringMutation, MonitoringQuery
from api.graphql.mutations import DataMutation
from api.graphql.queries import Query as CoreQuery
from api.store.base import StoreError

MAX_DEPTH = 10
MAX_ALIASES = 15
MAX_TOKENS = 2000
# Clients send the same documents with new variables: parse and validate each once.
CACHED_DOCUMENTS = 256
# The depth and alias limits are validation rules. Built once, so that the validation cache
# (keyed by the rule classes) hits; the limiter extensions would build new classes per request.
LIMIT_RULES = (
    *QueryDepthLimiter(max_depth=MAX_DEPTH).validation_rules,
    *MaxAliasesLimiter(max_alias_count=MAX_ALIASES).validation_rules,
)


@strawberry.type
class Query(CoreQuery, ChatQuery, CompareAnswersQuery, MonitoringQuery, CorpusQuery):
    """Every read: search, timelines, tesis, chat, judge, monitoring."""


@strawberry.type
class Mutation(DataMutation, MonitoringMutation):
    """Every write; each needs the API key when one is configured."""


def is_unexpected(error: GraphQLError) -> bool:
    """Mask internal errors; keep validation, limiter and permission messages readable, and
    store or embedder outages on fields without an error union (``tesis``, ``distribution``)."""
    original = error.original_error
    return original is not None and not isinstance(
        original, GraphQLError | StoreError | EmbedderError
    )


def build_schema(introspection: bool = True) -> strawberry.Schema:
    """The schema with its limits; ``introspection=False`` hides the schema from clients."""
    extensions: list[type[SchemaExtension] | Callable[[], SchemaExtension]] = [
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: ParserCache(maxsize=CACHED_DOCUMENTS),
        lambda: AddValidationRules(list(LIMIT_RULES)),
        lambda: ValidationCache(maxsize=CACHED_DOCUMENTS),
        lambda: MaskErrors(should_mask_error=is_unexpected),
    ]
    if not introspection:
        extensions.append(DisableIntrospection)
    return strawberry.Schema(
        query=Query,
        mutation=Mutation,
        subscription=ChatSubscription,
        extensions=extensions,
    )


schema = build_schema()

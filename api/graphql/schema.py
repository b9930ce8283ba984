"""The schema, with abuse limits and error masking. Export: ``make schema``."""

from __future__ import annotations

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
)

from api.graphql.chat import ChatQuery, ChatSubscription
from api.graphql.queries import Query as CoreQuery

MAX_DEPTH = 10
MAX_ALIASES = 15
MAX_TOKENS = 2000


def is_unexpected(error: GraphQLError) -> bool:
    """Mask internal errors; keep GraphQL validation and limiter messages readable."""
    return error.original_error is not None and not isinstance(error.original_error, GraphQLError)


@strawberry.type
class Query(CoreQuery, ChatQuery):
    """Every read: search, timelines, tesis, chat, judge."""


schema = strawberry.Schema(
    query=Query,
    subscription=ChatSubscription,
    extensions=[
        lambda: QueryDepthLimiter(max_depth=MAX_DEPTH),
        lambda: MaxAliasesLimiter(max_alias_count=MAX_ALIASES),
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: MaskErrors(should_mask_error=is_unexpected),
    ],
)

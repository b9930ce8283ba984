"""The schema, with abuse limits and error masking. Export: ``make schema``."""

from __future__ import annotations

import copy
import logging
import re
import traceback
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from threading import Lock

import strawberry
from graphql import DocumentNode, GraphQLError, OperationDefinitionNode, validate
from starlette.concurrency import run_in_threadpool
from strawberry.extensions import (
    DisableIntrospection,
    MaskErrors,
    MaxTokensLimiter,
    ParserCache,
)
from strawberry.extensions.base_extension import SchemaExtension
from strawberry.schema.validation_rules.maybe_null import MaybeNullValidationRule
from strawberry.schema.validation_rules.one_of import OneOfInputValidationRule
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType

from api.core.redact import redact
from api.errors import EmbedderError, StoreError
from api.graphql.chat import ChatQuery, ChatSubscription
from api.graphql.compare_answers import CompareAnswersQuery
from api.graphql.corpus import CorpusQuery
from api.graphql.cost import Limits, check_document
from api.graphql.feedback import FeedbackQuery
from api.graphql.judge import JudgeQuery
from api.graphql.monitoring import MonitoringMutation, MonitoringQuery
from api.graphql.mutations import DataMutation
from api.graphql.queries import Query as CoreQuery
from api.graphql.variables import check_variables

MAX_TOKENS = 2000
MAX_QUERY_COST = Limits().cost
# Clients send the same documents with new variables: parse and validate each once.
CACHED_DOCUMENTS = 256
_log = logging.getLogger("vigencia.requests")
_SUGGESTION = re.compile(r"\s*Did you mean [^?]*\?")
_STRAWBERRY_RULES = (MaybeNullValidationRule, OneOfInputValidationRule)


def _without_suggestion(error: GraphQLError) -> GraphQLError:
    """The same error without its "Did you mean ...?" (which would reveal the schema)."""
    quiet = copy.copy(error)
    quiet.message = _SUGGESTION.sub("", error.message)
    return quiet


class _ValidationResults:
    """A small LRU of validation errors by (query text, rules, suggestions hidden)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[tuple[object, ...], list[GraphQLError]] = OrderedDict()
        self.lock = Lock()

    def get(self, key: tuple[object, ...]) -> list[GraphQLError] | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple[object, ...], errors: list[GraphQLError]) -> None:
        with self.lock:
            self.items[key] = errors
            if len(self.items) > self.size:
                self.items.popitem(last=False)


class BoundedValidation(SchemaExtension):
    """Measure the document in linear time (``api.graphql.cost``) and refuse it before any
    validation rule runs; then validate off the event loop, cached, with field suggestions
    hidden when introspection is off (they would reveal the schema)."""

    def __init__(self, limits: Limits, hide_suggestions: bool, cache: _ValidationResults) -> None:
        self.limits = limits
        self.hide_suggestions = hide_suggestions
        self.cache = cache

    async def on_validate(self) -> AsyncIterator[None]:
        ctx = self.execution_context
        document = ctx.graphql_document
        assert document is not None
        try:
            # what the request named: ``operation_name`` falls back to the first operation's
            check_operation_named(document, ctx._provided_operation_name)
            check_subscription_transport(ctx)
            check_document(document, ctx.variables, ctx.operation_name, self.limits)
            check_variables(document, ctx.variables)
        except GraphQLError as refused:  # reported as a validation error, on every transport
            ctx.pre_execution_errors = [refused]
            yield
            return
        rules = (*ctx.validation_rules, *_STRAWBERRY_RULES)
        key = (id(ctx.schema), ctx.query, rules, self.hide_suggestions)
        errors = self.cache.get(key) if ctx.query else None
        if errors is None:
            errors = await run_in_threadpool(
                validate,
                ctx.schema._schema,
                document,
                rules,
                hide_suggestions=self.hide_suggestions,
            )
            if ctx.query:
                self.cache.put(key, errors)
        ctx.pre_execution_errors = errors
        yield


def check_operation_named(document: DocumentNode, operation_name: str | None) -> None:
    """Refuse a document of several operations that names none to run (the GraphQL spec's
    request error): the first one had run, a mutation as readily as a query."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if operation_name is None and len(operations) > 1:
        raise GraphQLError(
            f"The document has {len(operations)} operations: say which to run in operationName.",
            extensions={"code": "BAD_USER_INPUT", "field": "operationName"},
        )


def check_subscription_transport(ctx: ExecutionContext) -> None:
    """Refuse a subscription sent over HTTP: it ran as a query and failed as an unexpected
    error ("Cannot return null for non-nullable field")."""
    over_websocket = getattr(ctx.context, "websocket", True)
    if ctx.operation_type is OperationType.SUBSCRIPTION and not over_websocket:
        raise GraphQLError(
            "Subscriptions are served over a WebSocket at /graphql (graphql-transport-ws); "
            "over HTTP, ask for `chat` instead of `chatStream`.",
            extensions={"code": "BAD_USER_INPUT"},
        )


@strawberry.type
class Query(
    CoreQuery,
    ChatQuery,
    JudgeQuery,
    CompareAnswersQuery,
    MonitoringQuery,
    CorpusQuery,
    FeedbackQuery,
):
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


class MaskAndHideSuggestions(MaskErrors):
    """``MaskErrors`` with ``is_unexpected``; with ``hide_suggestions`` it also drops "Did you
    mean …?" from the errors graphql-core raises while coercing variables (validation hides
    them itself): with introspection off they would reveal enum values and field names."""

    def __init__(self, hide_suggestions: bool) -> None:
        super().__init__(should_mask_error=is_unexpected)
        self.hide_suggestions = hide_suggestions

    def _process_errors(self, errors: list[GraphQLError]) -> list[GraphQLError]:
        processed = super()._process_errors(errors)
        if not self.hide_suggestions:
            return processed
        return [_without_suggestion(e) if "Did you mean" in e.message else e for e in processed]


class VigenciaSchema(strawberry.Schema):
    """Logs each request's errors as one line: a rejected request (validation, limits,
    permissions, expected service failures) without a traceback; an unexpected error with its
    traceback, redacted, since that is a bug to fix."""

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        expected = []
        for error in errors:
            if is_unexpected(error) and error.original_error is not None:
                trace = "".join(traceback.format_exception(error.original_error))
                _log.error("unexpected error: %s", redact(trace))
            else:
                expected.append(error)
        if expected:
            more = f" (+{len(expected) - 1} more)" if len(expected) > 1 else ""
            _log.warning("rejected GraphQL request: %s%s", redact(expected[0].message)[:300], more)


def build_schema(introspection: bool = True, max_cost: int = MAX_QUERY_COST) -> strawberry.Schema:
    """The schema with its limits; ``introspection=False`` hides the schema (and field
    suggestions) from clients; ``max_cost`` bounds the work one document may ask for."""
    limits = Limits(cost=max_cost)
    cache = _ValidationResults(CACHED_DOCUMENTS)
    extensions: list[type[SchemaExtension] | Callable[[], SchemaExtension]] = [
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: ParserCache(maxsize=CACHED_DOCUMENTS),
        lambda: MaskAndHideSuggestions(hide_suggestions=not introspection),
    ]
    if not introspection:
        extensions.append(DisableIntrospection)
    extensions.append(lambda: BoundedValidation(limits, not introspection, cache))
    return VigenciaSchema(
        query=Query,
        mutation=Mutation,
        subscription=ChatSubscription,
        extensions=extensions,
    )


schema = build_schema()

"""GraphQL resolvers of ranking monitoring, over ``api.services.monitoring``.

``MonitoringQuery`` and ``MonitoringMutation`` are merged into the schema's root types. The
resolvers pass ``info.context.log`` (a ``SearchLog``, or None: the services raise
``LogError``), ``recorder``, ``search`` and ``settings`` to the services. Expected failures
are union members (``InputError``, ``ServiceError``) through ``outcome``; the two list fields
(``searchLog``, ``alerts``) report them through ``listed`` as GraphQL errors with
``extensions.code`` BAD_USER_INPUT or SERVICE_UNAVAILABLE, since a list cannot be a union
member. Types: ``api.graphql.monitoring_types``; inputs: ``api.graphql.monitoring_inputs``.
"""

from __future__ import annotations

import strawberry

from api.core.compare import Comparison
from api.graphql.auth import HasApiKey
from api.graphql.context import Info
from api.graphql.errors import listed, outcome
from api.graphql.monitoring_inputs import CompareInput
from api.graphql.monitoring_types import (
    CompareResponse,
    ComparisonType,
    FeedbackResponse,
    FeedbackResult,
    LogEntryType,
    MonitoringAlert,
    MonitoringReport,
    MonitoringResponse,
)
from api.services import log_feedback
from api.services import monitoring as service
from api.services.monitoring import DEFAULT_WINDOW_HOURS
from api.services.search import SearchService

__all__ = ["MonitoringMutation", "MonitoringQuery"]


def _compare(search: SearchService, input: CompareInput) -> Comparison:
    return service.compare_sides(search, *input.to_core())


@strawberry.type
class MonitoringQuery:
    @strawberry.field(
        description="Boost and temporal distributions, shares and alerts. API key needed when one is set.",
        permission_classes=[HasApiKey],
    )
    async def monitoring(
        self, info: Info, window_hours: int = DEFAULT_WINDOW_HOURS
    ) -> MonitoringResponse:
        ctx = info.context
        return await outcome(
            lambda report: MonitoringReport.from_core(report, service.log_health(ctx.recorder)),
            service.served_report,
            ctx.log,
            ctx.search,
            ctx.settings,
            window_hours,
        )

    @strawberry.field(
        description="Logged searches and chats, newest first (limit 1..200). API key needed when one is set.",
        permission_classes=[HasApiKey],
    )
    async def search_log(self, info: Info, limit: int = 20, offset: int = 0) -> list[LogEntryType]:
        entries = await listed(service.recent_entries, info.context.log, limit, offset)
        return [LogEntryType.from_core(e) for e in entries]

    @strawberry.field(
        description="Alerts of the window, most severe first. API key needed when one is set.",
        permission_classes=[HasApiKey],
    )
    async def alerts(
        self, info: Info, window_hours: int = DEFAULT_WINDOW_HOURS
    ) -> list[MonitoringAlert]:
        ctx = info.context
        found = await listed(service.served_alerts, ctx.log, ctx.search, ctx.settings, window_hours)
        return [MonitoringAlert.from_core(a) for a in found]

    @strawberry.field(description="One question ranked two ways (A/B), compared per tesis.")
    async def compare_rankings(self, info: Info, input: CompareInput) -> CompareResponse:
        return await outcome(ComparisonType.from_core, _compare, info.context.search, input)


@strawberry.type
class MonitoringMutation:
    @strawberry.mutation(
        permission_classes=[HasApiKey],
        description="Mark one registro of a logged search useful or not.",
    )
    async def feedback(
        self,
        info: Info,
        log_id: str,
        registro: int,
        useful: bool,
        comment: str | None = None,
    ) -> FeedbackResponse:
        return await outcome(
            FeedbackResult.from_core,
            log_feedback.submit_feedback,
            info.context.log,
            log_id,
            registro,
            useful,
            comment,
        )

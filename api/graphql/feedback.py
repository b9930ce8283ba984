"""GraphQL for the feedback summary: useful / not useful verdicts per day and per materia,
counted by ``api.services.feedback_summary`` over the search log."""

from __future__ import annotations

from typing import Annotated

import strawberry

from api.graphql.auth import HasApiKey
from api.graphql.context import Info
from api.graphql.errors import outcome
from api.graphql.mirror import mirror
from api.graphql.types import Outcome
from api.services.feedback_summary import FeedbackTotals, summarize
from api.services.monitoring import DEFAULT_WINDOW_HOURS


@strawberry.type(description="Verdicts of one day or one materia.")
class FeedbackCount:
    key: str = strawberry.field(description="Day (YYYY-MM-DD, UTC) or materia ('' = none).")
    useful: int
    not_useful: int


@strawberry.type(description="Useful / not useful verdicts of a window, per day and materia.")
class FeedbackSummary:
    window_hours: int
    useful: int
    not_useful: int
    by_day: list[FeedbackCount] = strawberry.field(description="Days with verdicts, ascending.")
    by_materia: list[FeedbackCount] = strawberry.field(description="Most verdicts first.")

    @classmethod
    def from_core(cls, t: FeedbackTotals) -> FeedbackSummary:
        return mirror(
            cls,
            t,
            by_day=[mirror(FeedbackCount, c) for c in t.by_day],
            by_materia=[mirror(FeedbackCount, c) for c in t.by_materia],
        )


FeedbackSummaryResponse = Annotated[
    Outcome[FeedbackSummary], strawberry.union("FeedbackSummaryResponse")
]


@strawberry.type
class FeedbackQuery:
    @strawberry.field(
        permission_classes=[HasApiKey],
        description="Useful / not useful verdicts per day and per materia (the API key when "
        "one is set: users' verdicts are private).",
    )
    async def feedback_summary(
        self, info: Info, window_hours: int = DEFAULT_WINDOW_HOURS
    ) -> FeedbackSummaryResponse:
        return await outcome(FeedbackSummary.from_core, summarize, info.context.log, window_hours)

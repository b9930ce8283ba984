"""GraphQL for the feedback summary: useful / not useful verdicts per day and per materia.

A thin resolver over the search log (``info.context.log``): the verdicts of the window are
read with ``feedback_for``, each one's materia from its logged search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool

from api.core.monitoring import Feedback
from api.errors import InvalidRequest
from api.graphql.auth import HasApiKey
from api.graphql.context import Info
from api.graphql.errors import EXPECTED, failure
from api.graphql.monitoring import DEFAULT_WINDOW_HOURS, _log
from api.graphql.types import InputError, ServiceError
from api.monitoring.log_base import SearchLog
from api.services.monitoring import MAX_WINDOW_HOURS

NO_MATERIA = ""


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


FeedbackSummaryResponse = Annotated[
    FeedbackSummary | InputError | ServiceError, strawberry.union("FeedbackSummaryResponse")
]


def _counts(pairs: Sequence[tuple[str, bool]]) -> list[FeedbackCount]:
    good = Counter(k for k, useful in pairs if useful)
    bad = Counter(k for k, useful in pairs if not useful)
    return [FeedbackCount(key=k, useful=good[k], not_useful=bad[k]) for k in {*good, *bad}]


def summarize(log: SearchLog, window_hours: int, now: datetime | None = None) -> FeedbackSummary:
    """The latest verdict per (search, registro) in the window, counted by day and materia."""
    if not 1 <= window_hours <= MAX_WINDOW_HOURS:
        raise InvalidRequest("windowHours", f"{window_hours} is outside 1..{MAX_WINDOW_HOURS}")
    since = (now or datetime.now(UTC)) - timedelta(hours=window_hours)
    latest: dict[tuple[str, int], Feedback] = {}
    for item in log.feedback_for(None):
        if item.timestamp >= since:
            latest[(item.log_id, item.registro)] = item  # oldest first: the last one wins
    materias: dict[str, str] = {}
    for log_id in {k[0] for k in latest}:
        entry = log.get(log_id)
        materias[log_id] = (entry.materia or NO_MATERIA) if entry else NO_MATERIA
    items = list(latest.values())
    by_day = sorted(
        _counts([(f.timestamp.date().isoformat(), f.useful) for f in items]), key=lambda c: c.key
    )
    by_materia = sorted(
        _counts([(materias[f.log_id], f.useful) for f in items]),
        key=lambda c: (-(c.useful + c.not_useful), c.key),
    )
    useful = sum(f.useful for f in items)
    return FeedbackSummary(
        window_hours=window_hours,
        useful=useful,
        not_useful=len(items) - useful,
        by_day=by_day,
        by_materia=by_materia,
    )


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
        try:
            return await run_in_threadpool(summarize, _log(info), window_hours)
        except EXPECTED as exc:
            return failure(exc)

"""``feedbackSummary``: the latest verdict per search and registro, per day and per materia."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta

import strawberry

from api.core.monitoring import Feedback
from api.graphql.feedback import FeedbackQuery, summarize
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.monitoring.recorder import Recorder
from tests.conftest import context_for
from tests.monitoring.conftest import QUESTIONS, Recorded

schema = strawberry.Schema(query=FeedbackQuery)
SUMMARY = """
query S($hours: Int!) {
  feedbackSummary(windowHours: $hours) {
    __typename
    ... on FeedbackSummary {
      windowHours useful notUseful
      byDay { key useful notUseful } byMateria { key useful notUseful }
    }
    ... on InputError { field message }
    ... on ServiceError { service message }
  }
}
"""


def test_counts_by_day_and_materia(tmp_path, recorded: Recorded) -> None:
    log = EmbeddedSearchLog(tmp_path / "log.sqlite")
    recorder = Recorder(log)
    first, second = recorded.results[0], recorded.results[1]
    a = recorder.record_search(QUESTIONS[0], None, first)
    b = recorder.record_search(QUESTIONS[1], None, second)
    now = datetime.now(UTC)
    r1, r2 = list(dict.fromkeys(h.registro for h in first.hits))[:2]
    log.add_feedback(Feedback(a, r1, False, None, now - timedelta(days=2)))
    log.add_feedback(
        Feedback(a, r1, True, None, now - timedelta(hours=1))
    )  # replaces the verdict above
    log.add_feedback(Feedback(a, r2, False, None, now - timedelta(days=2)))
    log.add_feedback(
        Feedback(b, second.hits[0].registro, True, None, now - timedelta(days=30))
    )  # outside

    summary = summarize(log, 168, now)
    assert (summary.useful, summary.not_useful) == (1, 1)
    days = [(c.key, c.useful, c.not_useful) for c in summary.by_day]
    assert days == sorted(
        [
            ((now - timedelta(days=2)).date().isoformat(), 0, 1),
            ((now - timedelta(hours=1)).date().isoformat(), 1, 0),
        ]
    )
    materia = log.get(a).materia or ""  # type: ignore[union-attr]
    assert [(c.key, c.useful, c.not_useful) for c in summary.by_materia] == [(materia, 1, 1)]

    ctx = dataclasses.replace(context_for(recorded.services), log=log, recorder=recorder)
    result = asyncio.run(
        schema.execute(SUMMARY, variable_values={"hours": 24 * 40}, context_value=ctx)
    )
    assert result.errors is None
    assert result.data["feedbackSummary"]["useful"] == 2  # type: ignore[index]
    bad = asyncio.run(schema.execute(SUMMARY, variable_values={"hours": 0}, context_value=ctx))
    assert bad.data["feedbackSummary"]["field"] == "windowHours"  # type: ignore[index]
    log.close()

"""The monitoring GraphQL fields, executed in-process over the twenty logged searches.

The schema here is the monitoring root types alone (with the app's error masking); the app's
schema merges them into its own ``Query`` and ``Mutation``.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
import strawberry
from graphql import GraphQLError
from strawberry.extensions import MaskErrors

from api.errors import LogError
from api.graphql.context import Context
from api.graphql.monitoring import MonitoringMutation, MonitoringQuery
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.monitoring.recorder import Recorder
from tests.conftest import context_for
from tests.monitoring.conftest import OLD_PROCEDURE, QUESTIONS, Recorded


def is_unexpected(error: GraphQLError) -> bool:
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError)


schema = strawberry.Schema(
    query=MonitoringQuery,
    mutation=MonitoringMutation,
    extensions=[lambda: MaskErrors(should_mask_error=is_unexpected)],
)

MONITORING = """
query M($hours: Int!) {
  monitoring(windowHours: $hours) {
    __typename
    ... on MonitoringReport {
      searches hits
      boostHistogram { profile total bins { low high count } }
      temporal {
        retrieved { byYear { key count } byEpoca { key count } total }
        cited { byYear { key count } byEpoca { key count } total }
        corpus { byYear { key count } byEpoca { key count } total }
      }
      temporalSeries { series total }
      shares { preBefore2000 preReform superseded }
      byMateria { materia searches hits preReformShare }
      alerts { code severity count firstSeen lastSeen examples message }
      logHealth { status recorded failures lastError }
    }
    ... on InputError { field message }
    ... on ServiceError { service message }
  }
}
"""
SEARCH_LOG = """
query L($limit: Int!, $offset: Int!) {
  searchLog(limit: $limit, offset: $offset) {
    id timestamp kind question materia temporal route profile recencyWeight parameters
    hits { registro anio epoca tipo estado similarity recencyFactor epocaFactor finalScore
           boost rank rankWithoutRecency }
    discarded { registro code reason }
    cited
    feedback { registro useful comment }
  }
}
"""
COMPARE = """
query C($input: CompareInput!) {
  compareRankings(input: $input) {
    __typename
    ... on Comparison {
      a { registro rank finalScore anio } b { registro rank finalScore anio }
      rankChanges { registro rankA rankB delta } entered dropped kendallTau
    }
    ... on InputError { field message }
  }
}
"""
FEEDBACK = """
mutation F($logId: String!, $registro: Int!, $useful: Boolean!, $comment: String) {
  feedback(logId: $logId, registro: $registro, useful: $useful, comment: $comment) {
    __typename
    ... on FeedbackResult { logId registro useful comment }
    ... on InputError { field message }
    ... on ServiceError { service message }
  }
}
"""


def context(recorded: Recorded, log: Any = None) -> Context:
    return dataclasses.replace(
        context_for(recorded.services),
        log=recorded.log if log is None else log,
        recorder=recorded.recorder,
    )


def execute(ctx: Context, query: str, **variables: Any) -> Any:
    return asyncio.run(schema.execute(query, variable_values=variables, context_value=ctx))


def data(ctx: Context, query: str, **variables: Any) -> Any:
    result = execute(ctx, query, **variables)
    assert result.errors is None, result.errors
    return result.data


def test_monitoring_sums_match_the_logged_hits(recorded: Recorded) -> None:
    report = data(context(recorded), MONITORING, hours=168)["monitoring"]
    assert report["__typename"] == "MonitoringReport"
    assert (report["searches"], report["hits"]) == (20, recorded.hits)
    histogram_total = sum(b["count"] for h in report["boostHistogram"] for b in h["bins"])
    assert histogram_total == recorded.hits == sum(h["total"] for h in report["boostHistogram"])
    temporal = report["temporal"]
    for by in ("byYear", "byEpoca"):
        assert sum(b["count"] for b in temporal["retrieved"][by]) == recorded.hits
        assert sum(b["count"] for b in temporal["corpus"][by]) == 1060
    assert temporal["cited"]["total"] == len(recorded.cited)
    assert [s["series"] for s in report["temporalSeries"]] == ["retrieved", "cited", "corpus"]
    assert 0 <= report["shares"]["preBefore2000"] <= 1
    assert report["logHealth"] == {"status": "ok", "recorded": 20, "failures": 0, "lastError": None}
    codes = {a["code"]: a for a in report["alerts"]}
    assert OLD_PROCEDURE in codes["ALL_PRE_2000"]["examples"]
    assert codes["ALL_PRE_2000"]["severity"] in ("info", "warning")


@pytest.mark.parametrize("hours", [0, 8761])
def test_monitoring_window_is_bounded(recorded: Recorded, hours: int) -> None:
    report = data(context(recorded), MONITORING, hours=hours)["monitoring"]
    assert report == {
        "__typename": "InputError",
        "field": "windowHours",
        "message": f"{hours} is outside 1..8760",
    }


def test_search_log_pages_newest_first_with_every_field(recorded: Recorded) -> None:
    entries = data(context(recorded), SEARCH_LOG, limit=3, offset=0)["searchLog"]
    assert [e["id"] for e in entries] == list(reversed(recorded.ids))[:3]
    newest = entries[0]
    assert newest["question"] == OLD_PROCEDURE and newest["kind"] == "search"
    assert newest["parameters"]["filters"] == {"anio_max": 1990}
    assert all(h["anio"] < 2000 for h in newest["hits"])
    assert [h["rank"] for h in newest["hits"]] == list(range(1, len(newest["hits"]) + 1))
    assert entries[1]["kind"] == "chat"
    oldest = data(context(recorded), SEARCH_LOG, limit=1, offset=19)["searchLog"]
    assert oldest[0]["question"] == QUESTIONS[0]


@pytest.mark.parametrize(
    ("limit", "offset", "field"), [(0, 0, "limit"), (201, 0, "limit"), (5, -1, "offset")]
)
def test_search_log_bounds_are_readable_errors(
    recorded: Recorded, limit: int, offset: int, field: str
) -> None:
    result = execute(context(recorded), SEARCH_LOG, limit=limit, offset=offset)
    [error] = result.errors
    assert error.message.startswith(f"{field}: ")
    assert error.extensions == {"code": "BAD_USER_INPUT", "field": field}


def test_alerts_field(recorded: Recorded) -> None:
    alerts = data(context(recorded), "{ alerts(windowHours: 168) { code severity count } }")
    codes = [a["code"] for a in alerts["alerts"]]
    assert "ALL_PRE_2000" in codes and "COVERAGE_GAP" in codes
    order = {"critical": 0, "warning": 1, "info": 2}
    severities = [order[a["severity"]] for a in alerts["alerts"]]
    assert severities == sorted(severities)


def test_compare_rankings_defaults_to_without_and_with_recency(recorded: Recorded) -> None:
    question = "requisitos actuales de la constancia de representatividad sindical"
    result = data(context(recorded), COMPARE, input={"query": question, "topK": 8})
    comparison = result["compareRankings"]
    assert comparison["__typename"] == "Comparison"
    a, b = comparison["a"], comparison["b"]
    assert [t["rank"] for t in a] == list(range(1, len(a) + 1))
    registros_a, registros_b = {t["registro"] for t in a}, {t["registro"] for t in b}
    assert set(comparison["dropped"]) == registros_a - registros_b
    assert set(comparison["entered"]) == registros_b - registros_a
    assert -1.0 <= comparison["kendallTau"] <= 1.0
    assert {c["registro"] for c in comparison["rankChanges"]} == registros_a | registros_b
    # A is the similarity order: recency (B) lifts the mean year
    mean = lambda ts: sum(t["anio"] for t in ts) / len(ts)  # noqa: E731
    assert mean(b) >= mean(a)


def test_identical_sides_give_tau_one(recorded: Recorded) -> None:
    side = {"recencyWeight": 0.5, "profile": "DEFAULT"}
    result = data(
        context(recorded),
        COMPARE,
        input={"query": "suspensión del acto reclamado", "a": side, "b": side},
    )["compareRankings"]
    assert result["kendallTau"] == 1.0 and result["entered"] == result["dropped"] == []
    assert all(c["delta"] == 0 for c in result["rankChanges"])


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"topK": 0}, "topK"),
        ({"a": {"recencyWeight": 2.0}}, "a.recencyWeight"),
        ({"query": " "}, "query"),
    ],
)
def test_compare_rankings_input_errors(recorded: Recorded, extra: dict, field: str) -> None:
    variables = {"query": "amparo", **extra}
    result = data(context(recorded), COMPARE, input=variables)["compareRankings"]
    assert (result["__typename"], result["field"]) == ("InputError", field)


def test_feedback_is_stored_with_the_entry(tmp_path, recorded: Recorded) -> None:
    log = EmbeddedSearchLog(tmp_path / "log.sqlite")
    ctx = context(recorded, log)
    result = recorded.results[0]
    log_id = Recorder(log).record_search(QUESTIONS[0], None, result)
    registro = result.hits[0].registro
    stored = data(ctx, FEEDBACK, logId=log_id, registro=registro, useful=True, comment="útil")
    assert stored["feedback"] == {
        "__typename": "FeedbackResult",
        "logId": log_id,
        "registro": registro,
        "useful": True,
        "comment": "útil",
    }
    [entry] = data(ctx, SEARCH_LOG, limit=1, offset=0)["searchLog"]
    assert entry["feedback"] == [{"registro": registro, "useful": True, "comment": "útil"}]

    unknown = data(ctx, FEEDBACK, logId="nope", registro=registro, useful=True)["feedback"]
    assert (unknown["__typename"], unknown["field"]) == ("InputError", "logId")
    foreign = data(ctx, FEEDBACK, logId=log_id, registro=1, useful=False)["feedback"]
    assert (foreign["__typename"], foreign["field"]) == ("InputError", "registro")
    long = data(ctx, FEEDBACK, logId=log_id, registro=registro, useful=False, comment="x" * 2001)
    assert long["feedback"]["field"] == "comment"
    log.close()


class DownLog(EmbeddedSearchLog):
    def recent(self, limit: int = 20, offset: int = 0, since: Any = None) -> Any:
        raise LogError("search log unreachable")

    def get(self, log_id: str) -> Any:
        raise LogError("search log unreachable")


def test_a_failing_log_is_a_service_error(recorded: Recorded) -> None:
    ctx = context(recorded, DownLog(None))
    report = data(ctx, MONITORING, hours=24)["monitoring"]
    assert report == {
        "__typename": "ServiceError",
        "service": "log",
        "message": "search log unreachable",
    }
    [error] = execute(ctx, SEARCH_LOG, limit=5, offset=0).errors
    assert error.extensions == {"code": "SERVICE_UNAVAILABLE", "service": "log"}
    feedback = data(ctx, FEEDBACK, logId="a", registro=1, useful=True)["feedback"]
    assert feedback["__typename"] == "ServiceError"


def test_without_a_configured_log(recorded: Recorded) -> None:
    ctx = dataclasses.replace(context_for(recorded.services), log=None, recorder=None)
    report = data(ctx, MONITORING, hours=24)["monitoring"]
    assert report["__typename"] == "ServiceError" and "not configured" in report["message"]

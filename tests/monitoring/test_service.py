"""The monitoring services: windows, coverage, feedback and its export to ``vigencia eval``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from api.core.models import Filters
from api.core.monitoring import COVERAGE_GAP, MonitoringThresholds
from api.errors import InvalidRequest
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.services import log_feedback
from api.services import monitoring as service
from api.services.evaluation import load_judgements
from api.services.search import SearchRequest
from api.settings import Settings
from tests.monitoring.builders import NOW, log_entry, logged_hit


class CountingStore:
    """Just ``count_by``: tesis per materia from ``anio_min`` on, and a tiny corpus."""

    def __init__(self, since_cutoff: Mapping[str, int]) -> None:
        self.since_cutoff = since_cutoff
        self.calls: list[tuple[str, Filters]] = []

    def count_by(self, group_by: str, filters: Filters) -> dict[str, int]:
        self.calls.append((group_by, filters))
        if group_by == "materias":
            [materia] = filters.materias
            n = self.since_cutoff.get(materia, 0)
            return {materia: n, "Común": 7} if n else {"Común": 7}
        return {"anio": {"1980": 2, "2021": 1}, "epoca": {"Séptima Época": 2}}[group_by]

    def count(self) -> tuple[int, int]:
        return 3, 3


@pytest.fixture
def log() -> EmbeddedSearchLog:
    log = EmbeddedSearchLog(None)
    log.append(
        log_entry(
            [logged_hit(1, 2021), logged_hit(2, 1990, rank=2)],
            log_id="a",
            question="Despido  injustificado",
            cited=[1],
            kind="chat",
        )
    )
    log.append(
        log_entry(
            [logged_hit(1, 2021)],
            log_id="b",
            question="despido injustificado",
            at=NOW + timedelta(minutes=1),
        )
    )
    log.append(log_entry([logged_hit(3, 1975)], log_id="c", question="otra pregunta"))
    return log


def test_coverage_counts_each_materia_from_its_cutoff() -> None:
    store = CountingStore({"Laboral": 4})
    counts = service.coverage_counts(store, {"Laboral": 2019, "fiscal": 2020})  # type: ignore[arg-type]
    assert [(c.materia, c.cutoff, c.count) for c in counts] == [
        ("Laboral", 2019, 4),
        ("Fiscal", 2020, 0),
    ]
    assert store.calls[-1] == ("materias", Filters(materias=("Fiscal",), anio_min=2020))


def test_report_over_a_fake_store(log: EmbeddedSearchLog) -> None:
    store = CountingStore({"Laboral": 4})
    report = service.monitoring_report(
        service.MonitoringScope(
            log,
            store,  # type: ignore[arg-type]
            24,
            MonitoringThresholds(),
            {"Laboral": 2019, "Fiscal": 2020},
            now=NOW + timedelta(hours=1),
        )
    )
    assert (report.searches, report.hits, report.corpus.total) == (3, 4, 3)
    assert [a.code for a in report.alerts if a.code == COVERAGE_GAP] == [COVERAGE_GAP]


@pytest.mark.parametrize("hours", [0, 8761])
def test_window_is_bounded(log: EmbeddedSearchLog, hours: int) -> None:
    with pytest.raises(InvalidRequest) as info:
        service.monitoring_report(
            service.MonitoringScope(log, CountingStore({}), hours, MonitoringThresholds())  # type: ignore[arg-type]
        )
    assert info.value.field == "windowHours"


def test_window_entries_pages_and_reports_truncation() -> None:
    log = EmbeddedSearchLog(None)
    for i in range(7):
        log.append(log_entry([], log_id=f"e{i}", at=NOW - timedelta(minutes=i)))
    entries, truncated = service.window_entries(log, NOW - timedelta(hours=1), cap=5)
    assert [e.id for e in entries] == ["e0", "e1", "e2", "e3", "e4"] and truncated
    entries, truncated = service.window_entries(log, NOW - timedelta(minutes=3), cap=5)
    assert len(entries) == 4 and not truncated


def test_thresholds_come_from_settings_or_defaults() -> None:
    assert service.thresholds_from_settings(Settings()) == MonitoringThresholds()
    custom = SimpleNamespace(alert_pre_reform_share=0.5, alert_inversion_gap=0.01)
    assert service.thresholds_from_settings(custom) == MonitoringThresholds(0.5, 0.01)


@pytest.mark.parametrize(
    ("log_id", "registro", "comment", "field"),
    [
        ("", 1, None, "logId"),
        ("x" * 65, 1, None, "logId"),
        ("zzz", 1, None, "logId"),
        ("a", 0, None, "registro"),
        ("a", 999, None, "registro"),
        ("a", 1, "x" * 2001, "comment"),
        ("a", 1, "bien\x00mal", "comment"),
    ],
)
def test_feedback_is_validated(
    log: EmbeddedSearchLog, log_id: str, registro: int, comment: str | None, field: str
) -> None:
    with pytest.raises(InvalidRequest) as info:
        log_feedback.submit_feedback(log, log_id, registro, True, comment)
    assert info.value.field == field


def test_feedback_is_stored_with_a_trimmed_comment(log: EmbeddedSearchLog) -> None:
    stored = log_feedback.submit_feedback(log, " a ", 2, False, "  vieja  ", now=NOW)
    assert (stored.log_id, stored.registro, stored.useful, stored.comment) == (
        "a",
        2,
        False,
        "vieja",
    )
    entry = log.get("a")
    assert entry is not None and [f.comment for f in entry.feedback] == ["vieja"]


def test_export_feedback_grades_merges_and_loads_in_eval(
    log: EmbeddedSearchLog, tmp_path: Path
) -> None:
    log_feedback.submit_feedback(log, "a", 1, True, now=NOW)  # cited and useful: 3
    log_feedback.submit_feedback(log, "a", 2, True, now=NOW)  # useful: 2 ...
    log_feedback.submit_feedback(log, "b", 1, True, now=NOW + timedelta(minutes=2))  # later: 2
    log_feedback.submit_feedback(log, "c", 3, False, now=NOW)  # not useful only: no line
    lines = log_feedback.export_feedback(log)
    assert lines == [
        {
            "query": "Despido  injustificado",
            "relevant": {"1": 2, "2": 2},
            "current": [],
            "note": "from feedback on 2 logged searches",
        }
    ]
    path = tmp_path / "feedback.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    [judgement] = load_judgements(path)
    assert judgement.relevant == {1: 2, 2: 2} and judgement.current == ()


def test_export_keeps_the_latest_verdict_per_registro(log: EmbeddedSearchLog) -> None:
    log_feedback.submit_feedback(log, "a", 1, True, now=NOW)
    log_feedback.submit_feedback(log, "b", 1, False, now=NOW + timedelta(minutes=5))
    assert log_feedback.export_feedback(log) == []


def test_compare_needs_one_question_and_names_the_side() -> None:
    base = SearchRequest(query="amparo")
    with pytest.raises(InvalidRequest, match="same question"):
        service.compare_rankings(None, base, SearchRequest(query="otra"))  # type: ignore[arg-type]
    bad = service.side_request(base, 1.5, None, True)
    with pytest.raises(InvalidRequest) as info:
        service.compare_rankings(None, base, bad)  # type: ignore[arg-type]
    assert info.value.field == "b.recencyWeight"


@pytest.mark.parametrize(
    ("limit", "offset", "field"),
    [(0, 0, "limit"), (201, 0, "limit"), (5, -1, "offset"), (5, 100_001, "offset")],
)
def test_log_pages_are_bounded(log: EmbeddedSearchLog, limit: int, offset: int, field: str) -> None:
    with pytest.raises(InvalidRequest) as info:
        service.recent_entries(log, limit, offset)
    assert info.value.field == field


def test_compare_sides_default_a_to_the_similarity_order() -> None:
    seen: list[SearchRequest] = []

    class Search:
        def embed_query(self, query: str) -> str:
            return "vector"

        def search(self, request: SearchRequest, vector: str) -> SimpleNamespace:
            seen.append(request)
            return SimpleNamespace(hits=[])

    base = SearchRequest(query="amparo", top_k=5)
    a, b = service.RankingSide(), service.RankingSide(profile="seed", rules=False)
    service.compare_sides(Search(), base, a, b)  # type: ignore[arg-type]
    assert [(r.recency_weight, r.profile, r.apply_rules) for r in seen] == [
        (service.SIDE_A_RECENCY_WEIGHT, None, True),
        (None, "seed", False),
    ]
    assert all(r.top_k == 5 for r in seen)

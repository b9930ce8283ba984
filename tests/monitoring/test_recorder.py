"""The recorder: entries built from search results, failures counted and never raised."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from api.core.intent import MateriaIntent, TemporalIntent
from api.core.models import Discarded, Filters, Validity
from api.core.monitoring import Feedback, LogEntry
from api.core.references import consolidate
from api.errors import LogError
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.monitoring.recorder import (
    Recorder,
    build_entry,
    cited_registros,
    request_parameters,
)
from api.services.chat import ChatRequest
from api.services.search import SearchIntent, SearchRequest, SearchResult
from tests.fakes import make_hit
from tests.monitoring.builders import NOW


def result() -> SearchResult:
    lost = Validity(estado="superada", por_registro=2023871)
    hits = [
        make_hit(
            2023871, 0, anio=2021, similarity=0.9, final_score=0.85, rank=1, materias=("Laboral",)
        ),
        make_hit(
            166837,
            1,
            anio=2009,
            similarity=0.88,
            final_score=0.40,
            rank=2,
            materias=("Laboral",),
            status=lost,
        ),
    ]
    return SearchResult(
        hits=hits,
        discarded=[Discarded(make_hit(219831, anio=1992), "PRE_REFORM", "1992 < reforma 2019")],
        candidates=40,
        recency_weight=0.3,
        profile="seed",
        mode="hybrid",
        timings_ms={"embed": 5.0, "retrieve": 3.0, "score": 1.5},
        intent=SearchIntent(
            materia=MateriaIntent("Laboral", ("representatividad",), "question"),
            temporal=TemporalIntent("current", ("actuales",)),
            route="relevance",
            cutoff_year=2019,
            rules_applied=True,
        ),
    )


REQUEST = SearchRequest(
    query="  requisitos actuales de la representatividad ",
    filters=Filters(materias=("Laboral",), anio_min=1990),
    top_k=5,
    recency_weight=0.3,
    profile="seed",
)


class Clock:
    def __init__(self, start: datetime = NOW) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


class BrokenLog(EmbeddedSearchLog):
    """A log whose writes fail (storage unreachable)."""

    def __init__(self) -> None:
        super().__init__(None)
        self.prunes: list[datetime] = []

    def append(self, entry: LogEntry) -> str:
        raise LogError("disk unreachable")

    def prune(self, older_than: datetime) -> int:
        self.prunes.append(older_than)
        return 0


class CountingLog(EmbeddedSearchLog):
    def __init__(self) -> None:
        super().__init__(None)
        self.prunes: list[datetime] = []

    def prune(self, older_than: datetime) -> int:
        self.prunes.append(older_than)
        return super().prune(older_than)


def test_the_entry_holds_intent_parameters_factors_ranks_and_discards() -> None:
    entry = build_entry("id1", NOW, REQUEST.query, REQUEST, result(), "chat", [166837])
    assert (entry.id, entry.timestamp, entry.kind) == ("id1", NOW, "chat")
    assert entry.question == "requisitos actuales de la representatividad"
    assert (entry.materia, entry.materia_source, entry.temporal) == (
        "Laboral",
        "question",
        "current",
    )
    assert (entry.route, entry.cutoff_year, entry.rules_applied) == ("relevance", 2019, True)
    assert (entry.profile, entry.recency_weight, entry.mode) == ("seed", 0.3, "hybrid")
    assert entry.parameters == {
        "filters": {"materias": ["Laboral"], "anio_min": 1990},
        "top_k": 5,
        "recency_weight": 0.3,
        "profile": "seed",
        "temporal_mode": "auto",
        "apply_rules": True,
        "gate": True,
    }
    assert (entry.candidates, entry.latency_ms, entry.cited) == (40, 9.5, (166837,))
    first, second = entry.hits
    assert (first.registro, first.rank, first.final_score) == (2023871, 1, 0.85)
    assert second.boost == pytest.approx(0.40 / 0.88) and second.estado == "superada"
    assert [(d.registro, d.code) for d in entry.discarded] == [(219831, "PRE_REFORM")]


def test_request_parameters_of_a_chat_request_and_of_anything_else() -> None:
    chat = ChatRequest(question="¿Procede?", max_references=3)
    assert request_parameters(chat) == {"max_references": 3}
    assert request_parameters(None) == {}
    assert request_parameters(ChatRequest) == {}


def test_cited_registros_maps_reference_numbers() -> None:
    refs = consolidate([make_hit(10, rank=1), make_hit(20, rank=2), make_hit(30, rank=3)])
    assert cited_registros(refs, [3, 1, 3, 9]) == (30, 10)


def test_record_search_writes_and_returns_the_id() -> None:
    log = EmbeddedSearchLog(None)
    recorder = Recorder(log, clock=Clock())
    log_id = recorder.record_search(REQUEST.query, REQUEST, result())
    assert log_id is not None and len(log_id) == 32
    stored = log.get(log_id)
    assert stored is not None and stored.timestamp == NOW and len(stored.hits) == 2
    assert recorder.stats()["recorded"] == 1
    assert recorder.health()["status"] == "ok"


def test_a_failing_log_never_raises_and_is_counted() -> None:
    recorder = Recorder(BrokenLog(), clock=Clock())
    for _ in range(3):
        assert recorder.record_search(REQUEST.query, REQUEST, result()) is None
    assert (recorder.failures, recorder.recorded) == (3, 0)
    assert recorder.last_error == "record: LogError: disk unreachable"
    health = recorder.health()
    assert health["status"] == "degraded" and health["failures"] == 3
    assert health["last_failure_at"] == NOW.isoformat()


def test_an_unwritable_log_path_is_counted_too(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    recorder = Recorder(EmbeddedSearchLog(blocker / "log.sqlite"))
    assert recorder.record_search(REQUEST.query, REQUEST, result()) is None
    assert recorder.failures == 1 and "cannot open the search log" in str(recorder.last_error)
    assert recorder.health()["backend"]["status"] == "degraded"


def test_a_log_that_turns_read_only_is_counted_and_recovers(tmp_path: Path) -> None:
    log = EmbeddedSearchLog(tmp_path / "log.sqlite")
    clock = Clock()
    recorder = Recorder(log, clock=clock)
    assert recorder.record_search("a", REQUEST, result()) is not None
    log._open().execute("PRAGMA query_only = ON")
    clock.now += timedelta(seconds=1)
    assert recorder.record_search("b", REQUEST, result()) is None
    assert recorder.failures == 1 and recorder.health()["status"] == "degraded"
    log._open().execute("PRAGMA query_only = OFF")
    clock.now += timedelta(seconds=1)
    assert recorder.record_search("c", REQUEST, result()) is not None
    assert recorder.health()["status"] == "ok"  # the latest write succeeded
    assert [e.question for e in log.recent(5)] == ["c", "a"]
    log.close()


def test_even_a_broken_result_is_only_counted() -> None:
    recorder = Recorder(EmbeddedSearchLog(None))
    assert recorder.record_search("q", REQUEST, object()) is None  # type: ignore[arg-type]
    assert recorder.failures == 1 and "AttributeError" in str(recorder.last_error)


def test_retention_prunes_at_most_once_per_interval() -> None:
    log = CountingLog()
    clock = Clock()
    recorder = Recorder(log, retention_days=30, clock=clock)
    recorder.record_search("first", REQUEST, result())
    clock.now += timedelta(minutes=30)
    recorder.record_search("second", REQUEST, result())
    assert log.prunes == [NOW - timedelta(days=30)]
    clock.now += timedelta(minutes=31)
    recorder.record_search("third", REQUEST, result())
    assert len(log.prunes) == 2


def test_retention_removes_entries_older_than_the_setting() -> None:
    log = EmbeddedSearchLog(None)
    clock = Clock(NOW - timedelta(days=40))
    recorder = Recorder(log, retention_days=30, clock=clock)
    recorder.record_search("old", REQUEST, result())
    clock.now = NOW
    recorder.record_search("new", REQUEST, result())
    assert [e.question for e in log.recent(5)] == ["new"]
    assert recorder.stats()["pruned"] == 1


def test_retention_zero_keeps_everything_and_negative_is_refused() -> None:
    log = CountingLog()
    recorder = Recorder(log, retention_days=0)
    recorder.record_search("q", REQUEST, result())
    assert recorder.prune() is None and log.prunes == []
    with pytest.raises(ValueError, match="retention_days"):
        Recorder(log, retention_days=-1)


def test_a_failing_prune_is_counted_not_raised() -> None:
    class NoPrune(EmbeddedSearchLog):
        def prune(self, older_than: datetime) -> int:
            raise LogError("locked")

        def feedback_for(self, log_ids: Sequence[str] | None = None) -> list[Feedback]:
            return []

    recorder = Recorder(NoPrune(None), retention_days=1, clock=Clock())
    assert recorder.record_search("q", REQUEST, result()) is not None
    assert recorder.failures == 1 and recorder.last_error == "prune: LogError: locked"


def test_log_health_has_the_recorder_status_rule_and_no_paths(tmp_path: Path) -> None:
    from api.services.monitoring import log_health

    log = EmbeddedSearchLog(tmp_path / "log.sqlite")
    clock = Clock()
    recorder = Recorder(log, clock=clock)
    assert log_health(None) is None
    assert recorder.record_search("a", REQUEST, result()) is not None
    log._open().execute("PRAGMA query_only = ON")
    clock.now += timedelta(seconds=1)
    assert recorder.record_search("b", REQUEST, result()) is None
    failed = log_health(recorder)
    assert failed is not None and (failed.status, failed.failures) == ("degraded", 1)
    assert failed.status == recorder.health()["status"]
    recorder.last_error = f"record: LogError: cannot open {tmp_path / 'log.sqlite'}"
    assert str(tmp_path) not in str(log_health(recorder))
    log._open().execute("PRAGMA query_only = OFF")
    clock.now += timedelta(seconds=1)
    assert recorder.record_search("c", REQUEST, result()) is not None
    recovered = log_health(recorder)
    assert recovered is not None and (recovered.status, recovered.recorded) == ("ok", 2)
    log.close()

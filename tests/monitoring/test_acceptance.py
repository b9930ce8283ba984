"""Issue 5's acceptance over the bundled corpus: twenty logged searches, then ``monitoring``."""

from __future__ import annotations

from api.core.monitoring import ALL_PRE_2000, COVERAGE_GAP, MonitoringThresholds
from api.services.monitoring import MonitoringScope, alerts, monitoring_report
from tests.monitoring.conftest import CHAT_QUESTION, OLD_PROCEDURE, Recorded


def test_twenty_searches_are_logged_with_every_hit(recorded: Recorded) -> None:
    assert len(recorded.ids) == 20 and all(recorded.ids)
    assert (recorded.recorder.recorded, recorded.recorder.failures) == (20, 0)
    entries = recorded.log.recent(50)
    assert len(entries) == 20
    assert sum(len(e.hits) for e in entries) == recorded.hits > 0

    chat = next(e for e in entries if e.kind == "chat")
    assert chat.question == CHAT_QUESTION and chat.cited == recorded.cited
    assert chat.parameters["max_references"] == 3

    old = entries[0]  # the newest
    assert old.question == OLD_PROCEDURE
    assert old.parameters["filters"] == {"anio_max": 1990}
    result = recorded.results[-1]
    for logged, hit in zip(old.hits, result.hits, strict=True):
        assert logged.registro == hit.registro
        assert logged.final_score == hit.score.final_score
        assert logged.boost == hit.score.final_score / hit.score.relevance
        assert (logged.rank, logged.rank_without_recency) == (hit.rank, hit.rank_without_recency)
        assert logged.estado == hit.status.estado


def test_monitoring_histogram_and_temporal_totals_match_the_logged_hits(
    recorded: Recorded,
) -> None:
    store = recorded.services.store
    report = monitoring_report(MonitoringScope(recorded.log, store, 168, MonitoringThresholds()))

    assert (report.searches, report.hits) == (20, recorded.hits)
    assert sum(h.total for h in report.histograms) == recorded.hits
    assert {h.profile for h in report.histograms} == {"default"}
    assert report.retrieved.total == recorded.hits
    assert sum(n for _, n in report.retrieved.by_epoca) == recorded.hits
    assert report.cited.total == len(recorded.cited)
    assert report.corpus.total == store.count()[0] == 1060
    assert sum(m.searches for m in report.by_materia) == 20
    assert 0.0 <= report.shares.pre_2000 <= 1.0
    assert not report.truncated


def test_the_1970s_procedure_query_raises_the_pre_2000_alert(recorded: Recorded) -> None:
    found = alerts(
        MonitoringScope(recorded.log, recorded.services.store, 168, MonitoringThresholds())
    )
    by_code = {a.code: a for a in found}
    pre_2000 = by_code[ALL_PRE_2000]
    assert OLD_PROCEDURE in pre_2000.examples  # the newest search, so the first example
    assert pre_2000.examples[0] == OLD_PROCEDURE
    assert pre_2000.count >= 1 and pre_2000.first_seen <= pre_2000.last_seen
    # the bundled corpus has no Fiscal tesis after the 2020 reform: "actualizar la base"
    gaps = [a.message for a in found if a.code == COVERAGE_GAP]
    assert any("Fiscal" in m and "actualizar la base" in m for m in gaps)

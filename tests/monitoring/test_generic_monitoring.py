"""Monitoring over a generic corpus's records (no época): they are not law, so no pre-reform
share, old-law alert or época count speaks of them (a tester's news store had a CRITICAL
COVERAGE_GAP and MANY_PRE_REFORM)."""

from __future__ import annotations

import dataclasses

from api.core.monitoring import (
    MonitoringThresholds,
    by_materia,
    detect_alerts,
    retrieved_distribution,
    shares,
)
from api.core.monitoring.records import LoggedHit
from tests.monitoring.builders import NOW, log_entry, logged_hit


def news(registro: int, anio: int, rank: int = 1) -> LoggedHit:
    return dataclasses.replace(logged_hit(registro, anio, rank=rank), epoca="", materias=())


# As logged before the fix: a news question read as Electoral, with its 2021 cutoff.
ENTRIES = [
    log_entry(
        [news(1, 1990), news(3, 1985, rank=2)],
        log_id=f"e{i}",
        question="reforma electoral aprobada por el Congreso",
        materia="Electoral",
        cutoff_year=2021,
    )
    for i in range(3)
]


def test_news_hits_raise_no_legal_alert() -> None:
    assert detect_alerts(ENTRIES, MonitoringThresholds(), (), now=NOW) == []


def test_news_hits_count_in_no_pre_reform_share_nor_epoca() -> None:
    share = shares(ENTRIES)
    assert (share.pre_reform, share.reform_hits, share.hits) == (0.0, 0, 6)
    assert share.pre_2000 == 0.0  # 1990 and 1985 news are no old law either
    assert [s.pre_reform_share for s in by_materia(ENTRIES)] == [0.0]
    counted = retrieved_distribution(ENTRIES)
    assert counted.by_epoca == () and counted.total == 6


def test_tesis_beside_news_still_count() -> None:
    mixed = [
        log_entry(
            [news(1, 1990), logged_hit(2, 2010, rank=2, materias=("Electoral",))],
            materia="Electoral",
            cutoff_year=2021,
        )
    ]
    share = shares(mixed)
    assert (share.pre_reform, share.reform_hits) == (1.0, 1)
    codes = {a.code for a in detect_alerts(mixed, MonitoringThresholds(), (), now=NOW)}
    assert codes == {"MANY_PRE_REFORM"}
    assert dict(retrieved_distribution(mixed).by_epoca) == {"Novena Época": 1}

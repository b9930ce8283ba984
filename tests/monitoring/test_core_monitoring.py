"""The pure monitoring core: records, histograms, distributions, shares and alerts."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta

import pytest

from api.core.models import Discarded, Validity
from api.core.monitoring import (
    ALL_PRE_2000,
    COVERAGE_GAP,
    INVERSION,
    MANY_PRE_REFORM,
    SUPERSEDED_CITED,
    SUPERSEDED_RETRIEVED,
    Bin,
    CoverageCount,
    Feedback,
    LoggedDiscard,
    LoggedHit,
    MonitoringThresholds,
    boost_histograms,
    build_report,
    by_materia,
    cited_distribution,
    detect_alerts,
    distribution,
    entry_from_dict,
    entry_to_dict,
    inversions,
    retrieved_distribution,
    shares,
)
from tests.fakes import make_hit
from tests.monitoring.builders import NOW, log_entry, logged_hit

THRESHOLDS = MonitoringThresholds()


def codes(entries, coverage=()) -> dict[str, str]:
    return {a.code: a.severity for a in detect_alerts(entries, THRESHOLDS, coverage, now=NOW)}


# --- records


def test_logged_hit_copies_every_factor_and_the_status() -> None:
    status = Validity(estado="superada", por_registro=2006225)
    hit = make_hit(160584, 1, anio=2011, similarity=0.9, final_score=0.45, rank=3, status=status)
    logged = LoggedHit.of(hit)
    assert (logged.registro, logged.anio, logged.epoca) == (160584, 2011, hit.passage.epoca)
    assert (logged.similarity, logged.final_score, logged.boost) == (0.9, 0.45, 0.5)
    assert (logged.rank, logged.rank_without_recency) == (3, 3)
    assert logged.estado == "superada" and logged.superseded


def test_a_partial_abandonment_is_not_superseded() -> None:
    assert not logged_hit(1, 2000, estado="abandonada", parcial=True).superseded
    assert logged_hit(1, 2000, estado="abandonada").superseded


def test_logged_discard_keeps_code_and_reason() -> None:
    discarded = Discarded(make_hit(219831, anio=1992), "PRE_REFORM", "1992 < reforma laboral 2019")
    assert LoggedDiscard.of(discarded) == LoggedDiscard(
        219831, 1992, "PRE_REFORM", "1992 < reforma laboral 2019"
    )


def test_entries_roundtrip_through_json() -> None:
    entry = log_entry(
        [logged_hit(1, 1990), logged_hit(2, 2021, rank=2)],
        cited=[2],
        discarded=[LoggedDiscard(3, 1980, "PRE_NOVENA", "Séptima Época (1980)")],
        parameters={"top_k": 5, "filters": {"materias": ["Laboral"]}},
    )
    feedback = Feedback("e1", 2, True, "bien", NOW)
    data = json.loads(json.dumps(entry_to_dict(entry)))
    assert "feedback" not in data
    restored = entry_from_dict({**data, "future_field": 1}, [feedback])
    assert restored == dataclasses.replace(entry, feedback=(feedback,))


# --- distributions


def test_boost_histogram_bins_are_aligned_contiguous_and_sum_to_the_hits() -> None:
    entries = [
        log_entry([logged_hit(1, 2000, boost=0.30), logged_hit(2, 2001, boost=0.42)]),
        log_entry([logged_hit(3, 2002, boost=1.0)], log_id="e2"),
        log_entry([logged_hit(4, 2003, boost=1.31)], log_id="e3", profile="seed"),
    ]
    default, seed = boost_histograms(entries)
    assert default.profile == "default" and seed.profile == "seed"
    assert default.bins[0] == Bin(0.3, 0.35, 1)  # 0.30 / 0.05 is 5.999...: rounding keeps it
    assert default.bins[-1] == Bin(1.0, 1.05, 1)
    assert all(a.high == b.low for a, b in zip(default.bins, default.bins[1:], strict=False))
    assert [b.count for b in default.bins if b.count] == [1, 1, 1]
    assert seed.bins == (Bin(1.3, 1.35, 1),)
    assert default.total + seed.total == 4


def test_boost_histogram_of_nothing_is_empty() -> None:
    assert boost_histograms([log_entry([])]) == []
    with pytest.raises(ValueError, match="width"):
        boost_histograms([], width=0)


def test_retrieved_counts_each_hit_by_year_and_epoca_in_order() -> None:
    entries = [
        log_entry([logged_hit(1, 2021), logged_hit(1, 2021, rank=2), logged_hit(2, 1975)]),
        log_entry([logged_hit(3, 1996)], log_id="e2"),
    ]
    d = retrieved_distribution(entries)
    assert d.by_year == (("1975", 1), ("1996", 1), ("2021", 2))
    assert d.by_epoca == (("Séptima Época", 1), ("Novena Época", 1), ("Undécima Época", 2))
    assert d.total == 4


def test_cited_are_dated_from_the_entry_hits() -> None:
    entry = log_entry([logged_hit(1, 2021), logged_hit(2, 1975)], cited=[2, 99], kind="chat")
    d = cited_distribution([entry])
    assert dict(d.by_year) == {"1975": 1, "desconocido": 1}
    assert d.by_year[-1] == ("desconocido", 1)  # unknown keys sort last


def test_corpus_distribution_canonicalizes_epocas() -> None:
    d = distribution({"2020": 3, "1975": 2}, {"Décima Época": 3, "septima": 2})
    assert d.by_year == (("1975", 2), ("2020", 3))
    assert d.by_epoca == (("Séptima Época", 2), ("Décima Época", 3))


def test_shares_use_all_hits_except_pre_reform() -> None:
    entries = [
        log_entry([logged_hit(1, 1990), logged_hit(2, 2021, rank=2)], cutoff_year=2019),
        log_entry(
            [logged_hit(3, 1980, estado="superada"), logged_hit(4, 2010)],
            log_id="e2",
            materia=None,
            cutoff_year=None,
        ),
    ]
    s = shares(entries)
    assert (s.hits, s.reform_hits) == (4, 2)
    assert s.pre_2000 == 0.5
    assert s.pre_reform == 0.5  # 1990 < 2019, over the 2 hits of the Laboral search
    assert s.superseded == 0.25
    assert shares([]).pre_2000 == 0.0


def test_by_materia_breakdown() -> None:
    entries = [
        log_entry([logged_hit(1, 1990)], log_id="a"),
        log_entry([logged_hit(2, 2021)], log_id="b"),
        log_entry([logged_hit(3, 1980)], log_id="c", materia="Civil", cutoff_year=None),
    ]
    laboral, civil = by_materia(entries)
    assert (laboral.materia, laboral.searches, laboral.hits, laboral.pre_reform_share) == (
        "Laboral",
        2,
        2,
        0.5,
    )
    assert (civil.materia, civil.pre_reform_share) == ("Civil", None)


# --- alerts


def test_inversion_is_detected_in_the_constructed_case_and_not_in_its_mirror() -> None:
    older = logged_hit(100, 1995, rank=1, similarity=0.812, boost=0.6)
    newer = logged_hit(200, 2020, rank=2, similarity=0.800, boost=0.9)
    inverted = log_entry([older, newer])
    assert inversions(inverted, 0.02) == [(older, newer)]
    assert INVERSION in codes([inverted])

    mirror = log_entry(
        [
            logged_hit(200, 2020, rank=1, similarity=0.800, boost=0.9),
            logged_hit(100, 1995, rank=2, similarity=0.812, boost=0.6),
        ]
    )
    assert inversions(mirror, 0.02) == []
    assert INVERSION not in codes([mirror])


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"similarity": 0.70}, "similarity gap above 0.02"),
        ({"materias": ("Penal",)}, "no shared materia"),
        ({"boost": 0.6}, "recency did not favour the newer one (both at the floor)"),
        ({"boost": 0.62}, "favoured by less than 5 %: the flat tail of the decay"),
        ({"boost": 0.3}, "the newer one was demoted (superseded)"),
    ],
)
def test_no_inversion_when_the_pair_is_not_comparable(change, why) -> None:
    older = logged_hit(100, 1995, rank=1, similarity=0.812, boost=0.6)
    newer = logged_hit(200, 2020, rank=2, **{"similarity": 0.800, "boost": 0.9, **change})
    assert inversions(log_entry([older, newer]), 0.02) == [], why


@pytest.mark.parametrize("kwargs", [{"recency_weight": 0.0}, {"temporal": "earliest"}])
def test_no_inversion_when_oldest_first_was_asked_for(kwargs) -> None:
    hits = [logged_hit(100, 1995, rank=1, boost=0.6), logged_hit(200, 2020, rank=2, boost=0.9)]
    assert inversions(log_entry(hits, **kwargs), 0.02) == []


def test_inversion_compares_tesis_not_chunks() -> None:
    hits = [
        logged_hit(100, 1995, rank=1, boost=0.6),
        logged_hit(100, 1995, rank=2, similarity=0.5, boost=0.6),
        logged_hit(200, 2020, rank=3, similarity=0.79, boost=0.9),
    ]
    assert [(o.registro, n.registro) for o, n in inversions(log_entry(hits), 0.02)] == [(100, 200)]


def test_all_pre_2000_fires_per_search_and_is_info_when_asked_for_old_law() -> None:
    old = [logged_hit(1, 1975), logged_hit(2, 1988, rank=2)]
    asked = log_entry(
        old,
        question="procedimiento en los años setenta",
        parameters={"filters": {"anio_max": 1990}},
    )
    [alert] = [a for a in detect_alerts([asked], THRESHOLDS, now=NOW) if a.code == ALL_PRE_2000]
    assert (alert.severity, alert.count, alert.examples) == (
        "info",
        1,
        ("procedimiento en los años setenta",),
    )
    unasked = log_entry(old, log_id="e2", question="otra")
    assert codes([asked, unasked])[ALL_PRE_2000] == "warning"
    assert ALL_PRE_2000 not in codes([log_entry([*old, logged_hit(3, 2001, rank=3)])])
    assert ALL_PRE_2000 not in codes([log_entry([])])


def test_many_pre_reform_above_the_threshold_only() -> None:
    below = log_entry(
        [
            logged_hit(1, 2018),
            logged_hit(2, 2020, rank=2),
            logged_hit(3, 2021, rank=3),
            logged_hit(4, 2022, rank=4),
        ]
    )
    assert MANY_PRE_REFORM not in codes([below])  # 1/4 = 25 % <= 30 %
    above = log_entry([logged_hit(1, 2018), logged_hit(2, 2010, rank=2)], log_id="e2")
    alerts = detect_alerts([below, above], THRESHOLDS, now=NOW)
    [alert] = [a for a in alerts if a.code == MANY_PRE_REFORM]
    assert alert.count == 3 and "3 de 6" in alert.message  # 50 % > 30 %


def test_superseded_retrieved_and_cited() -> None:
    lost = logged_hit(160584, 2011, estado="superada")
    shown = log_entry([lost, logged_hit(2, 2014, rank=2)])
    cited = log_entry([lost], log_id="e2", kind="chat", cited=[160584])
    found = codes([shown, cited])
    assert found[SUPERSEDED_RETRIEVED] == "warning" and found[SUPERSEDED_CITED] == "critical"
    assert SUPERSEDED_CITED not in codes([shown])


def test_coverage_gap_names_the_materia_and_asks_to_update_the_corpus() -> None:
    coverage = [CoverageCount("Fiscal", 2020, 0), CoverageCount("Laboral", 2019, 4)]
    fiscal = log_entry([logged_hit(1, 2015)], materia="Fiscal", cutoff_year=2020)
    [gap] = [
        a for a in detect_alerts([fiscal], THRESHOLDS, coverage, now=NOW) if a.code == COVERAGE_GAP
    ]
    assert gap.severity == "critical" and gap.count == 1
    assert "Fiscal" in gap.message and "actualizar la base" in gap.message
    [quiet] = [a for a in detect_alerts([], THRESHOLDS, coverage, now=NOW)]
    assert (quiet.severity, quiet.count, quiet.first_seen) == ("warning", 0, NOW)


def test_alerts_carry_first_and_last_seen_and_three_distinct_examples() -> None:
    old = [logged_hit(1, 1975)]
    entries = [
        log_entry(
            old,
            log_id=str(i),
            question=f"q{i % 4}",
            at=NOW - timedelta(hours=i),
            materia=None,
            cutoff_year=None,
        )
        for i in range(6)
    ]
    [alert] = detect_alerts(entries, THRESHOLDS, now=NOW)
    assert alert.count == 6
    assert (alert.first_seen, alert.last_seen) == (NOW - timedelta(hours=5), NOW)
    assert alert.examples == ("q0", "q1", "q2")


def test_alerts_are_sorted_most_severe_first() -> None:
    lost = logged_hit(1, 1975, estado="superada")
    entries = [log_entry([lost], kind="chat", cited=[1])]
    assert [a.severity for a in detect_alerts(entries, THRESHOLDS, now=NOW)] == [
        "critical",
        "warning",
        "warning",
        "warning",
    ]


@pytest.mark.parametrize("field", ["pre_reform_share", "inversion_gap"])
def test_thresholds_name_the_bad_parameter(field) -> None:
    with pytest.raises(ValueError, match=field):
        MonitoringThresholds(**{field: 1.5})


def test_report_keeps_only_the_window() -> None:
    inside = log_entry([logged_hit(1, 2021)], at=NOW - timedelta(hours=1))
    outside = log_entry([logged_hit(2, 2021)], log_id="old", at=NOW - timedelta(hours=30))
    report = build_report(
        [inside, outside],
        corpus=distribution({"2021": 5}, {"Undécima Época": 5}),
        coverage=[],
        thresholds=THRESHOLDS,
        now=NOW,
        window_hours=24,
    )
    assert (report.searches, report.hits, report.since) == (1, 1, NOW - timedelta(hours=24))
    assert report.retrieved.total == sum(h.total for h in report.histograms) == 1
    assert report.corpus.total == 5

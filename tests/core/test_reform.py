"""Reform cutoffs, the pre-Novena rule and the never-empty guard."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.core.epocas import EPOCA_NAMES, epocas_for_year
from api.core.models import Chunk, Discarded, Hit, Passage
from api.core.reform import (
    AMPARO_CUTOFF,
    DEFAULT_CUTOFFS,
    PRE_NOVENA,
    PRE_REFORM,
    ReformConfig,
    SamePoint,
    apply_reform_rules,
    apply_same_point_rules,
    discard_reason,
    rules_apply,
)
from api.core.scoring import breakdown, rank


def hit(registro: int, anio: int, similarity: float = 0.8, epoca: str = "", index: int = 0) -> Hit:
    """A hit scored with the seed profile; the época defaults to the one of its year."""
    epoca = epoca or (epocas_for_year(anio) or ("",))[-1]
    chunk = Chunk(registro, index, "", 0, 0, 1, 1, 0)
    passage = Passage(
        chunk=chunk,
        rubro=f"Tesis {registro}",
        epoca=epoca,
        anio=anio,
        tipo="Aislada",
        materias=("Laboral",),
    )
    return Hit(passage, breakdown(similarity, anio, epoca, 0.3, profile="seed"))


CONFIG = ReformConfig()


def codes(discarded: list[Discarded]) -> list[tuple[int, str, str]]:
    return [(d.hit.registro, d.code, d.reason) for d in discarded]


def test_default_cutoffs() -> None:
    assert dict(DEFAULT_CUTOFFS) == {
        "Laboral": 2019,
        "Fiscal": 2020,
        "Electoral": 2021,
        "Penal": 2016,
        "Constitucional": 2011,
        "Agraria": 1992,
    }
    assert CONFIG.cutoff("laboral") == 2019
    assert CONFIG.cutoff("COMUN") is None  # opt-in only: see AMPARO_CUTOFF
    with_amparo = ReformConfig(cutoffs={**DEFAULT_CUTOFFS, **AMPARO_CUTOFF})
    assert with_amparo.cutoff("COMUN") == 2013
    assert with_amparo.cutoff("amparo") == 2013
    assert CONFIG.cutoff("Civil") is None
    assert CONFIG.cutoff(None) is None


def test_discards_pre_reform_and_pre_novena_with_reasons() -> None:
    hits = rank([hit(1, 2024), hit(2, 2015), hit(3, 1992), hit(4, 1980)])
    outcome = apply_reform_rules(hits, "Penal", CONFIG)
    assert outcome.applied
    assert outcome.cutoff_year == 2016
    assert [h.registro for h in outcome.kept] == [1]
    assert sorted(codes(outcome.discarded)) == [
        (2, PRE_REFORM, "2015 < reforma penal 2016"),
        (3, PRE_REFORM, "1992 < reforma penal 2016"),
        (4, PRE_REFORM, "1980 < reforma penal 2016"),
    ]


def test_pre_novena_when_no_cutoff_applies() -> None:
    hits = rank([hit(1, 2024), hit(2, 2000), hit(3, 1992), hit(4, 1975)])
    outcome = apply_reform_rules(hits, "Civil", CONFIG)
    assert outcome.cutoff_year is None
    assert [h.registro for h in outcome.kept] == [1, 2]
    assert sorted(codes(outcome.discarded)) == [
        (3, PRE_NOVENA, "Octava Época (1992), anterior a la Novena Época (1995)"),
        (4, PRE_NOVENA, "Séptima Época (1975), anterior a la Novena Época (1995)"),
    ]


def test_the_comun_reason_names_the_ley_de_amparo() -> None:
    config = ReformConfig(cutoffs={**DEFAULT_CUTOFFS, **AMPARO_CUTOFF})
    outcome = apply_reform_rules(rank([hit(1, 2024), hit(2, 2001)]), "Común", config)
    assert codes(outcome.discarded) == [(2, PRE_REFORM, "2001 < nueva Ley de Amparo 2013")]


def test_unknown_epoca_is_not_pre_novena() -> None:
    hits = rank([hit(1, 2024, epoca="2024"), hit(2, 1990, epoca="n/a")])
    outcome = apply_reform_rules(hits, None, CONFIG)
    assert outcome.applied
    assert [h.registro for h in outcome.kept] == [1, 2]


def test_pre_novena_rule_can_be_turned_off() -> None:
    config = ReformConfig(discard_pre_novena=False)
    outcome = apply_reform_rules(rank([hit(1, 2024), hit(2, 1980)]), None, config)
    assert [h.registro for h in outcome.kept] == [1, 2]


def test_gap_not_exceeded_discards_nothing() -> None:
    hits = rank([hit(1, 2024), hit(2, 2004)])  # gap 20, not > 20
    outcome = apply_reform_rules(hits, "Laboral", CONFIG)
    assert not outcome.applied
    assert outcome.discarded == []
    assert [h.registro for h in outcome.kept] == [1, 2]
    assert outcome.cutoff_year == 2019


def test_no_recent_hit_discards_nothing() -> None:
    hits = rank([hit(1, 2019), hit(2, 1975)])  # gap 44 but nothing >= 2020
    outcome = apply_reform_rules(hits, "Laboral", CONFIG)
    assert not outcome.applied
    assert outcome.discarded == []
    assert len(outcome.kept) == 2


def test_thresholds_are_configurable() -> None:
    hits = rank([hit(1, 2018), hit(2, 2005)])
    config = ReformConfig(recent_year=2018, min_gap_years=10)
    outcome = apply_reform_rules(hits, "Penal", config)
    assert outcome.applied
    assert [d.hit.registro for d in outcome.discarded] == [2]


def test_the_guard_keeps_the_three_most_recent() -> None:
    # Electoral's cutoff (2021) is after every hit, and the gap rule applies.
    years = [2020, 1998, 2020, 2019, 1996, 2020]
    sims = [0.70, 0.99, 0.80, 0.95, 0.90, 0.75]
    hits = rank([hit(i, y, s) for i, (y, s) in enumerate(zip(years, sims, strict=True))])
    outcome = apply_reform_rules(hits, "Electoral", CONFIG)
    assert outcome.applied
    # Most recent by year, then final score: the three 2020 hits.
    assert sorted(h.registro for h in outcome.kept) == [0, 2, 5]
    assert [h.rank for h in outcome.kept] == [1, 2, 3]
    assert sorted(d.hit.registro for d in outcome.discarded) == [1, 3, 4]


def test_the_guard_breaks_year_ties_by_score() -> None:
    hits = rank([hit(i, 2020, 0.5 + i / 10) for i in range(5)] + [hit(9, 1990)])
    config = ReformConfig(cutoffs={"Laboral": 2030})
    outcome = apply_reform_rules(hits, "Laboral", config)
    assert [h.registro for h in outcome.kept] == [4, 3, 2]


def test_kept_hits_are_reranked_consecutively() -> None:
    hits = rank([hit(1, 2025, 0.9), hit(2, 1990, 0.95), hit(3, 2021, 0.8)])
    outcome = apply_reform_rules(hits, "Laboral", CONFIG)
    assert [(h.registro, h.rank, h.rank_without_recency) for h in outcome.kept] == [
        (1, 1, 1),
        (3, 2, 2),
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"min_gap_years": -1}, "min_gap_years"),
        ({"keep_most_recent": 0}, "keep_most_recent"),
        ({"cutoffs": {"Laboral": 19}}, "cutoff"),
    ],
)
def test_config_bounds(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ReformConfig(**kwargs)  # type: ignore[arg-type]


def test_empty_input() -> None:
    outcome = apply_reform_rules([], "Laboral", CONFIG)
    assert (outcome.kept, outcome.discarded, outcome.applied) == ([], [], False)


# --- properties --------------------------------------------------------------------------

hit_rows = st.lists(
    st.tuples(
        st.integers(min_value=1900, max_value=2026),
        st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
        st.sampled_from(("", *EPOCA_NAMES)),
    ),
    min_size=1,
    max_size=25,
)
materias = st.sampled_from((None, "Laboral", "Fiscal", "Electoral", "Penal", "Civil", "Común"))
configs = st.builds(
    ReformConfig,
    recent_year=st.integers(min_value=1990, max_value=2030),
    min_gap_years=st.integers(min_value=0, max_value=40),
    keep_most_recent=st.integers(min_value=1, max_value=5),
    discard_pre_novena=st.booleans(),
)


def _hits(rows: list[tuple[int, float, str]]) -> list[Hit]:
    return rank([hit(i, y, s, epoca or "x", index=0) for i, (y, s, epoca) in enumerate(rows)])


@given(hit_rows, materias, configs)
def test_kept_is_never_empty_and_kept_plus_discarded_partition_the_input(
    rows: list[tuple[int, float, str]], materia: str | None, config: ReformConfig
) -> None:
    hits = _hits(rows)
    outcome = apply_reform_rules(hits, materia, config)
    assert outcome.kept
    ids = Counter(h.registro for h in outcome.kept) + Counter(
        d.hit.registro for d in outcome.discarded
    )
    assert ids == Counter(h.registro for h in hits)
    assert [h.rank for h in outcome.kept] == list(range(1, len(outcome.kept) + 1))
    assert all(d.code in (PRE_REFORM, PRE_NOVENA) and d.reason for d in outcome.discarded)
    if not rules_apply(hits, config):
        assert outcome.discarded == []
    cutoff = config.cutoff(materia)
    if outcome.applied and any(discard_reason(h, materia, cutoff, config) for h in outcome.kept):
        # The guard ran: the newest keep_most_recent hits stay, nothing newer is discarded.
        assert len(outcome.kept) == min(config.keep_most_recent, len(hits))
        newest_discarded = max((d.hit.passage.anio for d in outcome.discarded), default=0)
        assert min(h.passage.anio for h in outcome.kept) >= newest_discarded


# --- same-point rules ---------------------------------------------------------------------


def _on_topic(h: Hit, on: bool = True) -> Hit:
    return dataclasses.replace(h, on_topic=on)


def _pairs(*pairs: tuple[int, int]) -> SamePoint:
    same = {frozenset(p) for p in pairs}
    return lambda a, b: frozenset((a.registro, b.registro)) in same


def test_an_old_criterion_goes_only_when_a_newer_one_is_on_the_same_point() -> None:
    hits = rank(
        [_on_topic(hit(1, 1977, 0.9)), _on_topic(hit(2, 2021, 0.7)), _on_topic(hit(3, 1980, 0.8))]
    )
    outcome = apply_same_point_rules(hits, "Laboral", CONFIG, _pairs((1, 2)), top_k=10)
    assert [h.registro for h in outcome.kept] == [2, 3]  # 1 set aside: 2 is on its point
    [gone] = outcome.discarded
    assert (gone.hit.registro, gone.code) == (1, PRE_REFORM)
    assert "registro 2 (2021)" in gone.reason
    kept_old = outcome.kept[1]
    assert kept_old.warning == (
        "Criterio anterior a la reforma laboral de 2019: verifique su vigencia."
    )
    assert outcome.applied and outcome.cutoff_year == 2019


def test_an_old_criterion_stays_when_its_newer_one_falls_off_the_page() -> None:
    """A prober's find: 250414 was set aside "on the same point as 2022909", which ranked
    13th, off a page of 5 or 10: the reader was told of a criterion never shown."""
    hits = rank(
        [
            _on_topic(hit(1, 1977, 0.9)),
            _on_topic(hit(3, 1980, 0.85)),
            _on_topic(hit(4, 1981, 0.84)),
            _on_topic(hit(2, 2021, 0.3)),
        ]
    )
    assert [h.registro for h in hits] == [1, 3, 4, 2]
    off_page = apply_same_point_rules(hits, "Laboral", CONFIG, _pairs((1, 2)), top_k=2)
    assert off_page.discarded == [] and [h.registro for h in off_page.kept] == [1, 3]
    assert off_page.kept[0].warning  # flagged where relevance put it
    on_page = apply_same_point_rules(hits, "Laboral", CONFIG, _pairs((1, 2)), top_k=3)
    assert [d.hit.registro for d in on_page.discarded] == [1]
    assert [h.registro for h in on_page.kept] == [3, 4, 2]


def test_a_tesis_is_set_aside_whole_when_one_of_its_passages_is_on_the_newer_point() -> None:
    """253814's opening was on 198729's point and its third passage was not: the tesis was
    both discarded and kept on one page."""
    opening, later = hit(1, 1977, 0.9, index=0), hit(1, 1977, 0.85, index=2)
    hits = rank([_on_topic(opening), _on_topic(hit(2, 2021, 0.7)), _on_topic(later)])

    def same(a: Hit, b: Hit) -> bool:
        return (a.registro, b.registro, a.passage.chunk.index) == (1, 2, 0)

    outcome = apply_same_point_rules(hits, "Laboral", CONFIG, same, top_k=10)
    assert [h.registro for h in outcome.kept] == [2]
    assert sorted(d.hit.passage.chunk.index for d in outcome.discarded) == [0, 2]


def test_without_a_newer_criterion_on_the_point_nothing_is_discarded() -> None:
    hits = rank([_on_topic(hit(1, 1977, 0.9)), _on_topic(hit(2, 2021, 0.7))])
    outcome = apply_same_point_rules(hits, "Laboral", CONFIG, _pairs(), top_k=10)
    assert [h.registro for h in outcome.kept] == [1, 2] and outcome.discarded == []
    assert outcome.kept[0].warning is not None and outcome.kept[1].warning is None


def test_off_topic_hits_are_neither_discarded_nor_used_as_newer_criteria() -> None:
    hits = rank([_on_topic(hit(1, 1977, 0.9)), _on_topic(hit(2, 2021, 0.7), on=False)])
    outcome = apply_same_point_rules(hits, "Laboral", CONFIG, _pairs((1, 2)), top_k=10)
    assert [h.registro for h in outcome.kept] == [1, 2] and outcome.discarded == []


def test_discards_never_shorten_the_page() -> None:
    olds = [_on_topic(hit(i, 1970 + i, 0.9 - i / 100)) for i in range(1, 6)]
    hits = rank([*olds, _on_topic(hit(99, 2022, 0.5)), _on_topic(hit(50, 2000, 0.4))])
    same = _pairs(*((i, 99) for i in range(1, 6)))
    outcome = apply_same_point_rules(hits, "Laboral", CONFIG, same, top_k=2)
    assert [h.registro for h in outcome.kept] == [99, 50]
    assert sorted(d.hit.registro for d in outcome.discarded) == [1, 2, 3, 4, 5]

"""Replay of seed 000's "Constancia de Representatividad" case through the pure core."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.core.intent import detect_materia, detect_temporal
from api.core.models import Chunk, Hit, Passage
from api.core.reform import ReformConfig, apply_reform_rules
from api.core.scoring import breakdown, rank
from api.core.weight_policy import effective_recency_weight

FIXTURE = Path(__file__).parents[1] / "fixtures" / "seed000_representatividad.json"
CASE: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
EXPECTED: dict[str, Any] = CASE["expected"]


def build_hits(recency_weight: float) -> list[Hit]:
    hits = []
    for row in CASE["hits"]:
        chunk = Chunk(row["registro"], row["chunk"], "", 0, 0, 1, 1, 0)
        passage = Passage(
            chunk=chunk,
            rubro=f"Tesis {row['registro']}",
            epoca=row["epoca"],
            anio=row["anio"],
            tipo="Jurisprudencia",
            materias=tuple(row["materias"]),
        )
        score = breakdown(
            row["similarity"], row["anio"], row["epoca"], recency_weight, profile="seed"
        )
        hits.append(Hit(passage, score))
    return rank(hits)


def test_materia_is_laboral_from_the_question_and_from_the_hits() -> None:
    from_question = detect_materia(CASE["question"])
    assert from_question.materia == EXPECTED["materia"]
    assert from_question.source == "question"
    assert from_question.triggers == ("representatividad",)

    hit_materias = [row["materias"] for row in CASE["hits"]]
    from_hits = detect_materia("", hit_materias=hit_materias)
    assert (from_hits.materia, from_hits.source) == (EXPECTED["materia"], "hits")


def test_actuales_is_current_but_the_explicit_weight_wins() -> None:
    temporal = detect_temporal(CASE["question"])
    assert temporal.kind == EXPECTED["temporal"]
    assert temporal.triggers == ("actuales",)
    weight = effective_recency_weight(CASE["recency_weight"], 0.1, temporal, 0.5)
    assert weight == CASE["recency_weight"]


def test_reform_rules_discard_the_pre_reform_hits_with_reasons() -> None:
    hits = build_hits(CASE["recency_weight"])
    materia = detect_materia(CASE["question"]).materia
    outcome = apply_reform_rules(hits, materia, ReformConfig())

    assert outcome.applied
    assert outcome.cutoff_year == EXPECTED["cutoff_year"]
    assert len(hits) == 10
    assert len(outcome.kept) == EXPECTED["kept"]
    discarded = sorted((d.hit.registro, d.code, d.reason) for d in outcome.discarded)
    assert discarded == [(d["registro"], d["code"], d["reason"]) for d in EXPECTED["discarded"]]
    assert [h.rank for h in outcome.kept] == list(range(1, 8))


def test_top_five_match_the_seed_scores() -> None:
    outcome = apply_reform_rules(build_hits(CASE["recency_weight"]), "Laboral", ReformConfig())
    top = outcome.kept[:5]
    assert [h.registro for h in top] == [row["registro"] for row in EXPECTED["top5"]]
    assert [h.score.final_score for h in top] == [
        pytest.approx(row["final_score"], abs=1e-3) for row in EXPECTED["top5"]
    ]


def test_without_recency_the_order_is_the_similarity_order() -> None:
    hits = build_hits(0.0)
    by_similarity = sorted(
        CASE["hits"], key=lambda r: (-r["similarity"], r["registro"], r["chunk"])
    )
    assert [(h.registro, h.passage.chunk.index) for h in hits] == [
        (r["registro"], r["chunk"]) for r in by_similarity
    ]
    assert all(h.rank == h.rank_without_recency for h in hits)
    assert [h.score.final_score for h in hits] == [r["similarity"] for r in by_similarity]


def test_with_recency_the_relevance_rank_is_still_the_similarity_order() -> None:
    hits = build_hits(CASE["recency_weight"])
    by_plain = sorted(hits, key=lambda h: h.rank_without_recency)
    assert [h.score.similarity for h in by_plain] == sorted(
        (r["similarity"] for r in CASE["hits"]), reverse=True
    )


def test_without_a_materia_only_the_octava_hit_goes() -> None:
    outcome = apply_reform_rules(build_hits(CASE["recency_weight"]), None, ReformConfig())
    assert outcome.cutoff_year is None
    assert [(d.hit.registro, d.code) for d in outcome.discarded] == [(219831, "PRE_NOVENA")]
    assert outcome.discarded[0].reason == ("Octava Época (1992), anterior a la Novena Época (1995)")
    assert len(outcome.kept) == 9

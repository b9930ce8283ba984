"""Issue 3 over GraphQL: validity notes, the superseded pair, temporal routing, timelines."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from api.core.models import Filters
from api.core.validity import loses_force
from api.graphql.schema import schema
from api.ingest.pipeline import ingest
from api.services.container import Services
from api.services.search import SearchConfig, SearchRequest, SearchService
from api.store.base import VectorQuery
from api.store.embedded import EmbeddedStore
from tests.conftest import context_for, run_query
from tests.fakes import FakeEmbedder
from tests.ingest.test_ingest import good, write_jsonl

SEARCH = """
query S($input: SearchInput!) {
  search(input: $input) {
    __typename
    ... on SearchPayload {
      hits { registro anio rank finalScore status { vigente estado porRegistro description } }
      discarded { registro anio code reason hit { finalScore recencyFactor } }
      intent { materia materiaTriggers temporal temporalTriggers mode cutoffYear rulesApplied }
    }
    ... on InputError { field message }
  }
}
"""
CIDH = (
    "¿Es obligatoria para los jueces mexicanos la jurisprudencia de la Corte Interamericana "
    "aunque México no haya sido parte?"
)


def search(services: Services, **input_: object) -> dict:
    return run_query(services, SEARCH, input=input_)["search"]


def test_binding_cidh_jurisprudence_ranks_first_and_the_old_one_is_flagged(
    bundled: Services,
) -> None:
    data = search(bundled, query=CIDH)
    assert data["hits"][0]["registro"] == 2006225
    old = [h for h in data["hits"] if h["registro"] == 160584]
    assert old, "160584 should be returned, flagged"
    assert not old[0]["status"]["vigente"]
    assert old[0]["status"]["porRegistro"] == 2006225
    assert old[0]["status"]["description"].startswith("superada por 2006225")


def test_without_superseded_the_old_criterion_is_discarded_and_its_replacement_kept(
    bundled: Services,
) -> None:
    data = search(bundled, query=CIDH, includeSuperseded=False)
    registros = [h["registro"] for h in data["hits"]]
    assert 160584 not in registros and 2006225 in registros
    reasons = {d["registro"]: (d["code"], d["reason"]) for d in data["discarded"]}
    assert reasons[160584][0] == "SUPERSEDED"


def test_replacement_is_pulled_in_when_only_the_superseded_tesis_matches(
    bundled: Services,
) -> None:
    """Filtered to 2011 the replacement (2014) cannot match; without the filter a query on
    the old tesis' own words still brings the replacement along."""
    words = "criterios de la Corte Interamericana orientadores Estado Mexicano no fue parte"
    result = bundled.search.search(SearchRequest(query=words, top_k=3))
    registros = [h.registro for h in result.hits]
    assert 160584 in registros and 2006225 in registros


def test_a_question_worded_like_the_superseded_tesis_gets_its_replacement_first(
    bundled: Services,
) -> None:
    """Worded like 160584's rubro, the question put 2014's 2006225 under the gate (0.62): the
    superseded criterion ranked first. A criterion and its replacement are on the same point."""
    question = (
        "¿Los criterios de la Corte Interamericana son sólo orientadores para los jueces mexicanos?"
    )
    hits = bundled.search.search(SearchRequest(query=question, top_k=5)).hits
    assert hits[0].registro == 2006225 and hits[0].on_topic
    old = next(h for h in hits if h.registro == 160584)
    assert old.on_topic and not old.status.vigente


@pytest.mark.parametrize(
    "query",
    [
        "improcedencia del amparo indirecto",
        "suspensión provisional en el amparo",
        CIDH,
        "pensión alimenticia",
        "prisión preventiva oficiosa",
    ],
)
def test_a_criterion_that_lost_force_never_appears_unflagged(bundled: Services, query: str) -> None:
    for include in (True, False):
        result = bundled.search.search(
            SearchRequest(query=query, top_k=20, include_superseded=include)
        )
        notes = bundled.store.get_validity([h.registro for h in result.hits])
        for hit in result.hits:
            if hit.registro in notes and loses_force(notes[hit.registro]):
                assert include, f"{hit.registro} shown although includeSuperseded is false"
                assert hit.status == notes[hit.registro]


def test_pre_novena_hits_are_discarded_with_reasons(bundled: Services) -> None:
    data = search(bundled, query="improcedencia del amparo indirecto por actos de la junta")
    assert data["intent"]["rulesApplied"]
    assert any(h["anio"] >= 2010 for h in data["hits"])
    codes = {d["code"] for d in data["discarded"]}
    assert codes <= {"PRE_REFORM", "PRE_NOVENA", "SUPERSEDED"}
    for d in data["discarded"]:
        assert d["reason"] and d["hit"]["finalScore"] >= 0


def test_issue_2_question_returns_1970s_and_recent_tesis_each_with_breakdown(
    bundled: Services,
) -> None:
    """The default response carries the recency ranking (recent criteria) and, beside it, the
    ranking without recency (where the 1970s tesis on Junta acts lead), every hit with all its
    factors; without the vigencia rules and with a light weight both eras share the hits."""
    question = "improcedencia del amparo indirecto por actos de la junta"
    q = """query S($input: SearchInput!) { search(input: $input) { ... on SearchPayload {
      recencyWeight
      hits { anio similarity relevance recencyFactor epocaFactor finalScore rank rankWithoutRecency }
      withoutRecency { anio similarity relevance recencyFactor epocaFactor finalScore rank
                       rankWithoutRecency } } } }"""
    data = run_query(bundled, q, input={"query": question, "topK": 10})["search"]
    assert len(data["hits"]) == 10 and len(data["withoutRecency"]) == 10
    shown = data["hits"] + data["withoutRecency"]
    years = [h["anio"] for h in shown]
    assert any(1970 <= y < 1980 for y in years) and any(y >= 2010 for y in years), years
    assert all(h["anio"] >= 2000 for h in data["hits"][:3])
    assert [h["rankWithoutRecency"] for h in data["withoutRecency"]] == list(range(1, 11))
    relevances = [h["relevance"] for h in data["withoutRecency"]]
    assert relevances == sorted(relevances, reverse=True)
    for hit in shown:
        w = data["recencyWeight"]
        assert hit["finalScore"] == pytest.approx(
            hit["relevance"]
            * (1 + (hit["recencyFactor"] - 1) * w)
            * (1 + (hit["epocaFactor"] - 1) * w)
        )
    plain = search(bundled, query=question, topK=10, vigenciaRules=False, recencyWeight=0.2)
    years = [h["anio"] for h in plain["hits"]]
    assert any(1970 <= y < 1980 for y in years) and any(y >= 2010 for y in years), years


def test_a_passage_has_one_rank_in_hits_and_in_the_ranking_without_recency(
    bundled: Services,
) -> None:
    """A prober's find: one hit read rank 7 in `hits` and 8 in `withoutRecency` (its rank
    there was taken before the rules set a tesis aside); 0 says `hits` does not show it."""
    q = """query S($input: SearchInput!) { search(input: $input) { ... on SearchPayload {
      hits { registro rank chunk { index } } discarded { registro }
      withoutRecency { registro rank chunk { index } } } } }"""
    question = "¿Cuándo procede la suspensión del acto reclamado en amparo?"
    data = run_query(bundled, q, input={"query": question, "topK": 20})["search"]
    assert data["discarded"], "the case needs a tesis set aside"
    on_page = {(h["registro"], h["chunk"]["index"]): h["rank"] for h in data["hits"]}
    assert [h["rank"] for h in data["hits"]] == list(range(1, len(data["hits"]) + 1))
    for hit in data["withoutRecency"]:
        assert hit["rank"] == on_page.get((hit["registro"], hit["chunk"]["index"]), 0)


@pytest.mark.parametrize(
    ("query", "kind", "trigger"),
    [
        ("¿Cuál fue el primer criterio sobre la suspensión provisional?", "earliest", "primer"),
        ("What was the earliest ruling on suspensión provisional?", "earliest", "earliest"),
        (
            "¿Cuál es el criterio más reciente sobre la suspensión provisional?",
            "latest",
            "más reciente",
        ),
        ("latest criterion on suspensión provisional", "latest", "latest"),
    ],
)
def test_temporal_questions_are_date_sorted_in_both_languages(
    bundled: Services, query: str, kind: str, trigger: str
) -> None:
    data = search(bundled, query=query, topK=5)
    intent = data["intent"]
    assert (intent["temporal"], intent["mode"]) == (kind, "date_sorted")
    assert trigger in intent["temporalTriggers"]
    years = [h["anio"] for h in data["hits"]]
    assert years == sorted(years, reverse=(kind == "latest"))
    assert [h["rank"] for h in data["hits"]] == list(range(1, len(years) + 1))


def test_a_configured_current_weight_raises_the_recency_weight_of_current_law_questions(
    bundled: Services,
) -> None:
    config = replace(bundled.search.config, current_weight=0.5)
    service = SearchService(bundled.store, bundled.embedder, config)
    plain = service.search(SearchRequest(query="requisitos de la suspensión"))
    current = service.search(SearchRequest(query="requisitos actuales de la suspensión"))
    assert current.intent.temporal.kind == "current"
    assert (plain.recency_weight, current.recency_weight) == (config.recency_weight, 0.5)


def test_by_default_a_current_law_question_keeps_the_on_point_criterion_first(
    bundled: Services,
) -> None:
    # at a current weight of 0.3 or more, a 2025 tesis on civil associations' standing
    # (relevance 0.82 of the best) outranked the 1979 one the question is about
    question = "¿Está vigente el criterio de que la CFE no es autoridad?"
    result = bundled.search.search(SearchRequest(query=question, top_k=3))
    assert result.intent.temporal.kind == "current"
    assert result.hits[0].registro == 251883


def test_earliest_is_found_outside_the_vector_top_50() -> None:
    """60 recent tesis match the topic a little better than the oldest one: it ranks 61st
    by similarity, yet the date-sorted search over the whole filtered set returns it first."""
    topic = " ".join(f"termino{i}" for i in range(20))
    store = EmbeddedStore(None, dim=512)
    recent = [
        good(1000 + i, rubro=f"RUBRO {i}", texto=topic, anio=1990 + i % 35, epoca=None)
        for i in range(60)
    ]
    oldest = good(1, rubro="RUBRO", texto=f"{topic} adicional", anio=1950, epoca=None)
    source = write_jsonl(Path(tempfile.mkdtemp()) / "t.jsonl", [*recent, oldest])
    embedder = FakeEmbedder(dim=512)
    ingest([source], store, embedder, today=date(2026, 1, 1))
    service = SearchService(store, embedder, SearchConfig())
    query = f"¿Cuál fue el primer criterio sobre {topic}?"
    top50 = store.vector_search(VectorQuery(service.embed_query(query), Filters(), 50))
    assert 1 not in {c.passage.registro for c in top50}
    result = service.search(SearchRequest(query=query, top_k=3))
    assert result.intent.route == "date_sorted"
    assert result.hits[0].registro == 1


def test_blend_mode_is_available(bundled: Services) -> None:
    data = search(
        bundled, query="la jurisprudencia más reciente sobre interés legítimo", temporalMode="BLEND"
    )
    assert data["intent"]["mode"] == "blend"
    assert data["hits"]


TIMELINE = """
query T($input: TimelineInput!) {
  timeline(input: $input) {
    __typename
    ... on TimelinePayload { total items { registro anio epoca status { vigente } } }
    ... on InputError { field message }
  }
}
"""


def test_timeline_lists_by_date_with_offset(bundled: Services) -> None:
    first = run_query(bundled, TIMELINE, input={"order": "ASC", "limit": 5})["timeline"]
    assert first["total"] == 1060
    years = [i["anio"] for i in first["items"]]
    assert years == sorted(years) and years[0] == 1969  # Séptima Época starts in 1969
    page2 = run_query(bundled, TIMELINE, input={"order": "ASC", "limit": 5, "offset": 5})
    assert page2["timeline"]["items"][0]["registro"] not in {i["registro"] for i in first["items"]}
    recent = run_query(
        bundled, TIMELINE, input={"order": "DESC", "limit": 3, "filters": {"anioMin": 2020}}
    )["timeline"]
    assert all(i["anio"] >= 2020 for i in recent["items"])


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 500}, "limit"),
        ({"offset": -1}, "offset"),
        # as a search checks them (an inverted range had answered an empty page)
        ({"filters": {"anioMin": 3000}}, "anioMin"),
        ({"filters": {"anioMin": 2020, "anioMax": 1990}}, "anioMin"),
    ],
)
def test_timeline_bounds(bundled: Services, extra: dict, field: str) -> None:
    data = run_query(bundled, TIMELINE, input=extra)["timeline"]
    assert (data["__typename"], data["field"]) == ("InputError", field)


def test_earliest_and_latest_conveniences(bundled: Services) -> None:
    q = """{ earliest(limit: 2) { ... on TimelinePayload { items { anio } } }
             latest(query: "interés legítimo", limit: 3) { ... on SearchPayload {
               hits { anio } intent { temporal mode } } } }"""
    data = run_query(bundled, q)
    assert [i["anio"] for i in data["earliest"]["items"]] == [1969, 1969]
    latest = data["latest"]
    assert latest["intent"] == {"temporal": "latest", "mode": "date_sorted"}
    years = [h["anio"] for h in latest["hits"]]
    assert years == sorted(years, reverse=True)


def test_distribution_counts_match_the_corpus(bundled: Services) -> None:
    q = "{ byEpoca: distribution(groupBy: EPOCA) { key count } byYear: distribution(groupBy: YEAR, filters: {anioMin: 2025}) { key count } }"
    data = run_query(bundled, q)
    epocas = {b["key"]: b["count"] for b in data["byEpoca"]}
    assert sum(epocas.values()) == 1060 and epocas["Séptima Época"] == 998
    assert [b["key"] for b in data["byYear"]] == ["2025", "2026"]


def test_corpus_stats(bundled: Services, tmp_path: Path) -> None:
    from api.ingest.pipeline import write_report

    report = ingest([Path(bundled.settings.corpus_path)], bundled.store, bundled.embedder)
    write_report(report, bundled.settings.data_dir / "ingest_reports")
    q = """{ corpusStats { ... on CorpusStatsType { total chunks byEpoca { key count }
             byTipo { key count } coverageGaps { materia cutoffYear countSince }
             lastIngest { read stored unchanged rejected } } } }"""
    stats = run_query(bundled, q)["corpusStats"]
    assert stats["total"] == 1060 and stats["chunks"] >= 1060
    assert sum(b["count"] for b in stats["byEpoca"]) == 1060
    gaps = {g["materia"]: g for g in stats["coverageGaps"]}
    assert gaps["Laboral"]["cutoffYear"] == 2019
    assert gaps["Electoral"]["countSince"] == 0  # no electoral tesis: "actualizar la base"
    assert stats["lastIngest"] == {"read": 1060, "stored": 0, "unchanged": 1060, "rejected": 0}


def test_distribution_with_bad_filters_is_a_coded_input_error(bundled: Services) -> None:
    materias = ", ".join(f'"M{i}"' for i in range(21))
    q = f"{{ distribution(groupBy: MATERIA, filters: {{materias: [{materias}]}}) {{ key count }} }}"
    result = asyncio.run(schema.execute(q, context_value=context_for(bundled)))
    assert result.data is None
    error = result.errors[0]
    assert error.extensions == {"code": "BAD_USER_INPUT", "field": "filters.materias"}
    assert "at most 20" in error.message
    inverted = "{ distribution(groupBy: YEAR, filters: {anioMin: 2020, anioMax: 1990}) { key } }"
    result = asyncio.run(schema.execute(inverted, context_value=context_for(bundled)))
    assert result.errors and result.errors[0].extensions["field"] == "anioMin"


def test_earliest_and_latest_take_one_limit_with_a_question_or_without(
    bundled: Services,
) -> None:
    """A prober's find: limit 150 was refused with a query (a search's 1..100) and taken
    without one (a timeline's 1..200), and the schema said neither."""
    for query in ("despido", None):
        q = """query E($q: String, $n: Int!) { earliest(query: $q, limit: $n) {
          ... on InputError { field message } ... on TimelinePayload { total }
          ... on SearchPayload { hits { registro } } } }"""
        refused = run_query(bundled, q, q=query, n=150)["earliest"]
        assert refused == {"field": "limit", "message": "150 is outside 1..100"}, query
        assert "field" not in run_query(bundled, q, q=query, n=100)["earliest"], query

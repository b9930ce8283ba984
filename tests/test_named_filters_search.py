"""Questions that name filters (an época, a year, a kind, a court) or exclude words."""

from __future__ import annotations

import pytest

from api.core.circuits import circuit_of
from api.core.gate import NOTHING_UNDER_FILTERS
from api.core.text import fold
from api.services.container import Services
from api.services.search import SearchRequest
from tests.conftest import run_query

SEARCH = """
query S($input: SearchInput!) {
  search(input: $input) {
    ... on SearchPayload {
      abstained abstainReason hits { registro anio epoca tipo }
      intent { namedFilters topic excluded }
    }
  }
}
"""


def search(services: Services, query: str) -> dict:
    result: dict = run_query(services, SEARCH, input={"query": query, "topK": 5})["search"]
    return result


def test_a_year_is_a_filter_not_a_word_to_find(bundled: Services) -> None:
    data = search(bundled, "la tesis más reciente de 1980")
    assert data["intent"]["namedFilters"] == ["de 1980"] and data["intent"]["topic"] == []
    assert data["hits"] and {h["anio"] for h in data["hits"]} == {1980}


def test_an_epoca_is_a_filter_and_the_first_is_its_oldest(bundled: Services) -> None:
    data = search(bundled, "la tesis más antigua de la Novena Época")
    years = [h["anio"] for h in data["hits"]]
    assert {h["epoca"] for h in data["hits"]} == {"Novena Época"}
    assert years == sorted(years) and years[0] < 2000


def test_a_bound_keeps_the_topic_and_its_glossary_reading(bundled: Services) -> None:
    plain = bundled.search.search(SearchRequest(query="the earliest ruling on strikes", top_k=5))
    bounded = bundled.search.search(
        SearchRequest(query="the earliest ruling before 1980 on strikes", top_k=5)
    )
    assert bounded.hits and all(h.passage.anio <= 1979 for h in bounded.hits)
    assert bounded.hits[0].registro == plain.hits[0].registro  # a 1976 tesis on strikes


def test_a_kind_of_tesis_is_a_filter(bundled: Services) -> None:
    data = search(bundled, "la última tesis aislada")
    # (a criterion that replaced one of them may follow, whatever its kind)
    assert [h["tipo"] for h in data["hits"][:3]] == ["Aislada"] * 3


def test_nothing_under_the_named_filters_abstains_saying_so(bundled: Services) -> None:
    data = search(bundled, "la primera tesis de la Quinta Época")
    assert data["abstained"] and not data["hits"]
    assert data["abstainReason"] == NOTHING_UNDER_FILTERS


def test_a_year_inside_a_description_filters_nothing(bundled: Services) -> None:
    question = (
        "Lo más reciente: ¿qué normas de la reforma minera y de aguas de 2023 pueden combatirse?"
    )
    assert search(bundled, question)["intent"]["namedFilters"] == []


def test_any_question_may_name_an_epoca_a_year_or_a_kind_but_not_a_court(
    bundled: Services,
) -> None:
    data = search(bundled, "criterios de 1980 sobre arrendamiento")
    assert data["intent"]["namedFilters"] == ["de 1980"]
    assert data["hits"] and {h["anio"] for h in data["hits"]} == {1980}
    # "la Suprema Corte" is what the question is about, not a filter, outside a date order
    court = search(bundled, "¿Qué ha dicho la Suprema Corte sobre el interés legítimo?")
    assert court["intent"]["namedFilters"] == []


def test_a_named_court_is_not_read_into_the_topic_s_glossary_reading(bundled: Services) -> None:
    """ "Supreme Court" filters; "water" alone is the topic, read as "agua" (the whole question,
    court included, had been read as one topic no tesis names)."""
    data = search(bundled, "What is the most recent Supreme Court ruling on water?")
    assert data["intent"]["namedFilters"] == ["supreme court"] and not data["abstained"]
    assert data["hits"][0]["registro"] == 2032366  # CONCESIONES PARA MINERÍA Y AGUA (2026)


def test_an_excluded_word_leaves_the_question_and_the_hits(bundled: Services) -> None:
    plain = bundled.search.search(SearchRequest(query="despido doméstico", top_k=10))
    assert any("DOMESTIC" in h.passage.rubro for h in plain.hits)
    data = search(bundled, "despido -doméstico")
    assert data["intent"]["excluded"] == ["doméstico"] and data["hits"]
    result = bundled.search.search(SearchRequest(query="despido -doméstico", top_k=10))
    texts = [fold(h.passage.rubro + " " + h.passage.chunk.text) for h in result.hits]
    assert texts and not any("domestic" in text for text in texts)


def test_subjects_excluded_in_words_leave_the_hits(bundled: Services) -> None:
    """ "pero no las de trabajadores domésticos ni las de militares": the domestic workers'
    tesis had come first."""
    question = "tesis sobre despido, pero no las de trabajadores domésticos ni las de militares"
    result = bundled.search.search(SearchRequest(query=question, top_k=10))
    assert result.intent.excluded == ("trabajadores domésticos", "militares")
    rubros = [fold(h.passage.rubro) for h in result.hits]
    assert rubros and any("despido" in r for r in rubros)
    assert not any("domestic" in r or "militar" in r for r in rubros)


def test_a_question_of_only_filters_lists_the_tesis_under_them_newest_first(
    bundled: Services,
) -> None:
    """ "tesis aisladas de la Undécima Época" has nothing to match by meaning: it abstained."""
    data = search(bundled, "tesis aisladas de la Undécima Época")
    assert not data["abstained"] and data["hits"]
    assert {(h["tipo"], h["epoca"]) for h in data["hits"]} == {("Aislada", "Undécima Época")}
    listing = search(bundled, "jurisprudencia de 2022")["hits"]
    assert listing and {h["anio"] for h in listing} == {2022}
    # a branch of law named as such is such a filter too
    laboral = bundled.search.search(SearchRequest(query="jurisprudencia en materia laboral"))
    assert laboral.intent.route == "date_sorted" and laboral.hits
    assert all("Laboral" in h.passage.materias for h in laboral.hits)
    years = [h.passage.anio for h in laboral.hits]
    assert years == sorted(years, reverse=True)


def test_a_keyword_under_a_named_year_is_still_a_keyword_search(bundled: Services) -> None:
    data = search(bundled, "tesis de 1987 sobre albaceas")
    assert not data["abstained"] and data["hits"][0]["anio"] == 1987


def test_a_chamber_of_the_court_filters_by_organo(bundled: Services) -> None:
    result = bundled.search.search(
        SearchRequest(query="jurisprudencia de la Segunda Sala en materia laboral", top_k=10)
    )
    assert result.intent.named_filters == ("segunda sala",) and result.hits
    records = bundled.store.get_tesis([h.registro for h in result.hits])
    assert {records[h.registro].organo for h in result.hits} == {"Segunda Sala"}
    assert all("Laboral" in h.passage.materias for h in result.hits)


def test_graphql_filters_by_organo(bundled: Services) -> None:
    query = """
    query S($input: SearchInput!) {
      search(input: $input) { ... on SearchPayload { hits { registro } } }
    }
    """
    data = run_query(
        bundled, query, input={"query": "amparo", "topK": 5, "filters": {"organo": "Pleno"}}
    )
    found = [h["registro"] for h in data["search"]["hits"]]
    records = bundled.store.get_tesis(found)
    assert found and {records[r].organo for r in found} == {"Pleno"}


def test_a_question_about_a_kind_is_answered_not_listed(bundled: Services) -> None:
    data = search(bundled, "¿Qué es una tesis aislada?")
    assert data["intent"]["namedFilters"] == []


def test_a_lookup_is_not_narrowed_by_words_that_read_as_filters(bundled: Services) -> None:
    """2024502 is of the Undécima Época: "de la Décima Época" must not empty the lookup."""
    data = search(bundled, "Registro digital 2024502 de la Décima Época")
    assert [h["registro"] for h in data["hits"]][:1] == [2024502]


def test_an_excluded_word_keeps_out_the_criterion_pulled_in_as_a_replacement(
    bundled: Services,
) -> None:
    """160584 lost force to 2006225, which a search pulls in beside it; 2006225 says
    "VINCULANTE", so "-vinculante" keeps it out even as a replacement."""
    question = "criterios de la Corte Interamericana orientadores para los jueces"
    plain = bundled.search.search(SearchRequest(query=question, top_k=5))
    assert {160584, 2006225} <= {h.registro for h in plain.hits}
    excluding = bundled.search.search(SearchRequest(query=f"{question} -vinculante", top_k=5))
    found = {h.registro for h in excluding.hits}
    assert 160584 in found and 2006225 not in found


def test_a_named_circuit_filters_a_question_and_a_listing(bundled: Services) -> None:
    """ "del Sexto Circuito" restricts to that circuit's courts: their organo says so."""
    for question in (
        "¿Qué ha resuelto el Sexto Circuito sobre la demanda de amparo?",
        "la tesis más reciente del 6o. Circuito",
        "tesis del Sexto Circuito",
    ):
        result = bundled.search.search(SearchRequest(query=question, top_k=10))
        assert result.hits and not result.abstained, question
        assert result.intent.named_filters[0].lower().endswith("circuito"), question
        records = bundled.store.get_tesis([h.registro for h in result.hits])
        assert {circuit_of(records[h.registro].organo) for h in result.hits} == {6}, question


def test_graphql_filters_by_circuit_and_names_a_bad_one(bundled: Services) -> None:
    query = """
    query S($input: SearchInput!) {
      search(input: $input) {
        ... on SearchPayload { hits { registro } }
        ... on InputError { field message }
      }
    }
    """
    data = run_query(
        bundled, query, input={"query": "despido", "topK": 5, "filters": {"circuito": 10}}
    )
    found = [h["registro"] for h in data["search"]["hits"]]
    records = bundled.store.get_tesis(found)
    assert found and {circuit_of(records[r].organo) for r in found} == {10}
    bad = run_query(bundled, query, input={"query": "despido", "filters": {"circuito": 40}})
    assert bad["search"]["field"] == "circuito" and "1..32" in bad["search"]["message"]


def test_whether_there_are_tesis_under_filters_is_a_listing(bundled: Services) -> None:
    data = search(bundled, "¿hay tesis de la Octava Época?")
    assert not data["abstained"] and data["hits"]
    assert {h["epoca"] for h in data["hits"]} == {"Octava Época"}


def test_an_epoca_said_not_to_be_wanted_is_left_out(bundled: Services) -> None:
    question = "tesis sobre arrendamiento que no sea de la Séptima Época"
    hits = bundled.search.search(SearchRequest(query=question, top_k=5)).hits
    assert hits and "Séptima Época" not in {h.passage.epoca for h in hits}
    assert "ARRENDAMIENTO" in hits[0].passage.rubro


@pytest.mark.parametrize(
    "question",
    ["la tesis laboral más reciente de 1950", "the latest labor ruling from 1950"],
)
def test_a_topic_under_filters_that_leave_nothing_says_the_filters_did_it(
    bundled: Services, question: str
) -> None:
    """No tesis of 1950 at all: "Ningún documento trata de «laboral»" blamed the topic."""
    result = bundled.search.search(SearchRequest(query=question, top_k=5))
    assert result.abstained and result.abstain_reason == "No hay tesis que cumplan los filtros."


def test_a_listing_s_larger_page_begins_with_the_smaller_one(bundled: Services) -> None:
    """A prober's find: "jurisprudencia en materia laboral" (newest first, no topic) listed
    other 1983 tesis at topK 20 than at 10: same-year ties went by a score whose scale depends
    on the page; they go by registro, as the date index lists them."""
    pages = [
        [h.registro for h in bundled.search.search(SearchRequest(query=q, top_k=k)).hits]
        for q in ("jurisprudencia en materia laboral",)
        for k in (5, 10, 20)
    ]
    assert pages[1][:5] == pages[0] and pages[2][:10] == pages[1]

"""A question that cites a tesis by registro digital gets that tesis, over the bundled corpus."""

from __future__ import annotations

from api.services.container import Services
from api.services.search import SearchRequest
from tests.conftest import run_query

SEARCH = """
query S($input: SearchInput!) {
  search(input: $input) {
    ... on SearchPayload { abstained abstainReason hits { registro rank } }
  }
}
"""


def registros(services: Services, query: str) -> list[int]:
    result = services.search.search(SearchRequest(query=query, top_k=5))
    return [h.registro for h in result.hits]


def test_a_bare_registro_or_an_sjf_link_finds_its_tesis_from_its_first_chunk(
    bundled: Services,
) -> None:
    for query in ("2024502", "Registro digital: 2024502", "sjf2.scjn.gob.mx/detalle/tesis/2024502"):
        result = bundled.search.search(SearchRequest(query=query, top_k=5))
        assert not result.abstained, query
        assert {h.registro for h in result.hits} == {2024502}, query
        assert result.hits[0].passage.chunk.index == 0, query


def test_cited_tesis_come_in_the_order_cited_with_what_replaced_them_after(
    bundled: Services,
) -> None:
    # 160584 lost force to 2006225 (SJF note): the replacing criterion is shown beside it
    assert list(dict.fromkeys(registros(bundled, "tesis 2024502 y 160584"))) == [
        2024502,
        160584,
        2006225,
    ]


def test_a_registro_the_corpus_lacks_abstains_naming_it(bundled: Services) -> None:
    data = run_query(bundled, SEARCH, input={"query": "registro digital 9999999"})["search"]
    assert data["abstained"] and not data["hits"]
    assert data["abstainReason"] == "El registro digital 9999999 no está en el corpus."


def test_a_number_in_a_question_s_story_leaves_it_a_question(bundled: Services) -> None:
    result = bundled.search.search(
        SearchRequest(query="El patrón me despidió en el expediente 1234567 sin aviso", top_k=5)
    )
    assert result.hits and result.intent.route == "relevance"
    assert len({h.registro for h in result.hits}) > 1

"""A question that cites tesis by registro digital or clave gets them, over the bundled corpus."""

from __future__ import annotations

from api.services.container import Services
from api.services.search import SearchRequest
from tests.conftest import run_query

SEARCH = """
query S($input: SearchInput!) {
  search(input: $input) {
    ... on SearchPayload {
      abstained abstainReason hits { registro rank } intent { cited notFound }
    }
  }
}
"""
CHAT = """
query C($input: ChatInput!) {
  chat(input: $input) {
    ... on ChatPayload { answer warnings references { number registro status { vigente } } }
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
    assert data["abstainReason"] == "No está en el corpus: registro digital 9999999."


def test_a_clave_finds_its_tesis_however_it_is_written(bundled: Services) -> None:
    for query in (
        "jurisprudencia 2a./J. 64/2022",
        "¿Qué dice la 2a/j 64/2022 (11a.) sobre la etapa conciliatoria?",
    ):
        assert set(registros(bundled, query)) == {2025756}, query
    # a collegiate court's clave; its first chunk leads though others match the words better
    result = bundled.search.search(SearchRequest(query="XXV.2o.4 L", top_k=5))
    assert [(h.registro, h.passage.chunk.index) for h in result.hits][:1] == [(2024222, 0)]


def test_a_clave_the_corpus_lacks_abstains_instead_of_answering_another_tesis(
    bundled: Services,
) -> None:
    result = bundled.search.search(SearchRequest(query="jurisprudencia 2a./J. 12/2019", top_k=5))
    assert result.abstained and not result.hits
    assert result.abstain_reason == "No está en el corpus: tesis 2a./J. 12/2019."


def test_a_number_in_a_question_s_story_leaves_it_a_question(bundled: Services) -> None:
    result = bundled.search.search(
        SearchRequest(query="El patrón me despidió en el expediente 1234567 sin aviso", top_k=5)
    )
    assert result.hits and result.intent.route == "relevance"
    assert len({h.registro for h in result.hits}) > 1


def test_the_intent_names_the_cited_tesis_and_a_question_cites_none(bundled: Services) -> None:
    lookup = run_query(bundled, SEARCH, input={"query": "tesis 2024502 y la P. LXVI/2011"})
    assert lookup["search"]["intent"]["cited"] == [2024502, 160584]
    question = run_query(bundled, SEARCH, input={"query": "¿Qué es el interés jurídico?"})
    assert question["search"]["intent"]["cited"] == []


def test_chat_answers_a_lookup_with_the_cited_tesis_text(bundled: Services) -> None:
    """Without an LLM the sentences nearest to "¿Qué dice la P. LXVI/2011?" came from the
    criterion that replaced it, and the cited tesis went unquoted: a lookup transcribes."""
    data = run_query(bundled, CHAT, input={"question": "¿Qué dice la P. LXVI/2011?"})["chat"]
    assert [r["registro"] for r in data["references"]][:1] == [160584]
    assert "transcripción literal" in data["answer"]
    assert "[1] CRITERIOS EMITIDOS POR LA CORTE INTERAMERICANA" in data["answer"]


def test_a_superseded_tesis_asked_for_by_name_is_answered_even_without_superseded_ones(
    bundled: Services,
) -> None:
    """The dashboard's Consulta asks with includeSuperseded false: "¿Qué dice la P.
    LXVI/2011?" answered with 2006225 and hid the tesis asked for among the discarded."""
    question = {"question": "¿Qué dice la P. LXVI/2011?", "includeSuperseded": False}
    data = run_query(bundled, CHAT, input=question)["chat"]
    assert [r["registro"] for r in data["references"]][:1] == [160584]
    assert not data["references"][0]["status"]["vigente"]


def test_without_superseded_criteria_the_replacement_answers_a_question_worded_like_the_old(
    bundled: Services,
) -> None:
    """160584 (2011) is worded like the question and lost force to 2006225 (2014), which was
    on topic only beside it: with superseded criteria left out, 2006225 must still answer."""
    question = (
        "¿Los criterios de la Corte Interamericana cuando el Estado mexicano no fue parte "
        "son orientadores?"
    )
    result = bundled.search.search(SearchRequest(query=question, top_k=5, include_superseded=False))
    assert [d.hit.registro for d in result.discarded] == [160584]
    assert result.hits[0].registro == 2006225 and result.hits[0].on_topic
    data = run_query(bundled, CHAT, input={"question": question, "includeSuperseded": False})
    chat = data["chat"]
    assert [r["registro"] for r in chat["references"]][:1] == [2006225]


def test_a_lookup_names_the_cited_tesis_the_corpus_lacks_beside_those_it_answers(
    bundled: Services,
) -> None:
    """A prober's find: "la tesis 160584 y la 2a./J. 12/2019" answered with 160584 and never
    said the second is not in the corpus."""
    question = "¿Qué dice la tesis 160584 y la 2a./J. 12/2019?"
    search = run_query(bundled, SEARCH, input={"query": question})["search"]
    assert search["intent"] == {"cited": [160584], "notFound": ["tesis 2a./J. 12/2019"]}
    assert not search["abstained"]
    chat = run_query(bundled, CHAT, input={"question": question})["chat"]
    assert [r["registro"] for r in chat["references"]][:1] == [160584]
    assert "No está en el corpus: tesis 2a./J. 12/2019" in " ".join(chat["warnings"])
    # none found: the search abstains, naming them, and nothing is "not found beside"
    alone = run_query(bundled, SEARCH, input={"query": "¿Qué dice la 2a./J. 12/2019?"})
    assert alone["search"]["abstained"] and alone["search"]["intent"]["notFound"] == []

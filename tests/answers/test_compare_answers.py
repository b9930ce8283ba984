"""Issue 13, item 6: compareAnswers answers with and without recency and reports the citations."""

from __future__ import annotations

import threading

from api.errors import LLMTimeout
from api.llm.base import Message
from api.llm.bounded import BoundedLLM
from api.services.chat import ChatRequest, ChatService
from api.services.container import Services
from tests.conftest import run_query
from tests.fakes import ScriptedLLM
from tests.graphql.test_chat import with_llm

QUERY = """
query Q($q: String!) {
  compareAnswers(question: $q) {
    __typename
    ... on CompareAnswersPayload {
      withRecency { ...side }
      withoutRecency { ...side }
    }
    ... on InputError { field message }
  }
}
fragment side on AnswerSide {
  recencyWeight mode answer inForce oldestYear newestYear supersededCited
  cited { number registro anio vigente }
  references { number registro anio status { vigente } }
}
"""
QUESTION = (
    "jurisprudencia de la Corte Interamericana de Derechos Humanos vinculante para los jueces "
    "mexicanos"
)


def test_both_sides_report_what_they_cited(bundled: Services) -> None:
    reply = "Es vinculante [1], aunque un criterio anterior decía otra cosa [2]."
    services = with_llm(bundled, ScriptedLLM([reply, reply]))
    data = run_query(services, QUERY, q=QUESTION)["compareAnswers"]
    assert data["__typename"] == "CompareAnswersPayload"
    with_r, without = data["withRecency"], data["withoutRecency"]
    assert with_r["recencyWeight"] > 0 and without["recencyWeight"] == 0
    for side in (with_r, without):
        assert side["mode"] == "RAG"
        refs = {r["number"]: r for r in side["references"]}
        assert [c["number"] for c in side["cited"]] == [n for n in (1, 2) if n in refs]
        cited = [refs[c["number"]] for c in side["cited"]]
        assert [c["registro"] for c in side["cited"]] == [r["registro"] for r in cited]
        assert side["inForce"] == sum(c["vigente"] for c in side["cited"])
        assert side["oldestYear"] == min(r["anio"] for r in cited)
        assert side["newestYear"] == max(r["anio"] for r in cited)
        assert side["supersededCited"] == (not all(c["vigente"] for c in side["cited"]))
    # On the bundled corpus the criterion in force, P./J. 21/2014, is [1] with recency.
    assert with_r["cited"][0]["registro"] == 2006225 and with_r["cited"][0]["vigente"]


class MeetingLLM:
    """Answers only once both sides' calls are running together (a barrier of two): a
    compare that asked one after the other would time out on the first call."""

    model_id = "meeting"

    def __init__(self) -> None:
        self.barrier = threading.Barrier(2)

    def complete(self, messages: list[Message], timeout: float | None = None) -> str:
        try:
            self.barrier.wait(timeout=10)
        except threading.BrokenBarrierError as exc:
            raise LLMTimeout("the other side never called") from exc
        return "Es vinculante [1]."

    def stream(self, messages: list[Message], timeout: float | None = None):  # type: ignore[no-untyped-def]
        yield self.complete(messages, timeout)


def test_both_sides_ask_the_model_at_once(bundled: Services) -> None:
    """Two calls to a slow model one after the other outlasted the request's budget."""
    data = run_query(with_llm(bundled, MeetingLLM()), QUERY, q=QUESTION)["compareAnswers"]
    assert data["withRecency"]["mode"] == data["withoutRecency"]["mode"] == "RAG"


def test_a_model_that_takes_one_call_at_a_time_answers_both_sides_in_turn(
    bundled: Services,
) -> None:
    """With VIGENCIA_LLM_MAX_RUNNING=1 both sides at once left one of them "modelo ocupado"."""
    slow = ScriptedLLM(["Es vinculante [1].", "Es vinculante [1]."], delay=0.3)
    services = with_llm(bundled, BoundedLLM(slow, max_running=1, max_wait_s=0.05))
    data = run_query(services, QUERY, q=QUESTION)["compareAnswers"]
    assert data["withRecency"]["mode"] == data["withoutRecency"]["mode"] == "RAG"


def test_in_turn_the_two_sides_share_one_model_timeout(bundled: Services) -> None:
    """One after the other, two slow answers outlasted the request's budget that one chat
    fits in: the second side gets what the first left of the model's timeout."""
    slow = ScriptedLLM(["Es vinculante [1].", "Es vinculante [1]."], delay=1.5)
    chat = ChatService(bundled.search, BoundedLLM(slow, max_running=1, max_wait_s=0.05), 2.0)
    (_, with_recency), (_, without) = chat.compare(ChatRequest(QUESTION))
    assert with_recency.mode == "RAG"
    assert without.mode == "EXTRACTIVE" and without.llm_error == "tiempo agotado"
    assert slow.timeouts == [2.0, 1.0]


def test_without_llm_both_sides_are_extractive(bundled: Services) -> None:
    data = run_query(bundled, QUERY, q="suspensión provisional")["compareAnswers"]
    assert data["withRecency"]["mode"] == data["withoutRecency"]["mode"] == "EXTRACTIVE"
    assert data["withRecency"]["cited"], "the extractive answer cites its sentences"


def test_empty_question_is_an_input_error(bundled: Services) -> None:
    data = run_query(bundled, QUERY, q="  ")["compareAnswers"]
    assert data == {"__typename": "InputError", "field": "question", "message": "must not be empty"}

"""A relevance-ranked answer says how far to trust its first hit (``api.core.confidence``)
through ``search`` and ``chat``; a date order, a lookup and an abstention say nothing."""

from __future__ import annotations

from api.core.confidence import FLOOR_MARGIN, LEAD
from api.services.chat import ChatRequest, ChatService
from api.services.container import Services
from tests.conftest import run_query, subscribe_all
from tests.fakes import ScriptedLLM

CONFIDENCE = "confidence { level lead floorMargin reasons }"
SEARCH = f"""
query S($input: SearchInput!) {{
  search(input: $input) {{ ... on SearchPayload {{ abstained intent {{ mode }} {CONFIDENCE} }} }}
}}
"""
CHAT = f"""
query C($input: ChatInput!) {{
  chat(input: $input) {{ ... on ChatPayload {{ mode warnings {CONFIDENCE} }} }}
}}
"""
CLEAR = "¿Procede la suspensión contra una orden de aprehensión en el sistema acusatorio?"
# many tesis on the suplencia de la queja, the first two within 0.01 of relevance
CLOSE = "¿Qué es la suplencia de la queja?"
ENGLISH = "Can the victim of a crime file an amparo?"


def confidence_of(services: Services, query: str) -> dict | None:
    data = run_query(services, SEARCH, input={"query": query, "topK": 10})["search"]
    return data["confidence"]


def test_a_clear_first_answer_is_high_and_a_close_race_low(bundled: Services) -> None:
    clear = confidence_of(bundled, CLEAR)
    assert clear is not None and clear["level"] == "HIGH" and clear["reasons"] == []
    assert clear["lead"] >= LEAD and clear["floorMargin"] >= FLOOR_MARGIN
    close = confidence_of(bundled, CLOSE)
    assert close is not None and close["level"] == "LOW" and close["lead"] < LEAD
    assert any("compare las referencias" in reason for reason in close["reasons"])


def test_a_date_order_a_lookup_and_an_abstention_have_no_confidence(bundled: Services) -> None:
    for query in (
        "¿Cuál fue el primer criterio sobre la suspensión del acto reclamado?",
        "Registro digital: 2024502",
        "asdkjh qwpoeiru zxmcnb",
    ):
        assert confidence_of(bundled, query) is None, query


def test_a_chat_answer_warns_when_its_search_is_unsure(bundled: Services) -> None:
    unsure = run_query(bundled, CHAT, input={"question": CLOSE})["chat"]
    assert unsure["confidence"]["level"] == "LOW"
    assert any(w.startswith("Confianza baja:") for w in unsure["warnings"])
    sure = run_query(bundled, CHAT, input={"question": CLEAR})["chat"]
    assert sure["confidence"]["level"] == "HIGH"
    assert not any(w.startswith("Confianza baja:") for w in sure["warnings"])


def test_the_chat_stream_ends_with_the_same_confidence_and_warning(bundled: Services) -> None:
    stream = f"""
    subscription S($input: ChatInput!) {{
      chatStream(input: $input) {{ __typename ... on ChatDone {{ warnings {CONFIDENCE} }} }}
    }}
    """
    events = [e["chatStream"] for e in subscribe_all(bundled, stream, input={"question": CLOSE})]
    done = events[-1]
    assert done["__typename"] == "ChatDone" and done["confidence"]["level"] == "LOW"
    assert any(w.startswith("Confianza baja:") for w in done["warnings"])


def test_the_confidence_does_not_depend_on_the_page_size(bundled: Services) -> None:
    """Against every candidate ranked, not the page's rest: one hit had always read high."""
    for query in (CLOSE, CLEAR, ENGLISH):
        levels = {
            run_query(bundled, SEARCH, input={"query": query, "topK": k})["search"]["confidence"][
                "level"
            ]
            for k in (1, 2, 10, 20)
        }
        assert len(levels) == 1, query


def test_an_english_question_is_measured_against_its_own_floor(bundled: Services) -> None:
    english = confidence_of(bundled, ENGLISH)
    assert english is not None and english["level"] == "HIGH"
    # the English floor, not the Spanish one: an English question's cosines sit lower
    floor = bundled.search.abstain_floor("en")
    assert floor < bundled.search.abstain_floor("es")
    assert english["floorMargin"] >= FLOOR_MARGIN


def test_rankings_the_thresholds_were_not_measured_on_have_no_confidence(
    bundled: Services,
) -> None:
    for extra in (
        {"profile": "SEED"},
        {"mode": "VECTOR"},
        {"mode": "LEXICAL"},
        {"relevanceGate": False},  # nothing compared with the floor: off-corpus could read high
    ):
        data = run_query(bundled, SEARCH, input={"query": CLEAR, "topK": 10, **extra})["search"]
        assert not data["abstained"] and data["confidence"] is None, extra
    assert confidence_of(bundled, CLEAR) is not None  # the configured ranking has one


def test_a_generated_answer_is_told_to_hedge_when_the_search_is_unsure(
    bundled: Services,
) -> None:
    """The model's prompt carries a low confidence's cautions; a clear answer's does not."""
    llm = ScriptedLLM(["Procede [1].", "Procede [1]."])
    chat = ChatService(bundled.search, llm, timeout=0.5, max_references=3)
    for question in (CLOSE, CLEAR):
        chat.answer(ChatRequest(question=question))
    unsure, sure = (call[0]["content"] for call in llm.calls)
    assert "La referencia [1] no destaca con claridad" in unsure
    assert "no destaca con claridad" not in sure


def test_a_streamed_answer_s_prompt_carries_the_cautions_too(bundled: Services) -> None:
    llm = ScriptedLLM(["Procede [1]."])
    chat = ChatService(bundled.search, llm, timeout=0.5, max_references=3)
    _, events = chat.stream(ChatRequest(question=CLOSE))
    list(events)
    assert "La referencia [1] no destaca con claridad" in llm.calls[0][0]["content"]

"""Issue 4 over GraphQL and the chat service, on the bundled corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from api.errors import LLMTimeout
from api.services.chat import ChatRequest, ChatService
from api.services.container import Services
from tests.conftest import run_query, subscribe_all
from tests.fakes import ScriptedLLM

PREGUNTAS = json.loads(
    (Path(__file__).parent.parent / "fixtures" / "preguntas_12.json").read_text(encoding="utf-8")
)["preguntas"]

CHAT = """
query C($input: ChatInput!) {
  chat(input: $input) {
    __typename
    ... on ChatPayload {
      answer mode ragUsed llmError phantomRemoved
      references { number registro rubro url status { vigente description } chunkCount
                   fragments { chunkIndex startLine endLine text } }
      citationCheck { cited valid phantom uncited coverage }
      systemPrompt
    }
    ... on InputError { field message }
  }
}
"""


def with_llm(services: Services, llm: ScriptedLLM) -> Services:
    chat = ChatService(services.search, llm, timeout=0.5, max_references=3)
    return Services(
        services.settings,
        services.store,
        services.embedder,
        services.search,
        chat,
        services.judge,
        llm,
    )


def test_without_llm_answers_are_extractive_and_say_so(bundled: Services) -> None:
    data = run_query(
        bundled, CHAT, input={"question": "¿Cuándo procede la suspensión provisional?"}
    )
    chat = data["chat"]
    assert (chat["mode"], chat["ragUsed"]) == ("EXTRACTIVE", False)
    assert chat["answer"].lower().startswith("respuesta extractiva")
    numbers = [r["number"] for r in chat["references"]]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) <= 5
    assert set(chat["citationCheck"]["cited"]) <= set(numbers)
    assert "Referencias válidas: " + ", ".join(f"[{n}]" for n in numbers) in chat["systemPrompt"]


@pytest.mark.parametrize("pregunta", PREGUNTAS, ids=[p["id"] for p in PREGUNTAS])
def test_real_questions_give_no_phantom_and_cite_stored_tesis(
    bundled: Services, pregunta: dict[str, str]
) -> None:
    _, answer = bundled.chat.answer(ChatRequest(question=pregunta["texto"]))
    assert answer.citation_check.phantom == ()
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", answer.text)]
    by_number = {r.number: r.registro for r in answer.references}
    assert set(cited) <= set(by_number)
    stored = bundled.store.get_tesis([by_number[n] for n in cited])
    assert set(stored) == {by_number[n] for n in cited}


def test_scripted_llm_phantom_citation_is_removed_and_reported(bundled: Services) -> None:
    llm = ScriptedLLM(["Procede cuando se cumplen los requisitos [1][2][7]. Véase también [3]."])
    data = run_query(with_llm(bundled, llm), CHAT, input={"question": "suspensión provisional"})
    chat = data["chat"]
    assert chat["mode"] == "RAG" and chat["ragUsed"]
    assert "[7]" not in chat["answer"]
    assert chat["citationCheck"]["phantom"] == [7] and chat["phantomRemoved"] == [7]
    assert chat["citationCheck"]["coverage"] == pytest.approx(1.0)
    assert "Referencias válidas: [1], [2], [3]" in llm.calls[0][0]["content"]


def test_llm_timeout_falls_back_to_extractive_and_says_why(bundled: Services) -> None:
    llm = ScriptedLLM([LLMTimeout("timed out after 0.5 s")])
    chat = run_query(with_llm(bundled, llm), CHAT, input={"question": "interés legítimo"})["chat"]
    assert chat["mode"] == "EXTRACTIVE" and not chat["ragUsed"]
    assert chat["llmError"]


@pytest.mark.parametrize("refs", [99, 0])  # 0 had silently meant the default
def test_bad_max_references_is_a_typed_error(bundled: Services, refs: int) -> None:
    chat = run_query(bundled, CHAT, input={"question": "amparo", "maxReferences": refs})["chat"]
    assert (chat["__typename"], chat["field"]) == ("InputError", "maxReferences")


STREAM = """
subscription S($input: ChatInput!) {
  chatStream(input: $input) {
    __typename
    ... on ChatReferences { references { number registro } }
    ... on ChatDelta { text }
    ... on ChatDone { mode citationCheck { phantom coverage } }
  }
}
"""


def collect_stream(services: Services, question: str) -> list[dict[str, Any]]:
    events = subscribe_all(services, STREAM, input={"question": question})
    return [e["chatStream"] for e in events]


def test_chat_stream_sends_references_before_any_text(bundled: Services) -> None:
    llm = ScriptedLLM(["La suspensión provisional procede [1], salvo excepciones [2][9]."])
    events = collect_stream(with_llm(bundled, llm), "suspensión provisional")
    kinds = [e["__typename"] for e in events]
    assert kinds[0] == "ChatReferences" and kinds[-1] == "ChatDone"
    assert set(kinds[1:-1]) == {"ChatDelta"}
    text = "".join(e["text"] for e in events if e["__typename"] == "ChatDelta")
    assert "[9]" not in text and "[1]" in text
    assert events[-1]["citationCheck"]["phantom"] == [9]


def test_chat_stream_without_llm_is_extractive(bundled: Services) -> None:
    events = collect_stream(bundled, "pensión alimenticia")
    assert events[0]["__typename"] == "ChatReferences"
    assert events[-1]["mode"] == "EXTRACTIVE"


JUDGE = """
query J($input: JudgeInput!) {
  judge(input: $input) {
    __typename
    ... on JudgePayload { judge summary warnings error
                          items { registro chunkIndex startLine endLine score matchedBy } }
    ... on InputError { field message }
  }
}
"""


def test_offline_judge_scores_chunks_by_span(bundled: Services) -> None:
    chunks = bundled.store.get_chunks(2006225)
    candidates = [{"registro": 2006225, "chunkIndex": c.index} for c in chunks[:2]]
    data = run_query(
        bundled,
        JUDGE,
        input={"query": "jurisprudencia interamericana vinculante", "candidates": candidates},
    )["judge"]
    assert data["judge"] == "offline" and data["error"] is None
    items = data["items"]
    assert {(i["registro"], i["chunkIndex"]) for i in items} == {(2006225, 0), (2006225, 1)}
    assert items[0]["score"] != items[1]["score"]
    assert "2006225" in data["summary"]


def test_llm_judge_reply_without_json_keeps_input_order(bundled: Services) -> None:
    llm = ScriptedLLM(["No puedo evaluar estos fragmentos."])
    services = with_llm(bundled, llm)
    from api.judge.llm_judge import LLMJudge

    services.judge = LLMJudge(llm, timeout=0.5)
    data = run_query(services, JUDGE, input={"query": "suspensión provisional", "topK": 3})["judge"]
    assert data["judge"] == "llm" and data["error"]
    assert [i["matchedBy"] for i in data["items"]] == ["none"] * len(data["items"])


def test_judge_rejects_unknown_chunks(bundled: Services) -> None:
    data = run_query(
        bundled, JUDGE, input={"query": "x", "candidates": [{"registro": 1, "chunkIndex": 0}]}
    )["judge"]
    assert (data["__typename"], data["field"]) == ("InputError", "candidates")


def test_input_errors_name_the_argument_the_client_sent(bundled: Services) -> None:
    """A chat's empty question was reported as "query", latest's limit as "topK"."""
    chat = run_query(bundled, CHAT, input={"question": "  "})["chat"]
    assert (chat["__typename"], chat["field"]) == ("InputError", "question")
    dated = run_query(
        bundled,
        """{ latest(query: "amparo", limit: 101) { ... on InputError { field message } } }""",
    )["latest"]
    assert dated["field"] == "limit" and "101" in dated["message"]


def test_judge_says_which_named_chunks_it_did_not_judge_and_refuses_none(
    bundled: Services,
) -> None:
    """An unknown chunk beside a stored one had been dropped in silence, and an empty list
    had silently meant a search."""
    named = [{"registro": 2006225, "chunkIndex": 0}, {"registro": 1, "chunkIndex": 0}]
    data = run_query(bundled, JUDGE, input={"query": "jurisprudencia", "candidates": named})
    judged = data["judge"]
    assert [i["registro"] for i in judged["items"]] == [2006225]
    assert any("1 #0" in w for w in judged["warnings"])
    empty = run_query(bundled, JUDGE, input={"query": "x", "candidates": []})["judge"]
    assert (empty["__typename"], empty["field"]) == ("InputError", "candidates")

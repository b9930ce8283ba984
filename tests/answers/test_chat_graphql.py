"""Issue 13 over GraphQL: the stream's replacement event and the uncited warning."""

from __future__ import annotations

from typing import Any

from api.services.container import Services
from tests.conftest import run_query, subscribe_all
from tests.fakes import ScriptedLLM
from tests.graphql.test_chat import with_llm

STREAM = """
subscription S($input: ChatInput!) {
  chatStream(input: $input) {
    __typename
    ... on ChatDelta { text }
    ... on ChatReplace { text reason }
    ... on ChatDone { mode llmError warnings }
  }
}
"""
CHAT = """
query C($input: ChatInput!) {
  chat(input: $input) { ... on ChatPayload { answer mode llmError warnings
                                             references { number relevance boost } } }
}
"""
QUESTION = "suspensión provisional"
PHANTOM_ONLY = "La suspensión provisional procede cuando hay urgencia [9]."


def stream(services: Services) -> list[dict[str, Any]]:
    events = subscribe_all(services, STREAM, input={"question": QUESTION})
    return [e["chatStream"] for e in events]


def test_chat_and_chat_stream_end_in_the_same_mode(bundled: Services) -> None:
    chat = run_query(
        with_llm(bundled, ScriptedLLM([PHANTOM_ONLY])), CHAT, input={"question": QUESTION}
    )["chat"]
    events = stream(with_llm(bundled, ScriptedLLM([PHANTOM_ONLY])))
    done = events[-1]
    assert chat["mode"] == done["mode"] == "EXTRACTIVE"
    assert chat["llmError"] == done["llmError"]
    (replace,) = [e for e in events if e["__typename"] == "ChatReplace"]
    assert replace["text"] == chat["answer"]
    assert "el modelo no respondió" in replace["text"]


def test_uncited_answer_warns_in_the_payload(bundled: Services) -> None:
    chat = run_query(
        with_llm(bundled, ScriptedLLM(["La suspensión procede siempre."])),
        CHAT,
        input={"question": QUESTION},
    )["chat"]
    assert chat["mode"] == "RAG"
    assert any("no cita ninguna referencia" in w for w in chat["warnings"])
    ref = chat["references"][0]
    assert abs(ref["boost"] - 1) < 5 and ref["relevance"] > 0

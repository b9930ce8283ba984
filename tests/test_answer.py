from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from api.core.citations import CitationCheck
from api.core.extractive import HEADER
from api.core.models import Validity
from api.core.references import Reference, consolidate
from api.errors import LLMError, LLMTimeout
from api.services.answer import (
    INTERRUPTED,
    Answer,
    Answerer,
    wants_full_text,
)
from tests.fakes import ScriptedLLM, make_hit, three_tesis_hits

QUESTION = "¿Cuándo procede la suspensión provisional?"


def three_refs() -> list[Reference]:
    return consolidate(three_tesis_hits())


def test_rag_answer_strips_and_reports_the_phantom() -> None:
    llm = ScriptedLLM(["La suspensión procede [1][2], salvo excepciones [7]."])
    answer = Answerer(llm, timeout=5).answer(QUESTION, three_refs())

    assert answer.mode == "RAG"
    assert answer.rag_used is True
    assert answer.text == "La suspensión procede [1][2], salvo excepciones."
    assert "[7]" not in answer.text
    assert answer.phantom_removed == (7,)
    assert answer.citation_check == CitationCheck((1, 2, 7), (1, 2), (7,), (3,), 2 / 3)
    assert answer.llm_error is None
    assert answer.model_id == "scripted"
    assert llm.timeouts == [5]


def test_rag_sends_the_prompt_and_context_it_returns() -> None:
    llm = ScriptedLLM(["Procede [1]."])
    answer = Answerer(llm).answer(QUESTION, three_refs())

    system, user = llm.last_messages
    assert system == {"role": "system", "content": answer.system_prompt}
    assert "Referencias válidas: [1], [2], [3]" in answer.system_prompt
    assert answer.context in user["content"]
    assert user["content"].endswith(f"Pregunta: {QUESTION}")
    assert len(answer.references) == 3


def test_no_llm_gives_an_extractive_answer_with_valid_numbers() -> None:
    refs = consolidate(
        [
            make_hit(1, 0, "La suspensión provisional procede si hay urgencia."),
            make_hit(2, 0, "El plazo es de quince días hábiles."),
        ]
    )
    answer = Answerer(None).answer(QUESTION, refs)

    assert answer.mode == "EXTRACTIVE"
    assert answer.rag_used is False
    assert answer.llm_error is None
    assert answer.text.startswith(HEADER)
    assert answer.citation_check.phantom == ()
    assert answer.citation_check.valid == (1,)
    assert answer.phantom_removed == ()


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (LLMTimeout("chat endpoint timed out after 5 s"), "tiempo agotado"),
        (LLMError("HTTP 500"), "error del modelo"),
        ("", "respuesta vacía del modelo"),
        ("   \n", "respuesta vacía del modelo"),
        ("[9] [8].", "respuesta inservible del modelo"),
        ("...", "respuesta inservible del modelo"),
    ],
)
def test_llm_failures_fall_back_to_extractive(reply: str | Exception, error: str) -> None:
    answer = Answerer(ScriptedLLM([reply])).answer(QUESTION, three_refs())

    assert answer.mode == "EXTRACTIVE"
    assert answer.rag_used is False
    assert answer.llm_error is not None
    assert answer.llm_error.startswith(error)
    assert answer.citation_check.phantom == ()


def test_slow_llm_times_out_into_extractive() -> None:
    answer = Answerer(ScriptedLLM(["tarde"], delay=10), 0.01).answer(QUESTION, three_refs())
    assert answer.mode == "EXTRACTIVE"
    assert answer.llm_error is not None
    assert answer.llm_error.startswith("tiempo agotado")


def test_no_references_does_not_call_the_llm() -> None:
    llm = ScriptedLLM([])
    answer = Answerer(llm).answer("¿Qué es el aval?", [])

    assert llm.calls == []
    assert answer.mode == "EXTRACTIVE"
    assert answer.text.startswith("No tengo información sobre")
    assert answer.citation_check == CitationCheck((), (), (), (), 0.0)


def test_other_exceptions_are_bugs_and_propagate() -> None:
    with pytest.raises(ZeroDivisionError):
        Answerer(ScriptedLLM([ZeroDivisionError()])).answer(QUESTION, three_refs())


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Dame el texto completo de la tesis 2006225", True),
        ("Transcribe la jurisprudencia sobre suspensión", True),
        ("¿Me das el texto íntegro?", True),
        ("Quiero la tesis completa", True),
        ("full text please", True),
        ("¿Cuándo procede la suspensión?", False),
        ("¿Qué es un texto normativo completo?", False),
    ],
)
def test_wants_full_text(question: str, expected: bool) -> None:
    assert wants_full_text(question) is expected


def test_full_text_with_llm_asks_for_a_transcription() -> None:
    llm = ScriptedLLM(["Fragmento 0 de la tesis 300. [1]"])
    answer = Answerer(llm).answer("Transcribe el texto completo de la tesis", three_refs())

    assert answer.mode == "FULL_TEXT"
    assert answer.rag_used is True
    assert "transcribe literalmente" in llm.last_messages[0]["content"]


def test_full_text_without_llm_transcribes_the_fragments() -> None:
    answer = Answerer(None).answer("Dame el texto completo", three_refs())

    assert answer.mode == "EXTRACTIVE"
    assert "transcripción literal" in answer.text
    assert "Fragmento 0 de la tesis 300.\nFragmento 1 de la tesis 300." in answer.text
    assert answer.citation_check.valid == (1, 2, 3)


def test_answer_carries_warnings_data_for_superseded_sources() -> None:
    superada = Validity("superada", por_registro=2006225, desde=date(2014, 4, 28))
    refs = consolidate(
        [make_hit(160584, 0, "La suspensión provisional procede.", anio=2011, status=superada)]
    )
    answer = Answerer(None).answer(QUESTION, refs)
    assert "superada por 2006225 desde 2014-04-28" in answer.text
    assert "Vigencia: superada por 2006225" in answer.context


def test_a_generated_answer_warns_when_it_cites_a_superseded_criterion() -> None:
    superada = Validity("superada", por_registro=2006225, desde=date(2014, 4, 28))
    refs = consolidate(
        [
            make_hit(2006225, 0, "Los criterios son vinculantes.", anio=2014),
            make_hit(160584, 0, "Los criterios son orientadores.", anio=2011, status=superada),
        ]
    )
    answer = Answerer(ScriptedLLM(["Son orientadores [2]."]), timeout=5).answer(QUESTION, refs)
    assert answer.mode == "RAG"
    assert any("cita [2]" in w and "superada por 2006225" in w for w in answer.warnings)
    vigente = Answerer(ScriptedLLM(["Son vinculantes [1]."]), timeout=5).answer(QUESTION, refs)
    assert vigente.warnings == ()


def test_a_note_that_keeps_the_criterion_in_force_is_named_not_called_superseded() -> None:
    aclarada = Validity("aclarada")
    refs = consolidate([make_hit(253881, 0, "El despido se acredita así.", status=aclarada)])
    answer = Answerer(ScriptedLLM(["Se acredita [1]."]), timeout=5).answer(QUESTION, refs)
    assert answer.warnings == ("La respuesta cita [1], que está aclarada.",)


def test_a_removed_phantom_citation_leaves_a_warning() -> None:
    llm = ScriptedLLM(["La suspensión procede [1]. Además, la Corte lo reiteró en 2020 [9]."])
    answer = Answerer(llm, timeout=5).answer(QUESTION, three_refs())
    assert "[9]" not in answer.text
    assert any("[9]" in w and "sin fuente" in w for w in answer.warnings)


# Streaming (seed 001's order: references, deltas, citations; then the whole answer).


def kinds(events: Sequence[tuple[str, object]]) -> list[str]:
    out: list[str] = []
    for kind, _ in events:
        if not out or out[-1] != kind:
            out.append(kind)
    return out


def deltas(events: Sequence[tuple[str, object]]) -> str:
    return "".join(str(payload) for kind, payload in events if kind == "delta")


def test_stream_sends_references_before_any_delta_and_never_a_phantom() -> None:
    reply = "La suspensión procede [1][2], salvo excepciones [7]. Véase [3]."
    refs = three_refs()
    events = list(Answerer(ScriptedLLM([reply], chunk_size=3)).stream(QUESTION, refs))

    assert kinds(events) == ["references", "delta", "citations", "answer"]
    assert events[0] == ("references", tuple(refs))
    text = deltas(events)
    assert text == "La suspensión procede [1][2], salvo excepciones. Véase [3]."
    for i in range(1, len(events)):  # no prefix of what was sent ever showed the phantom
        assert "[7" not in deltas(events[:i])
    check = events[-2][1]
    assert isinstance(check, CitationCheck)
    assert check.phantom == (7,)
    answer = events[-1][1]
    assert isinstance(answer, Answer)
    assert (answer.mode, answer.text, answer.phantom_removed) == ("RAG", text, (7,))


def test_stream_references_come_first_even_if_the_llm_fails() -> None:
    events = list(Answerer(ScriptedLLM([LLMTimeout("lento")])).stream(QUESTION, three_refs()))

    assert kinds(events) == ["references", "delta", "citations", "answer"]
    answer = events[-1][1]
    assert isinstance(answer, Answer)
    assert answer.mode == "EXTRACTIVE"
    assert answer.llm_error == "tiempo agotado"  # the detail goes to the server log only
    assert deltas(events) == answer.text


def test_stream_failure_before_any_text_falls_back_whole() -> None:
    llm = ScriptedLLM([["La", LLMError("conexión perdida")]])
    events = list(Answerer(llm).stream(QUESTION, three_refs()))

    answer = events[-1][1]
    assert isinstance(answer, Answer)
    assert answer.mode == "EXTRACTIVE"
    assert deltas(events) == answer.text
    assert not deltas(events).startswith("La")


def test_stream_failure_after_text_ends_with_a_note() -> None:
    llm = ScriptedLLM([["La suspensión ", "procede [1] ", LLMError("conexión perdida")]])
    events = list(Answerer(llm).stream(QUESTION, three_refs()))

    answer = events[-1][1]
    assert isinstance(answer, Answer)
    assert answer.mode == "RAG"
    assert answer.llm_error == "error del modelo"
    assert deltas(events) == f"La suspensión procede [1]\n\n{INTERRUPTED}"
    assert answer.text == deltas(events)


def test_stream_empty_reply_falls_back() -> None:
    events = list(Answerer(ScriptedLLM(["  "])).stream(QUESTION, three_refs()))
    answer = events[-1][1]
    assert isinstance(answer, Answer)
    assert answer.mode == "EXTRACTIVE"
    assert answer.llm_error == "respuesta vacía del modelo"


def test_stream_reply_with_too_few_letters_falls_back() -> None:
    events = list(Answerer(ScriptedLLM([["Sí", " [1]"]])).stream(QUESTION, three_refs()))
    answer = events[-1][1]
    assert isinstance(answer, Answer)
    assert answer.mode == "EXTRACTIVE"  # two letters are not an answer
    assert answer.llm_error is not None


def test_stream_without_llm_is_extractive() -> None:
    events = list(Answerer(None).stream(QUESTION, three_refs()))
    assert kinds(events) == ["references", "delta", "citations", "answer"]
    assert deltas(events).startswith(HEADER)


def test_stream_matches_the_blocking_answer() -> None:
    reply = "Procede [1] y [2-4]; ver [Referencia 3]."
    blocking = Answerer(ScriptedLLM([reply])).answer(QUESTION, three_refs())
    events = list(Answerer(ScriptedLLM([reply], chunk_size=2)).stream(QUESTION, three_refs()))
    streamed = events[-1][1]
    assert isinstance(streamed, Answer)
    assert streamed.text == blocking.text == "Procede [1] y [2, 3]; ver [Referencia 3]."
    assert streamed.citation_check == blocking.citation_check

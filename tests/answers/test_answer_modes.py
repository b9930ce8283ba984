"""Issue 13, items 3, 4 and 5: the extractive answer, stream/blocking parity, uncited warning."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from api.core.extractive import HEADER, extractive_answer
from api.core.references import consolidate
from api.errors import LLMError
from api.services.answer import UNCITED, Answer, Answerer
from tests.fakes import FakeEmbedder, ScriptedLLM, make_hit, three_tesis_hits

QUESTION = "¿Procede la suspensión provisional del acto reclamado?"


def test_failed_llm_says_the_model_did_not_answer_and_why() -> None:
    answer = Answerer(ScriptedLLM([LLMError("HTTP 503")])).answer(
        QUESTION, consolidate(three_tesis_hits())
    )
    assert answer.mode == "EXTRACTIVE"
    first = answer.text.splitlines()[0]
    assert answer.llm_error is not None and answer.llm_error.startswith("error del modelo")
    assert first.startswith(f"Respuesta extractiva; el modelo no respondió ({answer.llm_error})")
    assert "HTTP 503" not in answer.text  # upstream details stay in the server log
    assert "sin modelo de lenguaje" not in answer.text


def test_without_llm_the_header_says_there_is_no_model() -> None:
    answer = Answerer(None).answer(QUESTION, consolidate(three_tesis_hits()))
    assert answer.text.startswith(HEADER)


def test_cut_final_sentences_are_never_quoted() -> None:
    cut = make_hit(
        1,
        0,
        "La suspensión provisional procede contra el acto. "
        "La suspensión provisional del acto reclamado se conced",
    )
    text = extractive_answer(QUESTION, consolidate([cut]))
    assert "se conced" not in text
    assert "«La suspensión provisional procede contra el acto.»" in text


def test_partial_tesis_last_sentence_is_not_quoted() -> None:
    ref = consolidate(
        [
            make_hit(
                1,
                0,
                "La suspensión provisional procede contra el acto. "
                "La suspensión provisional del acto reclamado cesa.",
            )
        ]
    )[0]
    text = extractive_answer(QUESTION, [replace(ref, partial=True)])
    assert "cesa" not in text and "procede contra el acto" in text


def test_off_topic_references_are_left_out() -> None:
    refs = consolidate(
        [
            make_hit(1, 0, "La suspensión provisional del acto reclamado procede si hay urgencia."),
            make_hit(2, 0, "El divorcio necesario exige acreditar una causal legal."),
        ]
    )
    text = extractive_answer(QUESTION, refs, scorer=_scorer())
    assert "[1]" in text and "divorcio" not in text


def _scorer():  # type: ignore[no-untyped-def]
    embedder = FakeEmbedder(dim=256)

    def score(question: str, sentences: Sequence[str]) -> list[float]:
        q = embedder.embed([question], "query")[0]
        return [float(v) for v in embedder.embed(list(sentences), "passage") @ q]

    return score


def test_the_embedder_breaks_lexical_ties_by_meaning() -> None:
    # Both sentences share one question term; the second also shares the rest of its meaning.
    refs = consolidate(
        [
            make_hit(1, 0, "La provisional designación del juez no depende de la parte quejosa."),
            make_hit(2, 0, "La suspensión provisional del acto reclamado procede con urgencia."),
        ]
    )
    text = extractive_answer(QUESTION, refs, max_sentences=1, scorer=_scorer())
    assert "[2]" in text and "designación" not in text


def kinds(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e[0] for e in events]


def test_phantom_only_reply_ends_extractive_in_both_paths() -> None:
    reply = "La suspensión provisional procede cuando hay urgencia [7], según el criterio [8]."
    refs = consolidate(three_tesis_hits())
    blocking = Answerer(ScriptedLLM([reply])).answer(QUESTION, refs)
    events = list(Answerer(ScriptedLLM([reply], chunk_size=5)).stream(QUESTION, refs))
    streamed = events[-1][1]
    assert isinstance(streamed, Answer)
    assert blocking.mode == streamed.mode == "EXTRACTIVE"
    assert blocking.text == streamed.text
    assert blocking.llm_error == streamed.llm_error and "fantasma" in (streamed.llm_error or "")
    # Text was already sent; a final replacement carries the extractive answer.
    assert kinds(events)[-3:] == ["replace", "citations", "answer"]
    assert "delta" in kinds(events)
    (replacement,) = [e[1] for e in events if e[0] == "replace"]
    assert replacement == streamed.text


def test_good_reply_needs_no_replacement() -> None:
    reply = "La suspensión provisional procede [1]."
    events = list(Answerer(ScriptedLLM([reply])).stream(QUESTION, consolidate(three_tesis_hits())))
    assert "replace" not in kinds(events)
    assert events[-1][1].mode == "RAG"  # type: ignore[union-attr]


def test_answer_citing_nothing_carries_a_warning() -> None:
    refs = consolidate(three_tesis_hits())
    uncited = Answerer(ScriptedLLM(["La suspensión procede siempre."])).answer(QUESTION, refs)
    assert uncited.mode == "RAG" and uncited.warnings == (UNCITED,)
    cited = Answerer(ScriptedLLM(["La suspensión procede [1]."])).answer(QUESTION, refs)
    assert cited.warnings == ()

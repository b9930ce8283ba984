"""Answers over consolidated references: RAG with an LLM, or extractive without one.

Every answer is citation-checked; phantom markers are removed from the text shown and recorded.
The mode says truthfully what produced the text: ``RAG`` (the LLM answered from the context),
``FULL_TEXT`` (the LLM transcribed fragments the user asked for whole) or ``EXTRACTIVE``
(no LLM configured, no references, or the LLM failed: ``llm_error`` says why).

Example::

    answer = Answerer(OpenAIChat(OpenAIEndpoint(url, model))).answer("¿Procede la suspensión?", refs)
    answer.mode, answer.text, answer.citation_check.phantom, answer.llm_error
    for kind, payload in Answerer(llm).stream(question, refs):
        ...  # ("references", refs), ("delta", text)..., [("replace", text)],
        #      ("citations", check), ("answer", answer)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from api.core.citations import CitationCheck, PhantomFilter, check_citations, strip_phantoms
from api.core.cited import partly_cited_note
from api.core.confidence import Confidence
from api.core.extractive import DateOrder, SentenceScorer, extractive_answer, transcription
from api.core.prompt import build_context, build_system_prompt, build_user_message
from api.core.redact import redact
from api.core.references import Reference
from api.core.text import fold
from api.core.validity import describe
from api.errors import LLMError, llm_failure
from api.llm.base import LLM

_log = logging.getLogger("vigencia.answer")

AnswerMode = Literal["RAG", "FULL_TEXT", "EXTRACTIVE", "ABSTAINED"]
ANSWER_MODES: tuple[AnswerMode, ...] = ("RAG", "FULL_TEXT", "EXTRACTIVE", "ABSTAINED")
# A reply with fewer letters than this (after removing markers) is not an answer.
MIN_LETTERS = 3
INTERRUPTED = "(Respuesta incompleta: el modelo de lenguaje falló antes de terminar.)"
UNCITED = (
    "La respuesta no cita ninguna referencia: compruebe cada afirmación en las referencias "
    "antes de usarla."
)

PHANTOMS = (
    "El modelo citó referencias que no existen ({cited}); se quitaron esas marcas: lo que "
    "apoyaban queda sin fuente."
)

_FULL_TEXT = re.compile(
    r"texto (?:completo|integro|literal)|(?:tesis|documentos?|version) (?:completas?|integras?)"
    r"|transcri|textual|full text|whole (?:text|document)|verbatim"
)


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer, its references and everything needed to inspect how it was produced."""

    text: str
    mode: AnswerMode
    rag_used: bool
    references: tuple[Reference, ...]
    citation_check: CitationCheck
    phantom_removed: tuple[int, ...]
    system_prompt: str
    context: str
    llm_error: str | None
    model_id: str | None = None
    not_found: tuple[str, ...] = ()  # cited tesis the corpus lacks (a lookup found others)
    uncertain: str | None = None  # the search's low-confidence note (api.core.confidence)

    @property
    def warnings(self) -> tuple[str, ...]:
        """What a reader must know about this answer: a lookup found only some of the tesis
        cited; the search that found the references is unsure of its first one; it cites no
        reference at all; the model cited references that do not exist (their markers were
        removed, so what they backed stands unsupported); a generated answer cites a criterion
        that lost force (an extractive one says so in its text)."""
        notes: list[str] = []
        if (note := partly_cited_note(self.not_found)) is not None:
            notes.append(note)
        if self.uncertain:
            notes.append(self.uncertain)
        if self.references and not self.citation_check.valid:
            notes.append(UNCITED)
        if self.phantom_removed:
            cited = ", ".join(f"[{n}]" for n in self.phantom_removed)
            notes.append(PHANTOMS.format(cited=cited))
        if self.rag_used:
            by_number = {ref.number: ref for ref in self.references}
            for number in self.citation_check.valid:
                ref = by_number.get(number)
                if ref is None or ref.status.vigente:
                    continue
                said = f"La respuesta cita {ref.marker}, que está {describe(ref.status)}"
                # a note that removes force (superada, abandonada) or only qualifies it
                notes.append(
                    f"{said}: no es el criterio vigente." if ref.superseded else f"{said}."
                )
        return tuple(notes)


StreamEvent = (
    tuple[Literal["references"], tuple[Reference, ...]]
    | tuple[Literal["delta"], str]
    | tuple[Literal["replace"], str]
    | tuple[Literal["citations"], CitationCheck]
    | tuple[Literal["answer"], Answer]
)


def wants_full_text(question: str) -> bool:
    """True when the user asks for whole documents ('texto completo', 'transcribe', ...)."""
    return bool(_FULL_TEXT.search(fold(question)))


def describe_error(exc: LLMError) -> str:
    """A short, generic reason for clients; the detail (redacted) goes to the server log only:
    an upstream error body can echo keys or internals."""
    _log.warning("LLM failed: %s", redact(str(exc)))
    return llm_failure(exc)


def unusable(text: str, n_refs: int) -> str | None:
    """Why an LLM reply cannot be shown (empty, no words, only phantom citations), or None."""
    if not text.strip():
        return "respuesta vacía del modelo"
    shown = strip_phantoms(text, n_refs)
    if sum(c.isalpha() for c in shown) < MIN_LETTERS:
        return f"respuesta inservible del modelo: {text.strip()[:80]!r}"
    check = check_citations(text, n_refs)
    if check.phantom and not check.valid:
        return f"respuesta con solo citas fantasma del modelo: {list(check.phantom)}"
    return None


@dataclass(frozen=True, slots=True)
class _Prepared:
    question: str
    refs: tuple[Reference, ...]
    full_text: bool
    system_prompt: str
    context: str
    scorer: SentenceScorer | None = None
    date_order: DateOrder | None = None  # the references are in date order: [1] answers
    confidence: Confidence | None = None  # the search's, whose cautions the prompt gives

    @classmethod
    def of(
        cls,
        question: str,
        refs: Sequence[Reference],
        scorer: SentenceScorer | None = None,
        date_order: DateOrder | None = None,
        full_text: bool = False,
        confidence: Confidence | None = None,
    ) -> _Prepared:
        full = full_text or wants_full_text(question)
        return cls(
            question,
            tuple(refs),
            full,
            build_system_prompt(refs, full, confidence),
            build_context(refs),
            scorer,
            date_order,
            confidence,
        )

    def messages(self) -> list[dict[str, str]]:
        """The system prompt built in ``of`` (not again), then the question and its context."""
        return [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": build_user_message(self.question, self.refs)},
        ]

    def fallback(self, error: str | None) -> Answer:
        """The extractive answer (a transcription for full-text requests)."""
        if self.full_text:
            text = transcription(self.refs, error)
        else:
            text = extractive_answer(
                self.question,
                self.refs,
                scorer=self.scorer,
                llm_error=error,
                date_order=self.date_order,
            )
        check = check_citations(text, len(self.refs))
        return Answer(
            text, "EXTRACTIVE", False, self.refs, check, (), self.system_prompt, self.context, error
        )

    def generated(self, raw: str, shown: str, model_id: str, error: str | None) -> Answer:
        check = check_citations(raw, len(self.refs))
        mode: AnswerMode = "FULL_TEXT" if self.full_text else "RAG"
        return Answer(
            shown,
            mode,
            True,
            self.refs,
            check,
            check.phantom,
            self.system_prompt,
            self.context,
            error,
            model_id,
        )


@dataclass(frozen=True, slots=True)
class Answerer:
    """Answers questions over references with ``llm``, extractive when it is None or fails.

    ``timeout`` bounds each LLM call; ``scorer`` lets the extractive answer weigh each
    sentence's meaning (the embedder). With no references the LLM is not called: the answer
    says there is no information.
    """

    llm: LLM | None
    timeout: float | None = None
    scorer: SentenceScorer | None = None

    def answer(
        self,
        question: str,
        refs: Sequence[Reference],
        date_order: DateOrder | None = None,
        full_text: bool = False,
        confidence: Confidence | None = None,
    ) -> Answer:
        """Ask the LLM with the references as context; the extractive answer on failure.
        ``date_order``: the search sorted the references by date (the first one answers).
        ``full_text``: answer with the documents' text, as for "texto completo" (a lookup).
        ``confidence``: the search's; a low one's cautions go into the prompt."""
        prep = _Prepared.of(question, refs, self.scorer, date_order, full_text, confidence)
        if self.llm is None or not prep.refs:
            return prep.fallback(None)
        try:
            raw = self.llm.complete(prep.messages(), timeout=self.timeout)
        except LLMError as exc:
            return prep.fallback(describe_error(exc))
        problem = unusable(raw, len(prep.refs))
        if problem is not None:
            return prep.fallback(problem)
        shown = strip_phantoms(raw, len(prep.refs)).strip()
        return prep.generated(raw, shown, self.llm.model_id, None)

    def stream(
        self,
        question: str,
        refs: Sequence[Reference],
        date_order: DateOrder | None = None,
        full_text: bool = False,
        confidence: Confidence | None = None,
    ) -> Iterator[StreamEvent]:
        """Seed 001's event order: references, then answer deltas, then the citation check.

        A final ``("answer", Answer)`` event carries the whole record (for saving the
        exchange). Phantom markers are never emitted: a trailing partial ``[`` is held back
        until it is known (``PhantomFilter``). Text is held until it has ``MIN_LETTERS``
        letters, so a failure or an empty reply before that falls back to the extractive
        answer, sent as one delta; a failure after text was sent ends the answer with a note
        and records ``llm_error``.

        A reply ends in the same mode as ``answer`` gives it: when the whole reply turns out
        unusable after text was sent (it cites only phantom numbers), a final
        ``("replace", text)`` event carries the extractive answer that replaces everything sent.
        """
        prep = _Prepared.of(question, refs, self.scorer, date_order, full_text, confidence)
        yield ("references", prep.refs)
        replaced = False
        if self.llm is None or not prep.refs:
            answer = prep.fallback(None)
        else:
            answer, replaced = yield from _stream_llm(prep, self.llm, self.timeout)
        if answer.mode == "EXTRACTIVE" and not replaced:
            yield ("delta", answer.text)
        yield ("citations", answer.citation_check)
        yield ("answer", answer)


def _stream_llm(
    prep: _Prepared, llm: LLM, timeout: float | None
) -> Generator[StreamEvent, None, tuple[Answer, bool]]:
    """Yield deltas of the LLM reply; return the Answer (EXTRACTIVE when nothing was sent)
    and whether a ``replace`` event already carried its text."""
    n_refs = len(prep.refs)
    cleaner = PhantomFilter(n_refs)
    held, sent, error = "", "", None
    try:
        for piece in llm.stream(prep.messages(), timeout=timeout):
            held += cleaner.feed(piece)
            if sent or sum(c.isalpha() for c in held) >= MIN_LETTERS:
                text, held = (held.lstrip(), "") if not sent else (held, "")
                if text:
                    sent += text
                    yield ("delta", text)
    except LLMError as exc:
        error = describe_error(exc)
    tail = held + cleaner.finish()
    if not sent:  # nothing shown yet: a failure or a non-answer falls back whole
        problem = error or unusable(cleaner.raw, n_refs)
        if problem is not None:
            return prep.fallback(problem), False
        tail = tail.lstrip()
    elif error is None and (problem := unusable(cleaner.raw, n_refs)) is not None:
        answer = prep.fallback(problem)  # the blocking path would not have shown this reply
        yield ("replace", answer.text)
        return answer, True
    tail = tail.rstrip()
    if error is not None:
        tail += f"\n\n{INTERRUPTED}"
    if tail:
        yield ("delta", tail)
    return prep.generated(cleaner.raw, sent + tail, llm.model_id, error), False

"""Chat: search -> one numbered reference per tesis -> RAG answer (or extractive) -> checks."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from api.core.citations import check_citations
from api.core.models import Filters
from api.core.references import (
    MAX_REFERENCES_LIMIT,
    Reference,
    consolidate,
    with_all_chunks,
    with_record,
    with_replacements,
)
from api.embeddings.base import Embedder
from api.errors import InvalidRequest, argument_names
from api.llm.base import LLM
from api.services.answer import Answer, Answerer, StreamEvent, wants_full_text
from api.services.search import SearchRequest, SearchResult, SearchService
from api.structured_log import log_references, log_rerank

# Chunks searched per reference: enough for each tesis to bring its best fragments.
CHUNKS_PER_REFERENCE = 3
NO_ANSWER = "No encontré tesis que respondan a la pregunta. {reason} No respondo sin fuentes."


@dataclass(frozen=True, slots=True)
class ChatRequest:
    question: str
    filters: Filters = field(default_factory=Filters)
    max_references: int | None = None
    recency_weight: float | None = None
    include_superseded: bool | None = None

    def validate(self, default_max: int) -> int:
        refs = default_max if self.max_references is None else self.max_references
        if not 1 <= refs <= MAX_REFERENCES_LIMIT:
            raise InvalidRequest("maxReferences", f"{refs} is outside 1..{MAX_REFERENCES_LIMIT}")
        return refs


@dataclass(frozen=True, slots=True)
class Prepared:
    search: SearchResult
    references: list[Reference]
    full_text: bool
    request: ChatRequest | None = None  # what was asked (logged as the chat's parameters)


MIN_SECOND_S = 1.0  # the least a compare's second side waits for the model


class ChatService:
    """Answers questions from the tesis; the LLM is optional."""

    def __init__(
        self,
        search: SearchService,
        llm: LLM | None,
        timeout: float | None = 30.0,
        max_references: int = 5,
    ) -> None:
        self.search = search
        self.llm = llm
        self.timeout = timeout
        self.max_references = max_references

    def prepare(self, request: ChatRequest) -> Prepared:
        max_refs = request.validate(self.max_references)
        with argument_names(query="question"):
            result = self.search.search(
                SearchRequest(
                    query=request.question,
                    filters=request.filters,
                    top_k=min(100, max_refs * CHUNKS_PER_REFERENCE),
                    recency_weight=request.recency_weight,
                    include_superseded=request.include_superseded,
                )
            )
        log_rerank(request.question, result)
        newer = [d.newer for d in result.discarded if d.newer is not None]
        on_topic = with_replacements([h for h in result.hits if h.on_topic], newer, max_refs)
        refs = consolidate(on_topic, max_refs)
        log_references(request.question, refs)
        records = self.search.store.get_tesis([r.registro for r in refs]) if refs else {}
        refs = [with_record(r, records.get(r.registro)) for r in refs]
        # a lookup ("¿Qué dice la 2a./J. 64/2022?") asks for what the cited tesis say
        full_text = wants_full_text(request.question) or bool(result.intent.cited)
        store = self.search.store
        if full_text:
            refs = [with_all_chunks(r, store.get_chunks(r.registro)) for r in refs]
        elif refs and result.intent.date_order is not None:
            # the answer is [1], the first or latest criterion: all of it, so its holding
            # ("Criterio jurídico: ...") can be quoted, not only the passage that was found
            refs[0] = with_all_chunks(refs[0], store.get_chunks(refs[0].registro))
        return Prepared(result, refs, full_text, request)

    def compare(
        self, request: ChatRequest
    ) -> tuple[tuple[Prepared, Answer], tuple[Prepared, Answer]]:
        """The same question answered with recency (the configured weight) and without it
        (weight 0): the answer-level A/B. Both at once where the model takes two calls at once
        (one after the other, two calls to a slow model outlasted the request's time budget
        that one call fits in); one after the other where it takes one (a local model with
        ``VIGENCIA_LLM_MAX_RUNNING=1``: at once, one side always found it busy)."""
        without_recency = replace(request, recency_weight=0.0)
        if getattr(self.llm, "max_running", 2) < 2:
            # the two share one model timeout, so the pair fits the request's time budget as
            # a single chat does: a slow model leaves the second side extractive, not both
            started = time.monotonic()
            first = self.answer(request)
            spent = time.monotonic() - started
            left = None if self.timeout is None else max(MIN_SECOND_S, self.timeout - spent)
            return first, self.answer(without_recency, left)
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="compare") as pool:
            with_recency = pool.submit(self.answer, request)
            without = pool.submit(self.answer, without_recency)
            return with_recency.result(), without.result()

    def score_sentences(self, question: str, sentences: Sequence[str]) -> list[float]:
        """Cosine of each sentence to the question (the extractive answer's meaning score)."""
        return embedder_scorer(self.search.embedder)(question, sentences)

    def answerer(self, timeout: float | None = None) -> Answerer:
        """The LLM and its timeout (``timeout``, when shorter, for this answer), with the
        embedder weighing extractive sentences."""
        if timeout is None or (self.timeout is not None and timeout > self.timeout):
            timeout = self.timeout
        return Answerer(self.llm, timeout, self.score_sentences)

    def answer(self, request: ChatRequest, timeout: float | None = None) -> tuple[Prepared, Answer]:
        prepared = self.prepare(request)
        if prepared.search.abstain_reason is not None:
            return prepared, abstention(prepared.search.abstain_reason)
        answer = self.answerer(timeout).answer(
            request.question,
            prepared.references,
            prepared.search.intent.date_order,
            prepared.full_text,
            prepared.search.confidence,
        )
        return prepared, with_search_notes(answer, prepared)

    def stream(self, request: ChatRequest) -> tuple[Prepared, Iterator[StreamEvent]]:
        prepared = self.prepare(request)
        if prepared.search.abstain_reason is not None:
            return prepared, abstention_events(abstention(prepared.search.abstain_reason))
        events = self.answerer().stream(
            request.question,
            prepared.references,
            prepared.search.intent.date_order,
            prepared.full_text,
            prepared.search.confidence,
        )
        return prepared, (
            ("answer", with_search_notes(event[1], prepared)) if event[0] == "answer" else event
            for event in events
        )


def with_search_notes(answer: Answer, prepared: Prepared) -> Answer:
    """``answer`` naming the cited tesis its lookup did not find, and saying when its search
    is unsure of the first reference (``api.core.confidence``)."""
    not_found = prepared.search.intent.not_found
    confidence = prepared.search.confidence
    uncertain = confidence.note if confidence is not None else None
    if not (not_found or uncertain):
        return answer
    return replace(answer, not_found=not_found, uncertain=uncertain)


def abstention(reason: str) -> Answer:
    """The answer when nothing in the corpus answers: says so, cites nothing, asks no model."""
    return Answer(
        text=NO_ANSWER.format(reason=reason),
        mode="ABSTAINED",
        rag_used=False,
        references=(),
        citation_check=check_citations("", 0),
        phantom_removed=(),
        system_prompt="",
        context="",
        llm_error=None,
    )


def abstention_events(answer: Answer) -> Iterator[StreamEvent]:
    yield ("references", ())
    yield ("delta", answer.text)
    yield ("citations", answer.citation_check)
    yield ("answer", answer)


def embedder_scorer(embedder: Embedder) -> Callable[[str, Sequence[str]], list[float]]:
    """Score sentences against a question by the cosine of their embeddings."""

    def score(question: str, sentences: Sequence[str]) -> list[float]:
        if not sentences:
            return []
        query = embedder.embed([question.strip()], "query")[0]
        vectors = embedder.embed(list(sentences), "passage")
        return [float(v) for v in vectors @ query]

    return score

"""Chat, its stream and the judge over GraphQL: thin types over ``api.services.chat`` and ``api.judge``."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import date
from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool

from api.core.answer_compare import cited_summary
from api.core.citations import CitationCheck
from api.core.models import Filters, Hit
from api.core.references import Reference
from api.errors import EmbedderError, InvalidRequest, StoreError
from api.graphql.context import Info
from api.graphql.errors import failure
from api.graphql.inputs import FiltersInput, filters_to_core
from api.graphql.queries import Intent
from api.graphql.types import (
    DiscardedHit,
    InputError,
    ServiceError,
    ValidityStatus,
    sjf_url,
)
from api.judge.models import JudgeResult
from api.monitoring.recorder import cited_registros
from api.services.answer import Answer
from api.services.chat import ChatRequest, Prepared
from api.services.search import SearchRequest

MAX_JUDGE_CANDIDATES = 50


@strawberry.type(description="One retrieved span of a referenced tesis.")
class FragmentType:
    chunk_index: int
    start_char: int
    end_char: int
    start_line: int
    end_line: int
    similarity: float
    final_score: float
    text: str


@strawberry.type(description="One tesis an answer may cite as [number].")
class ReferenceType:
    number: int
    registro: int
    rubro: str
    clave: str
    epoca: str
    anio: int
    fecha: date | None
    tipo: str
    materias: list[str]
    url: str
    status: ValidityStatus
    chunk_count: int
    similarity: float = strawberry.field(description="Highest chunk similarity.")
    avg_similarity: float
    final_score: float
    total_tokens: int
    fragments: list[FragmentType]
    relevance: float = strawberry.field(
        description="Relevance (before recency) of its best fragment."
    )
    boost: float = strawberry.field(description="finalScore ÷ relevance.")
    partial: bool = strawberry.field(description="The tesis text is cut in its source.")
    warning: str | None = strawberry.field(
        description="A flag for the reader, e.g. a criterion older than its materia's reform."
    )

    @classmethod
    def from_core(cls, r: Reference) -> ReferenceType:
        return cls(
            number=r.number,
            registro=r.registro,
            rubro=r.rubro,
            clave=r.clave,
            epoca=r.epoca,
            anio=r.anio,
            fecha=r.fecha,
            tipo=r.tipo,
            materias=list(r.materias),
            url=sjf_url(r.registro),
            status=ValidityStatus.from_core(r.status),
            chunk_count=r.chunk_count,
            similarity=r.max_similarity,
            avg_similarity=r.avg_similarity,
            final_score=r.final_score,
            total_tokens=r.total_tokens,
            relevance=r.relevance,
            boost=r.boost,
            partial=r.partial,
            fragments=[
                FragmentType(
                    chunk_index=f.chunk_index,
                    start_char=f.start_char,
                    end_char=f.end_char,
                    start_line=f.start_line,
                    end_line=f.end_line,
                    similarity=f.similarity,
                    final_score=f.final_score,
                    text=f.text,
                )
                for f in r.fragments
            ],
            warning=r.warning,
        )


@strawberry.type(description="Which [N] an answer cites, which were phantoms, coverage.")
class CitationCheckType:
    cited: list[int]
    valid: list[int]
    phantom: list[int]
    uncited: list[int]
    coverage: float

    @classmethod
    def from_core(cls, c: CitationCheck) -> CitationCheckType:
        return cls(
            cited=list(c.cited),
            valid=list(c.valid),
            phantom=list(c.phantom),
            uncited=list(c.uncited),
            coverage=c.coverage,
        )


@strawberry.type(description="An answer with its numbered references and checks.")
class ChatPayload:
    id: str | None = strawberry.field(description="Log id of the saved exchange.")
    answer: str
    mode: str = strawberry.field(description="RAG, FULL_TEXT, EXTRACTIVE or ABSTAINED.")
    rag_used: bool
    llm_error: str | None
    model: str | None
    references: list[ReferenceType]
    citation_check: CitationCheckType
    phantom_removed: list[int]
    discarded: list[DiscardedHit]
    intent: Intent
    system_prompt: str
    context: str
    warnings: list[str] = strawberry.field(
        description="What a reader must know, e.g. that the answer cites no reference."
    )
    abstained: bool = strawberry.field(
        description="Nothing in the corpus answers: the answer says so and cites nothing."
    )
    abstain_reason: str | None

    @classmethod
    def build(cls, log_id: str | None, prepared: Prepared, answer: Answer) -> ChatPayload:
        return cls(
            id=log_id,
            answer=answer.text,
            mode=answer.mode,
            rag_used=answer.rag_used,
            llm_error=answer.llm_error,
            model=answer.model_id,
            references=[ReferenceType.from_core(r) for r in answer.references],
            citation_check=CitationCheckType.from_core(answer.citation_check),
            phantom_removed=list(answer.phantom_removed),
            discarded=[DiscardedHit.from_core(d) for d in prepared.search.discarded],
            intent=Intent.from_core(prepared.search.intent, prepared.search.recency_weight),
            system_prompt=answer.system_prompt,
            context=answer.context,
            warnings=list(answer.warnings),
            abstained=prepared.search.abstained,
            abstain_reason=prepared.search.abstain_reason,
        )


@strawberry.input
class ChatInput:
    question: str
    filters: FiltersInput | None = None
    max_references: int | None = None
    recency_weight: float | None = None
    include_superseded: bool | None = None

    def to_core(self) -> ChatRequest:
        return ChatRequest(
            question=self.question,
            filters=filters_to_core(self.filters),
            max_references=self.max_references,
            recency_weight=self.recency_weight,
            include_superseded=self.include_superseded,
        )


ChatResponse = Annotated[ChatPayload | InputError | ServiceError, strawberry.union("ChatResponse")]


@strawberry.type(description="First stream event: the references the answer may cite.")
class ChatReferences:
    references: list[ReferenceType]


@strawberry.type(description="A piece of the answer text.")
class ChatDelta:
    text: str


@strawberry.type(
    description="Replaces every delta sent so far: the model's reply turned out unusable (only "
    "phantom citations) and the answer is the extractive fallback, as `chat` would give."
)
class ChatReplace:
    text: str
    reason: str | None


@strawberry.type(description="Last stream event: the citation check and how it was produced.")
class ChatDone:
    id: str | None
    mode: str
    rag_used: bool
    llm_error: str | None
    citation_check: CitationCheckType
    warnings: list[str]


ChatEvent = Annotated[
    ChatReferences | ChatDelta | ChatReplace | ChatDone | InputError | ServiceError,
    strawberry.union("ChatEvent"),
]


@strawberry.input(description="A chunk to judge: registro and chunk index.")
class ChunkRef:
    registro: int
    chunk_index: int


@strawberry.input
class JudgeInput:
    query: str
    top_k: int = 10
    filters: FiltersInput | None = None
    candidates: list[ChunkRef] | None = strawberry.field(
        default=None, description="Judge these chunks instead of searching."
    )
    summary: bool = strawberry.field(
        default=True, description="Ask the LLM judge for a summary paragraph (false: shorter)."
    )


@strawberry.type
class JudgedFragmentType:
    registro: int
    chunk_index: int
    start_line: int
    end_line: int
    span: str
    score: float
    raw_score: float | None
    reason: str
    matched_by: str


@strawberry.type(description="Chunks re-scored by the judge, best first.")
class JudgePayload:
    judge: str = strawberry.field(description="llm or offline.")
    items: list[JudgedFragmentType]
    summary: str
    warnings: list[str]
    error: str | None

    @classmethod
    def from_core(cls, r: JudgeResult) -> JudgePayload:
        return cls(
            judge=r.judge,
            summary=r.summary,
            warnings=list(r.warnings),
            error=r.error,
            items=[
                JudgedFragmentType(
                    registro=i.registro,
                    chunk_index=i.chunk_index,
                    start_line=i.start_line,
                    end_line=i.end_line,
                    span=i.span,
                    score=i.score,
                    raw_score=i.raw_score,
                    reason=i.reason,
                    matched_by=i.matched_by,
                )
                for i in r.items
            ],
        )


JudgeResponse = Annotated[
    JudgePayload | InputError | ServiceError, strawberry.union("JudgeResponse")
]


def record_chat(info: Info, question: str, prepared: Prepared, answer: Answer) -> str | None:
    """Save the exchange in the search log; None when logging is off or failed."""
    recorder = info.context.recorder
    if recorder is None:
        return None
    cited = cited_registros(answer.references, answer.citation_check.valid)
    return recorder.record_search(
        question, prepared.request, prepared.search, kind="chat", cited=cited
    )


@strawberry.type
class ChatQuery:
    @strawberry.field(description="Answer a question from the tesis, with numbered references.")
    async def chat(self, info: Info, input: ChatInput) -> ChatResponse:
        try:
            request = input.to_core()
            prepared, answer = await run_in_threadpool(info.context.chat.answer, request)
        except (InvalidRequest, StoreError, EmbedderError) as exc:
            return failure(exc)
        log_id = await run_in_threadpool(record_chat, info, request.question, prepared, answer)
        return ChatPayload.build(log_id, prepared, answer)

    @strawberry.field(description="Re-score chunks for a query (LLM judge, or offline).")
    async def judge(self, info: Info, input: JudgeInput) -> JudgeResponse:
        try:
            hits = await run_in_threadpool(judge_hits, info, input)
            result = await run_in_threadpool(
                info.context.judge.judge, input.query, hits, input.summary
            )
        except (InvalidRequest, StoreError, EmbedderError) as exc:
            return failure(exc)
        return JudgePayload.from_core(result)


def judge_hits(info: Info, input: JudgeInput) -> list[Hit]:
    """The hits to judge: the named chunks, or a search's top-k."""
    search = info.context.search
    filters = filters_to_core(input.filters)
    if not input.candidates:
        return search.search(
            SearchRequest(query=input.query, filters=filters, top_k=input.top_k)
        ).hits
    if len(input.candidates) > MAX_JUDGE_CANDIDATES:
        raise InvalidRequest(
            "candidates", f"{len(input.candidates)} chunks, at most {MAX_JUDGE_CANDIDATES}"
        )
    wanted = {(c.registro, c.chunk_index) for c in input.candidates}
    only = Filters(registros=tuple(sorted({r for r, _ in wanted})))
    result = search.search(
        SearchRequest(
            query=input.query,
            filters=only,
            top_k=100,
            max_chunks_per_tesis=10,
            apply_rules=False,
            temporal_mode="off",
        )
    )
    hits = [h for h in result.hits if (h.registro, h.passage.chunk.index) in wanted]
    if not hits:
        raise InvalidRequest("candidates", "none of the named chunks is stored")
    return hits


@strawberry.type
class ChatSubscription:
    @strawberry.subscription(
        description="The answer as it is written: references first, then text deltas, then "
        "the citation check."
    )
    async def chat_stream(self, info: Info, input: ChatInput) -> AsyncGenerator[ChatEvent, None]:
        try:
            request = input.to_core()
            prepared, events = await run_in_threadpool(info.context.chat.stream, request)
        except (InvalidRequest, StoreError, EmbedderError) as exc:
            yield failure(exc)
            return
        replacement: str | None = None
        while (event := await run_in_threadpool(next, events, None)) is not None:
            if event[0] == "references":
                refs = event[1]
                yield ChatReferences(references=[ReferenceType.from_core(r) for r in refs])
            elif event[0] == "delta":
                yield ChatDelta(text=event[1])
            elif event[0] == "replace":
                replacement = event[1]
            elif event[0] == "answer":
                answer = event[1]
                if replacement is not None:
                    yield ChatReplace(text=replacement, reason=answer.llm_error)
                log_id = await run_in_threadpool(
                    record_chat, info, request.question, prepared, answer
                )
                yield ChatDone(
                    id=log_id,
                    mode=answer.mode,
                    rag_used=answer.rag_used,
                    llm_error=answer.llm_error,
                    citation_check=CitationCheckType.from_core(answer.citation_check),
                    warnings=list(answer.warnings),
                )


@strawberry.type(description="A reference an answer cited.")
class CitedReference:
    number: int
    registro: int
    anio: int
    epoca: str
    vigente: bool = strawberry.field(description="False when an SJF note took its force away.")


@strawberry.type(description="One side of compareAnswers: the answer and what it cited.")
class AnswerSide:
    recency_weight: float
    answer: str
    mode: str
    llm_error: str | None
    cited: list[CitedReference]
    in_force: int = strawberry.field(description="Cited references still in force.")
    oldest_year: int | None
    newest_year: int | None
    superseded_cited: bool = strawberry.field(description="A superseded criterion was cited.")
    references: list[ReferenceType]

    @classmethod
    def build(cls, prepared: Prepared, answer: Answer) -> AnswerSide:
        summary = cited_summary(answer.references, answer.citation_check.valid)
        return cls(
            recency_weight=prepared.search.recency_weight,
            answer=answer.text,
            mode=answer.mode,
            llm_error=answer.llm_error,
            cited=[
                CitedReference(
                    number=r.number,
                    registro=r.registro,
                    anio=r.anio,
                    epoca=r.epoca,
                    vigente=not r.superseded,
                )
                for r in summary.cited
            ],
            in_force=summary.in_force,
            oldest_year=summary.oldest_year,
            newest_year=summary.newest_year,
            superseded_cited=summary.superseded_cited,
            references=[ReferenceType.from_core(r) for r in answer.references],
        )


@strawberry.type(description="One question answered with and without recency.")
class CompareAnswersPayload:
    question: str
    with_recency: AnswerSide
    without_recency: AnswerSide


CompareAnswersResponse = Annotated[
    CompareAnswersPayload | InputError | ServiceError, strawberry.union("CompareAnswersResponse")
]


@strawberry.type
class CompareAnswersQuery:
    @strawberry.field(
        description="Answer a question with recency and without it (weight 0), and report for "
        "each the references cited, how many are in force, the oldest and newest year cited and "
        "whether a superseded criterion was cited."
    )
    async def compare_answers(
        self, info: Info, question: str, filters: FiltersInput | None = None
    ) -> CompareAnswersResponse:
        try:
            request = ChatRequest(question=question, filters=filters_to_core(filters))
            (p1, a1), (p0, a0) = await run_in_threadpool(info.context.chat.compare, request)
        except (InvalidRequest, StoreError, EmbedderError) as exc:
            return failure(exc)
        return CompareAnswersPayload(
            question=question,
            with_recency=AnswerSide.build(p1, a1),
            without_recency=AnswerSide.build(p0, a0),
        )

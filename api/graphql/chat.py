"""``chat`` and ``chatStream``: answers with numbered references, over ``api.services.chat``."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool

from api.graphql.context import Info
from api.graphql.errors import input_field, outcome
from api.graphql.inputs import FiltersInput, filters_to_core
from api.graphql.mirror import mirror, to_record
from api.graphql.queries import Intent
from api.graphql.references import CitationCheckType, ReferenceType
from api.graphql.types import AnswerConfidence, DiscardedHit, InputError, Outcome, ServiceError
from api.services.chat import ChatRequest
from api.services.recorded import LoggedAnswer, answer_and_record, record_chat


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
        description=(
            "What a reader must know: the answer cites no reference, the model cited "
            "references that do not exist, or a generated answer cites a superseded criterion."
        )
    )
    abstained: bool = strawberry.field(
        description="Nothing in the corpus answers: the answer says so and cites nothing."
    )
    abstain_reason: str | None
    confidence: AnswerConfidence | None = strawberry.field(
        description="How far to trust the first reference, when relevance ranked it."
    )

    @classmethod
    def from_core(cls, logged: LoggedAnswer) -> ChatPayload:
        answer, search = logged.answer, logged.prepared.search
        return mirror(
            cls,
            answer,
            search,
            id=logged.log_id,
            answer=answer.text,
            model=answer.model_id,
            references=[ReferenceType.from_core(r) for r in answer.references],
            citation_check=CitationCheckType.from_core(answer.citation_check),
            discarded=[DiscardedHit.from_core(d) for d in search.discarded],
            intent=Intent.from_core(search.intent, search.recency_weight),
            confidence=AnswerConfidence.from_core(search.confidence),
        )


@strawberry.input
class ChatInput:
    question: str
    filters: FiltersInput | None = None
    max_references: int | None = None
    recency_weight: float | None = None
    include_superseded: bool | None = None

    def to_core(self) -> ChatRequest:
        return to_record(ChatRequest, self, filters=filters_to_core(self.filters))


ChatResponse = Annotated[Outcome[ChatPayload], strawberry.union("ChatResponse")]


@strawberry.type
class ChatQuery:
    chat: ChatResponse = input_field(
        ChatInput,
        ChatPayload.from_core,
        lambda ctx, request: answer_and_record(ctx.chat, ctx.recorder, request),
        "Answer a question from the tesis, with numbered references.",
    )


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
    confidence: AnswerConfidence | None = strawberry.field(
        description="How far to trust the first reference, when relevance ranked it."
    )


ChatEvent = Annotated[
    ChatReferences | ChatDelta | ChatReplace | ChatDone | InputError | ServiceError,
    strawberry.union("ChatEvent"),
]


@strawberry.type
class ChatSubscription:
    @strawberry.subscription(
        description="The answer as it is written: references first, then text deltas, then "
        "the citation check."
    )
    async def chat_stream(self, info: Info, input: ChatInput) -> AsyncGenerator[ChatEvent, None]:
        ctx = info.context
        started = await outcome(lambda pair: pair, lambda: ctx.chat.stream(input.to_core()))
        if isinstance(started, InputError | ServiceError):
            yield started
            return
        prepared, events = started
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
                    record_chat, ctx.recorder, input.question, prepared, answer
                )
                check = CitationCheckType.from_core(answer.citation_check)
                confidence = AnswerConfidence.from_core(prepared.search.confidence)
                yield mirror(
                    ChatDone, answer, id=log_id, citation_check=check, confidence=confidence
                )

"""``compareAnswers``: one question answered with and without recency, side by side."""

from __future__ import annotations

from typing import Annotated

import strawberry

from api.core.answer_compare import cited_summary
from api.graphql.context import Info
from api.graphql.errors import outcome
from api.graphql.inputs import FiltersInput, filters_to_core
from api.graphql.mirror import mirror
from api.graphql.references import ReferenceType
from api.graphql.types import Outcome
from api.services.answer import Answer
from api.services.chat import ChatRequest, Prepared


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
        return mirror(
            cls,
            summary,
            recency_weight=prepared.search.recency_weight,
            answer=answer.text,
            mode=answer.mode,
            llm_error=answer.llm_error,
            cited=[mirror(CitedReference, r, vigente=not r.superseded) for r in summary.cited],
            references=[ReferenceType.from_core(r) for r in answer.references],
        )


@strawberry.type(description="One question answered with and without recency.")
class CompareAnswersPayload:
    question: str
    with_recency: AnswerSide
    without_recency: AnswerSide


CompareAnswersResponse = Annotated[
    Outcome[CompareAnswersPayload], strawberry.union("CompareAnswersResponse")
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
        chat = info.context.chat

        def payload(
            sides: tuple[tuple[Prepared, Answer], tuple[Prepared, Answer]],
        ) -> CompareAnswersPayload:
            (p1, a1), (p0, a0) = sides
            return CompareAnswersPayload(
                question=question,
                with_recency=AnswerSide.build(p1, a1),
                without_recency=AnswerSide.build(p0, a0),
            )

        return await outcome(
            payload,
            lambda: chat.compare(ChatRequest(question=question, filters=filters_to_core(filters))),
        )

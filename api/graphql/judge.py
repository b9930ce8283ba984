"""``judge``: re-score chunks for a query (LLM judge, or offline) over ``api.services.judging``."""

from __future__ import annotations

from typing import Annotated

import strawberry

from api.graphql.errors import input_field
from api.graphql.inputs import FiltersInput, filters_to_core
from api.graphql.mirror import mirror, to_record
from api.graphql.types import Outcome
from api.judge.models import JudgeResult
from api.services.judging import JudgeRequest, judge_chunks


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

    def to_core(self) -> JudgeRequest:
        return to_record(
            JudgeRequest,
            self,
            filters=filters_to_core(self.filters),
            candidates=None
            if self.candidates is None
            else tuple((c.registro, c.chunk_index) for c in self.candidates),
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
        return mirror(cls, r, items=[mirror(JudgedFragmentType, i) for i in r.items])


JudgeResponse = Annotated[Outcome[JudgePayload], strawberry.union("JudgeResponse")]


@strawberry.type
class JudgeQuery:
    judge: JudgeResponse = input_field(
        JudgeInput,
        JudgePayload.from_core,
        lambda ctx, request: judge_chunks(ctx.search, ctx.judge, request),
        "Re-score chunks for a query (LLM judge, or offline).",
    )

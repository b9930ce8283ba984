"""What an answer may cite and how its citations checked out, as GraphQL types."""

from __future__ import annotations

import strawberry

from api.core.citations import CitationCheck
from api.core.references import Fragment, Reference
from api.graphql.mirror import fields_of, mirror
from api.graphql.tesis import Numbered, TesisFields, sjf_url
from api.graphql.types import ValidityStatus


@strawberry.type(description="One retrieved span of a referenced tesis.")
class FragmentType:
    __annotations__ = fields_of(Fragment, without=("relevance",))


@strawberry.type(description="One tesis an answer may cite as [number].")
class ReferenceType(Numbered, TesisFields):
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
        return cls.from_tesis(
            r,
            url=sjf_url(r.registro),
            status=ValidityStatus.from_core(r.status),
            similarity=r.max_similarity,
            fragments=[mirror(FragmentType, f) for f in r.fragments],
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
        return mirror(cls, c)

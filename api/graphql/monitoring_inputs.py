"""GraphQL inputs of ranking monitoring: an A/B comparison of one question."""

from __future__ import annotations

import strawberry

from api.core.scoring import Profile
from api.graphql.inputs import FiltersInput, filters_to_core
from api.graphql.types import ScoringProfile
from api.services.monitoring import RankingSide
from api.services.search import SearchRequest


@strawberry.input(description="One side of a comparison; omitted fields: see CompareInput.")
class RankingSideInput:
    recency_weight: float | None = None
    profile: ScoringProfile | None = None
    vigencia_rules: bool = strawberry.field(
        default=True, description="Apply reform-cutoff and pre-Novena discards."
    )

    def to_core(self) -> RankingSide:
        profile: Profile | None = None
        if self.profile is not None:
            profile = self.profile.value
        return RankingSide(self.recency_weight, profile, self.vigencia_rules)


@strawberry.input(
    description="One question ranked two ways. A defaults to recency weight 0 (similarity "
    "order), B to the configured weight."
)
class CompareInput:
    query: str
    filters: FiltersInput | None = None
    top_k: int = 10
    a: RankingSideInput | None = None
    b: RankingSideInput | None = None

    def to_core(self) -> tuple[SearchRequest, RankingSide, RankingSide]:
        """The question and the two sides (``InvalidRequest`` for bad filters)."""
        base = SearchRequest(
            query=self.query, filters=filters_to_core(self.filters), top_k=self.top_k
        )
        a, b = self.a or RankingSideInput(), self.b or RankingSideInput()
        return base, a.to_core(), b.to_core()

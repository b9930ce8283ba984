"""GraphQL inputs and their conversion to core requests (bounds are checked by the services)."""

from __future__ import annotations

import strawberry

from api.core.models import Filters
from api.graphql.mirror import to_record
from api.graphql.types import (
    RetrievalMode,
    RulesMode,
    ScoringProfile,
    SortOrder,
    TemporalMode,
    TesisTipo,
)
from api.services.search import SearchRequest

MAX_LIST_ITEMS = 20


@strawberry.input(description="Metadata filters; omitted fields mean 'any'.")
class FiltersInput:
    materias: list[str] | None = None
    tipo: TesisTipo | None = None
    epocas: list[str] | None = None
    anio_min: int | None = None
    anio_max: int | None = None
    instancia: str | None = None
    organo: str | None = strawberry.field(
        default=None, description='The court or chamber that issued it ("Segunda Sala").'
    )
    circuito: int | None = strawberry.field(
        default=None,
        description="A collegiate court's circuit, 1-32 (6: the courts 'del Sexto Circuito').",
    )

    def to_core(self) -> Filters:
        for name, items in (("materias", self.materias), ("epocas", self.epocas)):
            if items and len(items) > MAX_LIST_ITEMS:
                from api.errors import InvalidRequest

                raise InvalidRequest(
                    f"filters.{name}", f"{len(items)} items, at most {MAX_LIST_ITEMS}"
                )
        return Filters(
            materias=tuple(self.materias or ()),
            tipo=self.tipo.value if self.tipo else None,
            epocas=tuple(self.epocas or ()),
            anio_min=self.anio_min,
            anio_max=self.anio_max,
            instancia=self.instancia,
            organo=self.organo,
            circuito=self.circuito,
        )


def filters_to_core(filters: FiltersInput | None) -> Filters:
    return filters.to_core() if filters else Filters()


@strawberry.input(description="A question and how to rank its answers.")
class SearchInput:
    query: str
    top_k: int = 10
    filters: FiltersInput | None = None
    recency_weight: float | None = strawberry.field(
        default=None, description="0..1; omitted = the configured default."
    )
    profile: ScoringProfile | None = None
    mode: RetrievalMode | None = None
    alpha: float | None = strawberry.field(
        default=None, description="Hybrid weight of the vector side, 0..1."
    )
    threshold: float | None = strawberry.field(
        default=None, description="Minimum cosine similarity, 0..1."
    )
    max_chunks_per_tesis: int | None = strawberry.field(
        default=None, description="Most chunks of one tesis among the hits, 1..10."
    )
    include_superseded: bool | None = strawberry.field(
        default=None,
        description="Keep criteria that lost force (flagged, demoted); false discards them.",
    )
    temporal_mode: TemporalMode = strawberry.field(
        default=TemporalMode.AUTO,
        description="AUTO: earliest/latest questions are date-sorted over the whole filtered set.",
    )
    vigencia_rules: bool = strawberry.field(
        default=True, description="Apply reform-cutoff and pre-Novena discards."
    )
    rules_mode: RulesMode | None = strawberry.field(
        default=None,
        description="SAME_POINT (default): an old criterion goes only when a newer hit is on "
        "the same point; LITERAL: seed 000's cutoffs within the page.",
    )
    relevance_gate: bool = strawberry.field(
        default=True,
        description="Rank off-topic hits after on-topic ones and abstain when none is on topic.",
    )

    def to_core(self) -> SearchRequest:
        return to_record(
            SearchRequest,
            self,
            filters=filters_to_core(self.filters),
            apply_rules=self.vigencia_rules,
            gate=self.relevance_gate,
        )


@strawberry.input(description="Tesis listed by publication date.")
class TimelineInput:
    filters: FiltersInput | None = None
    order: SortOrder = SortOrder.ASC
    limit: int = 50
    offset: int = 0
    date_field: str | None = strawberry.field(
        default=None,
        description="Sort generic records by this extra date (e.g. pushed_at) instead of "
        "their primary date; records without it come last.",
    )

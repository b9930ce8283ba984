"""The search service: question -> embedding -> candidates -> scores -> ranked hits.

Only this module (and ``chat``) calls the store and the embedder; scoring and re-ranking are
pure functions from ``api.core``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Literal

from api.core.fusion import RetrievalMode, merge_candidates
from api.core.intent import (
    NO_TEMPORAL,
    MateriaIntent,
    TemporalIntent,
    detect_materia,
    detect_temporal,
    effective_recency_weight,
)
from api.core.limits import MAX_QUESTION_TOKENS, question_tokens
from api.core.models import Candidate, Discarded, Filters, Hit
from api.core.reform import DEFAULT_CUTOFFS, ReformConfig, RerankOutcome, apply_reform_rules
from api.core.scoring import PROFILES, DecayParams, Profile, rank, score_candidates
from api.core.temporal import sort_by_date, temporal_blend
from api.core.text import analyze
from api.core.topic import topic_terms
from api.core.validity import apply_validity, replacements_to_fetch
from api.embeddings.base import Embedder, Vectors
from api.settings import Settings
from api.store.base import SortOrder, VectorStore

MAX_TOP_K = 100
MAX_CHUNKS_PER_TESIS = 10
TemporalMode = Literal["auto", "off", "sort", "blend"]
TEMPORAL_MODES: tuple[TemporalMode, ...] = ("auto", "off", "sort", "blend")
Route = Literal["relevance", "date_sorted", "blend"]
MIN_POOL = 100  # candidates per retriever, so normalization sees a stable set
MAX_QUERY_CHARS = 2000
MIN_YEAR, MAX_YEAR = 1800, 2100


class InvalidRequest(ValueError):
    """A search argument is out of range; names the field."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@dataclass(frozen=True, slots=True)
class SearchConfig:
    profile: Profile = "default"
    recency_weight: float = 0.5
    mode: RetrievalMode = "hybrid"
    alpha: float = 0.3
    oversample: int = 5
    threshold: float = 0.0
    max_chunks_per_tesis: int = 2
    decay: DecayParams = field(default_factory=DecayParams)
    reform: ReformConfig = field(default_factory=ReformConfig)
    current_weight: float = 0.7
    superseded_demotion: float = 0.5
    include_superseded: bool = True
    temporal_margin: float = 0.05
    blend_weight: float = 0.5

    @classmethod
    def from_settings(cls, settings: Settings, today: date | None = None) -> SearchConfig:
        origin = settings.decay_origin_year or (today or date.today()).year
        return cls(
            profile=settings.scoring_profile,
            recency_weight=settings.recency_weight,
            mode=settings.retrieval_mode,
            alpha=settings.hybrid_alpha,
            oversample=settings.oversample,
            threshold=settings.similarity_threshold,
            max_chunks_per_tesis=settings.max_chunks_per_tesis,
            reform=ReformConfig(
                cutoffs=settings.reform_cutoffs or DEFAULT_CUTOFFS,
                recent_year=settings.reform_recent_year,
                min_gap_years=settings.reform_min_gap_years,
                keep_most_recent=settings.reform_keep_most_recent,
                discard_pre_novena=settings.reform_discard_pre_novena,
            ),
            current_weight=settings.current_recency_weight,
            superseded_demotion=settings.superseded_demotion,
            temporal_margin=settings.temporal_margin,
            blend_weight=settings.temporal_blend_weight,
            decay=DecayParams(
                origin=float(origin),
                offset=settings.decay_offset_years,
                scale=settings.decay_scale_years,
                decay=settings.decay_value,
                floor=settings.decay_floor,
            ),
        )


@dataclass(frozen=True, slots=True)
class SearchRequest:
    query: str
    filters: Filters = field(default_factory=Filters)
    top_k: int = 10
    recency_weight: float | None = None
    profile: Profile | None = None
    mode: RetrievalMode | None = None
    alpha: float | None = None
    threshold: float | None = None
    max_chunks_per_tesis: int | None = None
    include_superseded: bool | None = None
    temporal_mode: TemporalMode = "auto"
    apply_rules: bool = True
    ordering: Literal["earliest", "latest"] | None = None  # force a date-sorted answer

    def validate(self) -> None:
        text = self.query.strip()
        if not text:
            raise InvalidRequest("query", "must not be empty")
        if len(text) > MAX_QUERY_CHARS:
            raise InvalidRequest("query", f"{len(text)} characters, at most {MAX_QUERY_CHARS}")
        tokens = question_tokens(text)
        if tokens > MAX_QUESTION_TOKENS:  # before embedding: the embedder does not truncate
            raise InvalidRequest("query", f"~{tokens} tokens, at most {MAX_QUESTION_TOKENS}")
        if not 1 <= self.top_k <= MAX_TOP_K:
            raise InvalidRequest("topK", f"{self.top_k} is outside 1..{MAX_TOP_K}")
        for name, value in (
            ("recencyWeight", self.recency_weight),
            ("alpha", self.alpha),
            ("threshold", self.threshold),
        ):
            if value is not None and not 0.0 <= value <= 1.0:
                raise InvalidRequest(name, f"{value} is outside 0..1")
        cap = self.max_chunks_per_tesis
        if cap is not None and not 1 <= cap <= MAX_CHUNKS_PER_TESIS:
            raise InvalidRequest("maxChunksPerTesis", f"{cap} is outside 1..{MAX_CHUNKS_PER_TESIS}")
        if self.temporal_mode not in TEMPORAL_MODES:
            raise InvalidRequest(
                "temporalMode", f"{self.temporal_mode!r} is not one of {TEMPORAL_MODES}"
            )
        if self.profile is not None and self.profile not in PROFILES:
            raise InvalidRequest("profile", f"{self.profile!r} is not one of {PROFILES}")
        f = self.filters
        for name, year in (("anioMin", f.anio_min), ("anioMax", f.anio_max)):
            if year is not None and not MIN_YEAR <= year <= MAX_YEAR:
                raise InvalidRequest(name, f"{year} is outside {MIN_YEAR}..{MAX_YEAR}")
        if f.anio_min is not None and f.anio_max is not None and f.anio_min > f.anio_max:
            raise InvalidRequest("anioMin", f"{f.anio_min} is after anioMax {f.anio_max}")


@dataclass(frozen=True, slots=True)
class Plan:
    """A request resolved against the defaults: what ``search`` will actually do."""

    request: SearchRequest
    temporal: TemporalIntent
    ordering: Literal["earliest", "latest"] | None
    route: Route
    weight: float
    mode: RetrievalMode
    profile: Profile
    threshold: float
    alpha: float
    cap: int
    include_superseded: bool


@dataclass(frozen=True, slots=True)
class SearchIntent:
    """What the question was read as, and how it was routed."""

    materia: MateriaIntent
    temporal: TemporalIntent
    route: Route
    cutoff_year: int | None
    rules_applied: bool
    topic: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchResult:
    hits: list[Hit]
    discarded: list[Discarded]
    candidates: int
    recency_weight: float
    profile: Profile
    mode: RetrievalMode
    timings_ms: dict[str, float]
    intent: SearchIntent
    without_recency: list[Hit] = field(default_factory=list)  # top-k by relevance alone


class SearchService:
    """Hybrid retrieval plus recency scoring over any ``VectorStore``."""

    def __init__(self, store: VectorStore, embedder: Embedder, config: SearchConfig) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self.embedder.embed([text.strip()], "query")[0]
        return vector

    def candidates(
        self, query: str, vector: Vectors, filters: Filters, limit: int, mode: RetrievalMode
    ) -> list[Candidate]:
        """Oversampled candidates: vector top-N and BM25 top-N, merged by chunk."""
        lists: list[list[Candidate]] = []
        if mode in ("hybrid", "vector"):
            lists.append(self.store.vector_search(vector, filters, limit))
        if mode in ("hybrid", "lexical"):
            lists.append(self.store.lexical_search(query, vector, filters, limit))
        return merge_candidates(*lists)

    def plan(self, request: SearchRequest) -> Plan:
        """Resolve the request against the defaults and read its temporal intent."""
        request.validate()
        cfg = self.config
        temporal = NO_TEMPORAL if request.temporal_mode == "off" else detect_temporal(request.query)
        if request.ordering is not None:
            temporal = TemporalIntent(request.ordering, temporal.triggers)
        ordering = temporal.kind if temporal.kind in ("earliest", "latest") else None
        route: Route = "relevance"
        if ordering is not None:
            route = "blend" if request.temporal_mode == "blend" else "date_sorted"
        return Plan(
            request=request,
            temporal=temporal,
            ordering=ordering,  # type: ignore[arg-type]
            route=route,
            weight=effective_recency_weight(
                request.recency_weight, cfg.recency_weight, temporal, cfg.current_weight
            ),
            mode=request.mode or cfg.mode,
            profile=request.profile or cfg.profile,
            threshold=cfg.threshold if request.threshold is None else request.threshold,
            alpha=cfg.alpha if request.alpha is None else request.alpha,
            cap=request.max_chunks_per_tesis or cfg.max_chunks_per_tesis,
            include_superseded=(
                cfg.include_superseded
                if request.include_superseded is None
                else request.include_superseded
            ),
        )

    def search(self, request: SearchRequest, vector: Vectors | None = None) -> SearchResult:
        """Rank hits for ``request``; pass ``vector`` to reuse an embedding (evaluation).

        Ordering questions ("el primer criterio", "latest") are routed to a date-sorted
        search over the whole filtered set; the rest to hybrid relevance with recency.
        Validity notes flag, demote or discard criteria that lost force; the reform rules
        then discard pre-reform and pre-Novena hits when newer criteria are present.
        """
        plan = self.plan(request)
        timings: dict[str, float] = {}

        started = time.perf_counter()
        if vector is None:
            vector = self.embed_query(request.query)
        timings["embed"] = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        topic = (
            tuple(topic_terms(request.query, plan.temporal.triggers))
            if plan.route == "date_sorted"
            else ()
        )
        pool = self.retrieve(plan, vector, topic)
        statuses = self.store.get_validity(sorted({c.passage.registro for c in pool}))
        timings["retrieve"] = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        scored = self.score(plan, pool)
        missing = replacements_to_fetch(scored, statuses)
        if missing:  # pull the replacing criteria into the candidates
            pool = merge_candidates(pool, self.replacements(vector, missing))
            statuses = {**statuses, **self.store.get_validity(missing)}
            scored = self.score(plan, pool)
        hits, discarded = apply_validity(
            scored, statuses, plan.include_superseded, self.config.superseded_demotion
        )
        plain = relevance_ranking(hits, plan.cap, request.top_k)
        hits = self.order(plan, hits)
        materia = detect_materia(
            request.query, request.filters.materias, [h.passage.materias for h in hits]
        )
        outcome = self.apply_rules(hits, materia, plan.ordering, request.apply_rules)
        kept = outcome.kept
        if plan.ordering is not None and plan.route == "date_sorted":
            kept = sort_by_date(kept, plan.ordering)
        timings["score"] = (time.perf_counter() - started) * 1000
        return SearchResult(
            hits=kept,
            discarded=discarded + outcome.discarded,
            candidates=len(pool),
            recency_weight=plan.weight,
            profile=plan.profile,
            mode=plan.mode,
            timings_ms=timings,
            without_recency=plain,
            intent=SearchIntent(
                materia=materia,
                temporal=plan.temporal,
                route=plan.route,
                cutoff_year=outcome.cutoff_year,
                rules_applied=outcome.applied,
                topic=topic,
            ),
        )

    def retrieve(self, plan: Plan, vector: Vectors, topic: tuple[str, ...]) -> list[Candidate]:
        """Candidates above the similarity threshold, drawn as the route requires."""
        request = plan.request
        if plan.route == "date_sorted":
            pool = self.dated_pool(
                vector, request.filters, plan.threshold, topic, plan.ordering, request.top_k
            )
        else:
            limit = max(request.top_k * self.config.oversample, MIN_POOL)
            pool = self.candidates(request.query, vector, request.filters, limit, plan.mode)
        return [c for c in pool if c.similarity >= plan.threshold]

    def score(self, plan: Plan, pool: list[Candidate]) -> list[Hit]:
        return score_candidates(
            pool, plan.weight, plan.profile, plan.mode, plan.alpha, self.config.decay
        )

    def order(self, plan: Plan, hits: list[Hit]) -> list[Hit]:
        """The top-k in the route's order: by date, blended, or by final score."""
        top_k = plan.request.top_k
        if plan.ordering is None:
            return cap_chunks_per_tesis(hits, plan.cap)[:top_k]
        if plan.route == "date_sorted":
            return sort_by_date(hits, plan.ordering)[:top_k]
        top = cap_chunks_per_tesis(hits, plan.cap)[: top_k * self.config.oversample]
        blended = temporal_blend(top, plan.ordering, self.config.blend_weight)
        return cap_chunks_per_tesis(blended, plan.cap)[:top_k]

    def apply_rules(
        self, hits: list[Hit], materia: MateriaIntent, ordering: str | None, enabled: bool
    ) -> RerankOutcome:
        """Reform rules, except for questions about the earliest criteria (history)."""
        cutoff = self.config.reform.cutoff(materia.materia)
        if not enabled or ordering == "earliest":
            return RerankOutcome(hits, [], cutoff, applied=False)
        return apply_reform_rules(hits, materia.materia, self.config.reform)

    def dated_pool(
        self,
        vector: Vectors,
        filters: Filters,
        threshold: float,
        topic: tuple[str, ...],
        ordering: str | None,
        top_k: int,
    ) -> list[Candidate]:
        """Candidates for a date-sorted answer, drawn from the whole filtered set.

        With a topic: every chunk whose cosine is within ``temporal_margin`` of the best
        match (and above ``threshold``), narrowed to those containing every topic term when
        any do. Without one ("the first repository"): the oldest or newest tesis under the
        filters, straight from the store's date index.
        """
        if topic:
            best = self.store.vector_search(vector, filters, 1)
            if not best:
                return []
            floor = max(threshold, best[0].similarity - self.config.temporal_margin)
            pool = self.store.vector_search(vector, filters, None, min_similarity=floor)
            wanted = set(topic)
            on_topic = [
                c
                for c in pool
                if wanted <= set(analyze(f"{c.passage.rubro} {c.passage.chunk.text}"))
            ]
            return on_topic or pool
        order: SortOrder = "ASC" if ordering == "earliest" else "DESC"
        dated = self.store.list_tesis(filters, order, top_k)
        if not dated:
            return []
        only = Filters(registros=tuple(t.registro for t in dated))
        return self.store.vector_search(vector, only, None)

    def replacements(self, vector: Vectors, registros: list[int]) -> list[Candidate]:
        cap = self.config.max_chunks_per_tesis
        return self.store.vector_search(
            vector, Filters(registros=tuple(registros)), len(registros) * cap
        )


def cap_chunks_per_tesis(hits: list[Hit], cap: int) -> list[Hit]:
    """Keep at most ``cap`` best-ranked chunks of each tesis; ranks are renumbered."""
    per_tesis: dict[int, int] = {}
    kept = []
    for hit in hits:
        seen = per_tesis.get(hit.registro, 0)
        if seen < cap:
            per_tesis[hit.registro] = seen + 1
            kept.append(hit)
    return rank(kept)


def relevance_ranking(hits: list[Hit], cap: int, top_k: int) -> list[Hit]:
    """The ranking without recency, beside the real one: top-k by relevance alone, ranks
    1..k (scores keep every factor, so the reader sees what recency would have done)."""
    ordered = sorted(hits, key=lambda h: (h.rank_without_recency, h.registro))
    per_tesis: dict[int, int] = {}
    kept: list[Hit] = []
    for hit in ordered:
        if per_tesis.get(hit.registro, 0) < cap and len(kept) < top_k:
            per_tesis[hit.registro] = per_tesis.get(hit.registro, 0) + 1
            kept.append(hit)
    return [replace(h, rank=h.rank, rank_without_recency=i) for i, h in enumerate(kept, start=1)]


def best_chunk_per_tesis(hits: list[Hit]) -> list[Hit]:
    """Each registro's best-ranked chunk, ranks renumbered."""
    return cap_chunks_per_tesis(hits, 1)

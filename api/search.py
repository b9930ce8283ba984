"""The search service: question -> embedding -> candidates -> scores -> ranked hits.

Only this module (and ``chat``) calls the store and the embedder; scoring and re-ranking are
pure functions from ``api.core``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import date

from api.core.fusion import RetrievalMode, merge_candidates
from api.core.models import Candidate, Discarded, Filters, Hit
from api.core.scoring import PROFILES, DecayParams, Profile, rank, score_candidates
from api.embeddings.base import Embedder, Vectors
from api.settings import Settings
from api.store.base import VectorStore

MAX_TOP_K = 100
MAX_CHUNKS_PER_TESIS = 10
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

    def validate(self) -> None:
        text = self.query.strip()
        if not text:
            raise InvalidRequest("query", "must not be empty")
        if len(text) > MAX_QUERY_CHARS:
            raise InvalidRequest("query", f"{len(text)} characters, at most {MAX_QUERY_CHARS}")
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
        if self.profile is not None and self.profile not in PROFILES:
            raise InvalidRequest("profile", f"{self.profile!r} is not one of {PROFILES}")
        f = self.filters
        for name, year in (("anioMin", f.anio_min), ("anioMax", f.anio_max)):
            if year is not None and not MIN_YEAR <= year <= MAX_YEAR:
                raise InvalidRequest(name, f"{year} is outside {MIN_YEAR}..{MAX_YEAR}")
        if f.anio_min is not None and f.anio_max is not None and f.anio_min > f.anio_max:
            raise InvalidRequest("anioMin", f"{f.anio_min} is after anioMax {f.anio_max}")


@dataclass(frozen=True, slots=True)
class SearchResult:
    hits: list[Hit]
    discarded: list[Discarded]
    candidates: int
    recency_weight: float
    profile: Profile
    mode: RetrievalMode
    timings_ms: dict[str, float]


class SearchService:
    """Hybrid retrieval plus recency scoring over any ``VectorStore``."""

    def __init__(self, store: VectorStore, embedder: Embedder, config: SearchConfig) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config

    def embed_query(self, text: str) -> Vectors:
        return self.embedder.embed([text.strip()], "query")[0]

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

    def search(self, request: SearchRequest, vector: Vectors | None = None) -> SearchResult:
        """Rank hits for ``request``; pass ``vector`` to reuse an embedding (evaluation)."""
        request.validate()
        cfg = self.config
        mode = request.mode or cfg.mode
        profile = request.profile or cfg.profile
        weight = cfg.recency_weight if request.recency_weight is None else request.recency_weight
        threshold = cfg.threshold if request.threshold is None else request.threshold
        timings: dict[str, float] = {}

        started = time.perf_counter()
        if vector is None:
            vector = self.embed_query(request.query)
        timings["embed"] = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        limit = max(request.top_k * cfg.oversample, MIN_POOL)
        pool = self.candidates(request.query, vector, request.filters, limit, mode)
        pool = [c for c in pool if c.similarity >= threshold]
        timings["retrieve"] = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        alpha = cfg.alpha if request.alpha is None else request.alpha
        cap = request.max_chunks_per_tesis or cfg.max_chunks_per_tesis
        scored = score_candidates(pool, weight, profile, mode, alpha, cfg.decay)
        hits = cap_chunks_per_tesis(scored, cap)[: request.top_k]
        timings["score"] = (time.perf_counter() - started) * 1000
        return SearchResult(
            hits=hits,
            discarded=[],
            candidates=len(pool),
            recency_weight=weight,
            profile=profile,
            mode=mode,
            timings_ms=timings,
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


def best_chunk_per_tesis(hits: list[Hit]) -> list[Hit]:
    """Each registro's best-ranked chunk, ranks renumbered."""
    return cap_chunks_per_tesis(hits, 1)

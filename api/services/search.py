"""The search service: question -> embedding -> candidates -> scores -> ranked hits.

Only this module (and ``chat``) calls the store and the embedder; scoring and re-ranking are
pure functions from ``api.core``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from threading import Lock
from typing import Literal

import numpy as np

from api.core.chunking import embedding_text
from api.core.date_fields import DateField, detect_date_field, question_role, sort_by_field
from api.core.epoca_factors import EpocaFactors
from api.core.fusion import RetrievalMode, merge_candidates
from api.core.gate import (
    NULL_QUESTIONS,
    GateConfig,
    QuerySignals,
    abstain_floor,
    abstain_reason,
    null_language,
)
from api.core.glossary import translate_terms
from api.core.intent import (
    NO_TEMPORAL,
    MateriaIntent,
    TemporalIntent,
    detect_materia,
    detect_temporal,
    effective_recency_weight,
)
from api.core.language import Language, detect_language
from api.core.limits import MAX_QUESTION_TOKENS, question_tokens
from api.core.models import Candidate, Discarded, Filters, Hit
from api.core.reform import (
    DEFAULT_CUTOFFS,
    ReformConfig,
    RerankOutcome,
    SamePoint,
    apply_reform_rules,
    apply_same_point_rules,
)
from api.core.scoring import PROFILES, DecayParams, Profile, rank, score_candidates
from api.core.temporal import sort_by_date, temporal_blend
from api.core.text import analyze
from api.core.topic import contains_all, name_candidates, topic_terms
from api.core.validity import apply_validity, replacements_to_fetch
from api.embeddings.base import Embedder, Vectors
from api.errors import EmbedderError, InvalidRequest
from api.settings import Settings
from api.store.base import SortOrder, VectorStore

_log = logging.getLogger("vigencia.search")
MAX_TOP_K = 100
MAX_CHUNKS_PER_TESIS = 10
TemporalMode = Literal["auto", "off", "sort", "blend"]
TEMPORAL_MODES: tuple[TemporalMode, ...] = ("auto", "off", "sort", "blend")
Route = Literal["relevance", "date_sorted", "blend"]
RulesMode = Literal["same_point", "literal"]
RULES_MODES: tuple[RulesMode, ...] = ("same_point", "literal")
MIN_POOL = 100  # candidates per retriever, so normalization sees a stable set
MAX_TOPIC_TERMS = 3  # a longer topic is a description: date order over on-topic hits instead
TOPIC_POOL = 5000  # most chunks naming a topic that a date-sorted question reads
MIN_NAME_DOCUMENTS = 3
FLOOR_RECHECK_S = 30.0  # how stale the abstention floor's view of the store size may get  # a capitalized word in fewer documents is a name, not a topic
MAX_QUERY_CHARS = 2000
MIN_YEAR, MAX_YEAR = 1800, 2100


@dataclass(frozen=True, slots=True)
class SearchConfig:
    profile: Profile = "default"
    recency_weight: float = 0.1
    mode: RetrievalMode = "hybrid"
    alpha: float = 0.4
    oversample: int = 5
    threshold: float = 0.0
    max_chunks_per_tesis: int = 2
    decay: DecayParams = field(default_factory=DecayParams)
    reform: ReformConfig = field(default_factory=ReformConfig)
    current_weight: float = 0.7
    superseded_demotion: float = 0.5
    include_superseded: bool = True
    temporal_gate: float = 0.85
    topic_gate: float = 0.65  # documents naming the topic: under this they mention it in passing
    blend_weight: float = 0.5
    gate: GateConfig = field(default_factory=GateConfig)
    rules_mode: RulesMode = "same_point"
    same_point_similarity: float = 0.93
    cross_lingual_alpha: float = 0.6
    epocas: EpocaFactors = field(default_factory=EpocaFactors)
    # Per-materia defaults fitted by ``vigencia tune`` (materia read from the question).
    materia_weights: dict[str, float] = field(default_factory=dict)
    materia_alphas: dict[str, float] = field(default_factory=dict)

    def defaults_for(self, query: str, explicit: tuple[str, ...]) -> tuple[float, float]:
        """The recency weight and alpha a question's materia was tuned to, else the global."""
        if not (self.materia_weights or self.materia_alphas):
            return self.recency_weight, self.alpha
        materia = detect_materia(query, explicit).materia or ""
        return (
            self.materia_weights.get(materia, self.recency_weight),
            self.materia_alphas.get(materia, self.alpha),
        )

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
            temporal_gate=settings.temporal_gate,
            blend_weight=settings.temporal_blend_weight,
            epocas=EpocaFactors.parse(settings.epoca_factors, settings.seed_epoca_factors),
            materia_weights=dict(settings.materia_recency_weights or {}),
            materia_alphas=dict(settings.materia_alphas or {}),
            gate=GateConfig(
                relative=settings.relevance_gate,
                margin=settings.abstain_margin,
                cross_margin=settings.abstain_cross_margin,
                enabled=settings.relevance_gate_enabled,
            ),
            rules_mode=settings.reform_rules_mode,
            same_point_similarity=settings.same_point_similarity,
            cross_lingual_alpha=settings.cross_lingual_alpha,
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
    rules_mode: RulesMode | None = None
    gate: bool = True  # the relevance gate and abstention (False: every candidate on topic)

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
        if self.rules_mode is not None and self.rules_mode not in RULES_MODES:
            raise InvalidRequest("rulesMode", f"{self.rules_mode!r} is not one of {RULES_MODES}")
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
    language: Language = "es"
    lexical_query: str = ""  # the query, plus glossary translations for English questions
    rules_mode: RulesMode = "same_point"
    gate: float | None = 0.5  # least gate value of an on-topic hit; None: no gate
    topic: tuple[str, ...] = ()  # what a date-sorted question is about
    translated_topic: tuple[str, ...] = ()  # the topic in the corpus's Spanish (glossary)


@dataclass(frozen=True, slots=True)
class SearchIntent:
    """What the question was read as, and how it was routed."""

    materia: MateriaIntent
    temporal: TemporalIntent
    route: Route
    cutoff_year: int | None
    rules_applied: bool
    topic: tuple[str, ...] = ()
    language: Language = "es"
    date_field: str | None = None  # the extra date a date-sorted question used


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
    abstain_reason: str | None = None  # set when nothing answers: hits are then empty

    @property
    def abstained(self) -> bool:
        return self.abstain_reason is not None


class SearchService:
    """Hybrid retrieval plus recency scoring over any ``VectorStore``."""

    def __init__(self, store: VectorStore, embedder: Embedder, config: SearchConfig) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config
        # language -> (checked at, store size, floor): sizes are read at most every
        # FLOOR_RECHECK_S, not on every search (a COUNT over the store, or two Weaviate calls)
        self._floors: dict[str, tuple[float, tuple[int, int], float]] = {}
        self._floors_lock = Lock()

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
        """Resolve the request against the defaults and read its language and temporal intent."""
        request.validate()
        cfg = self.config
        temporal = NO_TEMPORAL if request.temporal_mode == "off" else detect_temporal(request.query)
        if request.ordering is not None:
            temporal = TemporalIntent(request.ordering, temporal.triggers)
        topic = tuple(topic_terms(request.query, temporal.triggers)) if temporal.kind else ()
        ordering = temporal.kind if temporal.kind in ("earliest", "latest") else None
        if temporal.kind == "current" and not topic:  # "the current project": the newest one
            ordering = "latest"
        route: Route = "relevance"
        if ordering is not None:
            route = "blend" if request.temporal_mode == "blend" else "date_sorted"
        language = detect_language(request.query)
        cross = language in ("en", "mixed")
        base_weight, base_alpha = cfg.defaults_for(request.query, request.filters.materias)
        alpha = base_alpha if request.alpha is None else request.alpha
        if cross and request.alpha is None:  # BM25 barely sees an English question
            alpha = max(alpha, cfg.cross_lingual_alpha)
        lexical_query = request.query
        translated_topic: tuple[str, ...] = ()
        if cross:
            spanish = translate_terms(request.query)
            lexical_query = f"{request.query} {spanish}"
            if temporal.kind:
                translated_topic = tuple(topic_terms(spanish, ()))
        gated = cfg.gate.enabled and request.gate
        return Plan(
            request=request,
            temporal=temporal,
            ordering=ordering,  # type: ignore[arg-type]
            route=route,
            weight=effective_recency_weight(
                request.recency_weight, base_weight, temporal, cfg.current_weight
            ),
            mode=request.mode or cfg.mode,
            profile=request.profile or cfg.profile,
            threshold=cfg.threshold if request.threshold is None else request.threshold,
            alpha=alpha,
            cap=request.max_chunks_per_tesis or cfg.max_chunks_per_tesis,
            include_superseded=(
                cfg.include_superseded
                if request.include_superseded is None
                else request.include_superseded
            ),
            language=language,
            lexical_query=lexical_query,
            rules_mode=request.rules_mode or cfg.rules_mode,
            gate=cfg.gate.relative if gated else None,
            topic=topic if route == "date_sorted" else (),
            translated_topic=translated_topic if route == "date_sorted" else (),
        )

    def search(self, request: SearchRequest, vector: Vectors | None = None) -> SearchResult:
        """Rank hits for ``request``; pass ``vector`` to reuse an embedding (evaluation).

        Ordering questions ("el primer criterio", "latest") are routed to a date-sorted
        search over the whole filtered set; the rest to hybrid relevance with recency. When
        nothing passes the relevance floor the search abstains (no hits, a reason). Recency
        reorders only the on-topic hits; validity notes flag, demote or discard criteria that
        lost force; the reform rules set aside an old criterion when a newer one on the same
        point is among the hits, and flag it otherwise.
        """
        plan = self.plan(request)
        timings: dict[str, float] = {}

        started = time.perf_counter()
        if vector is None:
            vector = self.embed_query(request.query)
        timings["embed"] = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        topic = self.narrowing_topic(plan, vector)
        date_field = self.date_field_for(request.query, plan)
        pool, narrowed = self.retrieve(plan, vector, topic, date_field)
        reason = None if narrowed else self.abstention(plan, pool)
        if reason is not None:
            pool = []
        statuses = self.store.get_validity(sorted({c.passage.registro for c in pool}))
        timings["retrieve"] = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        gate = self.gate_for(plan, topic, narrowed)
        scored = self.score(plan, pool, gate)
        missing = replacements_to_fetch(scored, statuses)
        if missing:  # pull the replacing criteria into the candidates
            pool = merge_candidates(pool, self.replacements(vector, missing))
            statuses = {**statuses, **self.store.get_validity(missing)}
            scored = self.score(plan, pool, gate)
        if plan.route == "date_sorted":  # a date order answers only with on-point tesis
            scored = [h for h in scored if h.on_topic]
        hits, discarded = apply_validity(
            scored, statuses, plan.include_superseded, self.config.superseded_demotion
        )
        hits = on_topic_with_replacement(hits)
        plain = relevance_ranking(hits, plan.cap, request.top_k)
        hits = self.order(plan, hits, date_field)
        materia = detect_materia(
            request.query,
            request.filters.materias,
            [h.passage.materias for h in hits[: request.top_k]],
        )
        outcome = self.apply_rules(plan, hits, materia)
        kept = outcome.kept[: request.top_k]
        if plan.ordering is not None and plan.route == "date_sorted":
            kept = self.sort_dated(kept, plan.ordering, date_field)
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
                language=plan.language,
                date_field=date_field,
            ),
            abstain_reason=reason,
        )

    def date_field_for(self, question: str, plan: Plan) -> str | None:
        """The extra date a date-sorted question refers to ("latest update"), or None."""
        if plan.route != "date_sorted" or question_role(question, plan.ordering) is None:
            return None
        fields = [DateField(name, role) for name, role in self.store.date_fields().items()]
        return detect_date_field(question, fields, plan.ordering)

    def sort_dated(
        self, hits: list[Hit], ordering: Literal["earliest", "latest"], date_field: str | None
    ) -> list[Hit]:
        """One hit per record by date: the primary one, or ``date_field``."""
        if date_field is None:
            return sort_by_date(hits, ordering)
        records = self.store.get_tesis(sorted({h.registro for h in hits}))
        dates = {r: t.date_of(date_field) for r, t in records.items()}
        return sort_by_field(hits, dates, ordering)

    def retrieve(
        self, plan: Plan, vector: Vectors, topic: tuple[str, ...], date_field: str | None = None
    ) -> tuple[list[Candidate], bool]:
        """Candidates above the similarity threshold, drawn as the route requires, and whether
        a date-sorted pool was narrowed to the documents naming its topic."""
        request = plan.request
        narrowed = False
        if plan.route == "date_sorted" and not topic:
            pool = self.dated_extremes(
                vector, request.filters, plan.ordering, request.top_k, date_field
            )
            narrowed = True
        elif plan.route == "date_sorted" and len(topic) <= MAX_TOPIC_TERMS:
            pool = self.topic_pool(vector, request.filters, topic)
            spanish = plan.translated_topic
            if not pool and spanish and len(spanish) <= MAX_TOPIC_TERMS:  # an English question
                pool = self.topic_pool(vector, request.filters, spanish)
            narrowed = bool(pool)
        else:
            pool = []
        if not pool:
            limit = max(request.top_k * self.config.oversample, MIN_POOL)
            pool = self.candidates(plan.lexical_query, vector, request.filters, limit, plan.mode)
        return [c for c in pool if c.similarity >= plan.threshold], narrowed

    def narrowing_topic(self, plan: Plan, vector: Vectors) -> tuple[str, ...]:
        """The plan's topic without capitalized names that fewer than ``MIN_NAME_DOCUMENTS``
        documents contain ("Jakub", unlike "Rust"): a name in a document or two (the owner's
        CV, a blog on their domain) does not make a subject."""
        names = name_candidates(plan.request.query) & set(plan.topic)
        dropped = {
            name
            for name in names
            if len(
                {
                    c.passage.registro
                    for c in self.store.lexical_search(name, vector, plan.request.filters, 10)
                }
            )
            < MIN_NAME_DOCUMENTS
        }
        return tuple(t for t in plan.topic if t not in dropped)

    def topic_pool(
        self, vector: Vectors, filters: Filters, topic: tuple[str, ...]
    ) -> list[Candidate]:
        """Every chunk of the filtered set that names all the topic terms (BM25 finds them)."""
        found = self.store.lexical_search(" ".join(topic), vector, filters, TOPIC_POOL)
        return [
            c for c in found if contains_all(f"{c.passage.rubro} {c.passage.chunk.text}", topic)
        ]

    def dated_extremes(
        self,
        vector: Vectors,
        filters: Filters,
        ordering: str | None,
        top_k: int,
        date_field: str | None = None,
    ) -> list[Candidate]:
        """A question with no topic ("the first repository"): the oldest or newest tesis
        under the filters, straight from the store's date index."""
        order: SortOrder = "ASC" if ordering == "earliest" else "DESC"
        dated = self.store.list_tesis(filters, order, top_k, date_field=date_field)
        if not dated:
            return []
        only = Filters(registros=tuple(t.registro for t in dated))
        return self.store.vector_search(vector, only, None)

    def gate_for(self, plan: Plan, topic: tuple[str, ...], narrowed: bool) -> float | None:
        """The gate a route uses: none for the date index, the temporal gate for a date order
        over on-point documents, the relevance gate otherwise."""
        if plan.gate is None:
            return None
        if plan.route == "date_sorted" and narrowed:
            return self.config.topic_gate if topic else None
        if plan.route == "date_sorted":
            return self.config.temporal_gate
        return plan.gate

    def abstention(self, plan: Plan, pool: list[Candidate]) -> str | None:
        """Why nothing answers the question, or None. Not asked for date-sorted pools that
        are the whole corpus ("the first repository") or the documents naming the topic."""
        if plan.gate is None:
            return None
        signals = QuerySignals(
            language=plan.language,
            terms=len(set(analyze(plan.lexical_query))),
            matched=any(c.lexical > 0 for c in pool),  # BM25 found some word of it
            best_similarity=max((c.similarity for c in pool), default=None),
        )
        return abstain_reason(signals, self.abstain_floor(plan.language))

    def abstain_floor(self, language: Language) -> float:
        """The best cosine a question in ``language`` must reach: the best null question's,
        plus the margin. Measured against this store, and again when its size has changed
        (checked at most every ``FLOOR_RECHECK_S``)."""
        key = null_language(language)
        now = time.monotonic()
        with self._floors_lock:
            cached = self._floors.get(key)
        if cached is not None and now - cached[0] < FLOOR_RECHECK_S:
            return cached[2]
        size = self.store.count()
        if cached is not None and cached[1] == size:
            with self._floors_lock:
                self._floors[key] = (now, size, cached[2])
            return cached[2]
        try:
            vectors = self.embedder.embed(list(NULL_QUESTIONS[key]), "query")
        except EmbedderError as exc:  # e.g. precomputed vectors only: no floor, say why
            _log.warning("abstention floor not measured (%s): only empty questions abstain", exc)
            return 0.0
        best = [
            found[0].similarity
            for found in (self.store.vector_search(v, Filters(), 1) for v in vectors)
            if found
        ]
        floor = abstain_floor(best, self.config.gate.margin_for(key))
        with self._floors_lock:
            self._floors[key] = (now, size, floor)
        return floor

    def score(self, plan: Plan, pool: list[Candidate], gate: float | None) -> list[Hit]:
        return score_candidates(
            pool,
            plan.weight,
            plan.profile,
            plan.mode,
            plan.alpha,
            self.config.decay,
            gate,
            self.config.epocas,
        )

    def order(self, plan: Plan, hits: list[Hit], date_field: str | None = None) -> list[Hit]:
        """Every hit in the route's order (by date, blended, or by final score with on-topic
        hits first), at most ``cap`` chunks per tesis; the caller cuts the page."""
        top_k = plan.request.top_k
        if plan.ordering is None:
            return cap_chunks_per_tesis(hits, plan.cap)
        if plan.route == "date_sorted":
            return self.sort_dated(hits, plan.ordering, date_field)
        top = cap_chunks_per_tesis(hits, plan.cap)[: top_k * self.config.oversample]
        blended = temporal_blend(top, plan.ordering, self.config.blend_weight)
        return cap_chunks_per_tesis(blended, plan.cap)

    def apply_rules(self, plan: Plan, hits: list[Hit], materia: MateriaIntent) -> RerankOutcome:
        """Reform rules, except for questions about the earliest criteria (history)."""
        cutoff = self.config.reform.cutoff(materia.materia)
        top_k = plan.request.top_k
        if not plan.request.apply_rules or plan.ordering == "earliest":
            return RerankOutcome(hits, [], cutoff, applied=False)
        if plan.rules_mode == "literal":  # seed 000: discard within the page, no refill
            return apply_reform_rules(hits[:top_k], materia.materia, self.config.reform)
        window = hits[: top_k * self.config.oversample]
        same_point = self.same_point_judge(window)
        return apply_same_point_rules(
            window, materia.materia, self.config.reform, same_point, top_k
        )

    def same_point_judge(self, hits: list[Hit]) -> SamePoint:
        """Two hits are on the same point when their passages' vectors (from the embedding
        cache: the ingest stored them) have a cosine of at least ``same_point_similarity``."""
        texts = {
            h.passage.chunk.chunk_id: embedding_text(h.passage.rubro, h.passage.chunk)
            for h in hits
            if h.on_topic
        }
        ids = list(texts)
        embedded: Sequence[Vectors] = []
        try:
            if ids:
                embedded = list(self.embedder.embed([texts[i] for i in ids], "passage"))
        except EmbedderError as exc:  # no passage vectors: no old criterion is set aside
            _log.warning("same-point rule not applied (%s): old criteria are only flagged", exc)
            embedded = []
        vectors = dict(zip(ids, embedded, strict=False))
        threshold = self.config.same_point_similarity

        def same_point(old: Hit, newer: Hit) -> bool:
            a = vectors.get(old.passage.chunk.chunk_id)
            b = vectors.get(newer.passage.chunk.chunk_id)
            return a is not None and b is not None and float(np.dot(a, b)) >= threshold

        return same_point

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


def on_topic_with_replacement(hits: list[Hit]) -> list[Hit]:
    """A criterion whose replacement (per its SJF note) is on topic is on the same point: on
    topic too, so the superseded criterion is shown beside the one that replaced it."""
    on_topic = {h.registro for h in hits if h.on_topic}
    return [
        replace(h, on_topic=True) if not h.on_topic and h.status.por_registro in on_topic else h
        for h in hits
    ]


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
    """Each registro's first chunk, in the order given (a date order stays a date order)."""
    firsts: dict[int, Hit] = {}
    for hit in hits:
        firsts.setdefault(hit.registro, hit)
    return [replace(h, rank=i) for i, h in enumerate(firsts.values(), start=1)]

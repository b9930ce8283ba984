"""The search service: question -> embedding -> candidates -> scores -> ranked hits.

Only this package (and ``chat``) calls the store and the embedder; scoring and re-ranking are
pure functions from ``api.core``.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from api.core.cited import cited_claves, cited_labels, cited_registros, not_in_corpus_reason
from api.core.confidence import answer_confidence
from api.core.exclusions import Exclusions, exclusions, mentions_any
from api.core.fusion import ScaleFloor, merge_candidates
from api.core.gate import (
    NOTHING_UNDER_FILTERS,
    NOTHING_UNDER_FILTERS_RECORDS,
    below_threshold_reason,
    gate_values,
    unnamed_topic_reason,
)
from api.core.intent import MateriaIntent, detect_materia, named_materia
from api.core.intent.named_filters import without_named_filters, without_years
from api.core.language import Language
from api.core.models import Candidate, Filters, Hit, Passage
from api.core.scoring import score_candidates
from api.core.search_result import SearchIntent, SearchResult
from api.core.temporal import temporal_blend
from api.core.topic import topic_words
from api.core.validity import apply_validity, replacements_to_fetch
from api.embeddings.base import Embedder, Vectors
from api.services.court_filters import stored_courts
from api.services.search.abstention import Abstention, gate_for
from api.services.search.config import SearchConfig
from api.services.search.corpus_kind import CorpusKind
from api.services.search.plan import Plan, make_plan, scoped_to_materia
from api.services.search.ranking import (
    cap_chunks_per_tesis,
    in_cited_order,
    on_the_page,
    on_topic_with_replacement,
    relevance_ranking,
)
from api.services.search.request import SearchRequest
from api.services.search.retrieval import Retrieval
from api.services.search.rules import apply_rules, legal_materia
from api.store.base import VectorQuery, VectorStore


class SearchService:
    """Hybrid retrieval plus recency scoring over any ``VectorStore``."""

    def __init__(self, store: VectorStore, embedder: Embedder, config: SearchConfig) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config
        self.retrieval = Retrieval(store, config)
        self.abstention = Abstention(store, embedder, config, self.retrieval)
        self.corpus = CorpusKind(store)

    def embed_query(self, text: str) -> Vectors:
        """The question's vector; words naming an época, years or a kind are filters, not
        meaning, and stay out of it, as does any other year (see ``without_years``)."""
        asked = without_years(without_named_filters(text))
        vector: Vectors = self.embedder.embed([asked], "query")[0]
        return vector

    def plan(self, request: SearchRequest, records: bool = False) -> Plan:
        """Resolve the request against the defaults and read its language and temporal intent
        (``records``: over a generic corpus, see ``make_plan``)."""
        return make_plan(request, self.config, records)

    def abstain_floor(self, language: Language) -> float:
        """The best cosine a question in ``language`` must reach (see ``Abstention.floor``)."""
        return self.abstention.floor(language)

    def warm_up(self) -> None:
        """Do now what the first searches would all wait for at once: load the embedder and
        the store's search columns and indexes, and measure the abstention floors."""
        for language in ("es", "en"):
            self.abstain_floor(language)
        self.search(SearchRequest(query="amparo contra leyes", top_k=1))

    def search(self, request: SearchRequest, vector: Vectors | None = None) -> SearchResult:
        """Rank hits for ``request``; pass ``vector`` to reuse an embedding (evaluation).

        Ordering questions ("el primer criterio", "latest") are routed to a date-sorted
        search over the whole filtered set; the rest to hybrid relevance with recency. When
        nothing passes the relevance floor the search abstains (no hits, a reason). Recency
        reorders only the on-topic hits; validity notes flag, demote or discard criteria that
        lost force; the reform rules set aside an old criterion when a newer one on the same
        point is among the hits, and flag it otherwise. A question that cites tesis by registro
        digital or clave ("Registro digital: 2024502", an SJF link, "la 2a./J. 64/2022") gets
        those tesis, or abstains naming the ones the corpus lacks. Words excluded with "-word"
        or "NOT word" leave the question, and candidates that have them leave the pool.
        """
        request.validate()  # before any store lookup a cited registro or clave would cost
        if request.filters.instancia is not None or request.filters.organo is not None:
            request = replace(request, filters=stored_courts(self.store, request.filters))
        request, excluded = without_exclusions(request)
        request, cited, not_found = self.as_lookup(request)
        absent = "" if cited or not not_found else not_in_corpus_reason(not_found)
        plan = self.plan(request)
        timings: dict[str, float] = {}

        started = time.perf_counter()
        if vector is None:
            vector = self.embed_query(request.query)
        timings["embed"] = (time.perf_counter() - started) * 1000
        # a news archive's "nota" is no topic ("la nota más reciente", "la noticia actual")
        if plan.temporal.kind and not self.corpus.holds_tesis():
            plan = self.plan(request, records=True)

        started = time.perf_counter()
        plan, named = self.scoped_to_named_materia(plan)
        request = plan.request
        topic = self.retrieval.narrowing_topic(plan, vector)
        date_field = self.retrieval.date_field_for(request.query, plan)
        found = self.retrieval.retrieve(plan, vector, topic, date_field)
        pool, narrowed = found.pool, found.narrowed
        pool = _without_excluded(pool, excluded)  # "despido -doméstico"
        reason: str | None = None
        if absent:
            reason = absent
        elif found.unnamed and self.retrieval.leaves_nothing(request.filters):  # "… de 1950"
            reason = NOTHING_UNDER_FILTERS
        elif found.unnamed:
            reason = unnamed_topic_reason(topic_words(request.query, found.missing or topic))
        elif not narrowed:
            reason = self.abstention.reason(plan, pool, vector, self.corpus.holds_tesis())
        elif not pool and plan.route == "date_sorted":  # "la primera tesis de la Quinta Época"
            reason = (
                below_threshold_reason(plan.threshold)
                if plan.threshold and not self.retrieval.leaves_nothing(request.filters)
                else NOTHING_UNDER_FILTERS
            )
        if reason == NOTHING_UNDER_FILTERS and not self.corpus.holds_tesis():
            reason = NOTHING_UNDER_FILTERS_RECORDS  # a news archive holds no tesis
        if reason is not None:
            pool = []
        statuses = self.store.get_validity(sorted({c.passage.registro for c in pool}))
        timings["retrieve"] = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        gate = gate_for(plan, self.config, topic, narrowed)
        scored = self.score(plan, pool, gate, found.scale_from)
        missing = replacements_to_fetch(scored, statuses)
        if missing:  # pull the replacing criteria into the candidates
            replacing = _without_excluded(self.retrieval.replacements(vector, missing), excluded)
            pool = merge_candidates(pool, replacing)
            statuses = {**statuses, **self.store.get_validity(missing)}
            scored = self.score(plan, pool, gate, found.scale_from)
        topic_said = tuple(topic_words(request.query, topic))
        if plan.route == "date_sorted" and narrowed and topic_said and gate is not None:
            scored = self.on_the_topic(plan, vector, topic_said, pool, scored, gate)
        if plan.route == "date_sorted":  # a date order answers only with on-point tesis
            scored = [h for h in scored if h.on_topic]
        hits, discarded = apply_validity(
            on_topic_with_replacement(scored, statuses),
            statuses,
            plan.include_superseded,
            self.config.superseded_demotion,
        )
        plain = relevance_ranking(hits, plan.cap, request.top_k)
        listing = plan.route == "date_sorted" and not topic  # the store's date index
        hits = (
            in_cited_order(hits, cited, plan.cap)
            if cited
            else self.order(plan, hits, date_field, listing)
        )
        materia = named or detect_materia(
            request.query,
            request.filters.materias,
            [h.passage.materias for h in hits[: request.top_k]],
        )
        materia = legal_materia(materia, hits[: request.top_k], self.corpus.holds_tesis)
        outcome = apply_rules(plan, hits, materia, self.config, self.embedder)
        kept = outcome.kept[: request.top_k]
        if plan.ordering is not None and plan.route == "date_sorted":
            kept = self.retrieval.sort_dated(kept, plan.ordering, date_field, listing)
        plain = on_the_page(plain, kept)
        confidence = None
        if (
            calibrated(plan)
            and not cited
            and reason is None
            and kept
            and not kept[0].passage.generic
        ):
            set_aside = {d.hit.registro for d in outcome.discarded}
            ranked = [h for h in hits if h.registro not in set_aside]  # the page and beyond
            confidence = answer_confidence(kept[0], ranked, self.floor_margin(plan, ranked))
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
                topic_words=topic_said,
                language=plan.language,
                date_field=date_field,
                cited=cited,
                not_found=not_found if cited else (),
                named_filters=plan.named_filters,
                excluded=excluded.words,
            ),
            abstain_reason=reason,
            confidence=confidence,
        )

    def floor_margin(self, plan: Plan, hits: list[Hit]) -> float | None:
        """How far the best cosine of ``hits`` is over the question's abstention floor (the
        one ``Abstention.reason`` compares with); None with the gate off or no floor measured
        (0.0)."""
        if plan.gate is None or not hits:
            return None
        floor = self.abstention.question_floor(plan)
        return max(h.score.similarity for h in hits) - floor if floor > 0.0 else None

    def as_lookup(
        self, request: SearchRequest
    ) -> tuple[SearchRequest, tuple[int, ...], tuple[str, ...]]:
        """A request that cites tesis by registro or clave as a search of those tesis only (no
        gate, no date order, no reform rules, none set aside as superseded: the asker named
        them), the registros of the cited tesis the store holds, and those it lacks, named
        (``cited_labels``): the search abstains when it holds none of them."""
        registros, claves = cited_registros(request.query), cited_claves(request.query)
        if not (registros or claves) or request.filters.registros:
            return request, (), ()
        held = self.store.get_tesis(list(registros)) if registros else {}
        stored = [r for r in registros if r in held]
        by_clave = self.store.find_claves(claves) if claves else {}
        cited = tuple(dict.fromkeys([*stored, *by_clave.values()]))
        lookup = replace(
            request,
            filters=replace(request.filters, registros=cited or registros),
            gate=False,
            temporal_mode="off",
            apply_rules=False,
            include_superseded=True,  # a superseded tesis asked for by name is shown, flagged
        )
        lacking = [r for r in registros if r not in held]
        return lookup, cited, cited_labels(lacking, [c for c in claves if c not in by_clave])

    def scoped_to_named_materia(self, plan: Plan) -> tuple[Plan, MateriaIntent | None]:
        """A date-sorted question that names a branch of law ("el último criterio en materia
        penal") asks for that materia's earliest or latest tesis: the materia becomes a filter,
        its words leave the topic, and the intent says the question named it. Not when a
        materia filter is set already, nor when the store has no tesis of that materia (its
        words stay a topic then)."""
        if plan.route != "date_sorted" or plan.request.filters.materias:
            return plan, None
        named = named_materia(plan.request.query)
        if named is None:
            return plan, None
        materia, phrase = named
        scoped = scoped_to_materia(plan, materia, phrase)
        if self.retrieval.leaves_nothing(scoped.request.filters):  # no tesis of that materia there
            return plan, None
        return scoped, MateriaIntent(materia, (phrase,), "question")

    def score(
        self,
        plan: Plan,
        pool: list[Candidate],
        gate: float | None,
        scale_from: ScaleFloor | None = None,
    ) -> list[Hit]:
        return score_candidates(
            pool,
            plan.weight,
            plan.profile,
            plan.mode,
            plan.alpha,
            self.config.decay,
            gate,
            self.config.epocas,
            scale_from,
        )

    def on_the_topic(
        self,
        plan: Plan,
        vector: Vectors,
        topic_said: tuple[str, ...],
        pool: list[Candidate],
        hits: list[Hit],
        gate: float,
    ) -> list[Hit]:
        """``hits`` of a date order over a named topic, on topic when their gate, read against
        the question and the words that said its topic (``topic_said``; none when it was read
        through an acronym's name) together, reaches ``gate``. The question's own embedding
        carries its wording, the topic's words do not: two wordings of one request had kept
        different sets (*latest child support ruling* kept the 2026 school-food tesis,
        *alimentos*, that *the most recent ruling on child support* left out)."""
        words: Vectors = self.embedder.embed([" ".join(topic_said)], "query")[0]
        both = vector + words
        both = both / float(np.linalg.norm(both))
        registros = tuple(sorted({c.passage.registro for c in pool}))
        read = self.store.vector_search(VectorQuery(both, Filters(registros=registros), None))
        cosines = {_chunk(c.passage): c.similarity for c in read}
        values = gate_values(
            [cosines.get(_chunk(c.passage), 0.0) for c in pool],
            [c.lexical for c in pool],
            plan.mode,
            plan.alpha,
        )
        gates = {_chunk(c.passage): value for c, value in zip(pool, values, strict=True)}
        return [
            replace(h, on_topic=gates[key] >= gate, gate=gates[key])
            if (key := _chunk(h.passage)) in gates
            else h
            for h in hits
        ]

    def order(
        self, plan: Plan, hits: list[Hit], date_field: str | None = None, listing: bool = False
    ) -> list[Hit]:
        """Every hit in the route's order (by date, blended, or by final score with on-topic
        hits first), at most ``cap`` chunks per tesis; the caller cuts the page. ``listing``:
        the hits came from the date index, and same-date ties keep its registro order."""
        top_k = plan.request.top_k
        if plan.ordering is None:
            return cap_chunks_per_tesis(hits, plan.cap)
        if plan.route == "date_sorted":
            return self.retrieval.sort_dated(hits, plan.ordering, date_field, listing)
        top = cap_chunks_per_tesis(hits, plan.cap)[: top_k * self.config.oversample]
        blended = temporal_blend(top, plan.ordering, self.config.blend_weight)
        return cap_chunks_per_tesis(blended, plan.cap)


def without_exclusions(request: SearchRequest) -> tuple[SearchRequest, Exclusions]:
    """``request`` asking its question less the words it excludes, and those words."""
    found = exclusions(request.query)
    if not found.words:
        return request, found
    return replace(request, query=found.question), found


def _chunk(passage: Passage) -> tuple[int, int]:
    return passage.registro, passage.chunk.index


def _without_excluded(pool: list[Candidate], excluded: Exclusions) -> list[Candidate]:
    """``pool`` less the candidates whose rubro or passage has an excluded word or phrase."""
    if not excluded.words:
        return pool
    terms = excluded.terms
    return [c for c in pool if not mentions_any((c.passage.rubro, c.passage.chunk.text), terms)]


def calibrated(plan: Plan) -> bool:
    """Whether ``api.core.confidence``'s thresholds hold for ``plan``: a ranking by relevance
    under the profile, mode and gate they were measured on (the seed profile's relevance is a
    raw cosine, a single retriever's another scale; without the gate nothing is compared with
    the abstention floor)."""
    return (
        plan.route == "relevance"
        and plan.profile == "default"
        and plan.mode == "hybrid"
        and plan.gate is not None
    )

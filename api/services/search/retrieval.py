"""Where a search's candidates come from: hybrid retrieval, or for a date-sorted question the
documents naming its topic or the store's date index."""

from __future__ import annotations

from collections.abc import Container, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Literal

from api.core.date_fields import DateField, detect_date_field, question_role, sort_by_field
from api.core.fusion import RetrievalMode, ScaleFloor, merge_candidates, scale_floor
from api.core.glossary import glossary_words
from api.core.intent import TOPIC_BRANCHES
from api.core.models import Candidate, Filters, Hit
from api.core.temporal import sort_by_date
from api.core.text import indexed_forms, lemmas
from api.core.topic import heads_topic, name_candidates, names_topic
from api.embeddings.base import Vectors
from api.services.search.config import SearchConfig
from api.services.search.plan import Plan
from api.store.base import ListQuery, SortOrder, VectorQuery, VectorStore

# Candidates per retriever, and the reference set the fused scales start from (``ScaleFloor``):
# a larger page asks for more candidates, on the same scales. 50 reads half the rows of 100
# (1M chunks: 28 -> 25 ms a search). A date order over a described topic keeps 100: its
# earliest or latest on-point tesis may rank low by relevance.
MIN_POOL = 50
MIN_DATED_POOL = 100
MAX_TOPIC_TERMS = 3  # a longer topic is a description: date order over on-topic hits instead
TOPIC_POOL = 5000  # most chunks naming a topic that a date-sorted question reads
# Chunks read first to tell whether any names a term: BM25 ranks those naming it in their
# rubro or opening high, so a named term is found here (see ``Retrieval.is_named``).
NAMED_PAGE = 20
MIN_NAME_DOCUMENTS = 3  # a capitalized word in fewer documents is a name, not a topic
# A document names a topic it is about in its rubro or its opening words; one naming it only
# further down mentions it in passing ("informe justificado" in a tesis on detentions).
OPENING_WORDS = 40
# When this many tesis name a date order's topic in their rubro, only those answer it.
RUBRO_NAMED = 3

# A hybrid search's vector retriever runs here while its BM25 runs on the search's own thread.
# Both release the GIL for most of their work (the faiss scan, numpy, SQLite, a Weaviate
# call), so on two cores they overlap: 1M chunks, 26-31 -> 17-18 ms a search. Shared by every
# store and search; a few threads, so concurrent searches rarely wait for one.
_VECTOR_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="vigencia-vector")


@dataclass(frozen=True, slots=True)
class Retrieved:
    """A search's candidates. ``narrowed``: a date-sorted pool of the documents naming the
    topic, or the date index (no abstention floor then); ``unnamed``: a short topic that no
    document names, in the question's words or in any reading of them ("el primer criterio
    sobre teletrabajo"): the corpus has nothing on it. ``scale_from``: where the fused scales
    start, from the reference candidates (each retriever's first ``MIN_POOL``, or
    ``MIN_DATED_POOL`` for a date order over a described topic)."""

    pool: list[Candidate]
    narrowed: bool = False
    unnamed: bool = False
    scale_from: ScaleFloor | None = None  # None: the pool's own least values
    missing: tuple[str, ...] = ()  # an unnamed Spanish topic's terms that no document names


def candidate_pool(top_k: int, oversample: int, dated: bool = False) -> int:
    """How many candidates a search asks each retriever for."""
    return max(top_k * oversample, MIN_DATED_POOL if dated else MIN_POOL)


class Retrieval:
    """Candidate retrieval over one store, under one configuration."""

    def __init__(self, store: VectorStore, config: SearchConfig) -> None:
        self.store = store
        self.config = config

    def candidates(
        self,
        query: str,
        vector: Vectors,
        filters: Filters,
        limit: int,
        mode: RetrievalMode,
        reference: int = MIN_POOL,
    ) -> tuple[list[Candidate], list[Candidate]]:
        """Oversampled candidates: vector top-``limit`` and BM25 top-``limit`` (at the same
        time), merged by chunk; and the reference set, each retriever's first ``reference``
        of them merged, whatever the ``limit``."""
        if mode == "lexical":
            lists = [self.store.lexical_search(query, vector, filters, limit)]
        elif mode == "vector":
            lists = [self.store.vector_search(VectorQuery(vector, filters, limit))]
        else:
            nearest = _VECTOR_THREADS.submit(
                self.store.vector_search, VectorQuery(vector, filters, limit)
            )
            lexical = self.store.lexical_search(query, vector, filters, limit)
            lists = [nearest.result(), lexical]
        merged = merge_candidates(*lists)
        if all(len(found) <= reference for found in lists):  # a default page: one and the same
            return merged, merged
        return merged, merge_candidates(*(found[:reference] for found in lists))

    def retrieve(
        self, plan: Plan, vector: Vectors, topic: tuple[str, ...], date_field: str | None = None
    ) -> Retrieved:
        """Candidates above the similarity threshold, drawn as the route requires."""
        request = plan.request
        pool: list[Candidate] = []
        narrowed = False
        if plan.route == "date_sorted" and not topic:
            pool = self.dated_extremes(
                vector, request.filters, plan.ordering, request.top_k, date_field
            )
            narrowed = True
        elif plan.route == "date_sorted" and len(topic) <= MAX_TOPIC_TERMS:
            named = self.naming(plan, vector, topic)
            if named.unnamed:
                return named
            pool, narrowed = named.pool, bool(named.pool)
        if pool:
            return Retrieved(_above(pool, plan.threshold), narrowed)
        dated = plan.route == "date_sorted"
        limit = candidate_pool(request.top_k, self.config.oversample, dated)
        reference = MIN_DATED_POOL if dated else MIN_POOL
        found, kept = self.candidates(
            plan.lexical_query, vector, request.filters, limit, plan.mode, reference
        )
        pool = _above(found, plan.threshold)
        scale_from = scale_floor(pool if kept is found else _above(kept, plan.threshold))
        return Retrieved(pool, narrowed, scale_from=scale_from)

    def naming(self, plan: Plan, vector: Vectors, topic: tuple[str, ...]) -> Retrieved:
        """The chunks naming a date order's short topic, in any of its readings; ``unnamed``
        when none does and the topic is one the corpus would name; an empty pool when the topic
        is to be read as a description instead."""
        filters = plan.request.filters
        # an English question's topic in the corpus's Spanish first: its own words name only
        # look-alikes ("arrest warrant" is not the "ARRESTO" of a 1978 tesis); a Spanish one's
        # own words first, then the tesis' words for its everyday ones
        readings = [t for t in plan.translated_topics if len(t) <= MAX_TOPIC_TERMS]
        own = [topic]
        english = plan.language in ("en", "mixed")
        groups = [readings, own] if english else [own, readings]
        named = NamedTerms(self, vector, filters)
        for topics in self._stages(groups, named):
            # the documents naming any reading ("dismissal": sobreseimiento or despido)
            pool = merge_candidates(*(self.topic_pool(vector, filters, t) for t in topics))
            if pool:
                return Retrieved(named_in_rubros(pool, topics))
        # "huelgas laborales": no tesis says both; the huelga tesis are Laboral
        pool = self.within_branch(vector, filters, [*own, *readings])
        if pool:
            return Retrieved(pool)
        # a topic in the corpus's language, or an English one the glossary knows whole, that
        # nothing names is not in the corpus: no nearest tesis by meaning, dated. One worded
        # past the glossary ("trademarks in a foreign language") is read as a description.
        if readings or not english:
            missing = () if english else unnamed_terms(topic, named)
            return Retrieved([], unnamed=True, missing=missing)
        return Retrieved([])

    def narrowing_topic(self, plan: Plan, vector: Vectors) -> tuple[str, ...]:
        """The plan's topic without capitalized names that fewer than ``MIN_NAME_DOCUMENTS``
        documents contain ("Jakub", unlike "Rust"): a name in a document or two (the owner's
        CV, a blog on their domain) does not make a subject."""
        names = name_candidates(plan.request.query) & set(plan.topic)
        if plan.language in ("en", "mixed"):  # "Saturdays": capitalized, rare, yet a subject
            names -= glossary_words(plan.request.query)
        dropped = {name for name in names if self._a_name(name, vector, plan.request.filters)}
        return tuple(t for t in plan.topic if t not in dropped)

    def _a_name(self, term: str, vector: Vectors, filters: Filters) -> bool:
        """Whether fewer than ``MIN_NAME_DOCUMENTS`` documents contain ``term`` and no title
        (rubro) does: "Jakub" is in two descriptions; "Interamericana", in two tesis, is in
        their rubros ("CORTE INTERAMERICANA DE DERECHOS HUMANOS"), so a subject."""
        found = self.store.lexical_search(term, vector, filters, 10)
        if any(term in lemmas(c.passage.rubro) for c in found):
            return False
        return len({c.passage.registro for c in found}) < MIN_NAME_DOCUMENTS

    def topic_pool(
        self, vector: Vectors, filters: Filters, topic: tuple[str, ...]
    ) -> list[Candidate]:
        """Every chunk of the filtered set that names the topic, its terms close together or
        its rubro headed by it (BM25 finds them)."""
        found = self._topic_hits(vector, filters, topic, TOPIC_POOL)
        return [c for c in found if _names(c, topic)]

    def _topic_hits(
        self, vector: Vectors, filters: Filters, topic: tuple[str, ...], limit: int
    ) -> list[Candidate]:
        forms = " ".join(form for term in topic for form in indexed_forms(term))
        return self.store.lexical_search(forms, vector, filters, limit)

    def is_named(self, vector: Vectors, filters: Filters, term: str) -> bool:
        """Whether some chunk of the filtered set names ``term`` (``topic_pool`` of it alone
        is not empty), reading BM25's best ``NAMED_PAGE`` first: one of them names a common
        term, and a shorter page is every chunk with the term. Only a page of chunks that all
        hold the term without naming it reads the whole ``TOPIC_POOL``."""
        found = self._topic_hits(vector, filters, (term,), NAMED_PAGE)
        if any(_names(c, (term,)) for c in found):
            return True  # BM25's ranking is a prefix of the longer page's: named there too
        return len(found) == NAMED_PAGE and bool(self.topic_pool(vector, filters, (term,)))

    @staticmethod
    def _stages(
        groups: list[list[tuple[str, ...]]], named: NamedTerms
    ) -> Iterator[list[tuple[str, ...]]]:
        """The topics to look for, in turn: each group as it is, then each group's longer
        topics less their loosest term ("los sábados como días inhábiles" is the rubro
        "SABADOS INHABILES"), worked out only when nothing named the whole topics."""
        yield from groups
        for group in groups:
            yield [n for t in group if (n := narrower(t, named))]

    def within_branch(
        self, vector: Vectors, filters: Filters, topics: list[tuple[str, ...]]
    ) -> list[Candidate]:
        """The chunks naming the first of ``topics`` that, less a branch-of-law adjective
        (``TOPIC_BRANCHES``), names anything within that materia; none under a materia filter."""
        if filters.materias:
            return []
        for topic in topics:
            branches = [t for t in topic if t in TOPIC_BRANCHES]
            rest = tuple(t for t in topic if t not in TOPIC_BRANCHES)
            if len(branches) != 1 or not rest:
                continue
            scoped = replace(filters, materias=(TOPIC_BRANCHES[branches[0]],))
            pool = self.topic_pool(vector, scoped, rest)
            if pool:
                return pool
        return []

    def leaves_nothing(self, filters: Filters) -> bool:
        """Whether ``filters`` (some set) leave no tesis at all: then that, not the topic or the
        threshold, is why nothing answers."""
        return filters != Filters() and not self.store.list_tesis(ListQuery(filters, "ASC", 1))

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
        dated = self.store.list_tesis(ListQuery(filters, order, top_k, date_field=date_field))
        if not dated:
            return []
        only = Filters(registros=tuple(t.registro for t in dated))
        return self.store.vector_search(VectorQuery(vector, only, None))

    def date_field_for(self, question: str, plan: Plan) -> str | None:
        """The extra date a date-sorted question refers to ("latest update"), or None."""
        if plan.route != "date_sorted" or question_role(question, plan.ordering) is None:
            return None
        fields = [DateField(name, role) for name, role in self.store.date_fields().items()]
        return detect_date_field(question, fields, plan.ordering)

    def sort_dated(
        self,
        hits: list[Hit],
        ordering: Literal["earliest", "latest"],
        date_field: str | None,
        by_registro: bool = False,
    ) -> list[Hit]:
        """One hit per record by date: the primary one, or ``date_field``; same-date ties by
        registro with ``by_registro`` (see ``sort_by_date``)."""
        if date_field is None:
            return sort_by_date(hits, ordering, by_registro)
        records = self.store.get_tesis(sorted({h.registro for h in hits}))
        dates = {r: t.date_of(date_field) for r, t in records.items()}
        return sort_by_field(hits, dates, ordering, by_registro)

    def replacements(self, vector: Vectors, registros: list[int]) -> list[Candidate]:
        cap = self.config.max_chunks_per_tesis
        only = Filters(registros=tuple(registros))
        return self.store.vector_search(VectorQuery(vector, only, len(registros) * cap))


class NamedTerms:
    """The terms that chunks name alone under one question's filters (``term in named``), and
    how many chunks name each (``named.count(term)``), each read once: the count
    (``topic_pool`` of the term) only where terms are compared, "any?" from a short page
    (``Retrieval.is_named``). The retrieval and the abstention each build their own."""

    def __init__(self, retrieval: Retrieval, vector: Vectors, filters: Filters) -> None:
        self.retrieval, self.vector, self.filters = retrieval, vector, filters
        self._counts: dict[str, int] = {}
        self._named: dict[str, bool] = {}

    def __contains__(self, term: object) -> bool:
        """Whether some chunk names ``term``."""
        if not isinstance(term, str):
            return False
        if term in self._counts:
            return self._counts[term] > 0
        if term not in self._named:
            self._named[term] = self.retrieval.is_named(self.vector, self.filters, term)
        return self._named[term]

    def count(self, term: str) -> int:
        """How many chunks name ``term``."""
        if term not in self._counts:
            pool = self.retrieval.topic_pool(self.vector, self.filters, (term,))
            self._counts[term] = len(pool)
        return self._counts[term]


def unnamed_terms(topic: tuple[str, ...], named: Container[str]) -> tuple[str, ...]:
    """The terms of ``topic`` that no document names ("embarazadas" of "despido de trabajadoras
    embarazadas"); ``()`` when each is named somewhere, only not together."""
    if len(topic) < 2:
        return topic
    return tuple(t for t in topic if t not in named)


def narrower(topic: tuple[str, ...], named: NamedTerms) -> tuple[str, ...]:
    """``topic`` (3 terms or more) without the one most documents name, the least telling ("dia"
    of "sábados días inhábiles"); ``()`` for a shorter topic, or when a term is named by no
    document: that term is what the corpus lacks ("despido de trabajadoras embarazadas" is not
    "despido de trabajadoras")."""
    if len(topic) < 3:
        return ()
    if not all(named.count(t) for t in topic):  # the counts are compared next
        return ()
    loosest = max(topic, key=named.count)
    return tuple(t for t in topic if t != loosest)


def _above(candidates: list[Candidate], threshold: float) -> list[Candidate]:
    return [c for c in candidates if c.similarity >= threshold]


def _names(candidate: Candidate, topic: tuple[str, ...]) -> bool:
    """Whether ``candidate`` names ``topic``: in its opening, or with a rubro headed by it."""
    return names_topic(opening(candidate), topic) or heads_topic(candidate.passage.rubro, topic)


def _rubro_names(rubro: str, topic: tuple[str, ...]) -> bool:
    """Whether ``rubro`` itself names ``topic``, or is headed by it."""
    return names_topic(rubro, topic) or heads_topic(rubro, topic)


def opening(candidate: Candidate) -> str:
    """What a document says it is about: its rubro (title) and the first ``OPENING_WORDS``
    words after it; a later chunk, its rubro alone."""
    passage = candidate.passage
    if passage.chunk.index > 0:
        return passage.rubro
    words = passage.chunk.text.split()  # the first chunk starts with the rubro
    return " ".join(words[: len(passage.rubro.split()) + OPENING_WORDS])


def named_in_rubros(pool: list[Candidate], topics: list[tuple[str, ...]]) -> list[Candidate]:
    """The candidates whose rubro names one of ``topics``, when ``RUBRO_NAMED`` tesis or more
    do; else ``pool``. A tesis naming the topic only in its opening words mentions it on the
    way to another point ("AUDIENCIA CONSTITUCIONAL CELEBRADA EN FECHA DISTINTA" is no answer
    to "the right to a hearing", read "garantía de audiencia")."""
    named = [c for c in pool if any(_rubro_names(c.passage.rubro, t) for t in topics)]
    return named if len({c.passage.registro for c in named}) >= RUBRO_NAMED else pool

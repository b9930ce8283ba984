"""Gating and abstention: which gate a route uses, and when nothing answers the question."""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import replace
from threading import Lock

from api.core.acronyms import with_names
from api.core.gate import (
    KNOWN_TERMS,
    QuerySignals,
    abstain_floor,
    abstain_reason,
    asks_the_service,
    null_language,
    reads_as_code,
    reads_as_placeholder,
)
from api.core.glossary import knows_nothing_of, understands
from api.core.intent.named_filters import without_phrases, without_years
from api.core.language import Language
from api.core.models import Candidate, Filters
from api.core.text import analyze, without_question_words
from api.core.topic import topic_words
from api.embeddings.base import Embedder, Vectors
from api.errors import EmbedderError
from api.services.search.config import SearchConfig
from api.services.search.plan import Plan
from api.services.search.retrieval import NamedTerms, Retrieval
from api.store.base import VectorQuery, VectorStore

_log = logging.getLogger("vigencia.search")
FLOOR_RECHECK_S = 30.0  # how stale the abstention floor's view of the store size may get
UNMEASURED = (-1, -1)  # the store size recorded when the embedder could not measure a floor
UNMEASURED_FLOOR = -2.0  # the best null cosine recorded then (below any cosine): floor 0.0


def gate_for(
    plan: Plan, config: SearchConfig, topic: tuple[str, ...], narrowed: bool
) -> float | None:
    """The gate a route uses: none for the date index, the temporal gate for a date order
    over on-point documents, the relevance gate otherwise."""
    if plan.gate is None:
        return None
    if plan.route == "date_sorted" and narrowed:
        return config.topic_gate if topic else None
    if plan.route == "date_sorted":
        return config.temporal_gate
    return plan.gate


# A question this much inside one candidate's rubro (title) is about that tesis, whatever its
# cosine: a pasted rubro, lowercased, unaccented and cut ("caducidad. la interrumpe la
# promocion conducente, sin importar que no recaiga...": 0.863 under a floor of 0.866). The
# evaluation's off-corpus questions reach at most 0.5 of their terms in any rubro.
# A keyword search ("albacea", "tesis sobre albaceas", "¿Qué facultades tiene el albacea?")
# has too few words for its cosine to reach the floor: one or two content words, all in one
# rubro, are what that tesis is about.
RUBRO_COVERAGE = 0.8
MIN_RUBRO_TERMS = 3
_NOT_CONTENT = frozenset(analyze("tesis criterio criterios jurisprudencia jurisprudencias rubro"))


def _known_share(plan: Plan, pool: list[Candidate]) -> float | None:
    """For a question in no known language of ``KNOWN_TERMS`` terms or more (an acronym read
    as its name), the share of its terms that some retrieved document holds; None otherwise."""
    if plan.language != "unknown":
        return None
    terms = set(analyze(with_names(plan.request.query)))
    if len(terms) < KNOWN_TERMS:
        return None
    held: set[str] = set()
    for candidate in pool:
        held |= terms & _passage_terms(candidate.passage.rubro, candidate.passage.chunk.text)
        if held == terms:
            break
    return len(held) / len(terms)


@functools.lru_cache(maxsize=4096)
def _passage_terms(rubro: str, text: str) -> frozenset[str]:
    return frozenset(analyze(f"{rubro} {text}"))


def _a_rubro_says_it(plan: Plan, pool: list[Candidate]) -> bool:
    # "de 1987" is a filter, "vigente" asks for the criterion in force, "1982" dates it: none
    # is a word of the tesis; an acronym is its name ("PROFECO": "PROCURADURIA FEDERAL DEL
    # CONSUMIDOR")
    said = (*plan.named_filters, *plan.temporal.triggers)
    asked = without_question_words(without_years(without_phrases(plan.request.query, said)))
    named = with_names(asked)
    keywords = set(analyze(named)) - _NOT_CONTENT
    if not keywords:
        return False
    if len(keywords) >= MIN_RUBRO_TERMS:
        need = RUBRO_COVERAGE * len(keywords)
        return any(len(keywords & _rubro_terms(c.passage.rubro)) >= need for c in pool)
    if named != asked:  # an institution's name, whole, anywhere in a rubro ("... PETROLEOS
        # MEXICANOS DEMOSTRAR...": "PEMEX" had abstained)
        return any(keywords <= _rubro_terms(c.passage.rubro) for c in pool)
    # a keyword search: what the tesis is about, so its words open the rubro ("ALBACEA, FALTA
    # DE..."), not a word met further on ("presidente" in an agrarian rubro)
    return any(keywords <= _rubro_opening(c.passage.rubro) for c in pool)


@functools.lru_cache(maxsize=8192)
def _rubro_terms(rubro: str) -> frozenset[str]:
    """A rubro's terms, kept: the same rubros come back across searches."""
    return frozenset(analyze(rubro))


RUBRO_OPENING = 3  # terms of a rubro that say what it is about (its heading, the voz)


@functools.lru_cache(maxsize=8192)
def _rubro_opening(rubro: str) -> frozenset[str]:
    return frozenset(analyze(rubro)[:RUBRO_OPENING])


class Abstention:
    """Whether a search abstains, against floors measured on one store."""

    def __init__(
        self,
        store: VectorStore,
        embedder: Embedder,
        config: SearchConfig,
        retrieval: Retrieval | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config
        self.retrieval = retrieval or Retrieval(store, config)  # the search's own, shared
        # language -> (checked at, store size, best null cosine): sizes are read at most every
        # FLOOR_RECHECK_S, not on every search (a COUNT over the store, or two Weaviate calls)
        self._floors: dict[str, tuple[float, tuple[int, int], float]] = {}
        self._floors_lock = Lock()
        self._measuring = Lock()  # one measurement at a time: concurrent first searches wait

    def reason(
        self, plan: Plan, pool: list[Candidate], vector: Vectors, legal: bool = True
    ) -> str | None:
        """Why nothing answers the question, or None. Not asked for date-sorted pools that
        are the whole corpus ("the first repository") or the documents naming the topic.
        ``legal``: the corpus holds tesis, whose English questions the glossary reads."""
        if plan.gate is None:
            return None
        filters = plan.request.filters
        signals = QuerySignals(
            language=plan.language,
            terms=len(set(analyze(plan.lexical_query))),
            matched=any(c.lexical > 0 for c in pool),  # BM25 found some word of it
            best_similarity=max((c.similarity for c in pool), default=None),
            code=reads_as_code(plan.request.query),
            to_the_service=asks_the_service(plan.request.query),
            filtered=filters != Filters(),
            known=_known_share(plan, pool),
            placeholder=reads_as_placeholder(plan.request.query),
            threshold=plan.threshold,
            nothing_under_filters=not pool and self.retrieval.leaves_nothing(filters),
        )
        floor = self.question_floor(plan)
        best = signals.best_similarity
        below = best is not None and best < floor
        # "Is surrogacy legal in Mexico?" reached the English floor on "legal" and "Mexico"
        unknown = legal and plan.language == "en" and knows_nothing_of(plan.request.query)
        titled = (below or unknown) and _a_rubro_says_it(plan, pool)  # read once, if needed
        if unknown and not titled:  # a keyword search in the tesis' Spanish is no such
            signals = replace(signals, no_legal_term=True)
        if below and (titled or self._glossary_answers(plan) or self._topic_answers(plan, vector)):
            floor = 0.0  # its words are a title's, its legal terms in Spanish or its topic answer
        return abstain_reason(signals, floor)

    def question_floor(self, plan: Plan) -> float:
        """The floor ``plan``'s question must reach: its language's, for its count of content
        words (``floor``)."""
        return self.floor(plan.language, len(set(analyze(plan.request.query))))

    def _topic_answers(self, plan: Plan, vector: Vectors) -> bool:
        """Whether a date order's described topic answers: every term of it is named by some
        tesis, and the topic asked alone reaches the floor for its length. Its ordering words
        are no subject and lower the question's cosine ("la tesis más antigua sobre suplir las
        deficiencias de la demanda de amparo": 0.860 under 0.863); a topic the corpus lacks
        has a term no tesis names ("… la adopción por parejas homoparentales"), though its
        words alone come close to some tesis (a reviewer's find)."""
        if plan.route != "date_sorted" or not plan.topic:
            return False
        named = NamedTerms(self.retrieval, vector, plan.request.filters)  # a page a term
        if not all(term in named for term in plan.topic):
            return False
        said = " ".join(topic_words(plan.request.query, plan.topic))
        return self._reaches_floor(said, plan.language, plan.request.filters, len(plan.topic))

    def _reaches_floor(self, text: str, language: Language, filters: Filters, words: int) -> bool:
        """Whether ``text``, embedded as a question, reaches the floor for ``words`` words."""
        try:
            vector = self.embedder.embed([text], "query")[0]
        except EmbedderError:
            return False
        found = self.store.vector_search(VectorQuery(vector, filters, 1))
        return bool(found) and found[0].similarity >= self.floor(language, words)

    def _glossary_answers(self, plan: Plan) -> bool:
        """Whether an English question's legal terms in Spanish (the glossary's) reach the
        Spanish floor for their length. An English question's cosines to the Spanish corpus
        are low and noisy ("What is res judicata?" 0.811 under a floor of 0.823); its glossary
        terms ("cosa juzgada") are Spanish, and measured like a Spanish question. Only when
        the glossary understands the question (``understands``): "Do I need a license to fly
        a drone?" is not a question about licences ("licencia" alone reaches the floor). A
        temporal question needs its topic understood, not its ordering words ("the first
        thesis about ...")."""
        terms = plan.glossary_terms.strip()
        if not terms or not understands(plan.request.query, set(plan.topic) or None):
            return False
        words = len(set(analyze(terms)))
        return self._reaches_floor(terms, "es", plan.request.filters, words)

    def floor(self, language: Language, words: int | None = None) -> float:
        """The best cosine a question in ``language`` of ``words`` content words must reach
        (None: a long one): the best null question's, plus the margin. Measured against this
        store, and again when its size has changed (checked at most every
        ``FLOOR_RECHECK_S``); 0.0 when the embedder could not measure it."""
        key = null_language(language)
        best = self._fresh(key)
        if best is None:
            with self._measuring:  # a search that waited here finds the floor just measured
                best = self._fresh(key)
                if best is None:
                    best = self._measure(key)
        if best <= UNMEASURED_FLOOR:
            return 0.0
        return abstain_floor([best], self.config.gate.margin_for(key, words))

    def _fresh(self, key: str) -> float | None:
        with self._floors_lock:
            cached = self._floors.get(key)
        if cached is not None and time.monotonic() - cached[0] < FLOOR_RECHECK_S:
            return cached[2]
        return None

    def _measure(self, key: str) -> float:
        now = time.monotonic()
        with self._floors_lock:
            cached = self._floors.get(key)
        size = self.store.count()
        if cached is not None and cached[1] == size:
            with self._floors_lock:
                self._floors[key] = (now, size, cached[2])
            return cached[2]
        try:
            vectors = self.embedder.embed(list(self.config.null_questions[key]), "query")
        except EmbedderError as exc:  # e.g. precomputed vectors only: no floor, say why
            _log.warning("abstention floor not measured (%s): only empty questions abstain", exc)
            with self._floors_lock:  # tried again after FLOOR_RECHECK_S, not on every search
                self._floors[key] = (now, UNMEASURED, UNMEASURED_FLOOR)
            return UNMEASURED_FLOOR
        found = [self.store.vector_search(VectorQuery(v, Filters(), 1)) for v in vectors]
        cosines = [hits[0].similarity for hits in found if hits]
        best = max(cosines) if cosines else UNMEASURED_FLOOR  # an empty store: no floor
        with self._floors_lock:
            self._floors[key] = (now, size, best)
        return best

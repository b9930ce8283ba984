"""A request resolved against the defaults: language, temporal intent, route and weights."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from api.core.acronyms import spelled_out
from api.core.fusion import RetrievalMode
from api.core.glossary import coverage, reads_as_english, translate_terms, translations
from api.core.intent import NO_TEMPORAL, TemporalIntent, detect_temporal, named_materia
from api.core.intent.named_filters import NamedFilters, named_filters, without_phrases
from api.core.language import Language, detect_language
from api.core.lay_terms import legal_readings, legal_terms
from api.core.models import Filters
from api.core.scoring import Profile
from api.core.search_defaults import RulesMode
from api.core.search_result import Route
from api.core.text import lemmas, without_question_words
from api.core.topic import topic_terms, without_pointing
from api.core.weight_policy import effective_recency_weight
from api.services.search.config import SearchConfig
from api.services.search.request import SearchRequest


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
    lexical_query: str = ""  # content words of a Spanish question; English: + glossary terms
    rules_mode: RulesMode = "same_point"
    gate: float | None = 0.5  # least gate value of an on-topic hit; None: no gate
    topic: tuple[str, ...] = ()  # what a date-sorted question is about
    # the topic in the tesis' words, one reading per tuple: an English one's through the
    # glossary ("dismissal": "sobreseimiento", "despido"...), everyday Spanish through the lay
    # terms ("tiempo extraordinario": "horas extras")
    translated_topics: tuple[tuple[str, ...], ...] = ()
    glossary_terms: str = ""  # an English question's legal terms in Spanish (glossary)
    named_filters: tuple[str, ...] = ()  # words of the question read as filters


def make_plan(request: SearchRequest, cfg: SearchConfig, records: bool = False) -> Plan:
    """Resolve the request against the defaults and read its language and temporal intent.
    ``records``: the store holds a generic corpus (no tesis), whose nouns name documents."""
    request.validate()
    temporal = NO_TEMPORAL if request.temporal_mode == "off" else detect_temporal(request.query)
    if request.ordering is not None:
        temporal = TemporalIntent(request.ordering, temporal.triggers)
    ordering = temporal.kind if temporal.kind in ("earliest", "latest") else None
    # "la primera tesis de la Décima Época", "tesis aisladas de 1980 sobre...": filters, whose
    # words are no topic. A court only filters a first/latest question: elsewhere it is often
    # the subject ("¿qué ha dicho la Suprema Corte sobre...?")
    named = named_filters(request.query, ordering=ordering is not None)
    if request.filters.registros:  # a lookup: the asker named the tesis themselves
        named = NamedFilters()
    if not temporal.kind and request.temporal_mode == "auto" and _only_filters(request.query):
        # "tesis aisladas de la Undécima Época", "jurisprudencia de 2022": nothing to match,
        # a listing under the filters, newest first
        temporal, ordering = TemporalIntent("latest", ()), "latest"
        named = named_filters(request.query)
    said = temporal.triggers + named.phrases
    topic = tuple(topic_terms(request.query, said, records)) if temporal.kind else ()
    if temporal.kind == "current" and not topic:  # "the current project": the newest one
        ordering = "latest"
    if named:
        request = replace(request, filters=with_named_filters(request.filters, named))
    route: Route = "relevance"
    if ordering is not None:
        route = "blend" if request.temporal_mode == "blend" else "date_sorted"
    language = detect_language(request.query)
    if language == "unknown" and reads_as_english(request.query):  # "overtime", "res judicata"
        language = "en"
    cross = language in ("en", "mixed")
    base_weight, base_alpha = cfg.defaults_for(request.query, request.filters.materias)
    alpha = base_alpha if request.alpha is None else request.alpha
    if cross and request.alpha is None:  # BM25 barely sees an English question
        alpha = max(alpha, cfg.cross_lingual_alpha)
    # A Spanish question asks BM25 for its content words only (no "tengo", "fue", "haya"),
    # and for the tesis' words for its everyday ones ("inquilino": "arrendatario")
    lexical_query = request.query
    if language == "es":
        lexical_query = f"{without_question_words(request.query)} {legal_terms(request.query)}"
    translated_topics: tuple[tuple[str, ...], ...] = ()
    spanish = ""
    if cross:
        spanish = translate_terms(request.query)
        lexical_query = f"{request.query} {spanish}"
        # only a topic the glossary knows whole: "remedies exhausted before amparo" read as
        # "recursos ... amparo" would lose "exhausted" and name any recurso
        asked = without_phrases(request.query, named.phrases)  # "Supreme Court" is a filter
        if topic and coverage(asked, set(topic)) == 1.0:
            translated_topics = _topics(translations(without_pointing(asked)))
    elif temporal.kind:  # "tiempo extraordinario"
        translated_topics = _topics(legal_readings(without_phrases(request.query, named.phrases)))
    names = spelled_out(request.query)  # "CFE": the tesis write "Comisión Federal de ..."
    if names:
        lexical_query = f"{lexical_query} {' '.join(names)}"
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
        translated_topics=translated_topics if route == "date_sorted" else (),
        glossary_terms=spanish,
        named_filters=named.phrases,
    )


def _only_filters(question: str) -> bool:
    """Whether ``question`` names filters (an época, years, a kind, a court, a branch of law)
    and asks for nothing else: its other words are document nouns and filler. Not a question
    ("¿Qué es una tesis aislada?" asks what one is), unless it asks whether there are any
    ("¿hay tesis de la Octava Época?")."""
    if _ASKS.search(_EXISTS.sub("", question)):
        return False
    named = named_filters(question)
    branch = named_materia(question)
    if not (named or branch):
        return False
    phrases = named.phrases + ((branch[1],) if branch else ())
    return not topic_terms(without_phrases(question, phrases), ())


_EXISTS = re.compile(
    r"^\s*¿\s*(?:hay|existen|tienen|tiene)\b([^?¿]*)\?\s*$|^\s*(?:are|is)\s+there\b([^?]*)\?\s*$",
    re.IGNORECASE,
)
_ASKS = re.compile(
    r"[?¿]|^\s*(?:que|qué|cual|cuál|como|cómo|what|which|how|why|is|are|does|do)\b",
    re.IGNORECASE,
)


def _topics(readings: list[str]) -> tuple[tuple[str, ...], ...]:
    """The distinct topics of a question's readings in the tesis' words."""
    return tuple(dict.fromkeys(t for r in readings if (t := tuple(topic_terms(r, ())))))


def scoped_to_materia(plan: Plan, materia: str, phrase: str) -> Plan:
    """``plan`` filtered to ``materia``, the question's words for it (``phrase``, "materia
    penal", "labor matters") out of its topic: the question asked for a branch of law, not for
    documents that say its name."""
    said = f"{phrase} materia materias {materia}"
    words = set(lemmas(f"{said} {translate_terms(said)}"))
    filters = replace(plan.request.filters, materias=(materia,))
    return replace(
        plan,
        request=replace(plan.request, filters=filters),
        topic=tuple(t for t in plan.topic if t not in words),
        translated_topics=tuple(
            tuple(t for t in topic if t not in words) for topic in plan.translated_topics
        ),
    )


def with_named_filters(filters: Filters, named: NamedFilters) -> Filters:
    """``filters`` plus what a question named, where the request set nothing."""
    years = filters.anio_min is None and filters.anio_max is None
    return replace(
        filters,
        epocas=filters.epocas or named.epocas,
        anio_min=named.anio_min if years else filters.anio_min,
        anio_max=named.anio_max if years else filters.anio_max,
        tipo=filters.tipo or named.tipo,
        instancia=filters.instancia or named.instancia,
        organo=filters.organo or named.organo,
        circuito=filters.circuito or named.circuito,
    )

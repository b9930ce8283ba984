"""The relevance gate: which candidates answer the question, and when nothing does (pure).

Recency, época and the vigencia rules may only reorder answers, never replace them. So before
they act, every candidate gets a *gate value*: how close its cosine and its BM25 score come to
the best candidate's (``gate_values``), mixed like the hybrid search. A candidate is *on
topic* when its gate value reaches ``GateConfig.relative``; ranking puts every
on-topic hit (ordered by the recency-aware final score) before every off-topic one (ordered by
relevance alone), so a recent tesis on another point never outranks an on-point older one.

Abstention: when nothing in the corpus answers, search returns no hits and a reason. The floor
on the best cosine is calibrated per corpus and embedder, not guessed: the service runs a few
*null questions* (gibberish, small talk, recipes) against the store, and a question must beat the
best of them, for its language, by ``GateConfig.margin``. e5's cosines sit in a narrow band and
an English question scores ~0.06 lower than the same question in Spanish, hence one floor per
language.

Usage::

    floor = abstain_floor(null_best_cosines, config)
    reason = abstain_reason(signals, floor)
    values = gate_values(cosines, bm25s, "hybrid", 0.4)  # [1.0, 0.82, 0.31, ...]
    on_topic = [v >= config.relative for v in values]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from api.core.language import Language
from api.core.text import fold_with_map

# Questions no corpus should answer, per language; their best cosines calibrate the floor.
NULL_QUESTIONS: dict[str, tuple[str, ...]] = {
    "es": (
        "asdkjh qwpoeiru zxmcnb",
        "receta de mole poblano con chocolate",
        "hola, ¿cómo estás hoy?",
        "¿quién ganó el partido de fútbol de anoche?",
        "pronóstico del clima para mañana",
        "letra de una canción de cuna para dormir al bebé",
        "mejores playas para vacacionar en verano",
    ),
    "en": (
        "what is the best pizza in naples",
        "how do i reset my phone password",
        "who won the football game last night",
        "weather forecast for tomorrow",
        "lyrics of a lullaby for a baby",
    ),
}


# Content words (``analyze``) of a short and of a long question, for the abstention margin:
# the evaluation's questions have 9 to 28, typed ones often 2 to 8.
SHORT_WORDS, LONG_WORDS = 5, 10


@dataclass(frozen=True, slots=True)
class GateConfig:
    """``relative``: least gate value (relevance / best relevance) of an on-topic hit.
    ``margin``: how far above the best null question's cosine a question's best cosine must be;
    ``cross_margin``: the same for English and mixed questions, whose cosines are lower;
    ``short_margin``: the margin for a short Spanish question (see ``margin_for``).
    ``enabled``: False turns off both the gate and abstention (every hit on topic).
    """

    relative: float = 0.7
    margin: float = 0.022
    cross_margin: float = 0.005
    enabled: bool = True
    short_margin: float = 0.016

    def __post_init__(self) -> None:
        if not 0.0 <= self.relative <= 1.0:
            raise ValueError(f"relative must be in [0, 1], got {self.relative}")
        margins = (
            ("margin", self.margin),
            ("cross_margin", self.cross_margin),
            ("short_margin", self.short_margin),
        )
        for name, value in margins:
            if not -1.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [-1, 1], got {value}")

    def margin_for(self, null_set: str, words: int | None = None) -> float:
        """The margin for a question of ``words`` content words (None: a long question).

        A short question is close to nothing in particular: its best cosine sits lower, like
        the null questions' (themselves short). So a Spanish question of ``SHORT_WORDS`` or
        fewer content words needs ``short_margin``, one of ``LONG_WORDS`` or more ``margin``,
        and one in between a share of each.
        """
        if null_set == "en":
            return self.cross_margin
        if words is None:
            return self.margin
        share = min(1.0, max(0.0, (words - SHORT_WORDS) / (LONG_WORDS - SHORT_WORDS)))
        return self.short_margin + (self.margin - self.short_margin) * share


@dataclass(frozen=True, slots=True)
class QuerySignals:
    """What the gate knows of a question before ranking.

    ``terms``: how many analyzed terms it has (with glossary translations for English);
    ``matched``: whether BM25 found any of them in the corpus; ``best_similarity``: the best
    cosine; ``code``: the question is a database statement (``reads_as_code``);
    ``to_the_service``: it asks the search about itself (``asks_the_service``); ``filtered``:
    filters narrowed the tesis searched (the reason then says so).
    """

    language: Language
    terms: int
    matched: bool
    best_similarity: float | None
    code: bool = False
    to_the_service: bool = False
    filtered: bool = False
    known: float | None = None  # share of its terms the retrieved documents hold (see below)
    threshold: float | None = None  # the least cosine asked for (the request's or the default)
    nothing_under_filters: bool = False  # the filters leave no tesis at all
    placeholder: bool = False  # typesetters' filler text (``reads_as_placeholder``)
    no_legal_term: bool = False  # an English question with no word the glossary knows


# A database statement pasted or typed as a probe ("SELECT * FROM tesis WHERE anio > 2020",
# "'; DROP TABLE tesis; --"): its words ("tesis", "anio") reach the English floor, and an
# answer to it would be a confident answer to nothing. "Can the employer select workers from
# the union list?" is not one: a statement names its table and ends, or filters, there.
# A statement's shape, not its words: "*" or a comma list of columns, "values (", "--", a
# closing ";" ("Can the union select its delegates?", "insert into the contract a clause").
_SQL = re.compile(
    r"\bselect\s+(?:\*|\w+(?:\.\w+)?(?:\s*,\s*\w+(?:\.\w+)?)+)\s+from\s+\w+"
    r"|\bselect\s+.+\s+from\s+\w+\s*(?:;|\s+where\s+\w+\s*(?:[<>=!]|like\b|in\s*\())"
    r"|\b(?:drop|truncate|alter)\s+table\s+\w+|\binsert\s+into\s+\w+\s*(?:\(|values\b)"
    r"|\bunion\s+(?:all\s+)?select\s+(?:\*|null\b|\d|@@)|;\s*--"
    r"|\bdelete\s+from\s+\w+\s*(?:;|where\s+\w+\s*[<>=])",
    re.IGNORECASE,
)


def reads_as_code(question: str) -> bool:
    """Whether ``question`` is a SQL statement rather than a question."""
    return bool(_SQL.search(question))


# Typesetters' filler ("Lorem ipsum dolor sit amet, consectetur…"): its "do", "et" and "ut"
# read as English, and "consectetur" shares a stem with "consecuencias".
_PLACEHOLDER = re.compile(r"\blorem\s+ipsum\b", re.IGNORECASE)


def reads_as_placeholder(question: str) -> bool:
    """Whether ``question`` is lorem ipsum filler text."""
    return bool(_PLACEHOLDER.search(question))


# A question to the search itself ("¿Quién eres y cómo funcionas?", "what can you do?"): its
# words reach the floor of a corpus about courts and their functions, and no tesis answers it.
_ASKS_ITSELF = (
    r"(?:(?:quien|que)\s+eres(?:\s+tu)?|como\s+funcionas|que\s+(?:sabes|puedes)\s+hacer|"
    r"eres\s+(?:un|una)\s+(?:bot|robot|ia|inteligencia\s+artificial|persona|humano)|"
    r"who\s+are\s+you|what\s+are\s+you|how\s+do\s+you\s+work|what\s+can\s+you\s+do|"
    r"are\s+you\s+(?:a|an)\s+(?:bot|robot|ai|human|person))"
)
# the whole question, or several such joined ("¿Quién eres y cómo funcionas?"): "¿Qué puedes
# hacer si tu patrón no te paga?" asks about the law
_TO_THE_SERVICE = re.compile(rf"^\W*{_ASKS_ITSELF}(?:\W+(?:y|and)\W+{_ASKS_ITSELF})*\W*$")


def asks_the_service(question: str) -> bool:
    """Whether ``question`` opens by asking the search about itself, not about the law."""
    return bool(_TO_THE_SERVICE.search(fold_with_map(question)[0]))  # folded once a search


NOTHING_UNDER_FILTERS = "No hay tesis que cumplan los filtros."
NOTHING_UNDER_FILTERS_RECORDS = "No hay registros que cumplan los filtros."  # a generic corpus


# A question in no language the detector knows, of ``KNOWN_TERMS`` terms or more, most of them
# in no retrieved document, is no question: placeholder text, or words typed at random. Its
# ``known`` share is measured only then (None otherwise): a keyword search ("suspensión
# provisional amparo indirecto") reads as no language too, but its words are the documents'.
KNOWN_TERMS = 4
KNOWN_SHARE = 0.4


def below_threshold_reason(threshold: float) -> str:
    """Why nothing answers when the least cosine asked for left no candidate."""
    return (
        f"Ningún documento alcanza la similitud mínima ({threshold:.2f}): "
        "pruebe con un umbral menor."
    )


def null_language(language: Language) -> str:
    """Which null set calibrates a question: English ones for English and mixed questions."""
    return "en" if language in ("en", "mixed") else "es"


def abstain_floor(null_best: Iterable[float], margin: float) -> float:
    """The best cosine a question must reach: the best null question's, plus ``margin``."""
    values = list(null_best)
    return (max(values) + margin) if values else 0.0


def abstain_reason(signals: QuerySignals, floor: float) -> str | None:
    """Why nothing answers the question (a Spanish sentence), or None when something may."""
    if signals.terms == 0:
        return "La pregunta no contiene palabras que buscar."
    if signals.code:
        return "La pregunta es una instrucción de base de datos (SQL), no una pregunta."
    if signals.placeholder:
        return "La pregunta es texto de relleno (lorem ipsum), no una pregunta."
    if signals.to_the_service:
        return (
            "La pregunta es sobre este buscador, no sobre tesis: busca criterios del Semanario "
            "Judicial de la Federación por su tema."
        )
    searched = "las tesis que cumplen los filtros" if signals.filtered else "el corpus"
    if signals.best_similarity is None:  # no candidate at all: say which bound left none
        if signals.nothing_under_filters:
            return NOTHING_UNDER_FILTERS
        if signals.threshold:
            return below_threshold_reason(signals.threshold)
        return f"Ninguna palabra de la pregunta aparece en {searched}."
    if not signals.matched and signals.language == "unknown":  # no word of any language
        return f"Ninguna palabra de la pregunta aparece en {searched}."
    if signals.known is not None and signals.known < KNOWN_SHARE:
        # "lorem ipsum dolor sit amet consectetur…": "consectetur" shares a stem with
        # "consecuencias", and nothing else of it is in any document
        return f"Casi ninguna palabra de la pregunta aparece en {searched}."
    if signals.no_legal_term:
        return (
            "Ninguna palabra de la pregunta está en el glosario jurídico inglés-español ni en "
            f"las tesis: nada en {searched} parece responderla."
        )
    if signals.best_similarity < floor:
        return (
            f"Nada en {searched} trata lo que pregunta: el documento más cercano tiene "
            f"similitud {signals.best_similarity:.3f}, por debajo del umbral {floor:.3f}."
        )
    return None


def unnamed_topic_reason(words: Sequence[str]) -> str:
    """Why a first/latest question about ``words`` abstains: no document names them."""
    topic = " ".join(words) or "el tema"
    return (
        f"Ningún documento trata de «{topic}»: ninguno lo nombra en su rubro ni al inicio de su "
        "texto."
    )


# e5 cosines of a question to its corpus sit in a narrow band: an on-point passage is within
# ~0.03 of the best one, an unrelated one ~0.06 or more below it. The gate reads the cosine
# gap on this fixed span, so a set of near-identical candidates stays on topic together
# instead of being stretched apart by min-max scaling.
COSINE_SPAN = 0.1


def gate_values(
    similarities: Sequence[float], lexical: Sequence[float], mode: str, alpha: float
) -> list[float]:
    """Each candidate's closeness to the best, in [0, 1] (1.0 for the best).

    Vector side: ``1 - (best cosine - cosine) / COSINE_SPAN``; lexical side: BM25 / best
    BM25; mixed as the hybrid search mixes them (``alpha`` on the vector side), then divided
    by the best mix.
    """
    if not similarities:
        return []
    top_cos = max(similarities)
    top_lex = max(lexical, default=0.0)
    vector = [max(0.0, 1 - (top_cos - c) / COSINE_SPAN) for c in similarities]
    words = [b / top_lex if top_lex > 0 else 0.0 for b in lexical]
    if mode == "vector" or top_lex <= 0:
        mixed = vector
    elif mode == "lexical":
        mixed = words
    else:
        mixed = [alpha * v + (1 - alpha) * w for v, w in zip(vector, words, strict=True)]
    best = max(mixed)
    return [m / best if best > 0 else 1.0 for m in mixed]

"""What a search is asked: the question, its filters and overrides, and their limits."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from api.core.circuits import MAX_CIRCUIT
from api.core.epocas import canonical_epoca
from api.core.fusion import RetrievalMode
from api.core.intent import MATERIAS, canonical_materia
from api.core.limits import MAX_QUESTION_TOKENS, question_tokens
from api.core.models import Filters
from api.core.scoring import PROFILES, Profile
from api.core.search_defaults import RULES_MODES, RulesMode
from api.core.weight_policy import WEIGHT_RANGE, in_weight_range
from api.errors import InvalidRequest

MAX_TOP_K = 100
MAX_CHUNKS_PER_TESIS = 10
MAX_QUERY_CHARS = 2000
MIN_YEAR, MAX_YEAR = 1800, 2100
TemporalMode = Literal["auto", "off", "sort", "blend"]
TEMPORAL_MODES: tuple[TemporalMode, ...] = ("auto", "off", "sort", "blend")


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "filters", canonical_filters(self.filters))

    def validate(self) -> None:
        text = self.query.strip()
        if not text:
            raise InvalidRequest("query", "must not be empty")
        if len(text) > MAX_QUERY_CHARS:
            raise InvalidRequest("query", f"{len(text)} characters, at most {MAX_QUERY_CHARS}")
        if "\x00" in text:  # it would be logged and shown back as it came
            raise InvalidRequest("query", "contains a NUL character")
        tokens = question_tokens(text)
        if tokens > MAX_QUESTION_TOKENS:  # before embedding: the embedder does not truncate
            raise InvalidRequest("query", f"~{tokens} tokens, at most {MAX_QUESTION_TOKENS}")
        _check_range("topK", self.top_k, 1, MAX_TOP_K)
        for name, value in (
            ("recencyWeight", self.recency_weight),
            ("alpha", self.alpha),
            ("threshold", self.threshold),
        ):
            if value is not None and not in_weight_range(value):
                raise InvalidRequest(name, f"{value} is outside {WEIGHT_RANGE}")
        _check_range("maxChunksPerTesis", self.max_chunks_per_tesis, 1, MAX_CHUNKS_PER_TESIS)
        _check_choice("temporalMode", self.temporal_mode, TEMPORAL_MODES)
        _check_choice("rulesMode", self.rules_mode, RULES_MODES)
        _check_choice("profile", self.profile, PROFILES)
        check_filters(self.filters)


MAX_FILTER_CHARS = 200


def check_filters(f: Filters) -> None:
    """Raise ``InvalidRequest`` for filters out of range (a search's, a timeline's, counts')."""
    _check_range("anioMin", f.anio_min, MIN_YEAR, MAX_YEAR)
    _check_range("anioMax", f.anio_max, MIN_YEAR, MAX_YEAR)
    if f.anio_min is not None and f.anio_max is not None and f.anio_min > f.anio_max:
        raise InvalidRequest("anioMin", f"{f.anio_min} is after anioMax {f.anio_max}")
    _check_range("circuito", f.circuito, 1, MAX_CIRCUIT)
    named = (*f.materias, *f.epocas, f.instancia or "", f.organo or "")
    if any("\x00" in value for value in named):
        raise InvalidRequest("filters", "a value contains a NUL character")
    longest = max(map(len, named))  # no materia, época or court is named that long
    if longest > MAX_FILTER_CHARS:
        raise InvalidRequest("filters", f"a {longest}-character value, at most {MAX_FILTER_CHARS}")
    unknown = [m for m in f.materias if canonical_materia(m) not in MATERIAS]
    if unknown:
        allowed = ", ".join(MATERIAS)
        raise InvalidRequest("materias", f"{unknown[0]!r} is not a materia: one of {allowed}")
    unknown = [e for e in f.epocas if canonical_epoca(e) is None]
    if unknown:
        raise InvalidRequest(
            "epocas", f"{unknown[0]!r} is not an época: Primera to Duodécima ('Novena', '9a')"
        )


def canonical_filters(f: Filters) -> Filters:
    """``f`` with its materias and épocas spelled as the corpus spells them ('laboral',
    'COMÚN' and 'amparo' ask for 'Laboral', 'Común' and 'Común'; '9a' for 'Novena Época'; a
    store matches names exactly). Unknown names stay as given, for ``check_filters`` to
    refuse."""
    materias = tuple(dict.fromkeys(canonical_materia(m) or m for m in f.materias))
    epocas = tuple(dict.fromkeys(canonical_epoca(e) or e for e in f.epocas))
    if (materias, epocas) == (f.materias, f.epocas):
        return f
    return replace(f, materias=materias, epocas=epocas)


def _check_range(name: str, value: int | None, low: int, high: int) -> None:
    if value is not None and not low <= value <= high:
        raise InvalidRequest(name, f"{value} is outside {low}..{high}")


def _check_choice(name: str, value: str | None, choices: tuple[str, ...]) -> None:
    if value is not None and value not in choices:
        raise InvalidRequest(name, f"{value!r} is not one of {choices}")

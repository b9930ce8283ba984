"""What a question asks for: its materia and its temporal intent (earliest, latest, current).

Both detectors work on an accent-folded, lowercased copy of the question with word-boundary
regexes, and report the words that triggered them as written in the question (lowercased).
Overlapping matches are resolved longest-first, so "contrato colectivo" counts once (as
laboral) and not also as the civil "contrato", and "más reciente" (latest) hides "reciente"
(current).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

MateriaSource = Literal["filter", "question", "hits"]
TemporalKind = Literal["earliest", "latest", "current"]

# Canonical materia names, as the corpus spells them.
MATERIAS: tuple[str, ...] = (
    "Laboral",
    "Fiscal",
    "Electoral",
    "Penal",
    "Constitucional",
    "Civil",
    "Mercantil",
    "Familiar",
    "Administrativa",
    "Agraria",
    "Común",
)

# Tie-break when two materias have as many trigger hits: specific branches before the general
# ones they belong to (Familiar and Mercantil before Civil, Fiscal and Agraria before
# Administrativa), and Constitucional and Común last, because "constitucional", "amparo" or
# "suspensión" show up in questions of every branch (amparo is how all of them reach court).
MATERIA_PRIORITY: tuple[str, ...] = (
    "Laboral",
    "Fiscal",
    "Electoral",
    "Penal",
    "Familiar",
    "Mercantil",
    "Agraria",
    "Administrativa",
    "Civil",
    "Constitucional",
    "Común",
)


def fold(text: str) -> str:
    """Lowercase and strip accents: 'Patrón' -> 'patron', 'AÑO' -> 'ano'."""
    return _fold_with_map(text)[0]


def _fold_with_map(text: str) -> tuple[str, list[int]]:
    """The folded text and, for each of its characters, the index of its source character."""
    out: list[str] = []
    source: list[int] = []
    for i, char in enumerate(text):
        for c in unicodedata.normalize("NFD", char.lower()):
            if unicodedata.category(c) != "Mn":
                out.append(c)
                source.append(i)
    return "".join(out), source


@dataclass(frozen=True, slots=True)
class _Match:
    start: int  # in the folded text
    end: int
    label: str  # materia or temporal kind


def _compile(terms: Iterable[str]) -> re.Pattern[str]:
    """One regex for folded terms; spaces inside a term match any run of whitespace."""
    parts = sorted((t.strip() for t in terms if t.strip()), key=len, reverse=True)
    body = "|".join(p.replace(" ", r"\s+") for p in parts)
    return re.compile(rf"\b(?:{body})\b")


def _non_overlapping(matches: Iterable[_Match]) -> list[_Match]:
    """Longest matches first; drop any that overlaps one already taken. In text order."""
    taken: list[_Match] = []
    for m in sorted(matches, key=lambda m: (-(m.end - m.start), m.start)):
        if all(m.end <= t.start or t.end <= m.start for t in taken):
            taken.append(m)
    return sorted(taken, key=lambda m: m.start)


def _surface(text: str, source: list[int], m: _Match) -> str:
    """The matched words as written in the question, lowercased, whitespace collapsed."""
    return " ".join(text[source[m.start] : source[m.end - 1] + 1].lower().split())


def _dedupe(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


# --- materia -----------------------------------------------------------------------------

# Folded regex fragments per materia, ';'-separated; plurals and genders are optional groups.
_MATERIA_TERMS: dict[str, str] = {
    "Laboral": (
        "laboral(?:es)? ; trabajos? ; trabajador(?:a|as|es)? ; patron(?:es|al|ales)? ;"
        "sindica(?:l|les|tos?) ; despid(?:os?|ida|idas) ; representatividad ;"
        "contratos? colectivos? ; huelgas? ; salari(?:os?|al|ales) ; aguinaldo ;"
        "reinstalacion ; prima de antiguedad ; subcontratacion ; outsourcing ;"
        "junta de conciliacion y arbitraje ; centro federal de conciliacion ; seguro social ;"
        "imss ; infonavit ; jubilaci(?:on|ones)"
    ),
    "Fiscal": (
        # "el fiscal" (the prosecutor) is a longer Penal term, so it wins over "fiscal".
        "fiscal(?:es)? ; tributari(?:os?|as?) ; impuestos? ; contribuci(?:on|ones) ;"
        "contribuyentes? ; sat ; isr ; iva ; ieps ; deducci(?:on|ones) ;"
        "facultades de comprobacion ; aduan(?:a|as|era|ero|eras|eros) ; predial"
    ),
    "Electoral": (
        "electoral(?:es)? ; elecci(?:on|ones) ; votos? ; votaci(?:on|ones) ;"
        "candidat(?:os?|as?|uras?) ; partidos? politicos? ; sufragio ; ine ; tepjf ;"
        "propaganda ; redistritacion"
    ),
    "Penal": (
        "penal(?:es)? ; delitos? ; imputad(?:os?|as?) ; prision ; ministerio publico ;"
        "reparaci(?:on|ones) del dano ; inculpad(?:os?|as?) ; procesad(?:os?|as?) ;"
        "sentenciad(?:os?|as?) ; victimas? ; ofendid(?:os?|as?) ; carpeta de investigacion ;"
        "vinculacion a proceso ; homicidio ; robo ; fraude ; secuestro ; feminicidio ;"
        "narcomenudeo ; acusatorio ; juez de control ; fiscalias? ; defensa adecuada ;"
        "cadena de custodia ; (?:el|la|los|las|del|al) fiscal(?:es)?"
    ),
    "Constitucional": (
        "constitucional(?:es)? ; constitucionalidad ; inconstitucional(?:es|idad)? ;"
        "derechos humanos ; convencionalidad ; corte interamericana ; control difuso ;"
        "pro persona ; convencion americana"
    ),
    "Civil": (
        "civil(?:es)? ; contratos? ; arrendamientos? ; arrendatari(?:os?|as?) ;"
        "arrendador(?:es|a)? ; compraventa ; prescripcion positiva ; prescripcion adquisitiva ;"
        "usucapion ; inmuebles? ; testamentos? ; herencias? ; sucesi(?:on|ones|orio) ;"
        "hipotec(?:a|as|ario|aria) ; dano moral ; danos y perjuicios ; escritura publica"
    ),
    "Mercantil": (
        "mercantil(?:es)? ; pagares? ; titulos? de credito ; cheques? ; letras? de cambio ;"
        "aval ; avalistas? ; endosos? ; codigo de comercio ; comerciantes? ;"
        "bancari(?:os?|as?) ; usura ; sociedad anonima"
    ),
    "Familiar": (
        "familiar(?:es)? ; alimentos ; pensi(?:on|ones) alimenticias? ; alimentari(?:os?|as?) ;"
        "guarda y custodia ; custodia ; patria potestad ; divorcios? ; convivencias? ;"
        "matrimonio ; concubinato ; filiacion ; paternidad ; adopcion ;"
        "interes superior del menor"
    ),
    "Administrativa": (
        "administrativ(?:os?|as?) ; juicio de nulidad ; servidor(?:es)? public(?:os?|as?) ;"
        "licitaci(?:on|ones) ; concesi(?:on|ones) ; expropiacion ; transparencia ;"
        "acceso a la informacion ; multas?"
    ),
    "Agraria": (
        "ejidos? ; ejidal(?:es)? ; ejidatari(?:os?|as?) ; agrari(?:os?|as?) ;"
        "comuner(?:os?|as?) ; bienes comunales ; comisariado ; parcelas?"
    ),
    "Común": (
        "amparos? ; suspensi(?:on|ones) ; sobreseimiento ; sobreseer ; improcedencia ;"
        "quejos(?:os?|as?) ; tercero interesado ; autoridad(?:es)? responsables? ;"
        "recurso de revision ; recurso de queja ; interes juridico ; interes legitimo ;"
        "actos? reclamados? ; conceptos? de violacion"
    ),
}
_MATERIA_PATTERNS = {m: _compile(terms.split(";")) for m, terms in _MATERIA_TERMS.items()}

# Explicit filter values and hit materias are canonicalized by their folded form.
_MATERIA_ALIASES: dict[str, str] = {fold(m): m for m in MATERIAS} | {
    "amparo": "Común",
    "administrativo": "Administrativa",
    "agrario": "Agraria",
    "trabajo": "Laboral",
    "familia": "Familiar",
    "tributario": "Fiscal",
}


def canonical_materia(name: str) -> str | None:
    """'laboral', 'COMUN' or 'amparo' -> the corpus name; unknown names are kept as given."""
    stripped = name.strip()
    if not stripped:
        return None
    return _MATERIA_ALIASES.get(fold(stripped), stripped)


@dataclass(frozen=True, slots=True)
class MateriaIntent:
    """The materia a question is about, the words that said so, and where it came from.

    ``triggers`` is empty when the materia came from a filter or from the hits.
    """

    materia: str | None
    triggers: tuple[str, ...] = ()
    source: MateriaSource | None = None


NO_MATERIA = MateriaIntent(None, (), None)


def _best(counts: Counter[str]) -> str | None:
    """The most counted materia; ties by MATERIA_PRIORITY, unknown names last (alphabetical)."""
    if not counts:
        return None

    def order(m: str) -> tuple[int, int, str]:
        prio = MATERIA_PRIORITY.index(m) if m in MATERIA_PRIORITY else len(MATERIA_PRIORITY)
        return (-counts[m], prio, m)

    return min(counts, key=order)


def materia_matches(question: str) -> list[tuple[str, str]]:
    """Every (materia, trigger) in the question, in text order, overlaps resolved."""
    folded, source = _fold_with_map(question)
    found = [
        _Match(m.start(), m.end(), materia)
        for materia, pattern in _MATERIA_PATTERNS.items()
        for m in pattern.finditer(folded)
    ]
    return [(m.label, _surface(question, source, m)) for m in _non_overlapping(found)]


def detect_materia(
    question: str,
    explicit: Sequence[str] = (),
    hit_materias: Sequence[Sequence[str]] = (),
) -> MateriaIntent:
    """The materia of a question.

    1. An explicit filter wins: its first non-empty materia (canonicalized).
    2. Else the lexicon: the materia with most trigger hits in the question (ties:
       ``MATERIA_PRIORITY``).
    3. Else the materia that a strict majority of the hits carry (a hit counts once per
       materia; ties: ``MATERIA_PRIORITY``). A mere plurality is not enough: the materia
       picks the reform cutoff, and a wrong cutoff discards good criteria.
    """
    for name in explicit:
        canon = canonical_materia(name)
        if canon is not None:
            return MateriaIntent(canon, (), "filter")

    matches = materia_matches(question)
    if matches:
        counts = Counter(materia for materia, _ in matches)
        best = _best(counts)
        triggers = _dedupe(trigger for materia, trigger in matches if materia == best)
        return MateriaIntent(best, triggers, "question")

    per_hit = Counter(
        canon
        for materias in hit_materias
        for canon in {c for c in map(canonical_materia, materias) if c is not None}
    )
    majority = Counter({m: n for m, n in per_hit.items() if 2 * n > len(hit_materias)})
    best = _best(majority)
    return MateriaIntent(best, (), "hits") if best else NO_MATERIA


# --- temporal ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TemporalIntent:
    """Whether the question asks for the earliest, the latest or the current criterion."""

    kind: TemporalKind | None
    triggers: tuple[str, ...] = ()


NO_TEMPORAL = TemporalIntent(None, ())


@dataclass(frozen=True, slots=True)
class _Rule:
    """A temporal trigger with its context checks (on folded words around the match).

    ``stop_next``/``stop_prev``: a following/preceding word (or two-word phrase) that vetoes
    the match. ``need_prev``: when set, the preceding word must be one of these.
    ``proper_name``: veto a capitalized ordinal inside a name ("Primer Tribunal Colegiado",
    "Tercer Tribunal ... del Primer Circuito") when it is not at the start of a sentence and
    the next word is capitalized too.
    """

    kind: TemporalKind
    pattern: re.Pattern[str]
    stop_next: frozenset[str] = frozenset()
    stop_prev: frozenset[str] = frozenset()
    need_prev: frozenset[str] = frozenset()
    proper_name: bool = False


def _words(text: str) -> frozenset[str]:
    return frozenset(w.strip() for w in text.split(",") if w.strip())


# "primer/primera/primero" names courts, chambers, circuits, instances, paragraphs and
# articles far more often than it asks for the first criterion.
_ORDINAL_STOP_NEXT = _words(
    "instancia, instancias, sala, salas, circuito, circuitos, tribunal, tribunales, colegiado,"
    "juzgado, juzgados, distrito, region, parrafo, parrafos, parte, lugar, termino, grado,"
    "nivel, epoca, titulo, capitulo, seccion, fraccion, apartado, inciso, punto, transitorio,"
    "resolutivo, considerando, vista, infancia, necesidad, mano, plana,"
    "de enero, de febrero, de marzo, de abril, de mayo, de junio, de julio, de agosto,"
    "de septiembre, de octubre, de noviembre, de diciembre, de distrito"
)
_ORDINAL_STOP_PREV = _words(
    "juzgado, tribunal, colegiado, sala, articulo, punto, resolutivo, transitorio,"
    "considerando, parrafo, inciso, fraccion, apartado, capitulo, titulo, libro, tomo"
)
_LAST_STOP_NEXT = _words(
    "parrafo, parrafos, parte, lugar, instancia, domicilio, voluntad, dia, dias, salario,"
    "ratio, grado, fraccion, inciso, apartado, punto, renglon, linea, oracion, considerando,"
    "resolutivo, anos, tiempos, momento"
)
# "original" and "inicial" mostly qualify documents and procedural acts (copia original,
# demanda inicial, audiencia inicial): they count only after a word for a criterion.
_CRITERION_WORDS = _words(
    "criterio, criterios, tesis, jurisprudencia, jurisprudencias, postura, posturas,"
    "interpretacion, version, versiones, redaccion, texto, precedente, precedentes, sentido,"
    "doctrina, decision, resolucion, regla, posicion, repo, repositorio, proyecto"
)
# English "original/initial" open a noun phrase: after a determiner, or at the start.
_EN_DETERMINERS = _words("the, his, her, my, its, their, your, our, an, a") | {""}
_EN_DOCUMENT_STOP_NEXT = _words(
    "complaint, claim, hearing, filing, petition, document, documents, copy, deadline, term,"
    "brief, demand, jurisdiction, appearance, instance, answer"
)
_EN_FIRST_STOP_NEXT = _words(
    "instance, chamber, circuit, collegiate, court, courts, district, paragraph, place, glance,"
    "sight, of all, name, degree, amendment, section, article, part"
)
_EN_LAST_STOP_NEXT = _words(
    "paragraph, sentence, part, resort, name, word, but, year, years, week, month, day, time"
)


def _rule(
    kind: TemporalKind,
    terms: str,
    stop_next: frozenset[str] = frozenset(),
    stop_prev: frozenset[str] = frozenset(),
    need_prev: frozenset[str] = frozenset(),
    proper_name: bool = False,
) -> _Rule:
    """A rule from a folded regex matched on word boundaries. Alternatives ('|') are tried
    in order, so a phrase goes before a word that begins it ("hoy en dia|hoy")."""
    pattern = _compile([terms])
    return _Rule(kind, pattern, stop_next, stop_prev, need_prev, proper_name)


_TEMPORAL_RULES: tuple[_Rule, ...] = (
    # earliest
    _rule(
        "earliest",
        r"primerisim(?:o|a|os|as)|primer|primera|primeras|primeros",
        stop_next=_ORDINAL_STOP_NEXT,
        stop_prev=_ORDINAL_STOP_PREV,
        proper_name=True,
    ),
    # "primero" alone is mostly the adverb ("primero presenté", "necesita primero calcular"):
    # it asks for the first as a pronoun ("el primero") or closing the question ("¿qué se
    # resolvió primero?").
    _rule("earliest", r"primero", need_prev=_words("el, lo, los, fue, es, sea")),
    _rule("earliest", r"primero(?=\s*[?.!]|\s*$)"),
    _rule(
        "earliest", r"original|initial", need_prev=_EN_DETERMINERS, stop_next=_EN_DOCUMENT_STOP_NEXT
    ),
    _rule("earliest", r"when did(?:\s+\w+){0,3}\s+(?:start|begin)|empezo|comenzo|desde cuando"),
    _rule("earliest", r"longest without|mas tiempo sin"),
    _rule("earliest", r"mas antigu(?:o|a|os|as)|mas viej(?:o|a|os|as)"),
    _rule("earliest", r"original(?:es)?|inicial(?:es)?", need_prev=_CRITERION_WORDS),
    _rule(
        "earliest",
        r"origen|origenes",
        # "país/juez/tribunal de origen", "origen étnico/lícito": not a question of dates.
        stop_prev=_words("de, del"),
        stop_next=_words("etnico, nacional, licito, ilicito, social, racial"),
    ),
    _rule("earliest", r"first", stop_next=_EN_FIRST_STOP_NEXT, proper_name=True),
    _rule("earliest", r"earliest|oldest"),
    # latest
    _rule("latest", r"mas recientes?|mas nuev(?:o|a|os|as)"),
    _rule(
        "latest",
        r"ultim(?:o|a|os|as)",
        stop_next=_LAST_STOP_NEXT,
        stop_prev=_words("por, en"),  # por último (finally), en última instancia
    ),
    _rule("latest", r"nuev(?:o|os) criterios?|nuevas? (?:jurisprudencias?|tesis)"),
    _rule("latest", r"latest|newest|most recently|most recent|last updated|updated last"),
    _rule("latest", r"last", stop_next=_EN_LAST_STOP_NEXT, stop_prev=_words("at")),
    # current
    _rule(
        "current",
        r"actual(?:es)?",
        # "afectación real y actual", "agravio personal, directo y actual": amparo doctrine.
        stop_prev=_words("real y, directo y, directa y, personal y"),
        stop_next=_words("y directo, y directa, y real"),
    ),
    _rule("current", r"actualmente|en la actualidad|vigentes?|hoy en dia|hoy"),
    _rule(
        "current",
        r"(?:despues de|a partir de|desde|tras|con|posterior(?:es)? a) la (?:ultima )?reforma|"
        r"recientes?|en los ultimos anos",
    ),
    _rule(
        "current",
        r"current|currently|in force|today|nowadays|after the reform|still valid|good law",
    ),
)

_WORD = re.compile(r"\w+")
_SENTENCE_OPENERS = frozenset(".?!¿¡:;\n")
_KINDS: dict[str, TemporalKind] = {"earliest": "earliest", "latest": "latest", "current": "current"}


def _next_words(folded: str, end: int) -> tuple[str, str]:
    """The next word and the next two words, when only whitespace separates them."""
    first = re.match(r"\s+(\w+)(?:\s+(\w+))?", folded[end:])
    if not first:
        return "", ""
    one = first.group(1)
    return one, f"{one} {first.group(2)}" if first.group(2) else one


def _prev_words(folded: str, start: int) -> tuple[str, str]:
    """The previous word and the previous two words (no punctuation in between)."""
    before = re.search(r"(?:(\w+)\s+)?(\w+)\s+$", folded[max(0, start - 80) : start])
    if not before:
        return "", ""
    one = before.group(2)
    return one, f"{before.group(1)} {one}" if before.group(1) else one


def _opens_sentence(question: str, start: int) -> bool:
    head = question[:start].rstrip()
    return not head or head[-1] in _SENTENCE_OPENERS


def _is_proper_name(question: str, source: list[int], m: _Match) -> bool:
    """A capitalized ordinal, not opening a sentence, followed by a capitalized word."""
    start = source[m.start]
    if not question[start].isupper() or _opens_sentence(question, start):
        return False
    after = _WORD.search(question, source[m.end - 1] + 1)
    return bool(after and after.group(0)[0].isupper())


def _vetoed(rule: _Rule, question: str, source: list[int], folded: str, m: _Match) -> bool:
    nxt = _next_words(folded, m.end)
    prev = _prev_words(folded, m.start)
    if any(w in rule.stop_next for w in nxt if w):
        return True
    if any(w in rule.stop_prev for w in prev if w):
        return True
    if rule.need_prev and prev[0] not in rule.need_prev:
        return True
    if not rule.proper_name:
        return False
    if _is_proper_name(question, source, m):
        return True
    # "Primero," / "First," opening a sentence is a discourse marker (firstly), not a date.
    return folded[m.end : m.end + 1] in {",", ":"} and _opens_sentence(question, source[m.start])


def temporal_matches(question: str) -> list[tuple[TemporalKind, str]]:
    """Every (kind, trigger) in the question, in text order, vetoed and overlapping removed."""
    folded, source = _fold_with_map(question)
    found: list[_Match] = []
    for rule in _TEMPORAL_RULES:
        for hit in rule.pattern.finditer(folded):
            match = _Match(hit.start(), hit.end(), rule.kind)
            if not _vetoed(rule, question, source, folded, match):
                found.append(match)
    return [(_KINDS[m.label], _surface(question, source, m)) for m in _non_overlapping(found)]


def detect_temporal(question: str) -> TemporalIntent:
    """Earliest, latest or current, with its trigger words.

    An ordering request (earliest, latest) beats ``current``: "la jurisprudencia vigente más
    reciente" is a latest question. Between earliest and latest the kind with more triggers
    wins, and on a tie the one mentioned first.
    """
    matches = temporal_matches(question)
    if not matches:
        return NO_TEMPORAL
    ordering = [(k, t) for k, t in matches if k != "current"]
    if ordering:
        counts = Counter(k for k, _ in ordering)  # insertion order = order of first mention
        kind: TemporalKind = counts.most_common(1)[0][0]  # ties: first encountered
    else:
        kind = "current"
    return TemporalIntent(kind, _dedupe(t for k, t in matches if k == kind))


def effective_recency_weight(
    requested: float | None,
    default: float,
    temporal: TemporalIntent,
    current_weight: float,
) -> float:
    """The recency weight a search uses.

    An explicit request always wins (even 0). Otherwise a ``current`` question ("requisitos
    actuales", "vigente", "después de la reforma") raises the default to ``current_weight``
    (never lowers it).
    """
    for name, value in (("default", default), ("current_weight", current_weight)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {value}")
    if requested is not None:
        if not 0.0 <= requested <= 1.0:
            raise ValueError(f"recency_weight must be in [0, 1], got {requested}")
        return requested
    if temporal.kind == "current":
        return max(default, current_weight)
    return default

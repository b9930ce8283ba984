"""Metadata a first/latest question names: an época, a year, a kind of tesis, a court (pure).

"La primera tesis de la Décima Época", "la tesis más reciente de 1980", "la última tesis
aislada", "the latest ruling by the collegiate courts": these ask for the earliest or latest
tesis *under a filter*, not for documents that say "época", "1980" or "aislada" (none does, and
the date order abstained or answered from another época). ``named_filters`` reads them as
``Filters`` fields and returns the words that named them, which leave the topic.

A chamber of the Court (*la Segunda Sala*, *el Pleno de la Suprema Corte*, *the First
Chamber*) is its organo, and the Court its instancia. A circuit (*del Sexto Circuito*, *6o.
Circuito*, *the Sixth Circuit*) filters whatever the question: naming one is restricting to its
courts (a circuit's *Pleno* is no Court's chamber, see ``_CHAMBER``). A year counts
only right after what it dates (see ``_YEARS``), a court only as the author, and "jurisprudencia"
alone stays the corpus's noun (people say it for any tesis): only *tesis de jurisprudencia* or
*jurisprudencia firme* ask for the kind.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from api.core.circuits import CIRCUIT_ORDINAL as _CIRCUIT_ORDINAL
from api.core.circuits import MAX_CIRCUIT, ordinal_number
from api.core.epocas import EPOCAS, canonical_epoca, epoca_number
from api.core.intent.matching import Match, surface
from api.core.models import TesisTipo
from api.core.text import fold_with_map

T = TypeVar("T")
SCJN = "Suprema Corte de Justicia de la Nación"
COLEGIADOS = "Tribunales Colegiados de Circuito"
PLENOS_REGIONALES = "Plenos Regionales"


@dataclass(frozen=True, slots=True)
class NamedFilters:
    """What a question names, as filter values, and the words that named each."""

    epocas: tuple[str, ...] = ()
    anio_min: int | None = None
    anio_max: int | None = None
    tipo: TesisTipo | None = None
    instancia: str | None = None
    organo: str | None = None
    circuito: int | None = None
    phrases: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.phrases)


_ORDINAL = (
    r"primera|segunda|tercera|cuarta|quinta|sexta|septima|octava|novena|decima|undecima|"
    r"duodecima|\d{1,2}a\.?"
)
_EN_ORDINALS = {
    "fifth": "5",
    "sixth": "6",
    "seventh": "7",
    "eighth": "8",
    "ninth": "9",
    "tenth": "10",
    "eleventh": "11",
    "twelfth": "12",
}
_EPOCA = re.compile(
    rf"\b({_ORDINAL})\s+epoca\b|\b({'|'.join(_EN_ORDINALS)}|\d{{1,2}}(?:st|nd|rd|th))\s+(?:epoch|era)\b"
)
# A year, a range or a bound filters only right after what it dates: a document noun, an
# ordering word or a participle ("la tesis más reciente de 1980", "the first ruling before
# 1980", "publicada en 2024"), not inside a description ("la reforma minera y de aguas de
# 2023", "la Ley de Amparo de 2013").
_DOCUMENTS = (
    r"(?:tesis|criterios?|jurisprudencias?|precedentes?|rulings?|thes[ie]s|decisions?|"
    r"repositorios?|repositor(?:y|ies)|repos?|proyectos?|projects?|noticias?|news|"
    r"stor(?:y|ies)|posts?)"
)
_ORDERING = (
    r"(?:mas\s+)?(?:recientes?|antigu[oa]s?|viej[oa]s?|nuev[oa]s?)|ultim[oa]s?|primer[oa]?s?|"
    r"latest|newest|earliest|oldest|first|last"
)
# what a document noun may carry before its date: "tesis publicada en 2024", "criterios
# había antes del 2000" (not "la reforma laboral publicada en 2019": no document noun)
_CARRIED = (
    r"(?:(?:publicad[oa]s?|emitid[oa]s?|dictad[oa]s?|published|issued|decided|created|made|"
    r"habia|hubo|hay|existian|were|existed)\s+)?"
)
# what may stand between a document noun and its date: other filters ("tesis de la Segunda
# Sala entre 1996 y 2003", "tesis aisladas en materia laboral posteriores a 2000")
_BETWEEN = (
    r"(?:\s+(?:aisladas?|de\s+jurisprudencia|en\s+materia\s+\w+"
    rf"|(?:de\s+la|del|de\s+los|de\s+las|de)\s+(?:(?:{_ORDINAL})\s+(?:sala|epoca)|pleno"
    r"|tribunal(?:es)?\s+colegiados?(?:\s+de\s+circuito)?|(?:\w+\s+){1,2}circuito)))*"
)
_DATED = (
    rf"(?:{_DOCUMENTS}{_BETWEEN}(?:\s+(?:{_ORDERING}){_BETWEEN})?\s+{_CARRIED}"
    rf"|(?:{_ORDERING}){_BETWEEN}\s+)"  # "la tesis más reciente en materia laboral de 1980"
)
_Y = r"(?:1[89]\d\d|20\d\d)"
_YEARS = re.compile(
    rf"\b{_DATED}(?P<when>"
    rf"(?:entre|between|de|from)\s+(?P<low>{_Y})\s+(?:y|a|and|to)\s+(?P<high>{_Y})"
    rf"|(?:antes del?|before|prior to|(?:anteriores|anterior|previ[oa]s?)\s+al?)\s+"
    rf"(?P<before>{_Y})"
    rf"|(?:despues del?|after|(?:posteriores|posterior)\s+al?)\s+(?P<after>{_Y})"
    rf"|(?:a partir del?|desde(?: el)?|since)\s+(?P<since>{_Y})"
    rf"|(?:de|del|en|in|from|of|del ano)\s+(?P<year>{_Y}))\b"
    rf"|\b{_DOCUMENTS}\s+(?P<bare>{_Y})\b"  # "Second Chamber rulings 2024"
)
# A first/latest request may close on its range, after the topic ("el primer criterio sobre
# arrendamiento entre 1975 y 1980"): a range or a bound, not a bare year (the Ley de Amparo
# "de 1936" is its name).
_CLOSING_RANGE = re.compile(
    rf"\b(?P<when>(?:entre|between)\s+(?P<low>{_Y})\s+(?:y|and)\s+(?P<high>{_Y})"
    rf"|(?:antes del?|before|prior to)\s+(?P<before>{_Y})"
    rf"|(?:despues del?|after)\s+(?P<after>{_Y})"
    rf"|(?:a partir del?|desde(?: el)?|since)\s+(?P<since>{_Y}))\W*$"
)
# ... unless the range dates what the topic tells ("los juicios de amparo promovidos antes de
# 2013", "quienes cotizaron antes de 1997", "hechos cometidos antes de 2008": a participle or
# a past verb right before it) or a law ("la Ley de Amparo vigente antes de 2013").
_DESCRIBED = re.compile(
    r"\b(?:\w+(?:aron|ieron)|(?:promovid|iniciad|cometid|celebrad|inscrit|presentad|"
    r"interpuest|ocurrid|realizad|firmad|contratad|adquirid|causad|generad|nacid|radicad|"
    r"tramitad|instaurad|suscrit|otorgad|pactad|concluid|terminad|jubilad|pensionad|"
    r"asegurad|registrad)[oa]s?|vigentes?|aplicables?|"
    r"filed|committed|signed|enacted|brought|started|begun|insured|registered|in force)\s*$"
)


def _closing_range(folded: str) -> re.Match[str] | None:
    """A range or bound closing a first/latest request, when it dates the tesis asked for."""
    found = _CLOSING_RANGE.search(folded)
    if found is None:
        return None
    before = folded[: found.start()]
    if _DESCRIBED.search(before) or _NAMES_IT.search(before):
        return None
    return found


_TIPO: tuple[tuple[re.Pattern[str], TesisTipo], ...] = (
    (re.compile(r"\btesis\s+aisladas?\b|\bisolated\s+(?:thes[ie]s|rulings?)\b"), "Aislada"),
    (
        re.compile(
            r"\btesis\s+de\s+jurisprudencia\b|\bjurisprudencias?\s+(?:firmes?|obligatorias?)\b"
            r"|\bbinding\s+precedents?\b"
        ),
        "Jurisprudencia",
    ),
)


_EN_CIRCUIT_ORDINALS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth"
)
_EN_TENS = {"twenty": 20, "thirty": 30}  # "twenty-first", "thirty-second"
_CIRCUIT = re.compile(
    rf"\b(?:{_CIRCUIT_ORDINAL})\s+circuito\b"
    r"|\b(?P<number>[1-9]|[12]\d|3[0-2])\s*(?:o|er|ro|do|to|vo|no|mo|st|nd|rd|th)?\.?\s+circuit(?:o)?\b"
    rf"|\bcircuito\s+(?P<after>[1-9]|[12]\d|3[0-2])\b"
    rf"|(?<![-\w])(?:(?P<tens>twenty|thirty)[- ])?(?P<english>{_EN_CIRCUIT_ORDINALS}|thirtieth)"
    r"\s+circuit\b"
)


def _court(names: str) -> re.Pattern[str]:
    """A court as the author: after "de/by/from" ("la tesis más reciente de los tribunales
    colegiados"), or before what it issued ("Supreme Court rulings"), not as a subject ("the
    latest ruling on collegiate courts")."""
    return re.compile(
        rf"\b(?:de(?:l| la| las| los)?|by(?: the)?|from(?: the)?)\s+(?P<court>{names})\b"
        rf"|\b(?P<issuer>{names})(?:'s)?\s+(?:jurisprudence|rulings?|thes[ie]s|case law|"
        r"precedents?|decisions?)\b"
    )


# The Court's chambers, as the SJF names them in ``organo``.
_CHAMBERS = {
    "primera": "Primera Sala",
    "first": "Primera Sala",
    "segunda": "Segunda Sala",
    "second": "Segunda Sala",
    "tercera": "Tercera Sala",
    "third": "Tercera Sala",
    "cuarta": "Cuarta Sala",
    "fourth": "Cuarta Sala",
    "auxiliar": "Sala Auxiliar",
    **{
        f"{n}a{dot}": f"{name} Sala"
        for n, name in enumerate(("Primera", "Segunda", "Tercera", "Cuarta"), 1)
        for dot in ("", ".")
    },
}
_CHAMBER = re.compile(
    r"\b(primera|segunda|tercera|cuarta|[1-4]a\.?)\s+sala\b|\bsala\s+(auxiliar)\b"
    r"|\b(first|second|third|fourth)\s+chamber\b"
    # the Court's Pleno, not a municipal or circuit one: named with the Court, or closing a
    # phrase ("jurisprudencia del Pleno en materia...", "del Pleno Décima Época")
    r"|\b(pleno)\s+de\s+la\s+(?:suprema\s+corte|scjn)\b"
    r"|\b(?:el|del|al)\s+(pleno)\b(?!(?:\s+\w+){0,6}?\s+circuito)"
    r"(?=\s*(?:$|[,.;:?!)]|en\s+materia|sobre|\w+\s+epoca|anteriores|posteriores|entre|antes|"
    r"despues|desde|a\s+partir|de\s+(?:19|20)\d\d))"
    r"|\bthe\s+(plenary)\b(?!\s+of\s+circuit)|\b(plenary)\s+court\b|\b(full\s+court)\b"
)
_INSTANCIA: tuple[tuple[re.Pattern[str], str], ...] = (
    (_court(r"plenos?\s+regionale?s?|regional\s+plenar(?:y|ies)"), PLENOS_REGIONALES),
    (
        _court(r"tribunal(?:es)?\s+colegiados?(?:\s+de\s+circuito)?|collegiate\s+courts?"),
        COLEGIADOS,
    ),
    (
        _court(
            r"suprema\s+corte(?:\s+de\s+justicia(?:\s+de\s+la\s+nacion)?)?|scjn|supreme\s+court"
        ),
        SCJN,
    ),
)


@functools.lru_cache(maxsize=1024)  # a search reads it for its plan, its listing, its vector
def named_filters(question: str, ordering: bool = True) -> NamedFilters:
    """The filters ``question`` names and the words that name them (empty: none).

    With ``ordering`` False (a question, not a first/latest request or a listing) only an
    época and years are read: "¿Qué valor probatorio tiene una tesis aislada?" asks about the
    kind, and "¿Qué ha dicho la Suprema Corte sobre...?" asks every court."""
    folded, source = fold_with_map(question)
    spans: list[tuple[int, int]] = []
    named_epocas: list[tuple[str, re.Match[str] | None]] = []
    for found in _EPOCA.finditer(folded):
        english = found.group(2) or ""
        name = canonical_epoca(found.group(1) or _EN_ORDINALS.get(english, english[:-2]))
        if name is None:
            continue
        # "que no sea de la Séptima Época", "anteriores a la Novena Época"
        bound = _EPOCA_BOUND.search(folded, 0, found.start())
        named_epocas.append((name, bound))
        spans.append((bound.start() if bound else found.start(), found.end()))
    epocas = _epocas(named_epocas)
    anio_min, anio_max = None, None
    years = _YEARS.search(folded) or (_closing_range(folded) if ordering else None)
    if years:
        anio_min, anio_max = _bounds(years)
        spans.append(years.span("when") if years.group("when") else years.span("bare"))
    # a question (not a first/latest request) reads a kind or a court only as unwanted
    read = ordering or _A_NOT.search(folded) is not None
    tipo, kind = _first(_TIPO, folded) if read else (None, None)
    instancia, court = _first(_INSTANCIA, folded) if read else (None, None)
    organo, chambers = _chambers(folded) if read else (None, [])
    circuito, circuit = _circuit(folded)
    if circuit is not None:
        spans.append(circuit.span())
    # a kind or a court said not to be wanted ("jurisprudencia, no tesis aisladas", "que no
    # sea de tribunales colegiados"), in any question: the other kind, or any court; its words
    # are no topic. Otherwise a question reads none (see above).
    if kind is not None:
        negation = _NOT_BEFORE.search(folded, 0, kind.start())
        if negation is not None:
            tipo = "Jurisprudencia" if tipo == "Aislada" else "Aislada"
            spans.append((negation.start(), kind.end()))
        elif ordering:
            spans.append(kind.span())
        else:
            tipo = None
    if court is not None:
        start, end = court.span("court") if court.group("court") else court.span("issuer")
        if negation := _NOT_BEFORE.search(folded, 0, court.start()):
            instancia, start = None, negation.start()
        if negation or ordering:
            spans.append((start, end))
        else:
            instancia = None
    negated_chamber = False
    for chamber in chambers:  # "segunda sala"; of "del pleno", its noun
        whole = chamber.group(0).split()[0] not in {"el", "del", "al", "the"}
        start, end = chamber.span() if whole else chamber.span(chamber.lastindex or 0)
        if negation := _NOT_BEFORE.search(folded, 0, chamber.start()):
            negated_chamber, start = True, negation.start()
        if negation or ordering:
            spans.append((start, end))
    if negated_chamber or not ordering:
        organo = None
    if organo is not None:
        instancia = SCJN
    phrases = tuple(surface(question, source, Match(a, b, "")) for a, b in spans)
    return NamedFilters(
        tuple(epocas), anio_min, anio_max, tipo, instancia, organo, circuito, phrases
    )


# What comes right before an época and bounds it: a negation ("que no sea de la", "excepto
# la"), or the épocas before or after it ("anteriores a la", "desde la", "after the").
# Words that say a filter is not wanted: "que no sea(n) de", "ni de", "excepto (las de)",
# "salvo", "fuera de", "distinto de", "not (from)", "except (for)", "other than".
_NEGATION = (
    r"\bno(?:\s+(?:sea|sean|es|son|este|esten|pertenezcan?\s+a))?|\bni|\bexcepto|\bsalvo"
    r"|\bfuera(?:\s+de)?|\bdistint[oa]s?\s+(?:a|de)|\bother\s+than|\bexcept(?:\s+for)?"
    r"|\bnot(?:\s+(?:from|in|of|by))?|\bnor"
)
_EPOCA_BOUND = re.compile(
    rf"(?:(?P<not>{_NEGATION})(?:\s+(?:las|los)\s+de)?"
    r"|(?P<before>\b(?:anteriores|anterior|previ[oa]s?|antes)\s+(?:a|de)|\bbefore|\bprior\s+to)"
    r"|(?P<after>\b(?:posteriores|posterior|despues)\s+(?:a|de)|\bafter)"
    r"|(?P<since>\b(?:desde|a\s+partir\s+de)|\bsince))"
    r"\s+(?:(?:de|a)\s+)?(?:la|las|el|the)?\s*$"
)


# A negation right before a kind or a court: "no tesis aisladas", "que no sea de",
# "excepto las de", "not by the".
_NOT_BEFORE = re.compile(
    rf"(?:{_NEGATION})(?:\s+(?:de|by|from))?(?:\s+(?:la|las|el|los|the))?(?:\s+(?:de|by|from))?"
    r"\s*$"
)
_A_NOT = re.compile(r"\b(?:no|ni|excepto|salvo|fuera|not|nor|except|other)\b")  # a _NEGATION


def _epocas(named: list[tuple[str, re.Match[str] | None]]) -> list[str]:
    """The épocas the named ones stand for together: those named plainly (or every one when
    none is), within every bound ("anteriores a la Novena Época"), less those said not to be
    wanted ("de la Octava Época, excepto la Novena", "que no sean de la Quinta ni de la
    Sexta")."""
    if not named:
        return []
    plain = {epoca_number(name) for name, bound in named if bound is None}
    kept = plain or {e.number for e in EPOCAS}
    for name, bound in named:
        if bound is None:
            continue
        number = epoca_number(name)
        if bound.group("not"):
            kept.discard(number)
        elif bound.group("before"):
            kept = {n for n in kept if n < number}
        elif bound.group("after"):
            kept = {n for n in kept if n > number}
        else:  # since
            kept = {n for n in kept if n >= number}
    return [e.name for e in EPOCAS if e.number in kept]


def _circuit(folded: str) -> tuple[int | None, re.Match[str] | None]:
    """The circuit ``folded`` names ("sexto circuito", "6o. circuito", "sixth circuit")."""
    found = _CIRCUIT.search(folded)
    if found is None:
        return None, None
    if digits := found.group("number") or found.group("after"):
        number: int | None = int(digits)
    elif english := found.group("english"):
        unit = 30 if english == "thirtieth" else _EN_CIRCUIT_ORDINALS.split("|").index(english) + 1
        number = _EN_TENS.get(found.group("tens") or "", 0) + unit
        number = number if number <= MAX_CIRCUIT else None
    else:  # "decimo tercer", or "vigesimo" alone
        number = ordinal_number(found.group(1) or found.group(3), found.group(2))
    return (number, found) if number is not None else (None, None)


def _chambers(folded: str) -> tuple[str | None, list[re.Match[str]]]:
    """The Court's chamber ``folded`` names first ("Segunda Sala", "Pleno"), and every place
    that names it ("Fourth Chamber (Cuarta Sala)")."""
    found = list(_CHAMBER.finditer(folded))
    if not found:
        return None, []
    names = [_CHAMBERS.get(m.group(m.lastindex or 0), "Pleno") for m in found]
    return names[0], [m for m, name in zip(found, names, strict=True) if name == names[0]]


def _bounds(years: re.Match[str]) -> tuple[int | None, int | None]:
    """The least and greatest year a ``_YEARS`` (or ``_CLOSING_RANGE``) match allows."""
    said = years.groupdict()
    if said["low"]:
        low, high = sorted((int(said["low"]), int(said["high"])))
        return low, high
    if said["before"]:
        return None, int(said["before"]) - 1
    if said["after"]:
        return int(said["after"]) + 1, None
    if said["since"]:
        return int(said["since"]), None
    year = int(said.get("year") or said["bare"])
    return year, year


def _first(
    table: tuple[tuple[re.Pattern[str], T], ...], folded: str
) -> tuple[T | None, re.Match[str] | None]:
    """The value of the first pattern of ``table`` found in ``folded``, and where."""
    for pattern, value in table:
        if found := pattern.search(folded):
            return value, found
    return None, None


def without_named_filters(question: str) -> str:
    """``question`` without the words that name an época, years or a kind (and the
    preposition before them), for embedding: "¿Qué dicen las tesis de la Novena Época sobre la
    suspensión?" is about the suspension, and its época a filter, not a meaning to match."""
    return without_phrases(question, named_filters(question, ordering=False).phrases)


_ANY_YEAR = re.compile(rf"\b(?:(?:en|de|del|desde|in|of|the|since)\s+)?{_Y}\b", re.IGNORECASE)
# what a number of four digits belongs to when it is no date of the story: an article
# ("artículo 1915 del Código Civil") or a law told apart by its year ("la Ley del Seguro
# Social de 1973", "la reforma laboral de 2019"), a few words back within the sentence
_NAMES_IT = re.compile(
    r"(?:\bart[ií]culos?|\barts?\.|\bfracci[oó]n|\bnumeral|\bley|\bc[oó]digo|\breglamento|"
    r"\bdecreto|\breforma|\bconstituci[oó]n|\blaw|\bcode|\bamendment)\b[^.;:?!]{0,40}$",
    re.IGNORECASE,
)


def without_years(question: str) -> str:
    """``question`` without its years (and the preposition before each), for embedding and
    for a date order's topic. A year dates the asker's story ("me despidieron en 1980") or
    what they ask for (a filter, read apart); e5 reads it as meaning, and it cost such
    questions their place over the abstention floor (0.857 against 0.866 without it). An
    article's number or a law's year stays (``_NAMES_IT``), and so does a question that is
    only a year."""

    def dated(found: re.Match[str]) -> str:
        named = _NAMES_IT.search(question, 0, found.start())
        return found.group(0) if named else " "

    return " ".join(_ANY_YEAR.sub(dated, question).split()) or question.strip()


def without_phrases(question: str, phrases: Sequence[str]) -> str:
    """``question`` without ``phrases`` (as ``named_filters`` reports them) and the
    preposition before each."""
    text = question
    for phrase in sorted(phrases, key=len, reverse=True):
        words = r"\s+".join(map(re.escape, phrase.split()))
        preposition = r"(?:\b(?:de la|de los|de las|del|de|en|in|of the|of|from|by the|by)\s+)?"
        text = re.sub(rf"{preposition}\b{words}\b", " ", text, flags=re.IGNORECASE)
    return " ".join(text.split())

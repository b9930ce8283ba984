"""The materia a question is about: a lexicon of folded triggers per materia, then the hits.

Overlapping matches are resolved longest-first, so "contrato colectivo" counts once (as
laboral) and not also as the civil "contrato".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from api.core.intent.matching import Match, compile_terms, dedupe, non_overlapping, surface
from api.core.text import fold, fold_with_map, lemmas

MateriaSource = Literal["filter", "question", "hits"]

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
_MATERIA_PATTERNS = {m: compile_terms(terms.split(";")) for m, terms in _MATERIA_TERMS.items()}

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
    folded, source = fold_with_map(question)
    found = [
        Match(m.start(), m.end(), materia)
        for materia, pattern in _MATERIA_PATTERNS.items()
        for m in pattern.finditer(folded)
    ]
    return [(m.label, surface(question, source, m)) for m in non_overlapping(found)]


# A question that names a branch of law as such ("en materia penal", "la primera tesis
# laboral", "in labor matters"): with an ordering, it asks for that materia's earliest or
# latest criterion, whatever its text says. Only the SJF's own materias: it files tax, agrarian,
# commercial and family tesis under Administrativa or Civil, so "the first tax ruling" filtered
# by a "Fiscal" label would find the few tesis that carry it, not the first on taxes.
_BRANCHES = {
    "laboral": "Laboral",
    "labor": "Laboral",
    "labour": "Laboral",
    "employment": "Laboral",
    "penal": "Penal",
    "criminal": "Penal",
    "civil": "Civil",
    "administrativa": "Administrativa",
    "administrativo": "Administrativa",
    "administrative": "Administrativa",
    "constitucional": "Constitucional",
    "constitutional": "Constitucional",
    "comun": "Común",
}
_BRANCH = "(" + "|".join(sorted(_BRANCHES, key=len, reverse=True)) + ")"
# The branch an adjective of a date order's topic names, by its ``lemmas`` stem ("huelgas
# laborales": "labora"), when no tesis writes the topic with it. Not Administrativa,
# Constitucional or Común: their stems name other things too (administración, constitución).
TOPIC_BRANCHES: dict[str, str] = {
    stem: materia
    for word, materia in _BRANCHES.items()
    if materia in ("Laboral", "Penal", "Civil")
    for stem in lemmas(word)
}
_NAMED_BRANCH = (
    re.compile(rf"\bmaterias?\s+{_BRANCH}(?:es|s)?\b"),
    re.compile(
        rf"\b(?:tesis|criterios?|jurisprudencias?|precedentes?|derecho)\s+{_BRANCH}(?:es|s)?\b"
    ),
    re.compile(rf"\b{_BRANCH}\s+(?:matters?|law|cases?|rulings?|criteria|criterion)\b"),
)


def named_materia(question: str) -> tuple[str, str] | None:
    """The materia a question names as a branch of law, and the words that name it
    ("¿el último criterio en materia penal?" -> ("Penal", "materia penal")), or None."""
    folded, source = fold_with_map(question)
    for pattern in _NAMED_BRANCH:
        match = pattern.search(folded)
        if match:
            materia = _BRANCHES[match.group(1)]
            return materia, surface(question, source, Match(match.start(), match.end(), materia))
    return None


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
        triggers = dedupe(trigger for materia, trigger in matches if materia == best)
        return MateriaIntent(best, triggers, "question")

    per_hit = Counter(
        canon
        for materias in hit_materias
        for canon in {c for c in map(canonical_materia, materias) if c is not None}
    )
    majority = Counter({m: n for m, n in per_hit.items() if 2 * n > len(hit_materias)})
    best = _best(majority)
    return MateriaIntent(best, (), "hits") if best else NO_MATERIA

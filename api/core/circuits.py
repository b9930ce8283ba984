"""Federal judicial circuits, as a collegiate court's organo names them (pure).

A Tribunal Colegiado's organo ends with its circuit: "TERCER TRIBUNAL COLEGIADO EN MATERIA
ADMINISTRATIVA DEL PRIMER CIRCUITO.", "TRIBUNAL COLEGIADO DEL DÉCIMO TERCER CIRCUITO.". A
litigant asks for "las tesis del Sexto Circuito", "6o. Circuito" or "the Sixth Circuit":
``circuit_of`` reads an organo's circuit, ``circuit_spellings`` writes it back the ways an
organo may spell it, for stores that match the organo's text. Mexico has 32 circuits.
"""

from __future__ import annotations

import itertools
import re

from api.core.text import fold

MAX_CIRCUIT = 32
UNITS = ("primer", "segundo", "tercer", "cuarto", "quinto", "sexto", "septimo", "octavo", "noveno")
TENS = ("decimo", "vigesimo", "trigesimo")
# the accents an organo may carry (the SJF writes both "SÉPTIMO" and "SEPTIMO")
_ACCENTED = {
    "septimo": "séptimo",
    "decimo": "décimo",
    "vigesimo": "vigésimo",
    "trigesimo": "trigésimo",
}
# a folded ordinal, its groups (tens, unit, tens alone): "decimo tercer", "sexto", "vigesimo"
CIRCUIT_ORDINAL = rf"(?:({'|'.join(TENS)})\s+)?({'|'.join(UNITS)})o?|({'|'.join(TENS)})"
_IN_ORGANO = re.compile(rf"\bdel\s+(?:{CIRCUIT_ORDINAL})\s+circuito\b")


def ordinal_number(tens: str | None, unit: str | None) -> int | None:
    """The number of a folded ordinal ("decimo", "tercer": 13), or None past ``MAX_CIRCUIT``."""
    number = (TENS.index(tens) + 1) * 10 if tens else 0
    number += UNITS.index(unit) + 1 if unit else 0
    return number if 0 < number <= MAX_CIRCUIT else None


def circuit_of(organo: str) -> int | None:
    """The circuit an organo belongs to ("... DEL DÉCIMO TERCER CIRCUITO." -> 13), or None
    (a chamber of the Court, a regional Pleno)."""
    found = _IN_ORGANO.search(fold(organo))
    if found is None:
        return None
    tens, unit, alone = found.groups()
    return ordinal_number(tens or alone, unit)


def circuit_spellings(circuit: int) -> tuple[str, ...]:
    """How an organo may write ``circuit``'s name: "DEL SÉPTIMO CIRCUITO", "DEL SEPTIMO
    CIRCUITO", "del Séptimo Circuito"... (upper and title case, each word with and without its
    accent: at most 8 spellings)."""
    if not 1 <= circuit <= MAX_CIRCUIT:
        raise ValueError(f"circuit must be in 1..{MAX_CIRCUIT}, got {circuit}")
    tens, unit = divmod(circuit, 10)
    words = [TENS[tens - 1]] if tens else []
    if unit:
        words.append(UNITS[unit - 1])
    # each word with and without its accent: the SJF writes "DÉCIMO SEPTIMO" too
    forms = [dict.fromkeys((_ACCENTED.get(word, word), word)) for word in words]
    names = [" ".join(combo) for combo in itertools.product(*forms)]
    spellings = dict.fromkeys(
        spelling
        for name in names
        for spelling in (f"DEL {name.upper()} CIRCUITO", f"del {name.title()} Circuito")
    )
    return tuple(spellings)

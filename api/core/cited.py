"""Tesis a question cites by registro digital or by clave: a lookup, not a question (pure).

A lawyer pastes "Registro digital: 2024502", or the SJF's link to a tesis, and expects that
tesis, not the passages nearest in meaning to a number (a bare "2024502" matched no word and
abstained; the link answered with an unrelated tesis). A number counts as a registro only
when the question says so ("registro digital", "¿Qué dice la tesis 253881?"), links to the
SJF, cites several, or is nothing but the number and words that ask for a record
("2024502", "la tesis con registro 160584"): "mi registro de marca 654321" or "el expediente
1234567" stay questions.

A clave is the SJF's identifier of a tesis ("2a./J. 64/2022 (11a.)", "P. LXVI/2011 (9a.)",
"XXV.2o.4 L (11a.)"): a question that names one asks for that tesis, whatever else it says,
and is read the way people write it (any spacing and case, with or without its época).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from api.core.text import fold, fold_with_map

_SJF_LINK = re.compile(r"sjf2?\.scjn\.gob\.mx/\S*?(\d{6,7})\b")  # on folded text
_REGISTRO_DIGITAL = re.compile(
    r"\bregistro\s+digital\W{0,3}(?:(?:num|numero|no)\W{0,2})?(\d{6,7})\b"
)
# a number right after the noun, whatever the question around it: "¿Qué dice la tesis
# 253881?" (not "registro de marca 654321", "expediente 1234567")
_AFTER_THE_NOUN = re.compile(
    r"\b(?:tesis|registro|reg)\.?\s+(?:(?:num|numero|no)\W{0,2})?(\d{6,7})\b"
)
_WORD = re.compile(r"\w+")
_NAMED_WITH_SEPARATORS = re.compile(
    r"\b(?:registro|reg|record|registry)\W{1,3}\d{1,3}(?:[,.]\d{3}){1,2}\b"
)
# registros side by side: "2027780 y 2026558", "2027780, 2026558 o 2024502"
_LISTED = re.compile(
    r"(?<![$\d])\b\d{6,7}\b(?:\s*(?:,|y|e|o|vs\.?|and|or)\s*\b\d{6,7}\b)+(?!\s*(?:pesos|mxn|usd))"
)
_DIGITS = re.compile(r"\d")  # every registro and clave has some
# Words around a bare registro that only ask for the record ("la tesis con registro 2024502").
_LOOKUP_WORDS = frozenset(
    _WORD.findall(
        "tesis registro registros digital numero num no jurisprudencia criterio precedente la el "
        "los las de del con y e o ver busca buscar muestra muestrame dame quiero show find look "
        "up lookup get me the a an of with and or thesis record number registry reg scjn sjf"
    )
)
_REGISTRO_DIGITS = (6, 7)
MAX_CITED = 20  # registros, and as many claves, read from one question: each is a store lookup


def cited_registros(question: str) -> tuple[int, ...]:
    """The registros ``question`` cites, in order, each once (``()`` for a question)."""
    if not _DIGITS.search(question):
        return ()
    folded = _CLAVE.sub(" ", fold(question))  # "registro 2024502 y la 2a./J. 12/2019"
    # "Registro: 2,024,502": separators only in a number right after the noun ("registro
    # público... 2,000,000" is an amount)
    folded = _NAMED_WITH_SEPARATORS.sub(_without_separators, folded)
    found = [m.group(1) for m in _SJF_LINK.finditer(folded)]
    found += [m.group(1) for m in _REGISTRO_DIGITAL.finditer(folded)]
    if not found:
        words = _WORD.findall(folded)
        numbers = [w for w in words if _is_registro(w)]
        # nothing but records asked for, or a list of them ("2027780 y 2026558, ¿cuál es más
        # reciente?"; not "me debe 150000 pesos y le reclamo 250000")
        if numbers and (
            _LISTED.search(folded) or all(_is_registro(w) or w in _LOOKUP_WORDS for w in words)
        ):
            found = numbers
        else:
            found = [m.group(1) for m in _AFTER_THE_NOUN.finditer(folded)]
    return tuple(dict.fromkeys(int(n) for n in found))[:MAX_CITED]


# Claves on folded text: the Court's (1a., 2a., P.: "2a./j. 64/2022", "p. lxvi/2011"), a
# collegiate court's ("xxv.2o.4 l", "i.3o.c. j/45 k") and a pleno's ("pr.a.c.cn. j/3 a").
_CLAVE = re.compile(
    r"\b(?:(?:1a|2a|p)\.?\s?(?:[/-]\s?j\.?\s?)?(?:\d{1,4}|[ivxlcdm]{1,12})\s?/\s?\d{2,4}"
    # a collegiate court's: its materia letter is one of the SJF's, or none (Novena "J/15")
    r"|[ivxl]{1,6}\.\s?\d{1,2}o\.\s?(?:[a-z]{1,2}\.\s?)*(?:j\s?/\s?)?\d{1,4}(?:\s?(?:cs|[acpklte]))?"
    r"|p[rc]\.(?:[a-z]{1,4}\.)+\s?j\s?/\s?\d{1,4}(?:\s?(?:cs|[acpklte]))?)\b"
    r"(?:\s?\(\s?\d{1,2}a\.?\s?\))?"
)
_EPOCA_SUFFIX = re.compile(r"\(\s?\d{1,2}a\.?\s?\)")


def cited_claves(question: str) -> tuple[str, ...]:
    """The claves ``question`` names, as written, each once."""
    if not _DIGITS.search(question):
        return ()
    folded, source = fold_with_map(question)
    found = (question[source[m.start()] : source[m.end() - 1] + 1] for m in _CLAVE.finditer(folded))
    return tuple(dict.fromkeys(found))[:MAX_CITED]


def without_epoca(clave: str) -> str:
    """``clave`` without its época ("2a./J. 64/2022 (11a.)": "2a./J. 64/2022")."""
    return _EPOCA_SUFFIX.sub("", clave).strip()


def clave_key(clave: str) -> str:
    """A clave as compared: folded, without its época and its spacing and dots
    ("2a./J. 64/2022 (11a.)" and "2a/j 64/2022" are both "2a/j64/2022")."""
    folded = fold(without_epoca(clave)).replace("-j", "/j")  # "2a.-J. 60/2024"
    return re.sub(r"[^0-9a-z/]", "", folded)


def clave_needle(clave: str) -> str:
    """The longest run of digits and slashes in ``clave``'s key ("64/2022"), which any way of
    writing it keeps: what a store can look for before comparing keys."""
    return max(re.findall(r"[0-9/]+", clave_key(clave)), key=len, default="")


def _without_separators(found: re.Match[str]) -> str:
    """ "registro: 2,024,502" -> "registro: 2024502" (the noun's own dot and colon kept)."""
    text = found.group(0)
    digits = next(i for i, char in enumerate(text) if char.isdigit())
    return text[:digits] + re.sub(r"[,.]", "", text[digits:])


def _is_registro(word: str) -> bool:
    return word.isdigit() and len(word) in _REGISTRO_DIGITS


def cited_labels(registros: Sequence[int], claves: Sequence[str] = ()) -> tuple[str, ...]:
    """How an answer names cited tesis: «registro digital 2006225», «tesis 2a./J. 12/2019»."""
    return (*(f"registro digital {r}" for r in registros), *(f"tesis {c}" for c in claves))


def not_in_corpus_reason(not_found: Sequence[str]) -> str:
    """Why a lookup abstains: the corpus holds none of the tesis it cites (``cited_labels``)."""
    return f"No está en el corpus: {', '.join(not_found)}."


def partly_cited_note(not_found: Sequence[str]) -> str | None:
    """What a reader must know when a lookup found some cited tesis and not others."""
    if not not_found:
        return None
    return f"No está en el corpus: {', '.join(not_found)}; se respondió con las demás citadas."

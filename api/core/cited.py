"""Tesis a question cites by its registro digital: a lookup, not a question (pure).

A lawyer pastes "Registro digital: 2024502", or the SJF's link to a tesis, and expects that
tesis, not the passages nearest in meaning to a number (a bare "2024502" matched no word and
abstained; the link answered with an unrelated tesis). A number counts as a registro only
when the question says so ("registro digital"), links to the SJF, or is nothing but the number
and words that ask for a record ("tesis 2024502", "registro 160584"): "mi registro de marca
654321" or "el expediente 1234567" stay questions.
"""

from __future__ import annotations

import re

from api.core.text import fold

_SJF_LINK = re.compile(r"sjf2?\.scjn\.gob\.mx/\S*?(\d{6,7})\b")  # on folded text
_REGISTRO_DIGITAL = re.compile(
    r"\bregistro\s+digital\W{0,3}(?:(?:num|numero|no)\W{0,2})?(\d{6,7})\b"
)
_WORD = re.compile(r"\w+")
# Words around a bare registro that only ask for the record ("la tesis con registro 2024502").
_LOOKUP_WORDS = frozenset(
    _WORD.findall(
        "tesis registro registros digital numero num no jurisprudencia criterio precedente la el "
        "los las de del con y e o ver busca buscar muestra muestrame dame quiero show find look "
        "up lookup get me the a an of with and or thesis record number registry"
    )
)
_REGISTRO_DIGITS = (6, 7)


def cited_registros(question: str) -> tuple[int, ...]:
    """The registros ``question`` cites, in order, each once (``()`` for a question)."""
    folded = fold(question)
    found = [m.group(1) for m in _SJF_LINK.finditer(folded)]
    found += [m.group(1) for m in _REGISTRO_DIGITAL.finditer(folded)]
    if not found:
        words = _WORD.findall(folded)
        numbers = [w for w in words if _is_registro(w)]
        if numbers and all(_is_registro(w) or w in _LOOKUP_WORDS for w in words):
            found = numbers
    return tuple(dict.fromkeys(int(n) for n in found))


def _is_registro(word: str) -> bool:
    return word.isdigit() and len(word) in _REGISTRO_DIGITS


def not_in_corpus_reason(registros: list[int]) -> str:
    """Why a lookup of ``registros`` abstains: the corpus does not hold them."""
    listed = ", ".join(str(r) for r in registros)
    noun = "El registro digital" if len(registros) == 1 else "Los registros digitales"
    verb = "no está" if len(registros) == 1 else "no están"
    return f"{noun} {listed} {verb} en el corpus."

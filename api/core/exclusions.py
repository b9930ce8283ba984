"""Words a search box user excludes: "despido -doméstico", "robo NOT vehículo" (pure).

People bring the operators of web search to any search box. Read as words, "-doméstico" and
"NOT vehículo" asked for exactly what the user wanted left out (the first hits of "despido
-doméstico" were the domestic workers' tesis). ``exclusions`` takes them out of the question
and returns their terms; a search then drops every candidate that has one of them in its rubro
or its passage. Only a minus glued to a word after a space (not "art. 51-V", not a dash
" - "), and NOT in capitals (not "is it not valid?"), exclude.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from api.core.text import analyze

# a word of three letters or more ("artículo 123 -A" and "1990 -2000" exclude nothing)
_EXCLUDED = re.compile(r"(?:(?<=\s)|^)-([^\W\d_][\w'’]{2,})|\bNOT\s+([^\W\d_][\w'’]{2,})")


@dataclass(frozen=True, slots=True)
class Exclusions:
    """The question without its exclusions, and the excluded words as written."""

    question: str
    words: tuple[str, ...] = ()

    @property
    def terms(self) -> frozenset[str]:
        """The excluded words as the index reads them (``analyze``)."""
        return frozenset(analyze(" ".join(self.words)))


def exclusions(question: str) -> Exclusions:
    """``question`` less its "-word" and "NOT word" exclusions."""
    if question.isupper():  # "WHAT IS NOT ALLOWED IN AMPARO": shouting, not an operator
        return Exclusions(question)
    words = tuple(dict.fromkeys(m.group(1) or m.group(2) for m in _EXCLUDED.finditer(question)))
    if not words:
        return Exclusions(question)
    kept = " ".join(_EXCLUDED.sub(" ", question).split())
    if not kept:  # "-amparo" alone: nothing left to ask, so the words are the question
        return Exclusions(question)
    return Exclusions(kept, words)


def mentions_any(texts: Sequence[str], terms: frozenset[str]) -> bool:
    """Whether any of ``texts`` has one of ``terms`` (``analyze`` terms)."""
    return any(terms & set(analyze(text)) for text in texts)

"""What a user excludes: "despido -doméstico", "robo NOT vehículo", "tesis sobre despido, pero
no las de trabajadores domésticos ni las de militares" (pure).

People bring the operators of web search to any search box, or say it in words. Read as words,
"-doméstico", "NOT vehículo" and "pero no las de trabajadores domésticos" asked for exactly
what the user wanted left out (the first hits of "despido -doméstico" were the domestic
workers' tesis). ``exclusions`` takes them out of the question and returns each as written; a
search then drops every candidate whose rubro or passage has all the terms of one of them.
Only a minus glued to a word after a space (not "art. 51-V", not a dash " - "), NOT in capitals
(not "is it not valid?"), and a "not" that singles out some of the documents asked for ("pero
no las de…", "excepto los de…", "but not those on…"; not "no me pagaron") exclude.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from api.core.text import analyze

# a word of three letters or more ("artículo 123 -A" and "1990 -2000" exclude nothing)
_EXCLUDED = re.compile(r"(?:(?<=\s)|^)-([^\W\d_][\w'’]{2,})|\bNOT\s+([^\W\d_][\w'’]{2,})")
# "pero no las de trabajadores domésticos ni las de militares", "excepto los de arrendamiento",
# "but not those on leases": the documents on a subject (one to three words), set apart from
# the rest asked for. Matched case-insensitively on the question as written.
_SUBJECT = r"([^\W\d_][\w'’]*(?:\s+[^\W\d_][\w'’]*){0,2}?)"
_THOSE = r"(?:las|los|la|el|aquell[oa]s)\s+(?:de|sobre|que\s+(?:tratan|hablan)\s+de)"
_SAID = re.compile(
    rf"(?:,\s*|\s)(?:pero\s+no|excepto|salvo|menos|sin\s+contar|sin\s+incluir)\s+{_THOSE}\s+"
    rf"{_SUBJECT}(?=\s*(?:[,.;?!)]|$|\s+(?:ni|y|o)\s+{_THOSE}\b))"
    rf"|\s+(?:ni|y|o)\s+{_THOSE}\s+{_SUBJECT}(?=\s*(?:[,.;?!)]|$|\s+(?:ni|y|o)\s))"
    r"|(?:,\s*|\s)(?:but\s+not|except(?:\s+for)?|excluding|other\s+than)\s+"
    rf"(?:those|the\s+ones|ones|rulings|cases)\s+(?:on|about|regarding|of)\s+{_SUBJECT}"
    r"(?=\s*(?:[,.;?!)]|$|\s+(?:or|and|nor)\s))",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Exclusions:
    """The question without its exclusions, and the excluded words or phrases as written."""

    question: str
    words: tuple[str, ...] = ()

    @property
    def terms(self) -> tuple[frozenset[str], ...]:
        """Each exclusion as the index reads it (``analyze``), one set of terms per phrase."""
        return tuple(t for w in self.words if (t := frozenset(analyze(w))))


def exclusions(question: str) -> Exclusions:
    """``question`` less its exclusions: "-word", "NOT word", "pero no las de …"."""
    if question.isupper():  # "WHAT IS NOT ALLOWED IN AMPARO": shouting, not an operator
        return Exclusions(question)
    found = [*_EXCLUDED.finditer(question), *_SAID.finditer(question)]
    words = tuple(dict.fromkeys(g for m in found for g in m.groups() if g))
    if not words:
        return Exclusions(question)
    kept = " ".join(_SAID.sub(" ", _EXCLUDED.sub(" ", question)).split())
    if not kept:  # "-amparo" alone: nothing left to ask, so the words are the question
        return Exclusions(question)
    return Exclusions(kept, words)


def mentions_any(texts: Sequence[str], phrases: Sequence[frozenset[str]]) -> bool:
    """Whether any of ``texts`` has every term of one of ``phrases`` (``analyze`` terms)."""
    said = [set(analyze(text)) for text in texts]
    return any(phrase <= terms for phrase in phrases for terms in said)

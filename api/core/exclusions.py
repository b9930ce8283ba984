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
# the rest asked for, and the subjects that continue the list ("ni las de…"). Matched
# case-insensitively on the question as written.
_SUBJECT = r"([^\W\d_][\w'’]*(?:\s+[^\W\d_][\w'’]*){0,2}?)"
_THOSE = (
    r"(?:(?:las|los|la|el|aquell[oa]s)\s+(?:de|sobre|que\s+(?:tratan|hablan)\s+de)"
    r"|(?:those|the\s+ones|ones|rulings|cases)\s+(?:on|about|regarding|of))"
)
_END = r"(?=\s*(?:[,.;?!)]|$|\s+(?:ni|y|o|nor|or|and)\s))"
_SET_APART = re.compile(
    r"(?:,\s*|\s)(?:pero\s+no|excepto|salvo|menos|sin\s+contar|sin\s+incluir|but\s+not|"
    rf"except(?:\s+for)?|excluding|other\s+than)\s+{_THOSE}\s+{_SUBJECT}{_END}",
    re.IGNORECASE,
)
# the list goes on, with or without its article: "ni las de militares", "y arrendamiento"
_AND_ALSO = re.compile(
    rf"\s*(?:,|\s)\s*(?:ni|y|o|nor|or|and)\s+(?:{_THOSE}\s+)?{_SUBJECT}{_END}", re.IGNORECASE
)
# the words that can open such a list: most questions have none, and skip the patterns
_OPENERS = re.compile(r"\b(?:no|excepto|salvo|menos|sin|not|except|excluding|other)\b", re.I)
# what is set apart must be documents asked for ("tesis sobre contratos, excepto los de…"),
# not things the question is about ("¿Son embargables todos los bienes, salvo los de uso
# personal?"), nor a filter ("excepto las de la Quinta Época", read by named_filters)
_DOCUMENTS = re.compile(
    r"\b(?:tesis|criterios?|jurisprudencias?|precedentes?|resoluciones|sentencias|rulings?|"
    r"cases|decisions|precedents|case\s+law)\b",
    re.IGNORECASE,
)
_A_FILTER = re.compile(r"\b(?:[EeÉé]poca|[Ee]poch|\d{4})\b")


def _set_apart(question: str) -> tuple[list[str], list[tuple[int, int]]]:
    """The subjects ``question`` sets apart in words, and where each is said."""
    subjects: list[str] = []
    spans: list[tuple[int, int]] = []
    if not _OPENERS.search(question):
        return subjects, spans
    for first in _SET_APART.finditer(question):
        if not _DOCUMENTS.search(question, 0, first.start()):
            continue
        found: re.Match[str] | None = first
        while found is not None and not _A_FILTER.search(found.group(0)):
            subjects.append(found.group(1))
            spans.append(found.span())
            found = _AND_ALSO.match(question, found.end())
    return subjects, spans


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
    subjects, spans = _set_apart(question)
    operators = [g for m in _EXCLUDED.finditer(question) for g in m.groups() if g]
    words = tuple(dict.fromkeys([*operators, *subjects]))
    if not words:
        return Exclusions(question)
    rest = question
    for start, end in sorted(spans, reverse=True):
        rest = f"{rest[:start]} {rest[end:]}"
    kept = " ".join(_EXCLUDED.sub(" ", rest).split())
    if not kept:  # "-amparo" alone: nothing left to ask, so the words are the question
        return Exclusions(question)
    return Exclusions(kept, words)


def mentions_any(texts: Sequence[str], phrases: Sequence[frozenset[str]]) -> bool:
    """Whether any of ``texts`` has every term of one of ``phrases`` (``analyze`` terms)."""
    said = [set(analyze(text)) for text in texts]
    return any(phrase <= terms for phrase in phrases for terms in said)

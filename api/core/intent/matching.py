"""The matching engine both detectors share: folded word-boundary regexes, longest match wins.

Detectors match on an accent-folded, lowercased copy of the question and report the words that
triggered them as written in the question (lowercased).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Match:
    start: int  # in the folded text
    end: int
    label: str  # materia or temporal kind


def compile_terms(terms: Iterable[str]) -> re.Pattern[str]:
    """One regex for folded terms; spaces inside a term match any run of whitespace."""
    parts = sorted((t.strip() for t in terms if t.strip()), key=len, reverse=True)
    body = "|".join(p.replace(" ", r"\s+") for p in parts)
    return re.compile(rf"\b(?:{body})\b")


def non_overlapping(matches: Iterable[Match]) -> list[Match]:
    """Longest matches first; drop any that overlaps one already taken. In text order."""
    taken: list[Match] = []
    for m in sorted(matches, key=lambda m: (-(m.end - m.start), m.start)):
        if all(m.end <= t.start or t.end <= m.start for t in taken):
            taken.append(m)
    return sorted(taken, key=lambda m: m.start)


def surface(text: str, source: Sequence[int], m: Match) -> str:
    """The matched words as written in the question, lowercased, whitespace collapsed."""
    return " ".join(text[source[m.start] : source[m.end - 1] + 1].lower().split())


def dedupe(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))

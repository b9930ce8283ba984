"""Phrases of a question mapped to the corpus's words for them (pure): the shared engine of the
English glossary (``glossary``) and of the everyday-Spanish terms (``lay_terms``).

Phrases are matched on accent-folded, lowercased text, whole words only, longest first, and
each match contributes the words the table gives for it. A thesaurus, not a translator: words
the table does not know contribute nothing. " | " separates a phrase's readings ("dismissal":
"sobreseimiento | desechamiento | despido"): BM25 gets all their words, a topic one reading at
a time (``readings``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping

from api.core.text import fold

_WORD_STARTS = re.compile(r"\b\w")


class Thesaurus:
    """A table of phrases (any case and accents) and the corpus's words for each."""

    def __init__(self, table: Mapping[str, str]) -> None:
        self._readings = {
            fold(phrase): tuple(reading.strip() for reading in words.split("|"))
            for phrase, words in table.items()
        }
        self._words = {phrase: " ".join(readings) for phrase, readings in self._readings.items()}
        longest_first = sorted(self._words, key=len, reverse=True)
        self._pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, longest_first)) + r")\b")

    def terms(self, text: str) -> str:
        """The corpus's words for the phrases found in ``text``, space-separated ("" if none)."""
        return " ".join(self._words[m.group(0)] for m in self._matches(text))

    def readings(self, text: str, most: int = 8) -> list[str]:
        """The phrases found in ``text`` read one way each: every combination of their
        readings (the first ``most``), each space-separated ("burden of proof in dismissals":
        "carga de la prueba sobreseimiento", ..., "carga de la prueba despido")."""
        found = [self._readings[m.group(0)] for m in self._matches(text)]
        combos = itertools.islice(itertools.product(*found), most) if found else []
        return [" ".join(combo) for combo in combos]

    def _matches(self, text: str) -> Iterator[re.Match[str]]:
        return iter(self._longest(fold(text)))

    def spans(self, folded: str) -> list[tuple[int, int]]:
        """Where known phrases are in ``folded`` (already folded text)."""
        return [m.span() for m in self._longest(folded)]

    def _longest(self, folded: str) -> list[re.Match[str]]:
        """The known phrases of ``folded``, longest first where two overlap, in text order: a
        phrase starting a word later is not lost to a shorter one before it ("el dueño" does
        not take "dueño de la casa")."""
        found = [
            m
            for i in _WORD_STARTS.finditer(folded)
            if (m := self._pattern.match(folded, i.start()))
        ]
        kept: list[re.Match[str]] = []
        for match in sorted(found, key=lambda m: (m.start() - m.end(), m.start())):
            if all(match.end() <= k.start() or match.start() >= k.end() for k in kept):
                kept.append(match)
        return sorted(kept, key=lambda m: m.start())

"""The bundled corpus's words, for the tests that a thesaurus only gives words the tesis use."""

from __future__ import annotations

import functools
import json
from collections.abc import Collection, Mapping
from pathlib import Path

from api.core.text import analyze, lemmas

CORPUS = Path(__file__).resolve().parents[2] / "data" / "tesis.jsonl"


@functools.cache
def corpus_terms() -> tuple[frozenset[str], frozenset[str]]:
    """The ``analyze`` and ``lemmas`` terms of every rubro and text of the bundled corpus."""
    stems: set[str] = set()
    singular: set[str] = set()
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        text = f"{record['rubro']} {record['texto']}"
        stems.update(analyze(text))
        singular.update(lemmas(text))
    return frozenset(stems), frozenset(singular)


def words_not_in_corpus(table: Mapping[str, str], exempt: Collection[str] = ()) -> set[str]:
    """``"phrase: word"`` for each word a thesaurus gives (``" | "`` between readings) that
    no tesis writes, in ``analyze`` or in ``lemmas`` form."""
    stems, singular = corpus_terms()
    return {
        f"{phrase}: {word}"
        for phrase, given in table.items()
        for word in given.replace("|", " ").split()
        if word not in exempt
        and not (set(analyze(word)) <= stems and set(lemmas(word)) <= singular)
    }

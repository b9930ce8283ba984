"""Words a search-box user excludes with "-word" or "NOT word"."""

from __future__ import annotations

import pytest

from api.core.exclusions import exclusions, mentions_any


@pytest.mark.parametrize(
    ("question", "kept", "words"),
    [
        ("despido -doméstico", "despido", ("doméstico",)),
        ("robo NOT vehiculo", "robo", ("vehiculo",)),
        ("amparo -suspensión -provisional", "amparo", ("suspensión", "provisional")),
        # not exclusions: a hyphen inside a reference, a dash, a lowercase "not", nothing left
        ("art. 51-V de la LFT", "art. 51-V de la LFT", ()),
        ("despido - doméstico", "despido - doméstico", ()),
        ("Is it not valid?", "Is it not valid?", ()),
        ("-amparo", "-amparo", ()),
    ],
)
def test_exclusions(question: str, kept: str, words: tuple[str, ...]) -> None:
    found = exclusions(question)
    assert (found.question, found.words) == (kept, words)


def test_an_excluded_word_is_matched_as_the_index_reads_it() -> None:
    terms = exclusions("despido -domésticos").terms
    assert mentions_any(["DOMESTICOS. INDEMNIZACION CONSTITUCIONAL"], terms)
    assert not mentions_any(["DESPIDO INJUSTIFICADO", "otro texto"], terms)

"""What a user excludes with "-word", "NOT word" or in words ("pero no las de…")."""

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
        # said in words: the documents on a subject, set apart from the rest asked for
        (
            "tesis sobre despido, pero no las de trabajadores domésticos ni las de militares",
            "tesis sobre despido",
            ("trabajadores domésticos", "militares"),
        ),
        ("tesis de amparo salvo las de materia agraria", "tesis de amparo", ("materia agraria",)),
        # a reviewer's: the list goes on without its article
        (
            "tesis sobre contratos, excepto los de compraventa y arrendamiento",
            "tesis sobre contratos",
            ("compraventa", "arrendamiento"),
        ),
        (
            "rulings on dismissal but not those on domestic workers",
            "rulings on dismissal",
            ("domestic workers",),
        ),
        # not exclusions: a "no" of the story, a year (no subject), a filter's negation
        ("no me pagaron las horas extras", "no me pagaron las horas extras", ()),
        ("los derechos de los trabajadores y los de sus familias", None, ()),  # nothing set apart
        # not documents set apart: the things asked about, or a filter (named_filters' own)
        ("¿Son embargables todos los bienes del deudor, salvo los de uso personal?", None, ()),
        ("tesis sobre amparo excepto las de la Quinta Época", None, ()),
        ("suspensión provisional excepto los de 1982", None, ()),
        ("tesis que no sean de la Séptima Época", None, ()),
    ],
)
def test_exclusions(question: str, kept: str | None, words: tuple[str, ...] | None) -> None:
    found = exclusions(question)
    assert found.question == (question if kept is None else kept)
    assert words is None or found.words == words


def test_an_excluded_word_is_matched_as_the_index_reads_it() -> None:
    terms = exclusions("despido -domésticos").terms
    assert mentions_any(["DOMESTICOS. INDEMNIZACION CONSTITUCIONAL"], terms)
    assert not mentions_any(["DESPIDO INJUSTIFICADO", "otro texto"], terms)


def test_an_excluded_phrase_needs_all_its_words() -> None:
    """ "trabajadores domésticos" leaves out the domestic workers' tesis, not every tesis on
    workers."""
    terms = exclusions("tesis sobre despido, pero no las de trabajadores domésticos").terms
    assert mentions_any(["TRABAJADORES DOMESTICOS. DESPIDO"], terms)
    assert not mentions_any(["DESPIDO DE TRABAJADORES DE CONFIANZA"], terms)

from __future__ import annotations

from datetime import date

import pytest

from api.core.models import Chunk, Validity
from api.core.references import (
    Reference,
    all_predate,
    consolidate,
    with_all_chunks,
    with_replacements,
)
from tests.fakes import make_hit, three_tesis_hits

SUPERADA = Validity("superada", por_registro=2006225, desde=date(2014, 4, 28))


def test_ten_chunks_of_three_tesis_give_three_numbered_references() -> None:
    refs = consolidate(three_tesis_hits())

    assert [(r.number, r.registro) for r in refs] == [(1, 300), (2, 100), (3, 200)]
    assert [r.chunk_count for r in refs] == [3, 4, 3]
    assert sum(r.chunk_count for r in refs) == 10


def test_reference_aggregates_its_chunks() -> None:
    hits = [
        make_hit(7, 2, "dos tres", similarity=0.6, final_score=0.9, tokens=5),
        make_hit(7, 0, "uno", similarity=0.8, final_score=0.7, tokens=3),
    ]
    (ref,) = consolidate(hits)

    assert ref.avg_similarity == pytest.approx(0.7)
    assert ref.max_similarity == pytest.approx(0.8)
    assert ref.final_score == pytest.approx(0.9)
    assert ref.total_tokens == 8
    # Fragments in document order, with their own spans and scores.
    assert [(f.chunk_index, f.start_line, f.similarity) for f in ref.fragments] == [
        (0, 1, 0.8),
        (2, 5, 0.6),
    ]
    assert ref.fragments[1].start_char == 2000
    assert ref.fragments[1].end_char == 2000 + len("dos tres")


def test_reference_carries_metadata_and_status() -> None:
    hit = make_hit(
        160584,
        anio=2011,
        tipo="Aislada",
        materias=("Común",),
        clave="P. LXVI/2011 (9a.)",
        rubro="CRITERIOS EMITIDOS.",
        status=SUPERADA,
    )
    (ref,) = consolidate([hit])

    assert (ref.registro, ref.rubro, ref.epoca, ref.anio, ref.tipo) == (
        160584,
        "CRITERIOS EMITIDOS.",
        "Novena Época",
        2011,
        "Aislada",
    )
    assert ref.materias == ("Común",)
    assert ref.clave == "P. LXVI/2011 (9a.)"
    assert ref.status == SUPERADA
    assert ref.superseded
    assert ref.marker == "[1]"


def test_max_references_bounds_the_number_of_tesis() -> None:
    refs = consolidate(three_tesis_hits(), max_references=2)

    assert [r.registro for r in refs] == [300, 100]
    assert [r.chunk_count for r in refs] == [3, 4]


def test_repeated_chunk_counts_once() -> None:
    hit = make_hit(5, 1, "x")
    (ref,) = consolidate([hit, hit])
    assert ref.chunk_count == 1


def test_no_hits_no_references() -> None:
    assert consolidate([]) == []


@pytest.mark.parametrize("bad", [0, -1, 51])
def test_max_references_out_of_range_names_the_parameter(bad: int) -> None:
    with pytest.raises(ValueError, match=rf"max_references must be in \[1, 50\], got {bad}"):
        consolidate([], max_references=bad)


def test_all_predate() -> None:
    old = consolidate([make_hit(1, anio=1975), make_hit(2, anio=1999)])
    mixed = consolidate([make_hit(1, anio=1975), make_hit(2, anio=2000)])
    assert all_predate(old)
    assert not all_predate(mixed)
    assert not all_predate([])


def test_with_all_chunks_fills_in_unretrieved_fragments() -> None:
    (ref,) = consolidate([make_hit(9, 1, "medio", similarity=0.7)])
    chunks = [
        Chunk(9, i, t, i * 10, i * 10 + len(t), i + 1, i + 1, 1)
        for i, t in enumerate(["inicio", "medio", "fin"])
    ]
    full = with_all_chunks(ref, [*reversed(chunks), Chunk(8, 0, "otra", 0, 4, 1, 1, 1)])

    assert isinstance(full, Reference)
    assert [f.text for f in full.fragments] == ["inicio", "medio", "fin"]
    assert [f.similarity for f in full.fragments] == [0.0, 0.7, 0.0]
    assert full.chunk_count == 1  # still what retrieval found


def test_the_references_make_room_for_the_criterion_an_old_tesis_was_set_aside_for() -> None:
    """A reviewer's find: a chat showed 5 references and its discard named a newer criterion
    ranked 7th, which the reader never saw."""
    hits = [make_hit(r, 0, f"texto {r}") for r in (1, 2, 3, 4, 5, 6, 7)]
    refs = consolidate(with_replacements(hits, [7], 5), 5)
    assert [r.registro for r in refs] == [1, 2, 3, 4, 7]
    # already shown, or not on the page at all: nothing moves
    assert with_replacements(hits, [2], 5) == hits
    assert with_replacements(hits, [99], 5) == hits

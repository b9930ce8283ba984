"""SJF validity notes: parsing, loss of force, descriptions, demotion and replacements."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.core.models import VIGENTE, Chunk, Hit, Passage, Validity
from api.core.scoring import breakdown, rank
from api.core.validity import (
    ESTADOS,
    LOSES_FORCE,
    SUPERSEDED,
    apply_validity,
    describe,
    loses_force,
    parse_notes,
    replacement_chain,
    replacements_to_fetch,
)

REPO = Path(__file__).parents[2]
BUNDLED = REPO / "data" / "vigencia_notas.json"
SHARED = REPO.parent / "shared" / "data" / "tesis" / "vigencia_notas_558.json"

SUPERADA = Validity("superada", False, 2006225, "P./J. 21/2014 (10a.)", date(2014, 4, 28))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def hit(registro: int, similarity: float, anio: int = 2015, index: int = 0) -> Hit:
    chunk = Chunk(registro, index, "", 0, 0, 1, 1, 0)
    passage = Passage(
        chunk=chunk,
        rubro=f"Tesis {registro}",
        epoca="Décima Época",
        anio=anio,
        tipo="Jurisprudencia",
    )
    return Hit(passage, breakdown(similarity, anio, "Décima Época", 0.0))


# --- parsing -----------------------------------------------------------------------------


def test_bundled_notes_parse_cleanly() -> None:
    imported = parse_notes(load(BUNDLED))
    assert len(imported.notes) == 559
    assert imported.rejected == []
    assert imported.notes[160584] == SUPERADA
    assert {v.estado for v in imported.notes.values()} == set(ESTADOS)


@pytest.mark.skipif(
    not SHARED.exists(), reason="needs ../shared/data/tesis/vigencia_notas_558.json"
)
def test_shared_notes_parse_cleanly_and_agree_with_the_bundled_ones() -> None:
    shared = parse_notes(load(SHARED))
    assert len(shared.notes) == 558
    assert shared.rejected == []
    bundled = parse_notes(load(BUNDLED)).notes
    assert all(bundled[r] == v for r, v in shared.notes.items())
    assert set(bundled) - set(shared.notes) == {160584}


def test_month_and_year_dates_are_the_first_day() -> None:
    notes = parse_notes(
        {
            "tesis": {
                "1": {"estado": "abandonada", "parcial": False, "desde": "2012-02"},
                "2": {"estado": "superada", "parcial": False, "desde": "1998"},
                "3": {"estado": "aclarada", "parcial": False, "desde": None},
            }
        }
    ).notes
    assert [notes[r].desde for r in (1, 2, 3)] == [date(2012, 2, 1), date(1998, 1, 1), None]


def test_malformed_notes_are_reported_not_fatal() -> None:
    imported = parse_notes(
        {
            "tesis": {
                "abc": {"estado": "superada"},
                "10": {"estado": "derogada"},
                "11": "superada",
                "12": {"estado": "superada", "parcial": False, "desde": "2014-13-45"},
                "13": {"estado": "sustituida", "parcial": False, "por_registro": "x12"},
                "14": {"estado": "abandonada", "parcial": "sí"},
                "15": {"estado": "interrumpida", "parcial": False, "por_registro": 2007678},
            }
        }
    )
    # Left out: bad registro, unknown estado, not an object.
    assert set(imported.notes) == {12, 13, 14, 15}
    rejected = "\n".join(imported.rejected)
    assert len(imported.rejected) == 6
    assert "registro 'abc': registro" in rejected
    assert "registro 10: estado: unknown estado 'derogada'" in rejected
    assert "registro 11: note: not an object" in rejected
    # Kept without the bad field: dropping a "superada" note would show it as vigente.
    assert "registro 12: desde: " in rejected
    assert imported.notes[12] == Validity("superada", False, None, None, None)
    assert "registro 13: por_registro: " in rejected
    assert imported.notes[13].por_registro is None
    assert "registro 14: parcial: " in rejected
    assert loses_force(imported.notes[14])
    assert imported.notes[15].por_registro == 2007678


@pytest.mark.parametrize("data", [{}, {"tesis": []}, {"tesis": "x"}])
def test_a_document_without_notes(data: dict[str, Any]) -> None:
    imported = parse_notes(data)
    assert imported.notes == {}
    assert imported.rejected == ["document: tesis: missing or not an object"]


@given(
    st.dictionaries(
        st.text(max_size=8),
        st.one_of(
            st.none(),
            st.text(max_size=5),
            st.dictionaries(
                st.sampled_from(["estado", "parcial", "por_registro", "por_clave", "desde"]),
                st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12)),
            ),
        ),
        max_size=8,
    )
)
def test_parse_never_fails_and_accounts_for_every_note(tesis: dict[str, Any]) -> None:
    imported = parse_notes({"tesis": tesis})
    left_out = len(tesis) - len(imported.notes)
    assert left_out <= len(imported.rejected)
    assert all(v.estado in ESTADOS for v in imported.notes.values())


# --- loss of force and descriptions ------------------------------------------------------


@pytest.mark.parametrize(
    ("estado", "parcial", "expected"),
    [
        ("abandonada", False, True),
        ("abandonada", True, False),
        ("interrumpida", False, True),
        ("interrumpida", True, True),
        ("superada", False, True),
        ("sin_efectos", False, True),
        ("sustituida", False, True),
        ("modificada", False, False),
        ("texto_sustituido", False, False),
        ("aclarada", False, False),
        ("vigente", False, False),
    ],
)
def test_loses_force(estado: str, parcial: bool, expected: bool) -> None:
    assert loses_force(Validity(estado, parcial)) is expected


def test_every_estado_is_classified() -> None:
    assert set(ESTADOS) >= LOSES_FORCE
    assert len(ESTADOS) == 8


@pytest.mark.parametrize(
    ("validity", "sentence"),
    [
        (SUPERADA, "superada por 2006225 (P./J. 21/2014 (10a.)) desde 2014-04-28"),
        (
            Validity("abandonada", True, 2019453, "I.3o.C.106 K (10a.)", date(2019, 3, 8)),
            "abandonada parcialmente por 2019453 (I.3o.C.106 K (10a.)) desde 2019-03-08",
        ),
        (Validity("sin_efectos"), "dejada sin efectos"),
        (Validity("texto_sustituido", por_registro=123), "con texto sustituido por 123"),
        (
            Validity("interrumpida", por_clave="2a. CVI/2014 (10a.)"),
            "interrumpida por 2a. CVI/2014 (10a.)",
        ),
        (VIGENTE, "vigente"),
    ],
)
def test_describe(validity: Validity, sentence: str) -> None:
    assert describe(validity) == sentence


# --- search ------------------------------------------------------------------------------

STATUSES = {160584: SUPERADA, 300: Validity("modificada"), 400: Validity("abandonada", True)}


def test_superseded_hits_are_flagged_and_demoted() -> None:
    hits = rank([hit(160584, 0.9), hit(2006225, 0.6), hit(300, 0.5), hit(400, 0.4)])
    kept, discarded = apply_validity(hits, STATUSES, include_superseded=True, demotion=0.5)
    assert discarded == []
    by_registro = {h.registro: h for h in kept}
    assert [h.registro for h in kept] == [2006225, 300, 160584, 400]
    assert [h.rank for h in kept] == [1, 2, 3, 4]
    assert by_registro[160584].status == SUPERADA
    assert by_registro[160584].score.final_score == pytest.approx(0.45)
    assert by_registro[160584].rank_without_recency == 1  # relevance is untouched
    # Flagged but not demoted.
    assert by_registro[300].status.estado == "modificada"
    assert by_registro[300].score.final_score == pytest.approx(0.5)
    assert by_registro[400].status.parcial
    assert by_registro[2006225].status == VIGENTE


def test_superseded_hits_are_discarded_on_request() -> None:
    hits = rank([hit(160584, 0.9, index=0), hit(160584, 0.8, index=1), hit(2006225, 0.6)])
    kept, discarded = apply_validity(hits, STATUSES, include_superseded=False)
    assert [h.registro for h in kept] == [2006225]
    assert [(d.hit.registro, d.code, d.reason) for d in discarded] == [
        (160584, SUPERSEDED, "superada por 2006225 (P./J. 21/2014 (10a.)) desde 2014-04-28"),
    ] * 2
    assert all(d.hit.status == SUPERADA for d in discarded)


def test_all_superseded_may_leave_nothing() -> None:
    kept, discarded = apply_validity([hit(160584, 0.9)], STATUSES, include_superseded=False)
    assert kept == []
    assert len(discarded) == 1


def test_demotion_bounds() -> None:
    with pytest.raises(ValueError, match="demotion"):
        apply_validity([], STATUSES, include_superseded=True, demotion=1.5)


def test_with_the_bundled_notes_a_superada_never_appears_unflagged() -> None:
    notes = parse_notes(load(BUNDLED)).notes
    hits = rank([hit(160584, 0.95), hit(2006225, 0.9), hit(159944, 0.85), hit(1, 0.8)])
    kept, _ = apply_validity(hits, notes, include_superseded=True)
    assert all(h.status == notes.get(h.registro, VIGENTE) for h in kept)
    assert kept[0].registro == 2006225
    kept, discarded = apply_validity(hits, notes, include_superseded=False)
    assert [h.registro for h in kept] == [2006225, 1]
    assert {d.hit.registro for d in discarded} == {160584, 159944}


@given(
    st.lists(
        st.tuples(st.sampled_from([160584, 300, 400, 2006225, 7]), st.floats(0.0, 1.0)),
        max_size=12,
    ),
    st.booleans(),
    st.floats(0.0, 1.0),
)
def test_validity_properties(rows: list[tuple[int, float]], include: bool, demotion: float) -> None:
    hits = rank([hit(r, s, index=i) for i, (r, s) in enumerate(rows)])
    kept, discarded = apply_validity(hits, STATUSES, include, demotion)
    assert len(kept) + len(discarded) == len(hits)
    assert [h.rank for h in kept] == list(range(1, len(kept) + 1))
    assert all(h.status == STATUSES.get(h.registro, VIGENTE) for h in kept)
    if not include:
        assert not any(loses_force(h.status) for h in kept)


# --- replacements ------------------------------------------------------------------------


def test_replacements_to_fetch() -> None:
    statuses = {
        1: Validity("superada", por_registro=2),
        3: Validity("modificada", por_registro=4),
        5: Validity("sustituida", por_registro=6),
        6: Validity("interrumpida", por_registro=7),
        8: Validity("sin_efectos"),
    }
    hits = [hit(1, 0.9), hit(2, 0.8), hit(3, 0.7), hit(5, 0.6), hit(8, 0.5), hit(9, 0.4)]
    # 2 is already a hit; 4 (modificada is not vigente); 6 and, down the chain, 7.
    assert replacements_to_fetch(hits, statuses) == [4, 6, 7]


def test_replacement_chain_on_the_real_notes_and_on_cycles() -> None:
    notes = parse_notes(load(BUNDLED)).notes
    assert replacement_chain(163211, notes) == [159944, 2007678]
    assert replacement_chain(160584, notes) == [2006225]
    assert replacement_chain(2006225, notes) == []
    cycle = {1: Validity("superada", por_registro=2), 2: Validity("superada", por_registro=1)}
    assert replacement_chain(1, cycle) == [2]


def test_a_note_whose_replacements_lead_back_to_it_is_rejected() -> None:
    """A tesis "superada por" itself, or two replacing each other, had been stored: both
    were flagged as out of force, each by the other."""
    parsed = parse_notes(
        {
            "tesis": {
                "9000001": {"estado": "superada", "por_registro": 9000001},
                "9100001": {"estado": "superada", "por_registro": 9100002},
                "9100002": {"estado": "superada", "por_registro": 9100001},
                "160584": {"estado": "superada", "por_registro": 2006225},
            }
        }
    )
    assert set(parsed.notes) == {160584}
    assert len(parsed.rejected) == 3
    assert all("cannot replace itself" in r for r in parsed.rejected)

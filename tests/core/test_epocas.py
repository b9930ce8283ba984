from __future__ import annotations

from datetime import date

import pytest

from api.core.epocas import (
    canonical_epoca,
    epoca_for_date,
    epoca_matches_year,
    epoca_number,
    epocas_for_year,
)


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Décima Época", "Décima Época"),
        ("decima epoca", "Décima Época"),
        ("10a.", "Décima Época"),
        ("11", "Undécima Época"),
        ("Duodécima Época", "Duodécima Época"),
        ("Quinta", "Quinta Época"),
        ("Época Nueva", None),
        ("13", None),
    ],
)
def test_canonical_epoca(label: str, expected: str | None) -> None:
    assert canonical_epoca(label) == expected


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (date(1917, 6, 1), "Quinta Época"),
        (date(1980, 5, 1), "Séptima Época"),
        (date(1995, 2, 3), "Octava Época"),
        (date(1995, 2, 4), "Novena Época"),
        (date(2011, 10, 4), "Décima Época"),
        (date(2021, 4, 30), "Décima Época"),
        (date(2021, 5, 1), "Undécima Época"),
        (date(2026, 1, 2), "Duodécima Época"),
        (date(1916, 1, 1), None),
    ],
)
def test_epoca_for_date_uses_real_boundaries(day: date, expected: str | None) -> None:
    assert epoca_for_date(day) == expected


def test_boundary_years_belong_to_two_epocas() -> None:
    assert epocas_for_year(2021) == ("Décima Época", "Undécima Época")
    assert epoca_number("Novena Época") == 9 and epoca_number("") == 0


def test_contradiction_is_detected_with_a_year_of_tolerance() -> None:
    assert epoca_matches_year("Séptima Época", 1989)  # published in the next Informe
    assert not epoca_matches_year("Séptima Época", 1948)
    assert not epoca_matches_year("Undécima Época", 2010)

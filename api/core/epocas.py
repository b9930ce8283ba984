"""The épocas of the Semanario Judicial de la Federación and their real boundaries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from api.core.text import fold


@dataclass(frozen=True, slots=True)
class Epoca:
    name: str
    number: int
    start: date
    end: date | None  # inclusive; None = still running


# Boundaries follow the SCJN's own periodization (acuerdos generales that open each época).
EPOCAS: tuple[Epoca, ...] = (
    Epoca("Primera Época", 1, date(1871, 1, 1), date(1875, 12, 31)),
    Epoca("Segunda Época", 2, date(1881, 1, 1), date(1889, 12, 31)),
    Epoca("Tercera Época", 3, date(1890, 1, 1), date(1897, 12, 31)),
    Epoca("Cuarta Época", 4, date(1898, 1, 1), date(1914, 12, 31)),
    Epoca("Quinta Época", 5, date(1917, 6, 1), date(1957, 6, 30)),
    Epoca("Sexta Época", 6, date(1957, 7, 1), date(1968, 12, 31)),
    Epoca("Séptima Época", 7, date(1969, 1, 1), date(1988, 1, 14)),
    Epoca("Octava Época", 8, date(1988, 1, 15), date(1995, 2, 3)),
    Epoca("Novena Época", 9, date(1995, 2, 4), date(2011, 10, 3)),
    Epoca("Décima Época", 10, date(2011, 10, 4), date(2021, 4, 30)),
    Epoca("Undécima Época", 11, date(2021, 5, 1), date(2025, 8, 31)),
    Epoca("Duodécima Época", 12, date(2025, 9, 1), None),
)
EPOCA_NAMES: tuple[str, ...] = tuple(e.name for e in EPOCAS)
NOVENA = 9

_ORDINALS = {
    "primera": 1,
    "segunda": 2,
    "tercera": 3,
    "cuarta": 4,
    "quinta": 5,
    "sexta": 6,
    "septima": 7,
    "octava": 8,
    "novena": 9,
    "decima": 10,
    "undecima": 11,
    "duodecima": 12,
}
_BY_NUMBER = {e.number: e for e in EPOCAS}


@lru_cache(maxsize=256)  # a handful of distinct labels, looked up per candidate
def canonical_epoca(label: str) -> str | None:
    """'Décima Época', 'decima', '10a.' or '10' -> 'Décima Época'; None if not an época."""
    folded = fold(label).replace("epoca", "").strip(" .")
    if folded in _ORDINALS:
        return _BY_NUMBER[_ORDINALS[folded]].name
    digits = folded.rstrip("a").rstrip(".").rstrip("a")
    # isdecimal, not isdigit: '²' is a digit that int() refuses
    if digits.isdecimal() and len(digits) <= 2 and int(digits) in _BY_NUMBER:
        return _BY_NUMBER[int(digits)].name
    return None


@lru_cache(maxsize=256)
def epoca_number(name: str) -> int:
    """Ordinal of a canonical época name (0 for unknown, e.g. generic corpora)."""
    canon = canonical_epoca(name) if name else None
    return _BY_NUMBER_BY_NAME.get(canon or "", 0)


_BY_NUMBER_BY_NAME = {e.name: e.number for e in EPOCAS}


def epoca_for_date(day: date) -> str | None:
    """The época in force on ``day``; None before the Primera Época or in the 1914-1917 gap."""
    for epoca in EPOCAS:
        if epoca.start <= day and (epoca.end is None or day <= epoca.end):
            return epoca.name
    return None


def epocas_for_year(year: int) -> tuple[str, ...]:
    """All épocas that were in force at some point of ``year`` (two at a boundary year)."""
    first, last = date(year, 1, 1), date(year, 12, 31)
    return tuple(e.name for e in EPOCAS if e.start <= last and (e.end is None or first <= e.end))


def epoca_matches_year(epoca: str, year: int, tolerance_years: int = 1) -> bool:
    """True if ``epoca`` ran within ``tolerance_years`` of ``year``.

    Tesis are often published in the year after the ruling (annual Informes), so a year just
    past an época's end is normal and not reported.
    """
    window = range(year - tolerance_years, year + tolerance_years + 1)
    return any(epoca in epocas_for_year(y) for y in window)

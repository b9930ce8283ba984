"""What the logged hits look like: boost histograms, year and época counts, shares, materias."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from api.core.epocas import canonical_epoca, epoca_number
from api.core.monitoring.records import MODERN_YEAR, LogEntry

# Boost = final / relevance is a product of factors near 1 (<= 1 under ``default``, up to
# about 2.6 under ``seed``), so 5 % steps resolve it; bins are aligned to multiples of it.
BOOST_BIN_WIDTH = 0.05
UNKNOWN = "desconocido"  # época or year key of a cited registro not found among the hits


@dataclass(frozen=True, slots=True)
class Bin:
    """Boosts in ``[low, high)``."""

    low: float
    high: float
    count: int


@dataclass(frozen=True, slots=True)
class BoostHistogram:
    profile: str
    bins: tuple[Bin, ...]

    @property
    def total(self) -> int:
        return sum(b.count for b in self.bins)


def boost_histograms(
    entries: Iterable[LogEntry], width: float = BOOST_BIN_WIDTH
) -> list[BoostHistogram]:
    """One histogram per profile over every logged hit; contiguous bins of ``width`` aligned
    to its multiples, from the lowest boost to the highest (so counts sum to the hits)."""
    if width <= 0:
        raise ValueError(f"width must be > 0, got {width}")
    per_profile: dict[str, Counter[int]] = {}
    for entry in entries:
        counts = per_profile.setdefault(entry.profile, Counter())
        for hit in entry.hits:
            # rounding first keeps 0.30 / 0.05 (= 5.999...) in the bin starting at 0.30
            counts[math.floor(round(hit.boost / width, 9))] += 1
    histograms = []
    for profile, counts in sorted(per_profile.items()):
        if not counts:
            continue
        bins = tuple(
            Bin(round(i * width, 10), round((i + 1) * width, 10), counts.get(i, 0))
            for i in range(min(counts), max(counts) + 1)
        )
        histograms.append(BoostHistogram(profile, bins))
    return histograms


@dataclass(frozen=True, slots=True)
class Distribution:
    """Counts by year (ascending) and by época (chronological, tesis only); keys are strings."""

    by_year: tuple[tuple[str, int], ...]
    by_epoca: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.by_year)


def _year_key(key: str) -> tuple[int, str]:
    return (int(key), key) if key.lstrip("-").isdigit() else (10**6, key)


def _epoca_key(key: str) -> tuple[int, str]:
    number = epoca_number(key)
    return (number if number else 10**6, key)


def distribution(by_year: Mapping[str, int], by_epoca: Mapping[str, int]) -> Distribution:
    """Order raw counts (e.g. a store's ``count_by``); época names are canonicalized and the
    records of a generic corpus (no época: "") are left out of the épocas."""
    epocas: Counter[str] = Counter()
    for name, n in by_epoca.items():
        if name:
            epocas[canonical_epoca(name) or name] += n
    return Distribution(
        by_year=tuple(
            sorted(((str(k), n) for k, n in by_year.items()), key=lambda kv: _year_key(kv[0]))
        ),
        by_epoca=tuple(sorted(epocas.items(), key=lambda kv: _epoca_key(kv[0]))),
    )


def _count(pairs: Iterable[tuple[str, str]]) -> Distribution:
    years: Counter[str] = Counter()
    epocas: Counter[str] = Counter()
    for year, epoca in pairs:
        years[year] += 1
        epocas[epoca] += 1
    return distribution(years, epocas)


def retrieved_distribution(entries: Iterable[LogEntry]) -> Distribution:
    """One count per logged hit (a tesis shown with two chunks counts twice, as in the
    boost histogram): by year every hit; by época the tesis' (a generic record has none)."""
    return _count((str(h.anio), h.epoca) for e in entries for h in e.hits)


def cited_distribution(entries: Iterable[LogEntry]) -> Distribution:
    """One count per cited registro per answer, dated from the entry's hits."""
    pairs = []
    for entry in entries:
        known = {h.registro: (str(h.anio), h.epoca) for h in reversed(entry.hits)}
        pairs += [known.get(r, (UNKNOWN, UNKNOWN)) for r in entry.cited]
    return _count(pairs)


@dataclass(frozen=True, slots=True)
class Shares:
    """Shares of the logged hits: before 2000 and superseded over the tesis hits (a generic
    corpus's records are no criteria, as for the ``ALL_PRE_2000`` alert); pre-reform over the
    tesis hits of searches whose materia has a reform cutoff (``reform_hits``). ``hits``
    counts every logged hit."""

    pre_2000: float
    pre_reform: float
    superseded: float
    hits: int
    reform_hits: int


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def shares(entries: Sequence[LogEntry]) -> Shares:
    hits = [h for e in entries for h in e.hits]
    tesis = [h for h in hits if not h.generic]
    reform = [(e, h) for e in entries if e.cutoff_year is not None for h in e.hits if not h.generic]
    return Shares(
        pre_2000=_share(sum(h.anio < MODERN_YEAR for h in tesis), len(tesis)),
        pre_reform=_share(sum(e.pre_reform(h) for e, h in reform), len(reform)),
        superseded=_share(sum(h.superseded for h in tesis), len(tesis)),
        hits=len(hits),
        reform_hits=len(reform),
    )


@dataclass(frozen=True, slots=True)
class MateriaStats:
    """Searches per detected materia (None: no materia); ``pre_reform_share`` (over the tesis
    hits) is None when the materia has no reform cutoff."""

    materia: str | None
    searches: int
    hits: int
    pre_reform_share: float | None


def by_materia(entries: Sequence[LogEntry]) -> list[MateriaStats]:
    groups: dict[str | None, list[LogEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.materia, []).append(entry)
    stats = []
    for materia, group in groups.items():
        hits = [(e, h) for e in group for h in e.hits]
        has_cutoff = any(e.cutoff_year is not None for e in group)
        pre = sum(e.pre_reform(h) for e, h in hits)
        tesis = sum(not h.generic for _, h in hits)
        share = _share(pre, tesis) if has_cutoff else None
        stats.append(MateriaStats(materia, len(group), len(hits), share))
    return sorted(stats, key=lambda s: (-s.searches, s.materia or "~"))

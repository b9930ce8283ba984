"""Two rankings of one question compared at the level of whole tesis (pure).

Each ranking is reduced to its tesis (the best-ranked chunk of each registro, ranks 1..n).
``dropped`` are the registros in A and not in B, ``entered`` those in B and not in A; each
registro of either list gets a ``RankChange`` with ``delta = rank_a - rank_b`` (positive: it
moved up in B; None when it is missing from one side).

Kendall's τ is the τ-b variant over the union of both lists, with every registro missing
from a list placed after that list's last item, all missing ones tied with each other:

    τ_b = (C - D) / sqrt((n0 - n1) (n0 - n2))

where, over the n0 = n(n - 1)/2 pairs of the union, C and D count concordant and discordant
pairs and n1, n2 the pairs tied in A and in B (a pair tied in both counts in both). It is 1
for identical lists, -1 for one reversing the other, and None when undefined (fewer than two
registros, or one side ties every pair).

Usage::

    comparison = compare_hits(hits_without_recency, hits_with_recency)
    comparison.dropped, comparison.entered, comparison.kendall_tau
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from api.core.models import Hit


@dataclass(frozen=True, slots=True)
class RankedTesis:
    """A tesis in one ranking: its best chunk's final score, rank among tesis (1-based)."""

    registro: int
    rank: int
    final_score: float
    anio: int


@dataclass(frozen=True, slots=True)
class RankChange:
    registro: int
    rank_a: int | None
    rank_b: int | None
    delta: int | None  # rank_a - rank_b: positive when the tesis moved up in B


@dataclass(frozen=True, slots=True)
class Comparison:
    a: tuple[RankedTesis, ...]
    b: tuple[RankedTesis, ...]
    changes: tuple[RankChange, ...]
    entered: tuple[int, ...]  # in B, not in A (in B's order)
    dropped: tuple[int, ...]  # in A, not in B (in A's order)
    kendall_tau: float | None


def tesis_ranking(hits: Sequence[Hit]) -> list[RankedTesis]:
    """Best chunk per registro, in rank order (input order breaks ties), ranks renumbered."""
    ordered = sorted(enumerate(hits), key=lambda pair: (pair[1].rank, pair[0]))
    seen: set[int] = set()
    ranked: list[RankedTesis] = []
    for _, hit in ordered:
        if hit.registro in seen:
            continue
        seen.add(hit.registro)
        ranked.append(
            RankedTesis(hit.registro, len(ranked) + 1, hit.score.final_score, hit.passage.anio)
        )
    return ranked


def _unique(items: Sequence[int]) -> list[int]:
    return list(dict.fromkeys(items))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def kendall_tau_b(a: Sequence[int], b: Sequence[int]) -> float | None:
    """τ-b of two rankings (best first) over their union; see the module docstring."""
    a, b = _unique(a), _unique(b)
    union = _unique([*a, *b])
    pos_a = {r: i for i, r in enumerate(a)}
    pos_b = {r: i for i, r in enumerate(b)}
    ranks = [(pos_a.get(r, len(a)), pos_b.get(r, len(b))) for r in union]
    concordant = discordant = tied_a = tied_b = 0
    for i, (xa, xb) in enumerate(ranks):
        for ya, yb in ranks[i + 1 :]:
            sa, sb = _sign(xa - ya), _sign(xb - yb)
            tied_a += sa == 0
            tied_b += sb == 0
            if sa and sb:
                concordant += sa == sb
                discordant += sa != sb
    pairs = len(union) * (len(union) - 1) // 2
    denominator = math.sqrt((pairs - tied_a) * (pairs - tied_b))
    return (concordant - discordant) / denominator if denominator else None


def rank_changes(a: Sequence[int], b: Sequence[int]) -> list[RankChange]:
    """One change per registro: B's order first, then the dropped ones in A's order."""
    a, b = _unique(a), _unique(b)
    rank_a = {r: i for i, r in enumerate(a, start=1)}
    rank_b = {r: i for i, r in enumerate(b, start=1)}
    changes = []
    for registro in _unique([*b, *a]):
        ra, rb = rank_a.get(registro), rank_b.get(registro)
        delta = ra - rb if ra is not None and rb is not None else None
        changes.append(RankChange(registro, ra, rb, delta))
    return changes


def compare_rankings(a: Sequence[RankedTesis], b: Sequence[RankedTesis]) -> Comparison:
    """Compare two tesis-level rankings (as ``tesis_ranking`` returns them)."""
    registros_a = [t.registro for t in a]
    registros_b = [t.registro for t in b]
    in_a, in_b = set(registros_a), set(registros_b)
    return Comparison(
        a=tuple(a),
        b=tuple(b),
        changes=tuple(rank_changes(registros_a, registros_b)),
        entered=tuple(r for r in _unique(registros_b) if r not in in_a),
        dropped=tuple(r for r in _unique(registros_a) if r not in in_b),
        kendall_tau=kendall_tau_b(registros_a, registros_b),
    )


def compare_hits(hits_a: Sequence[Hit], hits_b: Sequence[Hit]) -> Comparison:
    """Compare two chunk-level hit lists at the level of whole tesis."""
    return compare_rankings(tesis_ranking(hits_a), tesis_ranking(hits_b))

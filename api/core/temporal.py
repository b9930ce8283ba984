"""Answering "the first / the latest criterion on X": ordering hits by date.

Two modes, both pure re-orderings of hits already scored by ``api.core.scoring``:

* ``sort_by_date``: strict date order over every hit passed in (the search service passes the
  whole filtered set whose similarity passes the threshold, not a vector top-k, so the true
  earliest is not lost outside the top-k). One hit per tesis.
* ``temporal_blend``: the two-pass blend. A semantic top-N is re-scored as
  ``(1 - weight) x relevance_norm + weight x date_norm``, both min-max scaled to [0, 1]
  within the N hits; ``date_norm`` is 1 for the newest hit under ``latest`` and for the
  oldest under ``earliest``. Weight 0 keeps the relevance order, weight 1 is a date sort.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from api.core.fusion import min_max
from api.core.models import Hit
from api.core.scoring import rank

DateOrder = Literal["earliest", "latest"]
DATE_ORDERS: tuple[DateOrder, ...] = ("earliest", "latest")


def _check_kind(kind: str) -> None:
    if kind not in DATE_ORDERS:
        raise ValueError(f"kind must be one of {DATE_ORDERS}, got {kind!r}")


def _by_score(hit: Hit) -> tuple[float, float, int, int]:
    return (-hit.score.final_score, -hit.score.relevance, hit.registro, hit.passage.chunk.index)


def best_per_registro(hits: Sequence[Hit]) -> list[Hit]:
    """The best-scored chunk of each tesis (final score, then relevance, then chunk index)."""
    best: dict[int, Hit] = {}
    for hit in sorted(hits, key=_by_score):
        best.setdefault(hit.registro, hit)
    return list(best.values())


def sort_by_date(hits: Sequence[Hit], kind: DateOrder, by_registro: bool = False) -> list[Hit]:
    """One hit per tesis in date order (``passage.sort_date``; oldest first for earliest).

    Same-day ties go to the better final score, or with ``by_registro`` (a question with no
    topic: relevance says nothing) to the registro, in the date's direction as the store's date
    index lists them, so a larger page begins with the smaller one. ``rank`` is the date
    position 1..n and
    ``rank_without_recency`` the relevance order among the same hits; scores are unchanged,
    so do not pass the result through ``scoring.rank`` (it would re-sort by score).
    """
    _check_kind(kind)
    sign = 1 if kind == "earliest" else -1
    unique = best_per_registro(hits)

    def by_date(hit: Hit) -> tuple[int, float, float, int]:
        day = hit.passage.sort_date.toordinal()
        if by_registro:
            return (sign * day, 0.0, 0.0, sign * hit.registro)
        return (sign * day, -hit.score.final_score, -hit.score.relevance, hit.registro)

    by_relevance = sorted(unique, key=lambda h: (-h.score.relevance, h.registro))
    plain = {h.registro: i for i, h in enumerate(by_relevance, start=1)}
    return [
        h.ranked(i, plain[h.registro]) for i, h in enumerate(sorted(unique, key=by_date), start=1)
    ]


def temporal_blend(hits: Sequence[Hit], kind: DateOrder, weight: float) -> list[Hit]:
    """Re-score a semantic top-N by relevance and date, then rank.

    ``final_score`` becomes ``(1 - weight) x relevance_norm + weight x date_norm`` (in [0, 1]);
    the other breakdown fields are kept, so ``relevance`` still explains the semantic part
    and ``rank_without_recency`` the semantic order. Every chunk is kept (the references
    step collapses chunks per tesis).
    """
    _check_kind(kind)
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must be in [0, 1], got {weight}")
    relevance = min_max([h.score.relevance for h in hits])
    sign = 1.0 if kind == "latest" else -1.0  # the preferred end of the range scales to 1
    dates = min_max([sign * h.passage.sort_date.toordinal() for h in hits])
    blended = [
        dataclasses.replace(
            h,
            score=dataclasses.replace(h.score, final_score=(1 - weight) * r + weight * d),
        )
        for h, r, d in zip(hits, relevance, dates, strict=True)
    ]
    return rank(blended)

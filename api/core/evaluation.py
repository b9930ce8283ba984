"""Ranking metrics over whole tesis (pure). Rankings are lists of registros, best first."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

CLASSES: tuple[str, ...] = ("spanish", "english", "temporal", "cutoff", "abstain")
SPLITS: tuple[str, ...] = ("dev", "test")


@dataclass(frozen=True, slots=True)
class Judgement:
    """One labelled query: graded relevance (1-3) and the criteria in force, if known.

    ``current``: what should rank first: the criterion in force, or for an earliest/latest
    question the earliest/latest on-point tesis. ``classes``: spanish, english, temporal,
    cutoff, abstain (a question nothing in the corpus answers). ``split``: dev (tuning) or
    test (reporting only).
    """

    query: str
    relevant: Mapping[int, int]
    current: tuple[int, ...] = ()
    id: str = ""
    classes: tuple[str, ...] = ("spanish",)
    split: str = "dev"

    @property
    def abstain(self) -> bool:
        return "abstain" in self.classes


def ndcg(ranking: Sequence[int], relevant: Mapping[int, int], k: int) -> float:
    """Normalized DCG with exponential gains ``2^grade - 1``."""
    dcg = sum((2 ** relevant.get(r, 0) - 1) / math.log2(i + 2) for i, r in enumerate(ranking[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def reciprocal_rank(ranking: Sequence[int], relevant: Mapping[int, int]) -> float:
    for i, registro in enumerate(ranking, start=1):
        if relevant.get(registro, 0) > 0:
            return 1.0 / i
    return 0.0


def recall(ranking: Sequence[int], relevant: Mapping[int, int], k: int) -> float:
    wanted = {r for r, g in relevant.items() if g > 0}
    return len(wanted & set(ranking[:k])) / len(wanted) if wanted else 0.0


def vigencia(
    ranking: Sequence[int], judgement: Judgement, years: Mapping[int, int], k: int
) -> float | None:
    """Share of the relevant tesis in the top k that are in force; None without ``current``.

    In force: a current criterion, or a relevant tesis no older than the oldest current one
    (a newer tesis cannot have been replaced by an older criterion).
    """
    if not judgement.current:
        return None
    oldest_current = min(years.get(r, 0) for r in judgement.current)
    found = [r for r in ranking[:k] if judgement.relevant.get(r, 0) > 0]
    if not found:
        return 0.0
    in_force = [r for r in found if r in judgement.current or years.get(r, 0) >= oldest_current]
    return len(in_force) / len(found)


def current_at_1(ranking: Sequence[int], judgement: Judgement) -> float | None:
    if not judgement.current:
        return None
    return 1.0 if ranking and ranking[0] in judgement.current else 0.0


def share_before(ranking: Sequence[int], years: Mapping[int, int], year: int, k: int) -> float:
    top = ranking[:k]
    return sum(1 for r in top if years.get(r, 9999) < year) / len(top) if top else 0.0


def mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def abstention_scores(
    predicted: Sequence[bool], expected: Sequence[bool]
) -> tuple[float | None, float | None]:
    """Precision and recall of abstaining. With no question due an abstention, recall is None
    (not measured: "n/a", not 100 %), and so is precision unless it abstained anyway (0.0);
    otherwise precision is 1.0 when it never abstained (nothing said wrongly)."""
    both = sum(1 for p, e in zip(predicted, expected, strict=True) if p and e)
    said, due = sum(predicted), sum(expected)
    precision = both / said if said else (1.0 if due else None)
    return precision, both / due if due else None


def rubro_overlap(query_terms: set[str], rubro_terms: set[str]) -> float:
    """Share of a question's terms found in a rubro (how close it is to copying it)."""
    return len(query_terms & rubro_terms) / len(query_terms) if query_terms else 0.0

"""Fitting the recency weight and alpha per materia from labelled questions (pure).

Each grid point (weight, alpha) is scored on every dev question: current@1 (the criterion in
force ranked first) when the question names one, and nDCG@10 when it has graded tesis
(feedback questions only have the latter). A materia's best point maximizes mean current@1,
then mean nDCG; it replaces the defaults only when it raises that materia's dev current@1
(nDCG for materias only feedback measures) and the materia has at least ``min_questions``
dev questions.

Example::

    fitted = fit(groups, table, default=Point(0.5, 0.3), min_questions=3)
    fitted["Laboral"].point, fitted["Laboral"].dev_after
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Point:
    weight: float
    alpha: float

    def __str__(self) -> str:
        return f"w={self.weight:g} a={self.alpha:g}"


@dataclass(frozen=True, slots=True)
class QuestionScore:
    """One question under one point: current@1 (None: no criterion named) and nDCG."""

    current: float | None
    ndcg: float | None


Objective = tuple[float, float]


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def objective(scores: Sequence[QuestionScore]) -> Objective:
    """(mean current@1, mean nDCG), each -1 when no question measures it."""
    current = _mean([s.current for s in scores])
    ndcg = _mean([s.ndcg for s in scores])
    return (-1.0 if current is None else current, -1.0 if ndcg is None else ndcg)


@dataclass(frozen=True, slots=True)
class Fitted:
    """A materia's fit: its questions, the defaults' and the best point's dev objective."""

    materia: str
    questions: int
    point: Point
    dev_before: Objective
    dev_after: Objective

    @property
    def changed(self) -> bool:
        return self.dev_after > self.dev_before


def _improves(before: Objective, after: Objective) -> bool:
    """A better current@1; or, for questions with no criterion in force (feedback only), a
    better nDCG. An nDCG gain alone does not move a materia that current@1 measures: on the
    bundled set such moves did not carry over to the test split."""
    if before[0] >= 0:
        return after[0] > before[0]
    return after > before


def fit(
    groups: Mapping[str, Sequence[int]],
    table: Mapping[Point, Sequence[QuestionScore]],
    default: Point,
    min_questions: int = 3,
) -> dict[str, Fitted]:
    """The best point per materia (``groups``: question indices per materia).

    ``table[point][i]`` is question ``i`` under ``point``; ``default`` must be in ``table``.
    Ties go to the point nearest the default (then the smaller weight and alpha).
    """
    if default not in table:
        raise ValueError(f"the default point {default} is not in the grid")
    fitted = {}
    for materia, indices in sorted(groups.items()):
        before = objective([table[default][i] for i in indices])
        if len(indices) < min_questions:
            fitted[materia] = Fitted(materia, len(indices), default, before, before)
            continue

        def key(p: Point, rows: Sequence[int] = indices) -> tuple[Objective, float, float, float]:
            distance = abs(p.weight - default.weight) + abs(p.alpha - default.alpha)
            return (objective([table[p][i] for i in rows]), -distance, -p.weight, -p.alpha)

        best = max(table, key=key)
        after = objective([table[best][i] for i in indices])
        if not _improves(before, after):
            best, after = default, before
        fitted[materia] = Fitted(materia, len(indices), best, before, after)
    return fitted

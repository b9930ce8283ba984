"""What an answer cited, for comparing answers with and without recency (seed 000's A/B).

Example::

    side = cited_summary(answer.references, answer.citation_check.valid)
    side.registros, side.in_force, side.oldest_year, side.newest_year, side.superseded_cited
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from api.core.references import Reference


@dataclass(frozen=True, slots=True)
class CitedSummary:
    """The references an answer cites: how many stand, their year span, any superseded."""

    cited: tuple[Reference, ...]

    @property
    def registros(self) -> tuple[int, ...]:
        return tuple(ref.registro for ref in self.cited)

    @property
    def in_force(self) -> int:
        """Cited references whose criterion still stands (no note takes its force away)."""
        return sum(not ref.superseded for ref in self.cited)

    @property
    def oldest_year(self) -> int | None:
        return min((ref.anio for ref in self.cited), default=None)

    @property
    def newest_year(self) -> int | None:
        return max((ref.anio for ref in self.cited), default=None)

    @property
    def superseded_cited(self) -> bool:
        return any(ref.superseded for ref in self.cited)


def cited_summary(refs: Sequence[Reference], valid: Sequence[int]) -> CitedSummary:
    """The references among ``refs`` whose numbers are in ``valid`` (in reference order)."""
    wanted = set(valid)
    return CitedSummary(tuple(ref for ref in refs if ref.number in wanted))

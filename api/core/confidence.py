"""How far to trust a first answer ranked by relevance: a reader's "compare the references".

Two readings of a search say it: how far the first tesis leads every other candidate in
relevance (two close ones mean the ranking could as well have gone the other way), and how far
the best passage is over the abstention floor (just over it, or under it when a rubro's or the
glossary's words let the question through, perhaps nothing answers it and the nearest branch
of law was found instead). Measured on the dev halves (the main set's and blind sets 2 to 7's:
160 questions answered by relevance, 149 of them answerable): a first tesis leading by at least
``LEAD`` with a passage at least ``FLOOR_MARGIN`` over the floor was the expected one 70 times
in 77 (91 %), and 2 of the 11 answered off-corpus questions were high; the other answerable
ones were right 45 times in 72 (62 %). Calibrated on the configured ranking only: a date
order's first hit is chosen by date, a lookup's by the asker, and the seed profile, a single
retriever, the blend, the gate turned off and a generic corpus's records were not measured;
none of them gets one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from api.core.models import Hit

LEAD = 0.15  # of the fused relevance (0-1): dev's right share 91-95 % at 0.15-0.25
FLOOR_MARGIN = 0.01  # of cosine over the abstention floor: where most off-corpus answers fell

ConfidenceLevel = Literal["high", "low"]

CLOSE_RACE = (
    "La primera tesis no aventaja con claridad a otra en relevancia ({lead:+.2f}): compare las "
    "referencias antes de fiarse del orden."
)
NEAR_FLOOR = (
    "El pasaje más parecido apenas supera el umbral de abstención ({margin:+.3f}): puede que "
    "ninguna referencia responda de lleno a la pregunta."
)
UNDER_FLOOR = (
    "El pasaje más parecido queda por debajo del umbral de abstención ({margin:+.3f}); se "
    "respondió porque las palabras de la pregunta están en un rubro o en el glosario: "
    "compruebe que las referencias respondan a la pregunta."
)


@dataclass(frozen=True, slots=True)
class Confidence:
    """``lead``: the first tesis' relevance less the best other tesis' (the first's own when
    alone); ``floor_margin``: the best passage's cosine less the abstention floor (None when no
    floor was measured); ``reasons``: why it is low, for the reader."""

    level: ConfidenceLevel
    lead: float
    floor_margin: float | None
    reasons: tuple[str, ...] = ()

    @property
    def close_race(self) -> bool:
        """The first tesis does not clearly lead another."""
        return self.lead < LEAD

    @property
    def near_floor(self) -> bool:
        """The best passage is just over, or under, the abstention floor."""
        return self.floor_margin is not None and self.floor_margin < FLOOR_MARGIN

    @property
    def note(self) -> str | None:
        """One sentence for an answer's warnings when the confidence is low."""
        return f"Confianza baja: {' '.join(self.reasons)}" if self.reasons else None


def answer_confidence(first: Hit, others: Sequence[Hit], floor_margin: float | None) -> Confidence:
    """The confidence in ``first``, the first hit shown, against ``others``: every other
    candidate the search ranked and did not set aside (its page's rest and beyond), so that
    asking for one hit or for twenty says the same."""
    rivals = [h.score.relevance for h in others if h.registro != first.registro]
    measured = Confidence("high", first.score.relevance - max(rivals, default=0.0), floor_margin)
    reasons = []
    if measured.close_race:
        reasons.append(CLOSE_RACE.format(lead=measured.lead))
    if measured.near_floor and floor_margin is not None:
        said = NEAR_FLOOR if floor_margin >= 0.0 else UNDER_FLOOR
        reasons.append(said.format(margin=floor_margin))
    if not reasons:
        return measured
    return Confidence("low", measured.lead, floor_margin, tuple(reasons))

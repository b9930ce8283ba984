"""How far to trust a first answer ranked by relevance: a reader's "compare the references".

Two readings of a search say it: how far the first tesis leads the second in relevance (two
close ones mean the ranking could as well have gone the other way), and how far the best
passage clears the abstention floor (just over it, perhaps nothing answers the question and
the nearest branch of law was found instead). Measured on the dev halves (the main set's and
blind sets 2 to 6's, 160 questions answered by relevance): a first tesis leading by at least
``LEAD`` with a passage at least ``FLOOR_MARGIN`` over the floor was the expected one 69 times
in 75 (92 %), and 2 of the 11 answered off-corpus questions were among them; the others were
right 46 times in 74 (62 %), with the other 9 off-corpus ones. A date order's first hit is
chosen by date, and a lookup's by the asker: neither gets a confidence; nor does a ranking
under the seed profile (a raw cosine) or a single retriever, which were not measured.
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
    "La primera tesis apenas aventaja a la siguiente en relevancia ({lead:.2f}): compare las "
    "referencias antes de fiarse del orden."
)
NEAR_FLOOR = (
    "El pasaje más parecido queda cerca del umbral de abstención ({margin:+.3f}): puede que "
    "ninguna tesis responda de lleno a la pregunta."
)


@dataclass(frozen=True, slots=True)
class Confidence:
    """``lead``: the first tesis' relevance less the second's (the first's own when alone);
    ``floor_margin``: the best passage's cosine less the abstention floor (None without a
    floor: the gate off, or no floor measured); ``reasons``: why it is low, for the reader."""

    level: ConfidenceLevel
    lead: float
    floor_margin: float | None
    reasons: tuple[str, ...] = ()

    @property
    def note(self) -> str | None:
        """One sentence for an answer's warnings when the confidence is low."""
        return f"Confianza baja: {' '.join(self.reasons)}" if self.reasons else None


def answer_confidence(hits: Sequence[Hit], floor_margin: float | None) -> Confidence | None:
    """The confidence of a relevance-ranked page (``hits`` in rank order, several passages of
    a tesis allowed); None for an empty page."""
    firsts: list[Hit] = []
    for hit in hits:
        if all(hit.registro != seen.registro for seen in firsts):
            firsts.append(hit)
        if len(firsts) == 2:
            break
    if not firsts:
        return None
    lead = firsts[0].score.relevance - (firsts[1].score.relevance if len(firsts) > 1 else 0.0)
    reasons = []
    if lead < LEAD:
        reasons.append(CLOSE_RACE.format(lead=lead))
    if floor_margin is not None and floor_margin < FLOOR_MARGIN:
        reasons.append(NEAR_FLOOR.format(margin=floor_margin))
    return Confidence("low" if reasons else "high", lead, floor_margin, tuple(reasons))

"""How far to trust a first answer ranked by relevance (``api.core.confidence``)."""

from __future__ import annotations

import pytest

from api.core.confidence import FLOOR_MARGIN, LEAD, answer_confidence
from tests.fakes import make_hit


def test_a_clear_lead_well_over_the_floor_is_high() -> None:
    first, second = make_hit(1, similarity=0.9), make_hit(2, similarity=0.7)
    confidence = answer_confidence(first, [first, second], floor_margin=0.03)
    assert confidence.level == "high" and confidence.reasons == () and confidence.note is None
    assert confidence.lead == pytest.approx(0.2)


@pytest.mark.parametrize(
    ("lead", "margin", "level"),
    [
        (LEAD, FLOOR_MARGIN, "high"),  # at both thresholds
        (LEAD - 0.001, FLOOR_MARGIN, "low"),
        (LEAD, FLOOR_MARGIN - 0.001, "low"),
    ],
)
def test_the_thresholds_are_inclusive(lead: float, margin: float, level: str) -> None:
    first, second = make_hit(1, similarity=0.5 + lead), make_hit(2, similarity=0.5)
    assert answer_confidence(first, [second], floor_margin=margin).level == level


def test_a_close_race_is_low_and_says_to_compare_the_references() -> None:
    first, second = make_hit(1, similarity=0.9), make_hit(2, similarity=0.9 - LEAD / 2)
    confidence = answer_confidence(first, [first, second], floor_margin=0.03)
    assert confidence.level == "low" and len(confidence.reasons) == 1
    assert "compare las referencias" in confidence.reasons[0]
    assert confidence.note is not None and confidence.note.startswith("Confianza baja:")


def test_the_lead_is_over_the_best_other_tesis_wherever_it_ranks() -> None:
    """Recency may put a less relevant tesis first: its lead is then negative, and low."""
    first = make_hit(1, similarity=0.7)
    others = [
        make_hit(1, 1, similarity=0.69),
        make_hit(2, similarity=0.5),
        make_hit(3, similarity=0.8),
    ]
    confidence = answer_confidence(first, others, floor_margin=0.03)
    assert confidence.lead == pytest.approx(-0.1) and confidence.level == "low"
    assert "(-0.10)" in confidence.reasons[0]
    alone = answer_confidence(first, [first, make_hit(1, 1, similarity=0.6)], floor_margin=0.03)
    assert alone.lead == pytest.approx(0.7) and alone.level == "high"  # no other tesis


def test_a_best_passage_near_or_under_the_floor_is_low_whatever_the_lead() -> None:
    first, second = make_hit(1, similarity=0.9), make_hit(2, similarity=0.5)
    near = answer_confidence(first, [second], floor_margin=FLOOR_MARGIN / 2)
    under = answer_confidence(first, [second], floor_margin=-0.004)  # a rubro's words let it in
    assert near.level == under.level == "low"
    assert "apenas supera el umbral de abstención (+0.005)" in near.reasons[0]
    assert "por debajo del umbral de abstención (-0.004)" in under.reasons[0]
    unmeasured = answer_confidence(first, [second], floor_margin=None)  # only the lead counts
    assert unmeasured.level == "high"

"""How far to trust a first answer ranked by relevance (``api.core.confidence``)."""

from __future__ import annotations

import pytest

from api.core.confidence import FLOOR_MARGIN, LEAD, answer_confidence
from tests.fakes import make_hit


def test_a_clear_lead_well_over_the_floor_is_high() -> None:
    hits = [make_hit(1, similarity=0.9), make_hit(2, similarity=0.7)]
    confidence = answer_confidence(hits, floor_margin=0.03)
    assert confidence is not None
    assert confidence.level == "high" and confidence.reasons == () and confidence.note is None
    assert confidence.lead == pytest.approx(0.2)


def test_a_close_race_is_low_and_says_to_compare_the_references() -> None:
    hits = [make_hit(1, similarity=0.9), make_hit(2, similarity=0.9 - LEAD / 2)]
    confidence = answer_confidence(hits, floor_margin=0.03)
    assert confidence is not None and confidence.level == "low"
    assert len(confidence.reasons) == 1 and "compare las referencias" in confidence.reasons[0]
    assert confidence.note is not None and confidence.note.startswith("Confianza baja:")


def test_a_best_passage_near_the_floor_is_low_whatever_the_lead() -> None:
    hits = [make_hit(1, similarity=0.9), make_hit(2, similarity=0.5)]
    near = answer_confidence(hits, floor_margin=FLOOR_MARGIN / 2)
    below = answer_confidence(hits, floor_margin=-0.004)  # answered below it (a rubro's words)
    assert near is not None and below is not None
    assert near.level == below.level == "low"
    assert "umbral de abstención (-0.004)" in below.reasons[0]
    unmeasured = answer_confidence(hits, floor_margin=None)  # no floor: only the lead counts
    assert unmeasured is not None and unmeasured.level == "high"


def test_the_lead_is_over_the_next_tesis_not_the_first_one_s_other_passage() -> None:
    hits = [
        make_hit(1, 0, similarity=0.9),
        make_hit(1, 1, similarity=0.89),  # the same tesis again
        make_hit(2, similarity=0.6),
    ]
    confidence = answer_confidence(hits, floor_margin=0.02)
    assert confidence is not None and confidence.lead == pytest.approx(0.3)
    alone = answer_confidence(hits[:2], floor_margin=0.02)
    assert alone is not None and alone.lead == pytest.approx(0.9) and alone.level == "high"
    assert answer_confidence([], floor_margin=0.02) is None

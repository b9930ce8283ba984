"""The date sentence embedded with a generic record reads as English for any date field (a
tester's `--date-field published` gave 'Published dated on 2019-11-12 (published dated in
November 2019).')."""

from __future__ import annotations

from datetime import date

import pytest

from api.core.record_text import date_sentence

DAY = date(2019, 11, 12)


@pytest.mark.parametrize(
    ("role", "sentence"),
    [
        ("created", "Created on 2019-11-12 (created in November 2019)."),
        ("pushed", "Pushed on 2019-11-12 (pushed in November 2019)."),
        ("published", "Published on 2019-11-12 (published in November 2019)."),
        ("published_at", "Published on 2019-11-12 (published in November 2019)."),
        ("fecha", "Dated 2019-11-12 (dated November 2019)."),
        ("date", "Dated 2019-11-12 (dated November 2019)."),
    ],
)
def test_date_sentence(role: str, sentence: str) -> None:
    assert date_sentence(DAY, role) == sentence

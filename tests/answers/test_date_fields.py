"""Issue 13, item 13: which date a question refers to (pure)."""

from __future__ import annotations

import pytest

from api.core.date_fields import DateField, detect_date_field, infer_role

PUSHED_AS_UPDATED = (DateField.parse("pushed_at:updated"),)
BOTH = (DateField.parse("pushed_at"), DateField.parse("updated_at"))


@pytest.mark.parametrize(
    ("question", "ordering", "expected"),
    [
        ("Which repository had the latest update?", "latest", "pushed_at"),
        ("most recently pushed repository", "latest", "pushed_at"),
        ("What was the last commit?", "latest", "pushed_at"),
        ("the most recently updated project", "latest", "pushed_at"),
        ("¿cuál fue el repositorio actualizado más recientemente?", "latest", "pushed_at"),
        ("Which repo has the earliest commit?", "earliest", None),  # creation: the primary
        ("What was the first repository?", "earliest", None),
        ("latest project", "latest", None),
        ("What is the repo he hasn't touched in the longest time?", "earliest", "pushed_at"),
        ("el proyecto que lleva más tiempo sin cambios", "earliest", "pushed_at"),
        ("earliest created repository", "earliest", None),
    ],
)
def test_question_picks_the_matching_date(question: str, ordering: str, expected: str) -> None:
    assert detect_date_field(question, PUSHED_AS_UPDATED, ordering) == expected  # type: ignore[arg-type]


def test_pushed_and_updated_are_told_apart_when_both_exist() -> None:
    assert detect_date_field("most recently pushed", BOTH, "latest") == "pushed_at"
    assert detect_date_field("latest update", BOTH, "latest") == "updated_at"


def test_roles_from_names_and_specs() -> None:
    assert DateField.parse("pushed_at:updated") == DateField("pushed_at", "updated")
    assert infer_role("created_at") == "created" and infer_role("modified") == "updated"
    assert DateField.parse("released") == DateField("released", "released")
    with pytest.raises(ValueError):
        DateField.parse(":updated")


def test_no_extra_fields_means_primary() -> None:
    assert detect_date_field("latest update", (), "latest") is None

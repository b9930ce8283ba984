"""The sentences ingest writes into a generic record's text, and how to tell them (pure).

A generic record's embedded and indexed text carries its date ("Created on 2024-01-17
(created in January 2024).") and its short labels ("Language: Python.") beside its own words,
so vector and lexical search see them; an answer never quotes them as the record's words.
Writer and reader live here together, so the two cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_DATE_SENTENCE = re.compile(r"^[A-Z][a-z]+(?: on)? (\d{4}-\d{2}-\d{2}) \([^)]*\)\.$")


def date_sentence(day: date, role: str) -> str:
    """'Created on 2024-01-17 (created in January 2024).'; a role read as a past participle
    ('published', 'published_at') says it the same way, any other ('fecha') 'Dated 2019-11-12
    (dated November 2019).'"""
    month = f"{MONTHS[day.month - 1]} {day.year}"
    verb = re.sub(r"[_\s-]*(?:at|on|date)$", "", role.lower())
    if re.fullmatch(r"[a-z]+ed", verb):
        return f"{verb.capitalize()} on {day.isoformat()} ({verb} in {month})."
    return f"Dated {day.isoformat()} (dated {month})."


def label(key: str, value: object) -> str:
    """One field as a label sentence: ("language", "Python") -> "Language: Python."."""
    return f"{key.replace('_', ' ').capitalize()}: {value}."


def written_by_ingest(
    sentence: str, day: date | None, fields: Iterable[tuple[str, object]]
) -> bool:
    """Whether ``sentence`` is one ingest wrote for a record of date ``day`` and scalar
    ``fields``: its date sentence or one of its labels (told by the record's own values, so
    a record's "Breaking: Earthquake hits Oaxaca." stays its own)."""
    dated = _DATE_SENTENCE.match(sentence)
    if dated is not None:
        return day is not None and dated.group(1) == day.isoformat()
    return sentence in {label(key, value) for key, value in fields}

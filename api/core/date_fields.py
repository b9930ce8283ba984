"""Which date of a record a question refers to, when records carry several.

A generic corpus may keep, beside its primary date (``--date-field created_at``), other dates
(``--date-field pushed_at:updated``): each has a name and a role (``created``, ``updated``,
``pushed``; inferred from the name when not given). "latest update" and "most recently
updated" use the ``updated`` date, "most recently pushed" the ``pushed`` one (``updated`` and
``pushed`` stand in for each other), "earliest commit" the creation date and "latest commit"
the last push; a question with no such cue, like plain "first" or "latest", uses the primary
date (None).

Example::

    fields = (DateField.parse("pushed_at:updated"),)
    detect_date_field("Which repository had the latest update?", fields, "latest")
    # 'pushed_at'
    detect_date_field("What was the first repository?", fields, "earliest")  # None
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from api.core.models import Hit
from api.core.temporal import sort_by_date
from api.core.text import fold

Ordering = Literal["earliest", "latest"]
ROLES = ("created", "updated", "pushed")
# Roles that answer for each other when the corpus has only one of them.
_STAND_INS = {"updated": ("updated", "pushed"), "pushed": ("pushed", "updated")}

_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("pushed", re.compile(r"\bpush")),
    (
        "updated",
        re.compile(
            r"\bupdat|\bmodifi|\bactualiz|\bchanged\b|\bmaintain|\bactiv|\btouch|"
            r"\bsin (?:cambios|tocar)"
        ),
    ),
    ("commit", re.compile(r"\bcommit")),
    ("created", re.compile(r"\bcreat|\bcread|\bcreacion|\bstarted\b|\bfounded\b")),
)


@dataclass(frozen=True, slots=True)
class DateField:
    """A date field of the records: its name in the data and its role."""

    name: str
    role: str

    @classmethod
    def parse(cls, spec: str) -> DateField:
        """'pushed_at:updated' -> (pushed_at, updated); 'created_at' -> (created_at, created)."""
        name, _, role = spec.partition(":")
        name = name.strip()
        if not name:
            raise ValueError(f"empty date field name in {spec!r}")
        return cls(name, role.strip().lower() or infer_role(name))


def infer_role(name: str) -> str:
    """The role a field's name suggests ('pushed_at' -> 'pushed'); the name itself otherwise."""
    folded = name.lower()
    for role, stem in (
        ("created", "creat"),
        ("pushed", "push"),
        ("updated", "updat"),
        ("updated", "modif"),
    ):
        if stem in folded:
            return role
    return folded


def question_role(question: str, ordering: Ordering | None) -> str | None:
    """The role of the date a question is about, or None for the primary date."""
    text = fold(question)
    for role, pattern in _CUES:
        if pattern.search(text):
            if role == "commit":  # first commit = creation; last commit = last push
                return "created" if ordering == "earliest" else "pushed"
            return role
    return None


def detect_date_field(
    question: str, fields: Sequence[DateField], ordering: Ordering | None = None
) -> str | None:
    """The name of the non-primary date field ``question`` refers to, or None (primary).

    ``fields`` are the records' extra date fields (not the primary one). A cue with no
    matching field (e.g. "created" when creation is the primary date) gives None.
    """
    role = question_role(question, ordering)
    if role is None:
        return None
    for wanted in _STAND_INS.get(role, (role,)):
        for field in fields:
            if field.role == wanted:
                return field.name
    return None


def sort_by_field(
    hits: Sequence[Hit], dates: Mapping[int, date | None], kind: Ordering, by_registro: bool = False
) -> list[Hit]:
    """``temporal.sort_by_date`` by another date of each record (``dates`` by registro);
    records without that date come last. Hits keep their own passages."""
    missing = date.max if kind == "earliest" else date.min
    originals = {(h.registro, h.passage.chunk.index): h.passage for h in hits}
    swapped = [
        replace(h, passage=replace(h.passage, fecha=dates.get(h.registro) or missing)) for h in hits
    ]
    return [
        replace(h, passage=originals[(h.registro, h.passage.chunk.index)])
        for h in sort_by_date(swapped, kind, by_registro)
    ]

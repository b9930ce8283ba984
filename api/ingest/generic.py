"""Any dated corpus (e.g. repositories with ``created_at``) mapped onto the same records.

A generic document has no época, materia or tipo: scoring then uses only the date (época
factor 1), no reform cutoff applies, and timelines and temporal questions work unchanged.

The first date field is the primary date (``fecha``); more (``pushed_at:updated``: name and
role, see ``api.core.date_fields``) are kept in ``Tesis.dates`` for questions such as "latest
update". Every other scalar field of the record (description, url, language, stars, ...) is
kept in ``Tesis.extra``. The primary date is written into the text that is embedded and
indexed ("Created on 2024-01-17 (created in January 2024).") so vector and lexical search see
it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from api.core.date_fields import DateField
from api.core.models import Rejection, Tesis
from api.ingest.records import MIN_YEAR, Parsed


@dataclass(frozen=True, slots=True)
class GenericFields:
    """Which field of a raw record plays each part."""

    id: str = "id"
    title: str = "name"
    text: str = "description"
    date: str = "created_at"
    extra_dates: tuple[str, ...] = ()  # more date fields: "name" or "name:role"

    @classmethod
    def of(cls, id: str, title: str, text: str, dates: list[str] | str) -> GenericFields:
        """From the CLI: the first of ``dates`` is the primary one."""
        specs = [dates] if isinstance(dates, str) else list(dates) or ["created_at"]
        return cls(id, title, text, specs[0], tuple(specs[1:]))

    @property
    def primary(self) -> DateField:
        return DateField.parse(self.date)

    @property
    def others(self) -> tuple[DateField, ...]:
        return tuple(DateField.parse(spec) for spec in self.extra_dates)


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
MAX_EXTRA_CHARS = 500  # longer string fields are not kept as extras


def date_sentence(day: date, role: str) -> str:
    """'Created on 2024-01-17 (created in January 2024).'; a role read as a past participle
    ('published', 'published_at') says it the same way, any other ('fecha') 'Dated 2019-11-12
    (dated November 2019).'"""
    month = f"{MONTHS[day.month - 1]} {day.year}"
    verb = re.sub(r"[_\s-]*(?:at|on|date)$", "", role.lower())
    if re.fullmatch(r"[a-z]+ed", verb):
        return f"{verb.capitalize()} on {day.isoformat()} ({verb} in {month})."
    return f"Dated {day.isoformat()} (dated {month})."


def _parse_date(value: object) -> date:
    text = str(value).strip()
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).date()
    except ValueError:
        return date.fromisoformat(text[:10])


def parse_generic(
    raw: dict[str, Any], source: str, line: int, today: date, fields: GenericFields
) -> Parsed | Rejection:
    label = str(raw.get(fields.id)) if raw.get(fields.id) not in (None, "") else None

    def reject(field: str, reason: str) -> Rejection:
        return Rejection(source, line, label, field, reason)

    if label is None or not re.fullmatch(r"\d{1,12}", label):
        return reject(fields.id, f"not a positive integer id: {raw.get(fields.id)!r}")
    title = str(raw.get(fields.title) or "").strip()
    if not title:
        return reject(fields.title, "missing or empty")
    primary = fields.primary
    if raw.get(primary.name) in (None, ""):
        return reject(primary.name, "missing")
    try:
        day = _parse_date(raw[primary.name])
    except ValueError:
        return reject(primary.name, f"not an ISO date: {raw[primary.name]!r}")
    if not MIN_YEAR <= day.year <= today.year + 1:
        return reject(primary.name, f"{day.year} is outside {MIN_YEAR}..{today.year + 1}")
    dates: list[tuple[str, date]] = []
    for other in fields.others:
        try:
            dates.append((other.name, _parse_date(raw[other.name])))
        except (KeyError, ValueError, TypeError):
            continue  # a missing or bad secondary date only leaves that date out
    text = str(raw.get(fields.text) or "").strip() or title
    used = {fields.id, fields.title, primary.name, *(f.name for f in fields.others)}
    extra = tuple(
        (key, value.strip() if isinstance(value, str) else value)
        for key, value in raw.items()
        if key not in used and _scalar(value)
    )
    tesis = Tesis(
        registro=int(label),
        rubro=title,
        texto=f"{text}\n\n{date_sentence(day, primary.role)}",
        epoca="",
        anio=day.year,
        tipo="Aislada",
        fecha=day,
        dates=tuple(dates),
        date_roles=tuple((f.name, f.role) for f in fields.others),
        extra=extra,
    )
    return Parsed(tesis, ())


def _scalar(value: object) -> bool:
    if isinstance(value, bool | int | float):
        return True
    return isinstance(value, str) and 0 < len(value.strip()) <= MAX_EXTRA_CHARS

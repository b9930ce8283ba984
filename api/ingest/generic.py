"""Any dated corpus (e.g. repositories with ``created_at``) mapped onto the same records.

A generic document has no época, materia or tipo: scoring then uses only the date (época
factor 1), no reform cutoff applies, and timelines and temporal questions work unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from api.core.models import Rejection, Tesis
from api.ingest.records import MIN_YEAR, Parsed


@dataclass(frozen=True, slots=True)
class GenericFields:
    """Which field of a raw record plays each part."""

    id: str = "id"
    title: str = "name"
    text: str = "description"
    date: str = "created_at"


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
    if raw.get(fields.date) in (None, ""):
        return reject(fields.date, "missing")
    try:
        day = _parse_date(raw[fields.date])
    except ValueError:
        return reject(fields.date, f"not an ISO date: {raw[fields.date]!r}")
    if not MIN_YEAR <= day.year <= today.year + 1:
        return reject(fields.date, f"{day.year} is outside {MIN_YEAR}..{today.year + 1}")
    text = str(raw.get(fields.text) or "").strip() or title
    tesis = Tesis(
        registro=int(label), rubro=title, texto=text, epoca="", anio=day.year,
        tipo="Aislada", fecha=day,
    )  # fmt: skip
    return Parsed(tesis, ())

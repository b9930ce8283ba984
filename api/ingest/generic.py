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
from api.core.models import IngestWarning, Rejection, Tesis
from api.core.record_text import date_sentence, label
from api.errors import InvalidField
from api.ingest.records import MAX_TEXT_CHARS, MIN_YEAR, Parsed, text_field


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


MAX_EXTRA_CHARS = 500  # longer string fields are not kept as extras


def _parse_date(value: object) -> date:
    """An ISO date or date-time (``Z`` or an offset allowed); anything after it is refused."""
    if not isinstance(value, str):
        raise ValueError(f"not an ISO date: {value!r}")
    return datetime.fromisoformat(value.strip().replace("Z", "+00:00")).date()


def _date(raw: dict[str, Any], name: str, today: date) -> date:
    """The date in field ``name``; InvalidField when missing, not ISO or out of range."""
    value = raw.get(name)
    if value in (None, ""):
        raise InvalidField(name, "missing")
    try:
        day = _parse_date(value)
    except ValueError:
        raise InvalidField(name, f"not an ISO date: {value!r}") from None
    if not MIN_YEAR <= day.year <= today.year + 1:
        raise InvalidField(name, f"{day.year} is outside {MIN_YEAR}..{today.year + 1}")
    return day


def parse_generic(
    raw: dict[str, Any], source: str, line: int, today: date, fields: GenericFields
) -> Parsed | Rejection:
    """Validate one generic record. A bad secondary date leaves that date out with a warning
    (the record itself is good); a missing one is simply absent."""
    value = raw.get(fields.id)
    label = None if value in (None, "") else str(value)
    try:
        if isinstance(value, bool) or label is None or not re.fullmatch(r"\d{1,12}", label):
            raise InvalidField(
                fields.id,
                f"not a positive integer id: {value!r} (generic ids must be whole numbers "
                "of up to 12 digits, not slugs or UUIDs)",
            )
        registro = int(label)
        if registro <= 0:
            raise InvalidField(fields.id, f"not a positive integer id: {value!r}")
        title = text_field(raw, fields.title, MAX_TEXT_CHARS["rubro"])
        if not title:
            raise InvalidField(fields.title, "missing or empty")
        primary = fields.primary
        day = _date(raw, primary.name, today)
        text = text_field(raw, fields.text, MAX_TEXT_CHARS["texto"]) or title
    except InvalidField as err:
        return Rejection(source, line, label, err.field, err.reason)
    dates: list[tuple[str, date]] = []
    warnings: list[IngestWarning] = []
    for other in fields.others:
        if raw.get(other.name) in (None, ""):
            continue
        try:
            dates.append((other.name, _date(raw, other.name, today)))
        except InvalidField as err:
            reason = f"{err.reason}; left out"
            warnings.append(IngestWarning(source, line, registro, err.field, reason))
    used = {fields.id, fields.title, primary.name, *(f.name for f in fields.others)}
    extra = tuple(
        (key, value.strip() if isinstance(value, str) else value)
        for key, value in raw.items()
        if key not in used and _scalar(value)
    )
    tesis = Tesis(
        registro=registro,
        rubro=title,
        texto="\n\n".join(
            p for p in (labels(extra, fields.text), text, date_sentence(day, primary.role)) if p
        ),
        epoca="",
        anio=day.year,
        tipo="Aislada",
        fecha=day,
        dates=tuple(dates),
        date_roles=tuple((f.name, f.role) for f in fields.others),
        extra=extra,
    )
    return Parsed(tesis, tuple(warnings))


def labels(extra: tuple[tuple[str, Any], ...], text_key: str) -> str:
    """The record's short labels as a sentence ("Language: Python. Owner: jakub."), written
    into the text that is embedded and indexed, before its own (a date order reads a
    document's opening words to tell its topic): "the first Python project"
    names a language that only the ``language`` field says (a word in fewer than three texts
    reads as a name, the owner's, and leaves the topic). Not URLs, slugs, ids, numbers or
    true/false (a CSV's cells are all strings), nor long values."""
    return " ".join(
        label(key, value)
        for key, value in extra
        if key != text_key and isinstance(value, str) and _label(key, value)
    )


LABEL_CHARS = 40  # a language, a section, an author; longer values are prose, not labels
_NOT_A_LABEL = re.compile(
    r"[-+]?\d+(?:[.,]\d+)?|true|false|yes|no|null|none|(?=\S*\d)[A-Za-z0-9+/=_-]{20,}",
    re.IGNORECASE,
)  # a number, a flag, an opaque token ("MDEwOlJlcG9zaXRvcnk...")


def _label(key: str, value: str) -> bool:
    if len(value) > LABEL_CHARS or "://" in value or _NOT_A_LABEL.fullmatch(value.strip()):
        return False
    lowered = key.lower()
    if (
        lowered == "id"
        or lowered.endswith("_id")
        or lowered.startswith("id_")
        or key.endswith("Id")
    ):
        return False
    return " " in value or not re.search(r"[-_/.@]", value)  # "py-ml-notebooks" is a slug


def _scalar(value: object) -> bool:
    if isinstance(value, bool | int | float):
        return True
    return isinstance(value, str) and 0 < len(value.strip()) <= MAX_EXTRA_CHARS

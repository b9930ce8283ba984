"""``LogEntry`` to a JSON-able dict and back (what every log backend stores)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from datetime import datetime
from typing import Any

from api.core.monitoring.records import Feedback, LogEntry, LoggedDiscard, LoggedHit


def entry_to_dict(entry: LogEntry) -> dict[str, Any]:
    """A JSON-able dict of everything but ``feedback`` (which is stored on its own)."""
    data: dict[str, Any] = {
        f.name: getattr(entry, f.name)
        for f in fields(entry)
        if f.name not in ("feedback", "hits", "discarded")
    }
    data["timestamp"] = entry.timestamp.isoformat()
    data["parameters"] = dict(entry.parameters)
    data["cited"] = list(entry.cited)
    data["hits"] = [_record_dict(h) for h in entry.hits]
    data["discarded"] = [_record_dict(d) for d in entry.discarded]
    return data


def entry_from_dict(data: Mapping[str, Any], feedback: Sequence[Feedback] = ()) -> LogEntry:
    """The inverse of ``entry_to_dict``; unknown keys are ignored. Raises on missing fields."""
    values = _known(LogEntry, data)
    values["timestamp"] = datetime.fromisoformat(str(data["timestamp"]))
    values["parameters"] = dict(data.get("parameters") or {})
    values["cited"] = tuple(int(r) for r in data.get("cited") or ())
    values["hits"] = tuple(
        LoggedHit(**{**_known(LoggedHit, h), "materias": tuple(h.get("materias") or ())})
        for h in data.get("hits") or ()
    )
    values["discarded"] = tuple(
        LoggedDiscard(**_known(LoggedDiscard, d)) for d in data.get("discarded") or ()
    )
    values["feedback"] = tuple(feedback)
    return LogEntry(**values)


def _record_dict(record: LoggedHit | LoggedDiscard) -> dict[str, Any]:
    data = {f.name: getattr(record, f.name) for f in fields(record)}
    if isinstance(record, LoggedHit):
        data["materias"] = list(record.materias)
    return data


def _known(cls: type[Any], raw: Mapping[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in raw.items() if k in names}

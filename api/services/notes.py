"""Import SJF validity notes into the store (``vigencia import-notes``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from api.core.validity import parse_notes
from api.store.base import VectorStore


@dataclass(frozen=True, slots=True)
class NotesReport:
    """``rejected``: notes left out; ``warnings``: notes imported without a bad field."""

    imported: int
    in_corpus: int  # notes about tesis already stored
    unknown: int  # notes about registros not (yet) stored: kept, counted, not fatal
    rejected: tuple[str, ...]
    warnings: tuple[str, ...] = ()


# How ``parse_notes`` ends the line of a note it kept without a bad field.
_KEPT = ("; note kept without it", "; note kept as false")


def import_notes(path: Path, store: VectorStore) -> NotesReport:
    try:
        # utf-8-sig: a byte-order mark (as ``ingest`` accepts) is not part of the document
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path.name}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path.name}: not valid UTF-8 at byte {exc.start}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("tesis"), dict):
        raise ValueError(f'{path.name}: expected {{"tesis": {{registro: note}}}}')
    parsed = parse_notes(data)
    store.upsert_validity(parsed.notes)
    known = len(store.get_tesis(list(parsed.notes)))
    return NotesReport(
        imported=len(parsed.notes),
        in_corpus=known,
        unknown=len(parsed.notes) - known,
        rejected=tuple(p for p in parsed.rejected if not p.endswith(_KEPT)),
        warnings=tuple(p for p in parsed.rejected if p.endswith(_KEPT)),
    )

"""Read raw records from the two source formats: bj.scjn.gob.mx CSV exports and JSONL."""

from __future__ import annotations

import csv
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from api.core.models import Rejection

RawRecord = tuple[int, dict[str, Any]]

csv.field_size_limit(sys.maxsize)
# A quoted field longer than either is a quote left open (see ``runaway_reason``).
MAX_FIELD_LINES = 200
MAX_FIELD_CHARS = 200_000
# Bytes that are not UTF-8 decode (errors="surrogateescape") to these; valid text never does.
_UNDECODABLE = re.compile("[\udc80-\udcff]")
NOT_UTF8 = "not valid UTF-8"


def _from_bj_csv(row: dict[str, str | None]) -> dict[str, Any]:
    """Map a bj.scjn.gob.mx export row onto the canonical field names."""
    organo = (row.get("organo_jurisdiccional") or "").strip()
    body = (row.get("body") or "").strip()
    texto = body
    if organo and body.endswith(organo):  # the export appends the órgano to the body
        texto = body[: -len(organo)].rstrip()
    full = (row.get("body_full") or "").strip()
    precedentes = full[len(body) :].strip() if full.startswith(body) else ""
    return {
        "registro": row.get("id"),
        "clave": row.get("clave", ""),
        "rubro": row.get("title", ""),
        "texto": texto,
        "precedentes": precedentes,
        "epoca": row.get("epoca", ""),
        "anio": row.get("localizacion_anio"),
        "fecha_publicacion": None,  # always 01/01/0001 in these exports
        "tipo": row.get("tipo", ""),
        "materias": row.get("materias", ""),
        "instancia": row.get("instancia", ""),
        "organo": organo,
    }


def _looks_like_a_row(line: str, width: int) -> bool:
    """A physical line that is, on its own, a whole export row (width cells, numeric id)."""
    try:
        cells = next(csv.reader([line]), [])
    except csv.Error:
        return False
    return len(cells) == width and cells[0].strip().isascii() and cells[0].strip().isdigit()


def runaway_reason(cells: list[str], span: list[str], width: int) -> str | None:
    """Why a row spanning several physical lines is a quote left open, or None.

    A quoted field may hold line breaks, so a multi-line row is suspect only when a field runs
    over ``MAX_FIELD_LINES`` lines or ``MAX_FIELD_CHARS`` characters, or when it swallowed a
    line that is a whole row of its own (as many cells as the header, a numeric id).
    """
    if len(span) < 2:
        return None
    longest = max((len(c) for c in cells), default=0)
    most_lines = max((c.count("\n") + 1 for c in cells), default=1)
    if most_lines > MAX_FIELD_LINES or longest > MAX_FIELD_CHARS:
        return f"a field runs over {most_lines} lines / {longest} characters"
    if any(_looks_like_a_row(line, width) for line in span[1:]):
        return f"it swallows the {len(span) - 1} line(s) after it, rows of their own"
    return None


def _csv_rows(lines: list[str]) -> Iterator[tuple[int, list[str]] | Rejection]:
    """``(last line, cells)`` per row; a quote left open is reported at the line where it
    opens and reading starts again on the next line, so no row after it is lost."""
    header: list[str] | None = None
    start = 0
    while start < len(lines):
        reader = csv.reader(iter(lines[start:]))
        done = 0
        try:
            for cells in reader:
                first, done = start + done, reader.line_num
                if header is None:
                    header = cells
                    yield reader.line_num, cells
                    continue
                span = lines[first : start + done]
                if not cells and len(span) == 1:
                    continue
                reason = runaway_reason(cells, span, len(header))
                if reason is not None:
                    yield Rejection(
                        "",
                        first + 1,
                        cells[0][:20] if cells else None,
                        "row",
                        f"a quote opened on this line is not closed: {reason}; "
                        "the lines after it are read again",
                    )
                    start = first + 1
                    break
                yield start + done, cells
            else:
                return
        except csv.Error as exc:
            line = start + max(done, reader.line_num)
            yield Rejection("", line, None, "row", f"unreadable CSV: {exc}")
            start = max(line, start + 1)


def _read_csv(path: Path) -> Iterator[RawRecord | Rejection]:
    source = path.name
    # utf-8-sig: spreadsheet exports often start with a byte-order mark
    with path.open(encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
        lines = list(handle)
    fieldnames: list[str] | None = None
    for item in _csv_rows(lines):
        if isinstance(item, Rejection):
            yield Rejection(source, item.line, item.registro, item.field, item.reason)
            continue
        line, cells = item
        if fieldnames is None:
            fieldnames = cells
            if "id" not in fieldnames:
                yield Rejection(source, 1, None, "header", "CSV without an 'id' column")
                return
            continue
        if any(_UNDECODABLE.search(v) for v in cells):
            yield Rejection(source, line, None, "encoding", NOT_UTF8)
            continue
        row: dict[str, str | None] = dict.fromkeys(fieldnames)
        row.update(zip(fieldnames, cells, strict=False))
        if len(cells) > len(fieldnames):  # more cells than header columns
            yield Rejection(source, line, row.get("id"), "row", "more cells than columns")
            continue
        yield line, _from_bj_csv(row)
    if fieldnames is None:
        yield Rejection(source, 1, None, "header", "CSV without an 'id' column")


def read_records(path: Path) -> Iterator[RawRecord | Rejection]:
    """Yield ``(line, record)`` per record, or a ``Rejection`` for a line that is not a record."""
    source = path.name
    if path.suffix.lower() == ".csv":
        yield from _read_csv(path)
        return
    # utf-8-sig: a byte-order mark before the first record is not part of it
    with path.open(encoding="utf-8-sig", errors="surrogateescape") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            if _UNDECODABLE.search(text):
                yield Rejection(source, line, None, "encoding", NOT_UTF8)
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                yield Rejection(source, line, None, "json", f"invalid JSON: {exc.msg}")
                continue
            except ValueError:  # an integer beyond int(str)'s digit limit
                yield Rejection(source, line, None, "json", "a number has too many digits")
                continue
            except RecursionError:
                yield Rejection(source, line, None, "json", "nested too deeply")
                continue
            if not isinstance(record, dict):
                yield Rejection(source, line, None, "json", "not a JSON object")
                continue
            yield line, record

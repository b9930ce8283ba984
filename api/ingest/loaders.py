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


def _open_at_end(span: list[str]) -> bool:
    """True when ``span`` (the last row of a file) ends inside a quoted field."""
    try:
        for _ in csv.reader(iter(span), strict=True):
            pass
    except csv.Error as exc:
        return "end of data" in str(exc)
    return False


def _csv_rows(lines: list[str]) -> Iterator[tuple[int, list[str]] | Rejection]:
    """``(first line, cells)`` per row; a quote left open is reported at the line where it
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
                if reason is None and start + done == len(lines) and _open_at_end(span):
                    yield Rejection(
                        "",
                        first + 1,
                        cells[0][:20] if cells else None,
                        "row",
                        "a quote opened in this row is not closed before the end of the file: "
                        "the file looks cut (truncated?)",
                    )
                    return
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
                yield first + 1, cells
            else:
                return
        except csv.Error as exc:
            line = start + max(done, reader.line_num)
            yield Rejection("", line, None, "row", f"unreadable CSV: {exc}")
            start = max(line, start + 1)


def _not_utf8(source: str, line: int, record: dict[str, Any], id_key: str) -> Rejection:
    """Name the record (its id, when readable) and the first field that is not UTF-8."""
    field = next(
        (k for k, v in record.items() if isinstance(v, str) and _UNDECODABLE.search(v)),
        "encoding",
    )
    value = record.get(id_key)
    label = str(value) if isinstance(value, int | str) and value != "" else None
    if label is not None and _UNDECODABLE.search(label):
        label = None
    reason = f"{NOT_UTF8} (Latin-1 or Windows-1252?): re-save the file as UTF-8"
    return Rejection(source, line, label, _printable(field), reason)


def _printable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _read_csv(path: Path, id_key: str | None) -> Iterator[RawRecord | Rejection]:
    """Rows of a CSV file: mapped from the bj.scjn.gob.mx export columns when ``id_key`` is
    None, else as they are (a generic corpus, ``id_key`` its id column)."""
    source = path.name
    header_id = id_key or "id"
    # utf-8-sig: spreadsheet exports often start with a byte-order mark
    with path.open(encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
        lines = list(handle)
    if not any(line.strip() for line in lines):
        yield Rejection(source, 1, None, "file", "the file is empty (no header, no rows)")
        return
    fieldnames: list[str] | None = None
    for item in _csv_rows(lines):
        if isinstance(item, Rejection):
            yield Rejection(source, item.line, item.registro, item.field, item.reason)
            continue
        line, cells = item
        if fieldnames is None:
            fieldnames = cells
            if header_id not in fieldnames:
                yield Rejection(source, 1, None, "header", f"CSV without an {header_id!r} column")
                return
            continue
        row: dict[str, str | None] = dict.fromkeys(fieldnames)
        row.update(zip(fieldnames, cells, strict=False))
        if any(_UNDECODABLE.search(v) for v in cells):
            yield _not_utf8(source, line, dict(row), header_id)
            continue
        if len(cells) > len(fieldnames):  # more cells than header columns
            yield Rejection(source, line, row.get(header_id), "row", "more cells than columns")
            continue
        if len(cells) < len(fieldnames):  # a row cut short: its last cells would be wrong
            yield Rejection(
                source,
                line,
                row.get(header_id),
                "row",
                f"row has {len(cells)} of {len(fieldnames)} columns: truncated?",
            )
            continue
        yield line, (_from_bj_csv(row) if id_key is None else dict(row))


def read_records(path: Path, generic_id: str | None = None) -> Iterator[RawRecord | Rejection]:
    """Yield ``(line, record)`` per record, or a ``Rejection`` for a line that is not a record.

    ``generic_id``: the id field of a generic corpus; its CSV columns are then kept as they
    are instead of being read as a bj.scjn.gob.mx export.
    """
    source = path.name
    if path.suffix.lower() == ".csv":
        yield from _read_csv(path, generic_id)
        return
    id_key = generic_id or "registro"
    # utf-8-sig: a byte-order mark before the first record is not part of it
    with path.open(encoding="utf-8-sig", errors="surrogateescape") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                if _UNDECODABLE.search(text):
                    yield _not_utf8(source, line, {}, id_key)
                    continue
                yield Rejection(source, line, None, "json", f"invalid JSON: {exc.msg}")
                continue
            except ValueError:  # an integer beyond int(str)'s digit limit
                yield Rejection(source, line, None, "json", "a number has too many digits")
                continue
            except RecursionError:
                yield Rejection(source, line, None, "json", "nested too deeply")
                continue
            if _UNDECODABLE.search(text):
                yield _not_utf8(source, line, record if isinstance(record, dict) else {}, id_key)
                continue
            if not isinstance(record, dict):
                yield Rejection(source, line, None, "json", "not a JSON object")
                continue
            yield line, record

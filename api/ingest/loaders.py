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
# Bytes that are not UTF-8 decode (errors="surrogateescape") to these; valid text never does.
_UNDECODABLE = re.compile("[\udc80-\udcff]")
NOT_UTF8 = "not valid UTF-8"


def _from_bj_csv(row: dict[str, str]) -> dict[str, Any]:
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


def read_records(path: Path) -> Iterator[RawRecord | Rejection]:
    """Yield ``(line, record)`` per record, or a ``Rejection`` for a line that is not a record."""
    source = path.name
    if path.suffix.lower() == ".csv":
        # utf-8-sig: spreadsheet exports often start with a byte-order mark
        with path.open(encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
            reader = csv.DictReader(handle)
            if not reader.fieldnames or "id" not in reader.fieldnames:
                yield Rejection(source, 1, None, "header", "CSV without an 'id' column")
                return
            for row in reader:
                line = reader.line_num
                if any(_UNDECODABLE.search(v) for v in row.values() if isinstance(v, str)):
                    yield Rejection(source, line, None, "encoding", NOT_UTF8)
                    continue
                if None in row:  # more cells than header columns
                    yield Rejection(source, line, row.get("id"), "row", "more cells than columns")
                    continue
                yield line, _from_bj_csv(row)
        return
    with path.open(encoding="utf-8", errors="surrogateescape") as handle:
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

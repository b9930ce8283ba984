"""The embedded store's rows and records: SQLite rows to ``Tesis``/``Passage``/``Validity`` and
back, and ``Filters`` as SQL conditions."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from typing import Any

import numpy as np

from api.core.models import Chunk, Filters, Passage, Tesis, Validity
from api.embeddings.base import Vectors
from api.store.base import TESIS_TEXTS, PassageFields, TesisEntry
from api.store.embedded_index import materia_mask

TESIS_COLUMNS = (
    "registro, rubro, texto, epoca, anio, fecha, tipo, materias, instancia, organo, clave, "
    "precedentes, partial, extra"
)
PASSAGE_SQL = (
    "SELECT c.id, c.registro, c.idx, c.text, c.start_char, c.end_char, c.start_line, "
    "c.end_line, c.tokens, t.rubro, t.epoca, t.anio, t.tipo, t.materias, t.instancia, "
    "t.clave, t.fecha, t.partial FROM chunk c JOIN tesis t ON t.registro = c.registro"
)


def where(filters: Filters, alias: str = "t") -> tuple[str, list[Any]]:
    """SQL conditions on the tesis table for ``filters``."""
    clauses: list[str] = []
    params: list[Any] = []

    def add(condition: str, *values: Any) -> None:
        clauses.append(f"{alias}.{condition}")
        params.extend(values)

    if filters.anio_min is not None:
        add("anio >= ?", filters.anio_min)
    if filters.anio_max is not None:
        add("anio <= ?", filters.anio_max)
    if filters.materias:
        clauses.append(f"({alias}.materia_mask & ?) != 0")
        params.append(materia_mask(filters.materias))
    if filters.tipo is not None:
        add("tipo = ?", filters.tipo)
    if filters.epocas:
        add(f"epoca IN ({','.join('?' * len(filters.epocas))})", *filters.epocas)
    if filters.instancia is not None:
        add("instancia = ?", filters.instancia)
    if filters.organo is not None:
        add("organo = ?", filters.organo)
    if filters.circuito is not None:
        clauses.append(f"circuit_of({alias}.organo) = ?")  # a function of embedded_db._open
        params.append(filters.circuito)
    if filters.registros:
        add(f"registro IN ({','.join('?' * len(filters.registros))})", *filters.registros)
    return (" AND ".join(clauses) or "1=1"), params


def _date(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def _passage_fields(row: sqlite3.Row) -> PassageFields:
    return PassageFields(
        rubro=row["rubro"],
        epoca=row["epoca"],
        anio=row["anio"],
        tipo=row["tipo"],
        materias=tuple(json.loads(row["materias"])),
        instancia=row["instancia"],
        clave=row["clave"],
        fecha=_date(row["fecha"]),
        partial=bool(row["partial"]),
    )


def to_tesis(row: sqlite3.Row) -> Tesis:
    return Tesis(
        registro=row["registro"],
        **{name: row[name] for name in TESIS_TEXTS},
        **_passage_fields(row),
        **_extra_from_json(row["extra"]),
    )


def to_passage(row: sqlite3.Row) -> Passage:
    chunk = Chunk(
        registro=row["registro"],
        index=row["idx"],
        text=row["text"],
        start_char=row["start_char"],
        end_char=row["end_char"],
        start_line=row["start_line"],
        end_line=row["end_line"],
        tokens=row["tokens"],
    )
    return Passage(chunk=chunk, **_passage_fields(row))


def to_validity(row: sqlite3.Row) -> Validity:
    return Validity(
        estado=row["estado"],
        parcial=bool(row["parcial"]),
        por_registro=row["por_registro"],
        por_clave=row["por_clave"],
        desde=_date(row["desde"]),
    )


def validity_values(registro: int, v: Validity) -> tuple[Any, ...]:
    """One ``validity`` row, in column order."""
    desde = v.desde.isoformat() if v.desde else None
    return (registro, v.estado, int(v.parcial), v.por_registro, v.por_clave, desde)


def tesis_values(entry: TesisEntry) -> tuple[Any, ...]:
    """One ``tesis`` row, in column order."""
    t = entry.tesis
    return (
        t.registro,
        t.rubro,
        t.texto,
        t.epoca,
        t.anio,
        t.fecha.isoformat() if t.fecha else None,
        (t.fecha or date(t.anio, 7, 1)).isoformat(),
        t.tipo,
        json.dumps(list(t.materias), ensure_ascii=False),
        materia_mask(t.materias),
        t.instancia,
        t.organo,
        t.clave,
        t.precedentes,
        int(t.partial),
        entry.fingerprint,
        _extra_to_json(t),
    )


def chunk_values(registro: int, chunk: Chunk, vector: Vectors) -> tuple[Any, ...]:
    """One ``chunk`` row of ``registro`` without its rowid, in column order."""
    return (
        registro,
        chunk.index,
        chunk.text,
        chunk.start_char,
        chunk.end_char,
        chunk.start_line,
        chunk.end_line,
        chunk.tokens,
        np.asarray(vector, dtype=np.float32).tobytes(),
    )


def _extra_to_json(t: Tesis) -> str:
    """A generic record's extra dates, their roles and its own fields, as stored."""
    if not (t.dates or t.extra):
        return "{}"
    return json.dumps(
        {
            "dates": {n: d.isoformat() for n, d in t.dates},
            "roles": dict(t.date_roles),
            "fields": [[k, v] for k, v in t.extra],
        },
        ensure_ascii=False,
    )


def _extra_from_json(text: str | None) -> dict[str, Any]:
    data = json.loads(text or "{}")
    if not data:
        return {}
    return {
        "dates": tuple((n, date.fromisoformat(d)) for n, d in data.get("dates", {}).items()),
        "date_roles": tuple(data.get("roles", {}).items()),
        "extra": tuple((k, v) for k, v in data.get("fields", [])),
    }

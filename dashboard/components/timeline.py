"""Rows for the Línea de tiempo page: tesis (search hits or timeline items) on a date axis."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.components.scoring import LINK
from dashboard.formatting import date_es, status_text, tesis_url, tipo_label, vigencia_group

# The API's bounds on how many tesis it lists: ``timeline`` (and ``earliest`` without a query)
# up to 200; with a query ``earliest``/``latest`` are a search, up to 100 (its topK).
MAX_LISTED, MAX_ON_TOPIC = 200, 100
TABLE_COLUMNS = ["Fecha", "Registro", "Época", "Vigencia", "Rubro"]
TABLE_CONFIG = {
    "Fecha": st.column_config.Column(width=145),
    "Registro": LINK,
    "Época": st.column_config.Column(width=105),
    "Vigencia": st.column_config.Column(width=80),
    "Rubro": st.column_config.Column(width=165),
}


def chart_rows(
    items: Sequence[Mapping[str, Any]], order: str | None = None
) -> list[dict[str, Any]]:
    """One row per tesis (sorted by date if ``order`` is ASC/DESC, else as given); a missing
    date falls on 1 July of its year."""
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    for item in items:
        registro = int(item["registro"])
        if registro in seen:
            continue
        seen.add(registro)
        rubro = str(item.get("rubro") or "")
        rows.append(
            {
                "registro": registro,
                "rubro": rubro,
                "rubro_corto": rubro if len(rubro) <= 90 else rubro[:89] + "…",
                "anio": item.get("anio"),
                "fecha": item.get("fecha") or f"{item.get('anio')}-07-01",
                "fecha_conocida": bool(item.get("fecha")),
                "epoca": item.get("epoca") or "—",
                "tipo": tipo_label(item.get("tipo")),
                "vigencia": vigencia_group(item.get("status")),
                "estado": status_text(item.get("status")),
                "url": tesis_url(registro),
            }
        )
    if order is None:
        return rows
    return sorted(rows, key=lambda r: str(r["fecha"]), reverse=order == "DESC")


def table(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    data = [
        [
            date_es(r["fecha"]) if r["fecha_conocida"] else str(r["anio"]),
            tesis_url(r["registro"]),
            r["epoca"],
            r["vigencia"],
            r["rubro"],
        ]
        for r in rows
    ]
    return pd.DataFrame(data, columns=TABLE_COLUMNS)

"""Rows for the Línea de tiempo page: tesis (search hits or timeline items) on a date axis."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.components.scoring import LINK
from dashboard.formatting import date_es, status_text, tesis_url, tipo_label, vigencia_group

# The API's bounds on how many tesis it lists: ``timeline`` up to 200; ``earliest``/``latest``
# up to 100, with a query (a search's topK) or without.
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
    """One row per tesis (sorted by date if ``order`` is ASC/DESC, else as given). ``punto``
    is where the chart draws it: its date, or, for a tesis dated by year only, a day spread
    through that year (:func:`spread_in_year`) so that tesis of one year do not fall on one
    dot."""
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    for item in items:
        registro = int(item["registro"])
        if registro in seen:
            continue
        seen.add(registro)
        rubro = str(item.get("rubro") or "")
        anio, fecha = item.get("anio"), item.get("fecha")
        rows.append(
            {
                "registro": registro,
                "rubro": rubro,
                "rubro_corto": rubro if len(rubro) <= 90 else rubro[:89] + "…",
                "anio": anio,
                "fecha": fecha or f"{anio}-07-01",
                "fecha_conocida": bool(fecha),
                "fecha_texto": date_es(fecha) if fecha else f"{anio} (sólo el año)",
                "punto": fecha,
                "epoca": item.get("epoca") or "—",
                "tipo": tipo_label(item.get("tipo")),
                "vigencia": vigencia_group(item.get("status")),
                "estado": status_text(item.get("status")),
                "url": tesis_url(registro),
            }
        )
    spread_in_year(rows)
    if order is None:
        return rows
    return sorted(rows, key=lambda r: str(r["fecha"]), reverse=order == "DESC")


def spread_in_year(rows: Sequence[dict[str, Any]]) -> None:
    """Give each tesis dated by year only a ``punto`` inside its year: the ``n`` of one year
    and época (one band of the chart) at equal steps, in registro order (the k-th at
    (k + ½) / n of the year).

    >>> rows = [{"registro": r, "anio": 1970, "epoca": "Séptima Época", "fecha_conocida": False}
    ...         for r in (2, 1)]
    >>> spread_in_year(rows)
    >>> [r["punto"] for r in rows]
    ['1970-10-01', '1970-04-02']
    """
    bands: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
    for row in rows:
        if not row["fecha_conocida"] and isinstance(row.get("anio"), int):
            bands.setdefault((row["anio"], row["epoca"]), []).append(row)
    for (anio, _), band in bands.items():
        start = date(anio, 1, 1)
        days = (date(anio + 1, 1, 1) - start).days
        for k, row in enumerate(sorted(band, key=lambda r: int(r["registro"]))):
            row["punto"] = (start + timedelta(days=int((k + 0.5) / len(band) * days))).isoformat()


def year_only(rows: Sequence[Mapping[str, Any]]) -> bool:
    """Whether some tesis is dated by its year only (the chart says how it places them)."""
    return any(not r["fecha_conocida"] for r in rows)


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

"""The shared filter widgets (materias, tipo, épocas, años) and the recency slider."""

from __future__ import annotations

from datetime import date
from typing import Any

import streamlit as st

from dashboard import client
from dashboard.formatting import EPOCAS, FIRST_YEAR, MATERIAS, TIPOS
from dashboard.selection import Schema

ANY = "Cualquiera"


def filters(prefix: str, schema: Schema | None, expanded: bool = False) -> dict[str, Any] | None:
    """Filter widgets (keys ``<prefix>_materias`` ...); a ``FiltersInput`` dict, or None."""
    this_year = date.today().year
    tipos = {
        v: TIPOS.get(v, v.capitalize()) for v in enum_options(schema, "TesisTipo", tuple(TIPOS))
    }
    with st.expander("Filtros", expanded=expanded, icon=":material/filter_alt:"):
        left, right = st.columns(2)
        materias = left.multiselect(
            "Materias", materia_options(schema), key=f"{prefix}_materias", placeholder="Todas"
        )
        tipo = right.selectbox(
            "Tipo", [ANY, *tipos], key=f"{prefix}_tipo", format_func=lambda v: tipos.get(v, v)
        )
        epocas = left.multiselect("Épocas", EPOCAS, key=f"{prefix}_epocas", placeholder="Todas")
        first, last = right.slider(
            "Años", FIRST_YEAR, this_year, (FIRST_YEAR, this_year), key=f"{prefix}_anios"
        )
    chosen: dict[str, Any] = {
        "materias": materias or None,
        "tipo": None if tipo == ANY else tipo,
        "epocas": epocas or None,
        "anioMin": first if first > FIRST_YEAR else None,
        "anioMax": last if last < this_year else None,
    }
    chosen = {k: v for k, v in chosen.items() if v is not None}
    return chosen or None


def materia_options(schema: Schema | None) -> list[str]:
    """The materias of the corpus (``distribution(MATERIA)``), else the known list."""
    if schema is not None and schema.root_of("distribution"):
        try:
            found = sorted(str(b["key"]) for b in client.distribution("MATERIA") if b.get("key"))
        except client.ApiError:
            found = []
        if found:
            return found
    return list(MATERIAS)


def recency_slider(key: str, default: float = 0.5) -> float:
    return st.slider(
        "Peso de la recencia",
        0.0,
        1.0,
        default,
        0.05,
        key=key,
        help="0 = sólo similitud; 1 = la antigüedad de la tesis pesa al máximo.",
    )


def enum_options(schema: Schema | None, name: str, fallback: tuple[str, ...]) -> tuple[str, ...]:
    """Values of an enum of the API (``fallback`` when it is unknown)."""
    return (schema.enum_values(name) if schema else ()) or fallback

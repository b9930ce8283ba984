"""The shared filter widgets (materias, tipo, épocas, años) and the recency control.

Options come from ``corpusStats`` (what the corpus holds), never from constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import streamlit as st

from dashboard.formatting import TIPOS, epoca_order

ANY = "Cualquiera"
PICK = "Elija una opción"  # a selectbox emptied while typing (Streamlit: «Choose an option»)
AUTO = "auto"
WEIGHTS: tuple[str | float, ...] = (AUTO, *(round(i * 0.05, 2) for i in range(21)))
RECENCY_HELP = (
    "«Automático»: la API decide (su peso configurado, más alto en preguntas sobre lo "
    "vigente o lo actual); la página muestra el peso que aplicó. Un valor fijo cuenta sólo "
    "para la puntuación: 0 ordena por similitud y 1 da a la antigüedad el peso máximo. Las "
    "reglas de vigencia (corte por reforma, épocas anteriores a la Novena) descartan aparte, "
    "con cualquier peso, salvo en preguntas por lo más antiguo."
)


def options(stats: Mapping[str, Any] | None) -> dict[str, Any]:
    """Épocas (historical order), materias, tipos and the year range of the corpus."""
    stats = stats or {}
    epocas = sorted(
        (str(b["key"]) for b in stats.get("byEpoca") or [] if b.get("key")),
        key=lambda e: (epoca_order(e), e),
    )
    materias = sorted(str(b["key"]) for b in stats.get("byMateria") or [] if b.get("key"))
    tipos = [str(b["key"]) for b in stats.get("byTipo") or [] if b.get("key")]
    years = [int(b["key"]) for b in stats.get("byYear") or [] if str(b.get("key")).isdigit()]
    this_year = date.today().year
    return {
        "epocas": epocas,
        "materias": materias,
        "tipos": [t for t in TIPOS if t in {x.upper() for x in tipos}] or list(TIPOS),
        "first": min(years) if years else this_year - 50,
        "last": max(max(years), this_year) if years else this_year,
    }


def filters(
    prefix: str, stats: Mapping[str, Any] | None, expanded: bool = False
) -> dict[str, Any] | None:
    """Filter widgets (keys ``<prefix>_materias`` ...); a ``FiltersInput`` dict, or None."""
    found = options(stats)
    first_year, last_year = found["first"], found["last"]
    with st.expander("Filtros", expanded=expanded, icon=":material/filter_alt:"):
        left, right = st.columns(2)
        materias = left.multiselect(
            "Materias",
            found["materias"],
            key=f"{prefix}_materias",
            placeholder="Todas",
            select_all=False,
        )
        tipo = right.selectbox(
            "Tipo",
            [ANY, *found["tipos"]],
            key=f"{prefix}_tipo",
            placeholder=PICK,
            format_func=lambda v: TIPOS.get(v, v),
        )
        epocas = left.multiselect(
            "Épocas", found["epocas"], key=f"{prefix}_epocas", placeholder="Todas", select_all=False
        )
        first, last = right.slider(
            "Años", first_year, last_year, (first_year, last_year), key=f"{prefix}_anios"
        )
    chosen: dict[str, Any] = {
        "materias": materias or None,
        "tipo": None if tipo == ANY else tipo,
        "epocas": epocas or None,
        "anioMin": first if first > first_year else None,
        "anioMax": last if last < last_year else None,
    }
    chosen = {k: v for k, v in chosen.items() if v is not None}
    return chosen or None


def recency_control(key: str) -> float | None:
    """«Automático» (None: the API decides) or a weight the user picked."""
    value = st.select_slider(
        "Peso de la recencia",
        WEIGHTS,
        value=AUTO,
        key=key,
        format_func=lambda v: "Automático" if v == AUTO else f"{float(v):.2f}",
        help=RECENCY_HELP,
    )
    return None if value == AUTO else float(value)

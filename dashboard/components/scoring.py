"""Tables for the Búsqueda page: the score breakdown per hit and the with/without comparison."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from dashboard.components.references import first_per_registro
from dashboard.formatting import pct, tesis_url, vigencia_short, year

BREAKDOWN_COLUMNS = [
    "Pos.",
    "Cambio",
    "Registro",
    "Año",
    "Puntuación final",
    "Vigencia",
    "Rubro",
]
FACTOR_COLUMNS = [
    "Pos.",
    "Registro",
    "Frag.",
    "Pertinencia",
    "Similitud",
    "BM25",
    "Relevancia",
    "Factor de recencia",
    "Factor de época",
    "Impulso",
    "Puntuación final",
]
LINK = st.column_config.LinkColumn(
    "Registro",
    width=70,
    display_text=r"https://sjf2\.scjn\.gob\.mx/detalle/tesis/(\d+)",
    help="Abre la tesis en el Semanario Judicial de la Federación",
)
BREAKDOWN_CONFIG = {
    "Pos.": st.column_config.Column(width=40, help="Posición de la tesis con recencia"),
    "Cambio": st.column_config.Column(
        width=55,
        help="Lo que la recencia mueve la tesis respecto de su posición sin recencia (peso 0)",
    ),
    "Registro": LINK,
    "Año": st.column_config.Column(width=45),
    "Frag.": st.column_config.Column(width=40, help="Fragmentos de la tesis entre los resultados"),
    "Pertinencia": st.column_config.Column(
        "Pert.",
        width=55,
        help="Filtro de pertinencia "
        "(0 a 1): relevancia frente a la mejor candidata; "
        "«fuera de tema» si no lo pasó",
    ),
    "Similitud": st.column_config.Column("Simil.", width=60, help="Similitud coseno"),
    "Relevancia": st.column_config.Column("Relev.", width=60, help="Lo que la recencia multiplica"),
    "Factor de recencia": st.column_config.Column("F. rec.", width=60, help="Factor de recencia"),
    "Factor de época": st.column_config.Column("F. ép.", width=55, help="Factor de época"),
    "Impulso": st.column_config.Column(width=55, help="Puntuación final / relevancia"),
    "BM25": st.column_config.Column(width=50, help="Puntuación léxica (BM25)"),
    "Puntuación final": st.column_config.Column("Final", width=60),
    "Vigencia": st.column_config.Column(
        width=100,
        help="⚠: aviso de la API (véalo en el detalle de la tesis); (parcial): "
        "texto incompleto en la fuente",
    ),
    "Rubro": st.column_config.Column(width=180),
}
_PERCENT = ["Similitud", "Relevancia", "Factor de recencia", "Factor de época", "Puntuación final"]


def movement(before: int | None, after: int | None) -> str:
    """'↑ 2' when a hit rose from position ``before`` to ``after``, '↓ 1', '=' or 'nuevo'."""
    if before is None:
        return "nuevo"
    if after is None:
        return "sale"
    delta = before - after
    return "=" if delta == 0 else f"↑ {delta}" if delta > 0 else f"↓ {-delta}"


def _movement_style(value: str) -> str:
    if value.startswith("↑") or value == "nuevo":
        return "background-color: #c8e6c9; color: #1b5e20; font-weight: 600"
    if value.startswith("↓") or value == "sale":
        return "background-color: #ffcdd2; color: #b71c1c; font-weight: 600"
    return ""


def breakdown_frame(
    tesis: Sequence[Sequence[Mapping[str, Any]]], without: Sequence[Mapping[str, Any]] = ()
) -> pd.DataFrame:
    """One row per tesis: its position, what recency did to it (against its position in the
    ranking ``without`` recency), its final score and vigencia."""
    before = {int(h["registro"]): i + 1 for i, h in enumerate(first_per_registro(without))}
    rows = []
    for position, group in enumerate(tesis, start=1):
        h = group[0]
        registro = int(h["registro"])
        rows.append(
            [
                position,
                movement(before.get(registro), position),
                tesis_url(registro),
                h.get("anio"),
                h.get("finalScore"),
                vigencia_cell(h),
                # ranked after every on-topic hit: said here, not only in the factors table
                h.get("rubro") if h.get("onTopic", True) else f"(fuera de tema) {h.get('rubro')}",
            ]
        )
    return pd.DataFrame(rows, columns=BREAKDOWN_COLUMNS)


def vigencia_cell(hit: Mapping[str, Any]) -> str:
    """'Vigente', 'Superada'...; '⚠' when the API flags it, '(parcial)' when its text is cut in
    its source (the panel says which)."""
    text = vigencia_short(hit.get("status"))
    if hit.get("warning"):
        text += " ⚠"
    if hit.get("partial"):
        text += " (parcial)"
    return text


def gate_cell(hit: Mapping[str, Any]) -> str:
    if hit.get("gate") is None:
        return "—"
    return pct(hit["gate"], 0) + ("" if hit.get("onTopic", True) else " fuera de tema")


def factors_frame(tesis: Sequence[Sequence[Mapping[str, Any]]]) -> pd.DataFrame:
    """Every factor of each tesis' best hit, and how many of its fragments were found."""
    rows = []
    for position, group in enumerate(tesis, start=1):  # the tesis' position, not a chunk's rank
        h = group[0]
        rows.append(
            [
                position,
                tesis_url(int(h["registro"])),
                len(group),
                gate_cell(h),
                h.get("similarity"),
                h.get("lexicalScore"),
                h.get("relevance"),
                h.get("recencyFactor"),
                h.get("epocaFactor"),
                h.get("boost"),
                h.get("finalScore"),
            ]
        )
    return pd.DataFrame(rows, columns=FACTOR_COLUMNS)


def breakdown_styler(df: pd.DataFrame) -> Styler:
    """Percentages as people read them; rank changes green (up) or red (down)."""
    fmt: dict[str, Any] = {k: pct for k in _PERCENT if k in df.columns}
    fmt.update({"Impulso": lambda v: f"× {v:.2f}", "Año": year, "BM25": lambda v: f"{v:.2f}"})
    styled = df.style.format({k: f for k, f in fmt.items() if k in df.columns}, na_rep="—")
    return styled.map(_movement_style, subset=["Cambio"]) if "Cambio" in df else styled


def comparison_from_searches(
    without: Sequence[Mapping[str, Any]], with_recency: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A ``compareRankings``-shaped result (A without recency, B with it) from two searches;
    each tesis' ``score`` is what orders its side: relevance in A, the final score in B."""

    def ranked(hits: Sequence[Mapping[str, Any]], score: str) -> list[dict[str, Any]]:
        return [
            {
                "registro": h["registro"],
                "rank": i + 1,
                "score": h.get(score),
                "rubro": h.get("rubro"),
                "anio": h.get("anio"),
            }
            for i, h in enumerate(first_per_registro(hits))
        ]

    a, b = ranked(without, "relevance"), ranked(with_recency, "finalScore")
    rank_a = {x["registro"]: x["rank"] for x in a}
    rank_b = {x["registro"]: x["rank"] for x in b}
    return {
        "a": a,
        "b": b,
        "entered": [r for r in rank_b if r not in rank_a],
        "dropped": [r for r in rank_a if r not in rank_b],
        "kendallTau": None,
    }


SIDE_COLUMNS = ["Pos.", "Cambio", "Registro", "Año", "Puntuación"]
SIDE_CONFIG = {
    "Pos.": st.column_config.Column(width=40),
    "Cambio": st.column_config.Column(width=55),
    "Registro": LINK,
    "Año": st.column_config.Column(width=45),
}
SIDE_SCORES = {  # the score that orders each side
    "a": st.column_config.Column("Relev.", width=60, help="Relevancia (sin recencia)"),
    "b": st.column_config.Column("Final", width=60, help="Puntuación final (con recencia)"),
}


def side_frame(
    side: Sequence[Mapping[str, Any]],
    before: Mapping[int, int],
    after: Mapping[int, int] | None,
    titles: Mapping[int, Any],
) -> pd.DataFrame:
    """One ranking; 'Cambio' is what recency does to each tesis (from ``before`` to ``after``;
    ``after=None`` means this side is the after)."""
    rows = []
    for item in side:
        reg = int(item["registro"])
        info = titles.get(reg) or {}
        moved = movement(before.get(reg), item.get("rank") if after is None else after.get(reg))
        rows.append(
            [
                item.get("rank"),
                moved,
                tesis_url(reg),
                item.get("anio") or info.get("anio"),
                item.get("score"),
            ]
        )
    return pd.DataFrame(rows, columns=SIDE_COLUMNS)


def side_styler(df: pd.DataFrame) -> Styler:
    fmt = {"Puntuación": pct, "Año": year}
    return df.style.format(fmt, na_rep="—").map(_movement_style, subset=["Cambio"])


def rank_of(side: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    return {int(x["registro"]): int(x["rank"]) for x in side}


def show_comparison(compare: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    """Side by side: A (recency weight 0) and B (the chosen weight), rank changes coloured."""
    if not compare["a"] and not compare["b"]:
        st.caption("Ninguna tesis que comparar.")
        return
    titles = {int(h["registro"]): h for h in result.get("withoutRecency") or []}
    titles.update({int(h["registro"]): h for h in result.get("hits") or []})
    rank_a, rank_b = rank_of(compare["a"]), rank_of(compare["b"])
    left, right = st.columns(2)
    with left:
        st.markdown("**Sin recencia** (sólo relevancia): cómo la trata la recencia")
        _side(side_frame(compare["a"], rank_a, rank_b, titles), "a")
    with right:
        st.markdown(f"**Con recencia** (peso {pct(result.get('recencyWeight'), 0)})")
        _side(side_frame(compare["b"], rank_a, None, titles), "b")
    cols = st.columns(2)
    cols[0].metric("Entran con recencia", len(compare.get("entered") or []))
    cols[1].metric(
        "Salen con recencia",
        len(compare.get("dropped") or []),
        help="Incluye las que las reglas de vigencia descartan",
    )


def _side(df: pd.DataFrame, side: str) -> None:
    if df.empty:  # an empty table reads «empty», in English
        st.caption("Ninguna tesis.")
        return
    st.dataframe(
        side_styler(df),
        hide_index=True,
        key=f"busqueda_side_{side}",
        column_config={**SIDE_CONFIG, "Puntuación": SIDE_SCORES[side]},
    )

"""Tables for the Búsqueda page: the score breakdown per hit and the with/without comparison."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from dashboard.components.references import first_per_registro
from dashboard.components.tables import rubro_last
from dashboard.formatting import pct, score, status_text

BREAKDOWN_COLUMNS = [
    "Pos.", "Pos. sin recencia", "Cambio", "Registro", "Rubro", "Año", "Época",
    "Similitud", "Relevancia", "BM25", "Factor de recencia", "Factor de época",
    "Impulso", "Puntuación final", "Vigencia",
]  # fmt: skip
BREAKDOWN_CONFIG = {
    "Pos.": st.column_config.Column(width=40),
    "Pos. sin recencia": st.column_config.Column("Sin rec.", width=60,
                                                 help="Posición sin recencia (peso 0)"),
    "Cambio": st.column_config.Column(width=60, help="Lo que la recencia mueve la tesis"),
    "Año": st.column_config.Column(width=50),
    "Época": st.column_config.Column(width=120),
    "BM25": st.column_config.Column(width=55, help="Puntuación léxica"),
    "Factor de recencia": st.column_config.Column("F. recencia", width=80),
    "Factor de época": st.column_config.Column("F. época", width=70),
    "Impulso": st.column_config.Column(width=60, help="Puntuación final / relevancia"),
    "Puntuación final": st.column_config.Column("Final", width=70),
}  # fmt: skip
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


def breakdown_frame(hits: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    rows = [
        [h.get("rank"), h.get("rankWithoutRecency"),
         movement(h.get("rankWithoutRecency"), h.get("rank")),
         h.get("registro"), h.get("rubro"), h.get("anio"), h.get("epoca"),
         h.get("similarity"), h.get("relevance"), h.get("lexicalScore"),
         h.get("recencyFactor"), h.get("epocaFactor"), h.get("boost"), h.get("finalScore"),
         status_text(h.get("status"))]
        for h in hits
    ]  # fmt: skip
    return rubro_last(pd.DataFrame(rows, columns=BREAKDOWN_COLUMNS))


def breakdown_styler(df: pd.DataFrame) -> Styler:
    """Percentages as people read them; rank changes green (up) or red (down)."""
    fmt: dict[str, Any] = dict.fromkeys(_PERCENT, pct)
    fmt.update({"BM25": lambda v: score(v, 2), "Impulso": lambda v: f"× {v:.2f}"})
    fmt["Año"] = lambda v: str(v)
    fmt["Registro"] = lambda v: str(v)
    return df.style.format(fmt, na_rep="—").map(_movement_style, subset=["Cambio"])


def comparison_from_searches(
    without: Sequence[Mapping[str, Any]], with_recency: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A ``compareRankings``-shaped result (A without recency, B with it) from two searches."""

    def ranked(hits: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [
            {"registro": h["registro"], "rank": i + 1, "finalScore": h.get("finalScore"),
             "rubro": h.get("rubro"), "anio": h.get("anio")}
            for i, h in enumerate(first_per_registro(hits))
        ]  # fmt: skip

    a, b = ranked(without), ranked(with_recency)
    rank_a = {x["registro"]: x["rank"] for x in a}
    rank_b = {x["registro"]: x["rank"] for x in b}
    return {
        "a": a,
        "b": b,
        "entered": [r for r in rank_b if r not in rank_a],
        "dropped": [r for r in rank_a if r not in rank_b],
        "kendallTau": None,
    }


SIDE_COLUMNS = ["Pos.", "Registro", "Rubro", "Año", "Puntuación final", "Cambio"]


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
        rows.append([
            item.get("rank"), reg, item.get("rubro") or info.get("rubro"),
            item.get("anio") or info.get("anio"), item.get("finalScore"), moved,
        ])  # fmt: skip
    return rubro_last(pd.DataFrame(rows, columns=SIDE_COLUMNS))


def side_styler(df: pd.DataFrame) -> Styler:
    fmt = {"Puntuación final": pct, "Año": lambda v: "—" if v is None else str(v),
           "Registro": str}  # fmt: skip
    return df.style.format(fmt, na_rep="—").map(_movement_style, subset=["Cambio"])


def rank_of(side: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    return {int(x["registro"]): int(x["rank"]) for x in side}


def show_comparison(compare: Mapping[str, Any], result: Mapping[str, Any]) -> None:
    """Side by side: A (recency weight 0) and B (the chosen weight), rank changes coloured."""
    titles = {int(h["registro"]): h for h in result.get("hits") or []}
    rank_a, rank_b = rank_of(compare["a"]), rank_of(compare["b"])
    left, right = st.columns(2)
    left.markdown("**Sin recencia** (peso 0 %): cómo la trata la recencia")
    left.dataframe(side_styler(side_frame(compare["a"], rank_a, rank_b, titles)),
                   hide_index=True, key="busqueda_side_a")  # fmt: skip
    right.markdown(f"**Con recencia** (peso {pct(result.get('recencyWeight'), 0)})")
    right.dataframe(side_styler(side_frame(compare["b"], rank_a, None, titles)),
                    hide_index=True, key="busqueda_side_b")  # fmt: skip
    cols = st.columns(3)
    tau = compare.get("kendallTau")
    cols[0].metric("τ de Kendall", "—" if tau is None else f"{tau:.2f}",
                   help="1 = mismo orden; 0 = sin relación; −1 = orden inverso")  # fmt: skip
    cols[1].metric("Entran con recencia", len(compare.get("entered") or []))
    cols[2].metric("Salen con recencia", len(compare.get("dropped") or []))

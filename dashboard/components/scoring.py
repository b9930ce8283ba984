"""Tables for the Búsqueda page: the score breakdown per hit and the with/without comparison."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

from dashboard.components.references import first_per_registro
from dashboard.formatting import pct, score, status_text

BREAKDOWN_COLUMNS = [
    "Pos.", "Pos. sin recencia", "Cambio", "Registro", "Rubro", "Año", "Época",
    "Similitud", "Relevancia", "BM25", "Factor de recencia", "Factor de época",
    "Impulso", "Puntuación final", "Vigencia",
]  # fmt: skip
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
    return pd.DataFrame(rows, columns=BREAKDOWN_COLUMNS)


def breakdown_styler(df: pd.DataFrame) -> Styler:
    """Percentages as people read them; rank changes green (up) or red (down)."""
    fmt: dict[str, Any] = dict.fromkeys(_PERCENT, pct)
    fmt.update({"BM25": lambda v: score(v, 2), "Impulso": lambda v: f"× {v:.2f}"})
    fmt["Año"] = lambda v: str(v)
    fmt["Registro"] = lambda v: str(v)
    return df.style.format(fmt, na_rep="—").map(_movement_style, subset=["Cambio"])


def comparison_from_searches(
    with_recency: Sequence[Mapping[str, Any]], without: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A ``compareRankings``-shaped result from two searches (while the API lacks it)."""

    def ranked(hits: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [
            {"registro": h["registro"], "rank": i + 1, "finalScore": h.get("finalScore"),
             "rubro": h.get("rubro"), "anio": h.get("anio")}
            for i, h in enumerate(first_per_registro(hits))
        ]  # fmt: skip

    a, b = ranked(with_recency), ranked(without)
    rank_a = {x["registro"]: x["rank"] for x in a}
    rank_b = {x["registro"]: x["rank"] for x in b}
    changes = [
        {"registro": r, "rankA": rank_a[r], "rankB": rank_b[r], "delta": rank_b[r] - rank_a[r]}
        for r in rank_a
        if r in rank_b
    ]
    return {
        "a": a,
        "b": b,
        "rankChanges": changes,
        "entered": [r for r in rank_a if r not in rank_b],
        "dropped": [r for r in rank_b if r not in rank_a],
        "kendallTau": None,
    }


SIDE_COLUMNS = ["Pos.", "Registro", "Rubro", "Año", "Puntuación final", "Cambio"]


def side_frame(
    side: Sequence[Mapping[str, Any]], other_rank: Mapping[int, int], titles: Mapping[int, Any]
) -> pd.DataFrame:
    """One ranking; 'Cambio' compares each position with the other ranking's."""
    rows = []
    for item in side:
        reg = int(item["registro"])
        info = titles.get(reg) or {}
        rows.append([
            item.get("rank"), reg, item.get("rubro") or info.get("rubro"),
            item.get("anio") or info.get("anio"), item.get("finalScore"),
            movement(other_rank.get(reg), item.get("rank")),
        ])  # fmt: skip
    return pd.DataFrame(rows, columns=SIDE_COLUMNS)


def side_styler(df: pd.DataFrame) -> Styler:
    fmt = {"Puntuación final": pct, "Año": lambda v: "—" if v is None else str(v),
           "Registro": str}  # fmt: skip
    return df.style.format(fmt, na_rep="—").map(_movement_style, subset=["Cambio"])


def rank_of(side: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    return {int(x["registro"]): int(x["rank"]) for x in side}

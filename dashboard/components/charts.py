"""Altair charts sized for a laptop screen; Spanish titles, épocas in their historical order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

import altair as alt
import pandas as pd

from dashboard.formatting import EPOCAS

EPOCA_COLORS = (
    "#9e9e9e",
    "#8d6e63",
    "#795548",
    "#a1887f",
    "#6d4c41",
    "#ffb300",
    "#fb8c00",
    "#e53935",
    "#8e24aa",
    "#1e88e5",
    "#00897b",
    "#43a047",
)
STATUS_COLORS = {"Vigente": "#2e7d32", "No vigente": "#c62828"}
HEIGHT = 280
BAR_STEP = 26  # pixels per bar of a horizontal bar chart


def epoca_scale(present: Sequence[str] = ()) -> alt.Scale:
    """Colours fixed per época so every chart agrees; only the épocas ``present`` are listed."""
    domain = [e for e in EPOCAS if e in present] + [e for e in present if e not in EPOCAS]
    if not domain:
        domain = list(EPOCAS)
    colors = dict(zip(EPOCAS, EPOCA_COLORS, strict=True))
    return alt.Scale(domain=domain, range=[colors.get(e, "#607d8b") for e in domain])


def _plot(
    df: pd.DataFrame,
    title: str,
    mark: Literal["bar", "line"],
    *channels: Any,
    tooltip: list[Any],
    height: Any = HEIGHT,
    **mark_def: Any,
) -> alt.Chart:
    """``df`` drawn as ``mark`` bars or lines over ``channels``."""
    base = alt.Chart(df, title=title, height=height)
    marked = base.mark_bar(**mark_def) if mark == "bar" else base.mark_line(**mark_def)
    # Altair types its fluent methods (mark_*, encode) as Any: narrowed here.
    return cast(alt.Chart, marked.encode(*channels, tooltip=tooltip))


def _x_with_tip(field: str, title: str, fmt: str) -> tuple[alt.X, alt.Tooltip]:
    """An x channel and its tooltip, both showing the value in format ``fmt``."""
    return (
        alt.X(field, title=title, axis=alt.Axis(format=fmt)),
        alt.Tooltip(field, title=title, format=fmt),
    )


def counts_bar(
    buckets: Sequence[Mapping[str, Any]],
    title: str,
    key_title: str,
    sort: Sequence[str] | None = None,
    horizontal: bool = True,
) -> alt.Chart:
    """Bars of ``[{key, count}]``."""
    df = pd.DataFrame(list(buckets), columns=["key", "count"])
    order: Any = list(sort) if sort is not None else "-x" if horizontal else "x"
    key_enc = alt.Y if horizontal else alt.X
    val_enc = alt.X if horizontal else alt.Y
    height: Any = alt.Step(BAR_STEP) if horizontal else HEIGHT
    return _plot(
        df,
        title,
        "bar",
        key_enc("key:N", title=key_title, sort=order),
        val_enc("count:Q", title="Tesis"),
        tooltip=[alt.Tooltip("key:N", title=key_title), alt.Tooltip("count:Q", title="Tesis")],
        height=height,
    )


def epoca_bar(buckets: Sequence[Mapping[str, Any]], title: str) -> alt.Chart:
    df = pd.DataFrame(list(buckets), columns=["key", "count"])
    present = [k for k in EPOCAS if k in set(df["key"])] + [k for k in df["key"] if k not in EPOCAS]
    return _plot(
        df,
        title,
        "bar",
        alt.Y("key:N", title="Época", sort=present),
        alt.X("count:Q", title="Tesis"),
        alt.Color("key:N", scale=epoca_scale(present), legend=None),
        tooltip=[alt.Tooltip("key:N", title="Época"), alt.Tooltip("count:Q", title="Tesis")],
        height=alt.Step(BAR_STEP),
    )


def year_bars(buckets: Sequence[Mapping[str, Any]], title: str) -> alt.Chart:
    """Tesis per year (``key`` is the year)."""
    df = pd.DataFrame(list(buckets), columns=["key", "count"])
    df["year"] = pd.to_numeric(df["key"], errors="coerce")
    x, x_tip = _x_with_tip("year:Q", "Año", "d")
    return _plot(
        df,
        title,
        "bar",
        x,
        alt.Y("count:Q", title="Tesis"),
        tooltip=[x_tip, alt.Tooltip("count:Q", title="Tesis")],
    )


def share_by_year(rows: Sequence[Mapping[str, Any]], title: str) -> alt.Chart:
    """``[{series, key (year), share}]`` as one line per series, shares within each series."""
    df = pd.DataFrame(list(rows), columns=["series", "key", "count", "share"])
    df["year"] = pd.to_numeric(df["key"], errors="coerce")
    x, x_tip = _x_with_tip("year:Q", "Año", "d")
    return _plot(
        df,
        title,
        "line",
        x,
        alt.Y("share:Q", title="Proporción de la serie", axis=alt.Axis(format="%")),
        alt.Color("series:N", title="Serie"),
        tooltip=[
            alt.Tooltip("series:N", title="Serie"),
            x_tip,
            alt.Tooltip("count:Q", title="Tesis"),
            alt.Tooltip("share:Q", title="Proporción", format=".1%"),
        ],
        point=True,
        interpolate="step-after",
    )


def year_step(years: Sequence[int]) -> int:
    """Years between two ticks of a time axis spanning ``years``: about a dozen ticks, never
    less than a year apart (a tick every half year read «1970 1970» under a yearly format)."""
    span = max(years) - min(years) if years else 0
    return next((s for s in (1, 2, 5, 10, 20, 50) if span <= 12 * s), 100)


def timeline(items: Sequence[Mapping[str, Any]]) -> alt.Chart:
    """Tesis on a time axis: x = ``punto`` (the date, or a day in the year of a tesis dated by
    year only), y = época, colour = época, shape = vigencia."""
    df = pd.DataFrame(list(items))
    present = [e for e in EPOCAS if e in set(df["epoca"])] + sorted(set(df["epoca"]) - set(EPOCAS))
    years = [int(str(p)[:4]) for p in df["punto"] if p]
    ticks = alt.TimeIntervalStep(interval="year", step=year_step(years))
    chart = (
        alt.Chart(df, height=max(HEIGHT, 40 * len(present)))
        .mark_point(size=110, filled=True, opacity=0.85)
        .encode(
            alt.X(
                "punto:T",
                title="Fecha",
                axis=alt.Axis(format="%Y", tickCount=ticks),
                scale=alt.Scale(padding=16),
            ),
            alt.Y("epoca:N", title="Época", sort=present),
            alt.Color("epoca:N", title="Época", scale=epoca_scale(present)),
            alt.Shape(
                "vigencia:N",
                title="Vigencia",
                scale=alt.Scale(domain=list(STATUS_COLORS), range=["circle", "cross"]),
            ),
            alt.Stroke(
                "vigencia:N",
                scale=alt.Scale(domain=list(STATUS_COLORS), range=list(STATUS_COLORS.values())),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("registro:Q", title="Registro", format="d"),
                alt.Tooltip("rubro_corto:N", title="Rubro"),
                alt.Tooltip("fecha_texto:N", title="Fecha"),
                alt.Tooltip("epoca:N", title="Época"),
                alt.Tooltip("estado:N", title="Vigencia"),
            ],
        )
        .encode(href="url:N")
        .interactive(bind_y=False)
    )
    return cast(alt.Chart, chart)


def histogram(bins: Sequence[Mapping[str, Any]], title: str, series: str = "profile") -> alt.Chart:
    """Pre-binned counts ``[{low, high, count, <series>}]``."""
    df = pd.DataFrame(list(bins))
    return _plot(
        df,
        title,
        "bar",
        alt.X("low:Q", title="Impulso (final / relevancia)", bin="binned"),
        alt.X2("high:Q"),
        alt.Y("count:Q", title="Resultados", stack=None),
        alt.Color(f"{series}:N", title="Perfil"),
        tooltip=[
            alt.Tooltip(f"{series}:N", title="Perfil"),
            alt.Tooltip("low:Q", title="Desde", format=".2f"),
            alt.Tooltip("high:Q", title="Hasta", format=".2f"),
            alt.Tooltip("count:Q", title="Resultados"),
        ],
        opacity=0.75,
    )


def share_lines(df: pd.DataFrame, x: str, title: str) -> alt.Chart:
    """Shares (0..1) over ``x``, one line per column."""
    long = df.melt(id_vars=[x], var_name="serie", value_name="valor")
    return _plot(
        long,
        title,
        "line",
        alt.X(f"{x}:O", title="Periodo"),
        alt.Y("valor:Q", title="Proporción", axis=alt.Axis(format="%")),
        alt.Color("serie:N", title="Serie"),
        tooltip=[
            alt.Tooltip(f"{x}:O", title="Periodo"),
            "serie:N",
            alt.Tooltip("valor:Q", title="Proporción", format=".1%"),
        ],
        point=True,
    )


def feedback_days(rows: Sequence[Mapping[str, Any]], title: str) -> alt.Chart:
    """``[{dia, opinion, n}]`` as stacked bars per day (a day without verdicts has no bar)."""
    df = pd.DataFrame(list(rows), columns=["dia", "opinion", "n"])
    df["dia"] = pd.to_datetime(df["dia"])
    # one band a day (a time axis repeated a day between its ticks) and whole counts
    df["fecha"] = df["dia"].dt.strftime("%d/%m/%Y")
    days = list(dict.fromkeys(df.sort_values("dia")["fecha"]))
    x = alt.X("fecha:O", title="Día", sort=days)
    x_tip = alt.Tooltip("fecha:O", title="Día")
    return _plot(
        df,
        title,
        "bar",
        x,
        alt.Y("n:Q", title="Opiniones", axis=alt.Axis(tickMinStep=1, format="d")),
        alt.Color(
            "opinion:N",
            title="Opinión",
            scale=alt.Scale(domain=["Útil", "No útil"], range=["#2e7d32", "#c62828"]),
        ),
        tooltip=[
            x_tip,
            alt.Tooltip("opinion:N", title="Opinión"),
            alt.Tooltip("n:Q", title="Opiniones"),
        ],
    )

"""Monitoreo: boost distribution, temporal distributions, alerts, recent searches and feedback."""

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import client
from dashboard.components import api_status, charts, filters, monitoring, page
from dashboard.formatting import EPOCAS, count, datetime_es
from dashboard.spanish import word

page.start("Monitoreo")
WINDOWS = {24: "Últimas 24 horas", 168: "Últimos 7 días", 720: "Últimos 30 días"}
left, right = st.columns([3, 1], vertical_alignment="bottom")
hours = left.selectbox(
    "Periodo",
    list(WINDOWS),
    index=1,
    key="monitoreo_window",
    format_func=WINDOWS.__getitem__,
    placeholder=filters.PICK,
)
with right:
    api_status.refresh_button("monitoreo_refresh")

data: Mapping[str, Any] = api_status.attempt("Monitoreo", client.monitoring, hours) or {}
if "searches" in data:
    cols = st.columns(5)
    cols[0].metric("Búsquedas y consultas", count(data.get("searches")))
    cols[1].metric("Resultados mostrados", count(data.get("hits")))
    cols[2].metric(
        "Sin respuesta",
        count(data.get("abstentions")),
        help="Búsquedas y consultas en que ninguna tesis respondía a la pregunta.",
    )
    cols[3].metric(
        "Confianza baja",
        count(data.get("lowConfidence")),
        help="Respuestas por relevancia cuyo primer resultado no aventajaba con claridad a los "
        "demás o quedaba cerca del umbral de abstención.",
    )
    health = data.get("logHealth") or {}
    cols[4].metric(
        "Registro de búsquedas", word(health.get("status")), help=health.get("lastError") or None
    )
    if data.get("truncated"):
        st.caption("El periodo tiene más entradas de las leídas; las cifras son parciales.")
st.subheader("Distribución del impulso por recencia")
bins = monitoring.histogram_rows(data.get("boostHistogram") or [])
if bins:
    st.altair_chart(
        charts.histogram(bins, "Impulso = puntuación final / relevancia"), key="monitoreo_boost"
    )
else:
    st.caption("Sin búsquedas en el periodo.")
st.subheader("Distribución temporal: recuperadas, citadas y corpus")
series = monitoring.temporal_series(data)
by_year = monitoring.temporal_rows(series, "byYear")
if by_year:
    chart = charts.share_by_year(by_year, "Proporción por año")
    st.altair_chart(chart, key="monitoreo_years")
by_epoca = monitoring.temporal_rows(series, "byEpoca")
if by_epoca:
    df = pd.DataFrame(by_epoca).pivot_table(index="key", columns="series", values="share")
    order = [e for e in EPOCAS if e in df.index] + [e for e in df.index if e not in EPOCAS]
    columns = [c for c in monitoring.SERIES.values() if c in df.columns]
    df = df.reindex(order)[columns].fillna(0.0).rename_axis("Época")
    st.dataframe(df.style.format("{:.1%}", na_rep="—"), key="monitoreo_epocas")
st.subheader("Fuentes anteriores a la reforma o superadas")
shares = data.get("shares")
frame, period = monitoring.shares_frame(shares)
if frame is not None and period is not None:
    st.altair_chart(
        charts.share_lines(frame, period, "Proporción en el tiempo"), key="monitoreo_shares"
    )
elif isinstance(shares, dict):
    monitoring.shares_metrics(shares)
    st.caption("Proporciones del periodo elegido; cambie el periodo para compararlas.")
if data.get("byMateria"):
    st.dataframe(monitoring.materia_frame(data["byMateria"]), hide_index=True)
st.subheader("Alertas")
monitoring.alerts_list(data.get("alerts") or [])

st.subheader("Opiniones de los usuarios")
summary = api_status.attempt("Opiniones", client.feedback_summary, hours)
if summary is not None:
    monitoring.feedback_summary(summary)

st.subheader("Búsquedas recientes")
entries = api_status.attempt("Registro de búsquedas", client.search_log, 50) or []
if entries:
    st.dataframe(
        monitoring.log_frame(entries),
        hide_index=True,
        key="monitoreo_log",
        column_config=monitoring.LOG_CONFIG,
    )
    by_id = {str(e["id"]): e for e in entries}
    chosen = st.selectbox(
        "Ver detalle de",
        list(by_id),
        key="monitoreo_entry",
        placeholder=filters.PICK,
        format_func=lambda i: (
            f"{datetime_es(by_id[i].get('timestamp'))} — {by_id[i].get('question')}"
        ),
    )
    monitoring.drill_down(by_id[chosen], True)
else:
    st.caption("Aún no hay búsquedas registradas.")

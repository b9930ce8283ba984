"""Pieces of the Monitoreo page: flattening the monitoring payload, alerts, log drill-down."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import client
from dashboard.components import api_status
from dashboard.formatting import count, datetime_es, escape_md, pct, severity_badge

SERIES = {"retrieved": "Recuperadas", "cited": "Citadas", "corpus": "Corpus"}
LOG_COLUMNS = ["Fecha", "Pregunta", "Materia", "Temporal", "Perfil", "Peso de la recencia"]


def histogram_rows(histograms: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"profile": h.get("profile") or "—", **b} for h in histograms for b in h.get("bins") or []
    ]


def temporal_rows(temporal: Sequence[Mapping[str, Any]], by: str) -> list[dict[str, Any]]:
    """``[{series, key, count, share}]``; share is within its series, so sizes compare."""
    rows: list[dict[str, Any]] = []
    for serie in temporal:
        buckets = list(serie.get(by) or [])
        total = sum(int(b.get("count") or 0) for b in buckets) or 1
        name = SERIES.get(str(serie.get("series")), str(serie.get("series")))
        rows += [{"series": name, "key": b["key"], "count": b["count"],
                  "share": (b["count"] or 0) / total} for b in buckets]  # fmt: skip
    return rows


def shares_frame(shares: Any) -> tuple[pd.DataFrame | None, str | None]:
    """A list of per-period share rows as ``(frame, period column)``; else ``(None, None)``."""
    if not isinstance(shares, list) or not shares or not isinstance(shares[0], dict):
        return None, None
    df = pd.DataFrame(shares)
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    period = next((c for c in df.columns if c not in numeric), None)
    if period is None and numeric:
        period, numeric = numeric[0], numeric[1:]
    return (df[[period, *numeric]], period) if numeric else (None, None)


def shares_metrics(shares: Mapping[str, Any]) -> None:
    numeric = {k: v for k, v in shares.items() if isinstance(v, int | float)}
    for column, (name, value) in zip(
        st.columns(max(len(numeric), 1)), numeric.items(), strict=False
    ):
        column.metric(name, pct(value) if 0 <= value <= 1 else count(int(value)))


def alerts_list(alerts: Sequence[Mapping[str, Any]]) -> None:
    if not alerts:
        st.success("Sin alertas en este periodo.")
        return
    for i, alert in enumerate(alerts):
        with st.container(border=True, key=f"alert_{i}"):
            severity = str(alert.get("severity") or "info")
            st.markdown(
                f"{severity_badge(severity)} **{escape_md(str(alert.get('code')))}** · "
                f"{count(alert.get('count'))} veces"
            )
            extra = f" — {alert['message']}" if alert.get("message") else ""
            st.caption(
                f"Primera vez: {datetime_es(alert.get('firstSeen'))} · "
                f"última: {datetime_es(alert.get('lastSeen'))}{extra}"
            )
            examples = list(alert.get("examples") or [])
            if examples:
                with st.expander(f"Consultas de ejemplo ({len(examples)})"):
                    st.markdown("\n".join(f"- {escape_md(str(e))}" for e in examples))


def log_frame(entries: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    rows = [
        [datetime_es(e.get("timestamp")), e.get("question"), e.get("materia") or "—",
         e.get("temporal") or "—", e.get("profile") or "—", pct(e.get("recencyWeight"), 0)]
        for e in entries
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=LOG_COLUMNS)


def drill_down(entry: Mapping[str, Any], can_feedback: bool) -> None:
    """The hits of one logged search, each with useful / not useful feedback buttons."""
    hits = list(entry.get("hits") or [])
    if not hits:
        st.caption("Esta búsqueda no tuvo resultados.")
        return
    comment = st.text_input("Comentario (opcional)", key=f"log_comment_{entry['id']}")
    for i, hit in enumerate(hits):
        registro = hit.get("registro")
        with st.container(border=True, key=f"log_hit_{entry['id']}_{i}"):
            details = [f"**{hit['rank']}.**" if hit.get("rank") else f"**{i + 1}.**",
                       f"Registro {registro}"]  # fmt: skip
            if hit.get("rubro"):
                details.append(escape_md(str(hit["rubro"])[:160]))
            if hit.get("finalScore") is not None:
                details.append(f"puntuación {pct(hit['finalScore'])}")
            st.markdown(" · ".join(details))
            if can_feedback and registro is not None:
                _feedback_buttons(entry["id"], int(registro), comment)


def _feedback_buttons(log_id: Any, registro: int, comment: str) -> None:
    done = st.session_state.setdefault("feedback_sent", {})
    key = f"{log_id}:{registro}"
    if key in done:
        st.caption("Gracias: opinión registrada (" + ("útil" if done[key] else "no útil") + ").")
        return
    left, right, _ = st.columns([1, 1, 4])
    options = ((left, True, "Útil", ":material/thumb_up:"),
               (right, False, "No útil", ":material/thumb_down:"))  # fmt: skip
    for column, useful, label, icon in options:
        if column.button(label, key=f"fb_{key}_{useful}", icon=icon):
            sent = api_status.attempt(
                "Opinión", client.feedback, log_id, registro, useful, comment or None
            )
            if sent is not None:
                done[key] = useful
                st.toast("Opinión registrada")
                st.rerun()

"""Pieces of the Monitoreo page: flattening the monitoring payload, alerts, log drill-down."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.components import charts, feedback
from dashboard.components.references import first_per_registro
from dashboard.components.scoring import LINK
from dashboard.formatting import (
    count,
    datetime_es,
    escape_md,
    estado_label,
    facts_line,
    pct,
    severity_badge,
    tesis_url,
    year,
)
from dashboard.spanish import code_help, code_label, word
from dashboard.stats_payloads import Alert, LogEntry, MateriaBreakdown

MAX_COMMENT_CHARS = 2000  # the API's limit on a feedback comment
SERIES = {"retrieved": "Recuperadas", "cited": "Citadas", "corpus": "Corpus"}
LOG_COLUMNS = ["Fecha", "Pregunta", "Materia", "Temporal", "Peso de la recencia"]
LOG_CONFIG = {
    "Fecha": st.column_config.Column(width=175),
    "Pregunta": st.column_config.Column(width=150),
    "Materia": st.column_config.Column(width=80),
    "Temporal": st.column_config.Column(width=90),
    "Peso de la recencia": st.column_config.Column("Recencia", width=60),
}


def histogram_rows(histograms: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"profile": word(h.get("profile")), **b} for h in histograms for b in h.get("bins") or []
    ]


def temporal_series(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The retrieved/cited/corpus series: ``temporalSeries``, else the ``temporal`` object."""
    series = data.get("temporalSeries")
    if series:
        return list(series)
    temporal = data.get("temporal") or []
    if isinstance(temporal, Mapping):
        return [{"series": k, **v} for k, v in temporal.items() if isinstance(v, Mapping)]
    return list(temporal)


def temporal_rows(temporal: Sequence[Mapping[str, Any]], by: str) -> list[dict[str, Any]]:
    """``[{series, key, count, share}]``; share is within its series, so sizes compare.

    By year, every year between the first and the last of all series gets a row: a year a
    series has no data for has ``share`` None, so its line breaks there instead of drawing a
    flat segment across years without data.
    """
    rows: list[dict[str, Any]] = []
    years = sorted(
        {int(b["key"]) for s in temporal for b in s.get(by) or [] if str(b.get("key")).isdigit()}
    )
    for serie in temporal:
        buckets = list(serie.get(by) or [])
        total = sum(int(b.get("count") or 0) for b in buckets) or 1
        name = SERIES.get(str(serie.get("series")), str(serie.get("series")))
        rows += [
            {
                "series": name,
                "key": b["key"],
                "count": b["count"],
                "share": (b["count"] or 0) / total,
            }
            for b in buckets
        ]
        if by == "byYear" and years:
            have = {str(b["key"]) for b in buckets}
            rows += [
                {"series": name, "key": str(y), "count": None, "share": None}
                for y in range(years[0], years[-1] + 1)
                if str(y) not in have
            ]
    return rows


def shares_frame(shares: object) -> tuple[pd.DataFrame | None, str | None]:
    """A list of per-period share rows as ``(frame, period column)``; else ``(None, None)``."""
    if not isinstance(shares, list) or not shares or not isinstance(shares[0], dict):
        return None, None
    df = pd.DataFrame(shares)
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    period = next((c for c in df.columns if c not in numeric), None)
    if period is None and numeric:
        period, numeric = numeric[0], numeric[1:]
    return (df[[period, *numeric]], period) if numeric else (None, None)


SHARE_LABELS = {
    "preBefore2000": "Anteriores a 2000",
    "preReform": "Anteriores a la reforma",
    "superseded": "Sin vigencia",
    "preRepeal": "Anteriores a la derogación",
    "hits": "Resultados",
    "reformHits": "Con materia reformada",
}


def shares_metrics(shares: Mapping[str, Any]) -> None:
    """Fractions as percentages, counts as counts, labelled in Spanish, on one line."""
    items = [(k, v) for k, v in shares.items() if isinstance(v, int | float) and k != "__typename"]
    shown = [
        f"{SHARE_LABELS.get(k, k)}: {pct(v) if isinstance(v, float) else count(v)}"
        for k, v in items
    ]
    st.markdown(facts_line(*shown))


MATERIA_COLUMNS = ["Materia", "Búsquedas", "Resultados", "Anteriores a la reforma"]


def materia_frame(rows: Sequence[MateriaBreakdown]) -> pd.DataFrame:
    data = [
        [
            r.get("materia") or "Sin materia",
            r.get("searches"),
            r.get("hits"),
            pct(r.get("preReformShare")),
        ]
        for r in rows
    ]
    return pd.DataFrame(data, columns=MATERIA_COLUMNS)


def alerts_list(alerts: Sequence[Alert]) -> None:
    if not alerts:
        st.success("Sin alertas en este periodo.")
        return
    for i, alert in enumerate(alerts):
        with st.container(border=True, key=f"alert_{i}"):
            severity = str(alert.get("severity") or "info")
            n = alert.get("count")
            times = f" · {count(n)} {'vez' if n == 1 else 'veces'}" if n else ""
            code = alert.get("code")
            st.markdown(
                f"{severity_badge(severity)} **{code_label(code)}**{times}", help=code_help(code)
            )
            if alert.get("message"):
                st.markdown(escape_md(str(alert["message"])))
            st.caption(
                f"Primera vez: {datetime_es(alert.get('firstSeen'))} · "
                f"última: {datetime_es(alert.get('lastSeen'))}"
            )
            examples = list(alert.get("examples") or [])
            if examples:
                with st.expander(f"Consultas de ejemplo ({len(examples)})"):
                    st.markdown("\n".join(f"- {escape_md(str(e))}" for e in examples))


def log_frame(entries: Sequence[LogEntry]) -> pd.DataFrame:
    rows = [
        [
            datetime_es(e.get("timestamp")),
            e.get("question"),
            e.get("materia") or "—",
            word(e.get("temporal")),
            pct(e.get("recencyWeight"), 0),
        ]
        for e in entries
    ]
    return pd.DataFrame(rows, columns=LOG_COLUMNS)


HIT_COLUMNS = ["Pos.", "Sin rec.", "Registro", "Año", "Vigencia", "Final", "Rubro"]
HIT_CONFIG = {
    "Pos.": st.column_config.Column(width=40, help="Posición de la tesis con recencia"),
    "Sin rec.": st.column_config.Column(
        width=55, help="Posición de la tesis sin recencia, entre estas tesis"
    ),
    "Registro": LINK,
    "Año": st.column_config.Column(width=45),
    "Vigencia": st.column_config.Column(width=90),
    "Final": st.column_config.Column(width=60),
    "Rubro": st.column_config.Column(width="medium"),
}


def hits_frame(hits: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per tesis, numbered as the answer numbered them (1, 2, 3), not by the rank of
    their chunks (1, 3, 5); 'Sin rec.' is their order by their best rank without recency."""
    tesis = first_per_registro(hits)
    without = {registro: i + 1 for i, registro in enumerate(_by_rank_without_recency(hits))}
    data = [
        [
            position,
            without.get(int(h["registro"])),
            tesis_url(int(h["registro"])),
            year(h.get("anio")),
            estado_label(h.get("estado")),
            pct(h.get("finalScore")),
            h.get("rubro"),
        ]
        for position, h in enumerate(tesis, start=1)
    ]
    return pd.DataFrame(data, columns=HIT_COLUMNS)


def _by_rank_without_recency(hits: Sequence[Mapping[str, Any]]) -> list[int]:
    """The registros of ``hits`` ordered by their best chunk's rank without recency (those
    without one left out)."""
    best: dict[int, int] = {}
    for h in hits:
        rank, registro = h.get("rankWithoutRecency"), int(h["registro"])
        if isinstance(rank, int):
            best[registro] = min(best.get(registro, rank), rank)
    return sorted(best, key=best.__getitem__)


def drill_down(entry: LogEntry, can_feedback: bool) -> None:
    """One logged search: how it was read, its hits and discards; feedback per hit."""
    facts = [
        f"Tipo: {word(entry.get('kind'))}",
        f"perfil {word(entry.get('profile'))}",
        f"peso de la recencia {pct(entry.get('recencyWeight'), 0)}",
    ]
    if entry.get("route"):
        facts.append(f"ordenación {word(entry['route'])}")
    if entry.get("cutoffYear"):
        facts.append(f"corte {year(entry['cutoffYear'])}")
    if entry.get("latencyMs") is not None:
        facts.append(f"{entry['latencyMs']:.0f} ms")
    st.caption(facts_line(*facts))
    if entry.get("abstainReason"):
        st.info(f"Sin respuesta: {escape_md(str(entry['abstainReason']))}", icon=":material/block:")
    hits = list(entry.get("hits") or [])
    if not hits:
        st.caption("Esta búsqueda no tuvo resultados.")
        return
    st.dataframe(
        hits_frame(hits), hide_index=True, key=f"log_hits_{entry['id']}", column_config=HIT_CONFIG
    )
    for d in entry.get("discarded") or []:
        st.caption(
            f"Descartada {d.get('registro')} ({year(d.get('anio'))}): "
            f"{code_label(d.get('code'))} — {escape_md(str(d.get('reason') or ''))}"
        )
    if not can_feedback:
        return
    given = {int(f["registro"]): bool(f["useful"]) for f in entry.get("feedback") or []}
    st.markdown("**Opinión sobre cada resultado**")
    comment = st.text_input(
        "Comentario (opcional)", key=f"log_comment_{entry['id']}", max_chars=MAX_COMMENT_CHARS
    )
    for i, hit in enumerate(first_per_registro(hits)):
        registro = int(hit["registro"])
        with st.container(border=True, key=f"log_hit_{entry['id']}_{i}"):
            rubro = escape_md(str(hit.get("rubro") or ""))[:160]
            st.markdown(f"**{i + 1}.** Registro {registro} · {rubro}")
            feedback.buttons(entry["id"], registro, comment, given.get(registro))


def feedback_summary(summary: Mapping[str, Any]) -> None:
    """Totals, a bar per day (useful above, not useful below) and a table per materia."""
    useful, bad = int(summary.get("useful") or 0), int(summary.get("notUseful") or 0)
    cols = st.columns(3)
    cols[0].metric("Útiles", count(useful))
    cols[1].metric("No útiles", count(bad))
    cols[2].metric("Proporción útil", pct(useful / (useful + bad)) if useful + bad else "—")
    if not useful + bad:
        st.caption("Sin opiniones en el periodo.")
        return
    days = [
        {"dia": d["key"], "opinion": label, "n": int(d[k])}
        for d in summary.get("byDay") or []
        for k, label in (("useful", "Útil"), ("notUseful", "No útil"))
    ]
    st.altair_chart(charts.feedback_days(days, "Opiniones por día"), key="monitoreo_feedback")
    rows = [
        [m.get("key") or "Sin materia", m.get("useful"), m.get("notUseful")]
        for m in summary.get("byMateria") or []
    ]
    st.dataframe(
        pd.DataFrame(rows, columns=["Materia", "Útiles", "No útiles"]),
        hide_index=True,
        key="monitoreo_feedback_materia",
    )

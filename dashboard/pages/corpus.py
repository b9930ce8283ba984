"""Corpus: tesis by época, materia, tipo and year; coverage gaps; the last ingest."""

import pandas as pd
import streamlit as st

from dashboard.components import api_status, charts, page
from dashboard.formatting import count, datetime_es, year

stats = page.start("Corpus")
api_status.refresh_button("corpus_refresh")

if stats:
    total = stats.get("total") or sum(b["count"] for b in stats.get("byEpoca") or [])
    cols = st.columns(3)
    cols[0].metric("Tesis en el corpus", count(total))
    if stats.get("chunks") is not None:
        cols[1].metric("Fragmentos indexados", count(stats["chunks"]))
    left, right = st.columns(2)
    if stats.get("byEpoca"):
        left.altair_chart(charts.epoca_bar(stats["byEpoca"], "Por época"), key="corpus_epoca")
    if stats.get("byMateria"):
        right.altair_chart(
            charts.counts_bar(stats["byMateria"], "Por materia", "Materia"), key="corpus_materia"
        )
    if stats.get("byTipo"):
        left.altair_chart(charts.counts_bar(stats["byTipo"], "Por tipo", "Tipo"), key="corpus_tipo")
    if stats.get("byYear"):
        right.altair_chart(charts.year_bars(stats["byYear"], "Por año"), key="corpus_year")

    st.subheader("Huecos de cobertura desde la reforma")
    gaps = stats.get("coverageGaps")
    if gaps:
        df = pd.DataFrame(
            [[g.get("materia"), year(g.get("cutoffYear")), g.get("countSince")] for g in gaps],
            columns=["Materia", "Año de corte", "Tesis desde el corte"],
        )
        zero = "background-color: #ffcdd2; color: #b71c1c; font-weight: 600"
        styled = df.style.map(lambda n: zero if n == 0 else "", subset=["Tesis desde el corte"])
        st.dataframe(styled, hide_index=True, key="corpus_gaps")
        st.caption(
            "Año de corte: la reforma de cada materia. Sin tesis posteriores (en rojo), el "
            "corpus puede no reflejar el derecho vigente: hay que actualizarlo."
        )
    elif gaps is not None:
        st.success("Sin huecos: todas las materias tienen tesis posteriores a su reforma.")

    st.subheader("Última carga")
    ingest = stats.get("lastIngest")
    if ingest:
        st.caption(f"Terminó: {datetime_es(ingest.get('finishedAt'))}")
        rejected, warnings = ingest.get("rejected"), ingest.get("warnings")
        figures = {
            "Leídas": ingest.get("read"),
            "Guardadas": ingest.get("stored"),
            "Sin cambios": ingest.get("unchanged"),
            "Fragmentos": ingest.get("chunks"),
            "Rechazadas": len(rejected) if isinstance(rejected, list) else rejected,
            "Advertencias": len(warnings) if isinstance(warnings, list) else warnings,
        }
        shown = [(k, v) for k, v in figures.items() if v is not None]
        for column, (label, value) in zip(st.columns(len(shown)), shown, strict=True):
            column.metric(label, count(value))
        for label, items in (("Rechazos", rejected), ("Advertencias", warnings)):
            if isinstance(items, list) and items:
                with st.expander(f"{label} ({len(items)})"):
                    st.code("\n".join(map(str, items)), language=None)
    elif "lastIngest" in stats:
        st.caption("No hay informe de carga.")

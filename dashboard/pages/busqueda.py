"""Búsqueda y puntuación: the score of every tesis, what was discarded, with vs. without recency.

One search per click: the API returns the ranking without recency beside the real one.
"""

import streamlit as st

from dashboard import client
from dashboard.components import api_status, explain, filters, page, references, scoring
from dashboard.formatting import escape_md, pct, profile_label, retrieval_label, temporal_mode_label

MAX_QUERY_CHARS = 2000
SUPERSEDED = {None: "Según la API", True: "Mantener (degradadas)", False: "Descartar"}
PROFILES = ("DEFAULT", "SEED")
MODES = ("HYBRID", "VECTOR", "LEXICAL")
TEMPORAL = (None, "AUTO", "OFF", "SORT", "BLEND")

stats = page.start(
    "Búsqueda y puntuación",
    "Cómo se calcula cada resultado: similitud × recencia × época, y qué cambia la recencia.",
)

with st.form("busqueda_form"):
    query = st.text_input("Consulta", key="busqueda_query", max_chars=MAX_QUERY_CHARS)
    chosen = filters.filters("busqueda", stats)
    cols = st.columns(4)
    with cols[0]:
        weight = filters.recency_control("busqueda_recency")
    top_k = cols[1].number_input("Resultados", 1, 50, 10, key="busqueda_top_k")
    profile = cols[2].selectbox(
        "Perfil de puntuación",
        PROFILES,
        key="busqueda_profile",
        format_func=profile_label,
        placeholder=filters.PICK,
    )
    mode = cols[3].selectbox(
        "Recuperación",
        MODES,
        key="busqueda_mode",
        format_func=retrieval_label,
        placeholder=filters.PICK,
    )
    extra = st.columns(3)
    superseded = extra[0].selectbox(
        "Tesis sin vigencia",
        list(SUPERSEDED),
        help="Tesis que perdieron vigencia según las notas del SJF.",
        format_func=SUPERSEDED.__getitem__,
        key="busqueda_superseded",
        placeholder=filters.PICK,
    )
    temporal = extra[1].selectbox(
        "Preguntas de orden",
        TEMPORAL,
        help="Cómo se ordenan «la más antigua» o «la más reciente».",
        format_func=temporal_mode_label,
        key="busqueda_temporal",
        placeholder=filters.PICK,
    )
    rules = extra[2].checkbox(
        "Reglas de vigencia",
        value=True,
        key="busqueda_rules",
        help="Descartar lo anterior a la reforma de la materia y a la Novena Época.",
    )
    searched = st.form_submit_button("Buscar", type="primary", key="busqueda_search")

if searched and query.strip():
    ask = {
        "query": query,
        "filters": chosen,
        "topK": int(top_k),
        "profile": profile,
        "mode": mode,
        "includeSuperseded": superseded,
        "temporalMode": temporal,
        "vigenciaRules": rules,
        "recencyWeight": weight,
    }
    st.session_state.pop("busqueda_ref", None)
    st.session_state["busqueda_result"] = api_status.attempt("Búsqueda", client.search, ask)
    st.session_state["busqueda_asked"] = query
elif searched:
    st.warning("Escriba una consulta.")

result = st.session_state.get("busqueda_result")
if result:
    hits = result.get("hits") or []
    tesis = references.group_by_registro(hits)
    st.caption(f"Resultados de: «{escape_md(st.session_state.get('busqueda_asked', ''))}»")
    if result.get("abstained"):
        st.info(
            result.get("abstainReason") or "Ninguna tesis responde a la consulta.",
            icon=":material/block:",
        )
    else:
        explain.confidence(result.get("confidence"))
    cols = st.columns(4)
    cols[0].metric(
        "Candidatos", result.get("candidates", "—"), help="Fragmentos puntuados antes del corte"
    )
    cols[1].metric(
        "Peso aplicado",
        pct(result.get("recencyWeight"), 0),
        help="Peso de la recencia que la API aplicó (el suyo en «Automático»).",
    )
    cols[2].metric("Tesis", len(tesis))
    cols[3].metric("Fragmentos", len(hits))
    timings = result.get("timings") or {}
    st.caption(
        f"Perfil: {profile_label(result.get('profile'))} · "
        f"recuperación: {retrieval_label(result.get('mode'))} · tiempos: "
        + ", ".join(
            f"{label} {timings[k]:.0f} ms"
            for k, label in (
                ("embedMs", "vector"),
                ("retrieveMs", "búsqueda"),
                ("scoreMs", "puntuación"),
            )
            if timings.get(k) is not None
        )
    )
    st.subheader("Intención detectada")
    explain.intent_summary(result.get("intent"))
    st.subheader("Desglose de la puntuación, por tesis")
    if not tesis:  # an empty table reads «empty», in English
        st.caption("Ninguna tesis que desglosar.")
    else:
        frame = scoring.breakdown_frame(tesis, result.get("withoutRecency") or [])
        st.dataframe(
            scoring.breakdown_styler(frame),
            hide_index=True,
            key="busqueda_breakdown",
            column_config=scoring.BREAKDOWN_CONFIG,
        )
        with st.expander("Todos los factores de cada tesis"):
            st.dataframe(
                scoring.breakdown_styler(scoring.factors_frame(tesis)),
                hide_index=True,
                key="busqueda_factors",
                column_config=scoring.BREAKDOWN_CONFIG,
            )
        st.caption("Detalle de cada tesis (sus fragmentos, la cita y el texto completo):")
        numbered = {
            i + 1: references.hits_as_reference(group, i + 1) for i, group in enumerate(tesis)
        }
        references.badge_bar(sorted(numbered), "busqueda_ref")
        opened = st.session_state.get("busqueda_ref")
        if opened in numbered:
            references.reference_panel(numbered[opened], result.get("logId"))
    st.subheader("Descartadas")
    explain.discarded_table(result.get("discarded"), "busqueda_discarded")
    st.subheader("Sin y con recencia")
    compare = scoring.comparison_from_searches(result.get("withoutRecency") or [], hits)
    scoring.show_comparison(compare, result)

"""Búsqueda y puntuación: the score of every hit, what was discarded, with vs. without recency."""

import streamlit as st

from dashboard import client
from dashboard.components import api_status, explain, filters, page, references, scoring
from dashboard.formatting import pct, profile_label, retrieval_label, temporal_mode_label

schema = page.start(
    "Búsqueda y puntuación",
    "Cómo se calcula cada resultado: similitud × recencia × época, y qué cambia la recencia.",
)
SUPERSEDED = {None: "Según la API", True: "Mantener (degradadas)", False: "Descartar"}


def _input_has(name: str) -> bool:
    return schema is None or schema.has("SearchInput", name)


with st.form("busqueda_form"):
    query = st.text_input("Consulta", key="busqueda_query")
    chosen = filters.filters("busqueda", schema)
    cols = st.columns(4)
    with cols[0]:
        weight = filters.recency_slider("busqueda_recency")
    top_k = cols[1].number_input("Resultados", 1, 50, 10, key="busqueda_top_k")
    profiles = filters.enum_options(schema, "ScoringProfile", ("DEFAULT", "SEED"))
    profile = cols[2].selectbox("Perfil de puntuación", profiles, key="busqueda_profile",
                                format_func=profile_label)  # fmt: skip
    modes = filters.enum_options(schema, "RetrievalMode", ("HYBRID", "VECTOR", "LEXICAL"))
    mode = cols[3].selectbox("Recuperación", modes, key="busqueda_mode",
                             format_func=retrieval_label)  # fmt: skip
    superseded = temporal = rules = None
    extra = st.columns(3)
    if _input_has("includeSuperseded"):
        superseded = extra[0].selectbox("Tesis que perdieron vigencia", [None, True, False],
                                        format_func=SUPERSEDED.get, key="busqueda_superseded")  # fmt: skip
    if _input_has("temporalMode") and schema is not None:
        field = schema.field_type("SearchInput", "temporalMode")
        options = [None, *schema.enum_values(field.named if field else "")]
        temporal = extra[1].selectbox("Preguntas de orden (más antigua / reciente)", options,
                                      format_func=temporal_mode_label, key="busqueda_temporal")  # fmt: skip
    if _input_has("vigenciaRules"):
        rules = extra[2].checkbox("Aplicar reglas de vigencia (corte por reforma, pre-Novena)",
                                  value=True, key="busqueda_rules")  # fmt: skip
    searched = st.form_submit_button("Buscar", type="primary", key="busqueda_search")

if searched and query.strip():
    base = {"query": query, "filters": chosen, "topK": top_k, "profile": profile, "mode": mode,
            "includeSuperseded": superseded, "temporalMode": temporal, "vigenciaRules": rules}  # fmt: skip
    st.session_state.pop("busqueda_ref", None)
    st.session_state["busqueda_result"] = api_status.attempt(
        "Búsqueda", client.search, {**base, "recencyWeight": weight}
    )
    if schema is None or schema.root_of("compareRankings"):  # A: without recency, B: with it
        ask = {"query": query, "filters": chosen, "topK": top_k,
               "a": {"recencyWeight": 0.0, "profile": profile},
               "b": {"recencyWeight": weight, "profile": profile}}  # fmt: skip
        compare = api_status.attempt("Comparación", client.compare_rankings, ask)
    else:
        without = api_status.attempt("Búsqueda", client.search, {**base, "recencyWeight": 0.0})
        found = st.session_state["busqueda_result"]
        compare = (
            found and without and scoring.comparison_from_searches(without["hits"], found["hits"])
        )
    st.session_state["busqueda_compare"] = compare
elif searched:
    st.warning("Escriba una consulta.")

result = st.session_state.get("busqueda_result")
if result:
    hits = result.get("hits") or []
    cols = st.columns(3)
    cols[0].metric("Candidatos puntuados", result.get("candidates", "—"))
    cols[1].metric("Peso de la recencia", pct(result.get("recencyWeight"), 0))
    cols[2].metric("Resultados", len(hits))
    timings = result.get("timings") or {}
    st.caption(
        f"Perfil: {profile_label(result.get('profile'))} · "
        f"recuperación: {retrieval_label(result.get('mode'))} · tiempos: "
        + ", ".join(f"{label} {timings[k]:.0f} ms" for k, label in
                    (("embedMs", "vector"), ("retrieveMs", "búsqueda"), ("scoreMs", "puntuación"))
                    if timings.get(k) is not None)
    )  # fmt: skip
    st.subheader("Intención detectada")
    if "intent" in result:
        explain.intent_summary(result["intent"])
    else:
        api_status.not_available("Detección de intención", "SearchPayload.intent")
    st.subheader("Desglose de la puntuación")
    frame = scoring.breakdown_frame(hits)
    st.dataframe(scoring.breakdown_styler(frame), hide_index=True, key="busqueda_breakdown",
                 column_config=scoring.BREAKDOWN_CONFIG)  # fmt: skip
    if hits:
        st.caption("Detalle de cada resultado:")
        numbered = {i + 1: references.hit_as_reference(h, i + 1) for i, h in enumerate(hits)}
        references.badge_bar(sorted(numbered), "busqueda_ref")
        opened = st.session_state.get("busqueda_ref")
        if opened in numbered:
            can_feedback = schema is None or schema.root_of("feedback") is not None
            log_id = result.get("logId") if can_feedback else None
            references.reference_panel(numbered[opened], log_id)
    st.subheader("Descartadas")
    if "discarded" in result:
        explain.discarded_table(result["discarded"], "busqueda_discarded")
    else:
        api_status.not_available("Resultados descartados con motivo", "SearchPayload.discarded")

compare = st.session_state.get("busqueda_compare")
if result and compare:
    st.subheader("Sin y con recencia")
    if schema is not None and not schema.root_of("compareRankings"):
        api_status.not_available("compareRankings", "compareRankings")
        st.caption("Mientras tanto, la comparación se calcula con dos búsquedas.")
    scoring.show_comparison(compare, result)

"""Consulta: ask a question; each [N] of the answer opens its reference in place."""

import streamlit as st

from dashboard import client
from dashboard.components import answer, api_status, filters, page

MAX_QUESTION_CHARS = 2000  # the API's limit on a question

stats = page.start(
    "Consulta", "Pregunte sobre la jurisprudencia; cada [N] de la respuesta abre su referencia."
)

with st.form("consulta_form"):
    question = st.text_area(
        "Pregunta", key="consulta_question", height=90, max_chars=MAX_QUESTION_CHARS
    )
    chosen = filters.filters("consulta", stats)
    left, right = st.columns(2)
    with left:
        weight = filters.recency_control("consulta_recency")
    max_refs = right.number_input("Referencias como máximo", 1, 20, 5, key="consulta_max_refs")
    superseded = st.checkbox(
        "Incluir tesis que perdieron vigencia",
        key="consulta_superseded",
        help="Sin marcar, la respuesta no usa criterios superados, abandonados o sustituidos.",
    )
    asked = st.form_submit_button("Preguntar", type="primary", key="consulta_ask")

if asked and not question.strip():
    st.warning("Escriba una pregunta.")
elif asked:
    st.session_state.pop("consulta_ref", None)
    ask = {
        "question": question,
        "filters": chosen,
        "recencyWeight": weight,
        "maxReferences": max_refs,
        "includeSuperseded": superseded,
    }
    with st.spinner("Buscando y redactando la respuesta…"):
        result = api_status.attempt("Consulta", client.chat, ask)
    st.session_state["consulta_result"] = result
    st.session_state["consulta_asked"] = question

if result := st.session_state.get("consulta_result"):
    answer.show(result, "consulta_ref", st.session_state.get("consulta_asked", ""))

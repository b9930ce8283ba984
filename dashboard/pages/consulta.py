"""Consulta: ask a question; the answer cites [N] badges that open each reference."""

import streamlit as st

from dashboard import client
from dashboard.components import answer, api_status, filters, page, references

schema = page.start(
    "Consulta", "Pregunte sobre la jurisprudencia; cada [N] de la respuesta abre su referencia."
)
has_chat = api_status.offers(schema, "chat", "Respuesta redactada con citas (chat)")
streams = schema is not None and schema.root_of("chatStream") == "subscription"


def _chat_takes(name: str) -> bool:
    return schema is None or schema.has("ChatInput", name)


with st.form("consulta_form"):
    question = st.text_area("Pregunta", key="consulta_question", height=90)
    chosen = filters.filters("consulta", schema)
    left, mid, right = st.columns(3)
    with left:
        weight = filters.recency_slider("consulta_recency")
    max_refs = mid.number_input("Referencias como máximo", 1, 20, 5, key="consulta_max_refs")
    superseded = None
    if _chat_takes("includeSuperseded"):
        superseded = right.checkbox("Incluir tesis que perdieron vigencia",
                                    key="consulta_superseded") or None  # fmt: skip
    asked = st.form_submit_button("Preguntar", type="primary", key="consulta_ask")

if asked and not question.strip():
    st.warning("Escriba una pregunta.")
elif asked:
    st.session_state.pop("consulta_ref", None)
    with st.spinner("Buscando y redactando la respuesta…"):
        if has_chat:
            ask = {"question": question, "filters": chosen, "recencyWeight": weight,
                   "maxReferences": max_refs, "includeSuperseded": superseded}  # fmt: skip
            if streams:
                result = answer.stream(ask)
            else:
                result = api_status.attempt("Consulta", client.chat, ask)
        else:  # until the API offers chat: the top hits as references, without an answer
            search = {"query": question, "filters": chosen, "recencyWeight": weight,
                      "topK": max_refs}  # fmt: skip
            found = api_status.attempt("Búsqueda", client.search, search)
            hits = references.first_per_registro(found["hits"]) if found else []
            result = found and {
                "intent": found.get("intent"),
                "references": [references.hit_as_reference(h, i + 1) for i, h in enumerate(hits)],
            }
    st.session_state["consulta_result"] = result
    if result and streams:
        st.rerun()  # redraw the streamed text with its [N] badges

if result := st.session_state.get("consulta_result"):
    answer.show(result, "consulta_ref", schema is None or schema.root_of("feedback") is not None)

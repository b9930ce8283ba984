"""Consulta: ask a question; the answer cites [N] badges that open each reference."""

import streamlit as st

from dashboard import client
from dashboard.components import api_status, explain, filters, references
from dashboard.formatting import mode_label

st.title("Consulta")
st.caption("Pregunte sobre la jurisprudencia; cada [N] de la respuesta abre su referencia.")
schema = api_status.require_api()
has_chat = api_status.offers(schema, "chat", "Respuesta redactada con citas (chat)")

with st.form("consulta_form"):
    question = st.text_area("Pregunta", key="consulta_question", height=90)
    chosen = filters.filters("consulta", schema)
    left, mid, right = st.columns(3)
    with left:
        weight = filters.recency_slider("consulta_recency")
    top_k = mid.number_input("Tesis candidatas", 1, 50, 10, key="consulta_top_k")
    max_refs = right.number_input("Referencias como máximo", 1, 20, 5, key="consulta_max_refs")
    asked = st.form_submit_button("Preguntar", type="primary", key="consulta_ask")

if asked and not question.strip():
    st.warning("Escriba una pregunta.")
elif asked:
    st.session_state.pop("consulta_ref", None)
    with st.spinner("Buscando y redactando la respuesta…"):
        if has_chat:
            ask = {"question": question, "filters": chosen, "recencyWeight": weight,
                   "topK": top_k, "maxReferences": max_refs}  # fmt: skip
            result = api_status.attempt("Consulta", client.chat, ask)
        else:  # until the API offers chat: the top hits as references, without an answer
            search = {"query": question, "filters": chosen, "recencyWeight": weight,
                      "topK": max_refs}  # fmt: skip
            found = api_status.attempt("Búsqueda", client.search, search)
            result = found and {
                "mode": None,
                "intent": found.get("intent"),
                "references": [references.hit_as_reference(h, i + 1)
                               for i, h in enumerate(found["hits"])],
            }  # fmt: skip
    st.session_state["consulta_result"] = result

result = st.session_state.get("consulta_result")
if result:
    refs = {int(r["number"]): r for r in result.get("references") or []}
    if result.get("mode"):
        st.markdown(f"**Modo:** {mode_label(result['mode'])}")
        if result.get("llmError"):
            st.warning(f"El modelo de lenguaje falló ({result['llmError']}); respuesta sin LLM.")
    else:
        st.markdown("**Modo:** sólo búsqueda (la API aún no redacta respuestas)")
    text, phantoms = references.answer_markdown(result.get("answer") or "", set(refs))
    if text.strip():
        st.markdown(text)
    explain.citation_check(result.get("citationCheck"), phantoms)
    explain.intent_summary(result.get("intent"))
    if refs:
        st.subheader("Referencias")
        cited = set((result.get("citationCheck") or {}).get("cited") or refs)
        references.badge_bar(sorted(refs), "consulta_ref", cited)
        opened = st.session_state.get("consulta_ref")
        if opened in refs:
            references.reference_panel(refs[opened])
        else:
            st.caption("Pulse una insignia [N] para abrir la referencia.")
        with st.expander("Todas las referencias"):
            st.dataframe(explain.references_frame(list(refs.values())), hide_index=True)
    else:
        st.info("La API no devolvió referencias para esta pregunta.")
    if result.get("discarded"):
        with st.expander(f"Descartadas ({len(result['discarded'])})"):
            explain.discarded_table(result["discarded"], "consulta_discarded")

"""A chat answer: the question echoed, its mode, the text with [N] links that open each
reference in place, the citation check, the references, exports."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from dashboard import client, export
from dashboard.components import explain, references
from dashboard.formatting import escape_md, mode_label
from dashboard.payloads import ChatPayload, Reference, TesisRecord
from dashboard.rendering import answer_html, references_html


def show(result: ChatPayload, state_key: str, question: str = "") -> None:
    """Render ``result`` (a ChatPayload); the [N] links open ``#ref-N`` in place; the badge
    bar opens a panel (citation, full text, feedback) in ``session_state[state_key]``."""
    refs = {int(r["number"]): r for r in result.get("references") or []}
    if question:
        st.caption(f"Respuesta a: «{escape_md(question)}»")
    _mode(result)
    abstained = bool(result.get("abstained")) or result.get("mode") == "ABSTAINED"
    if abstained:
        st.info(
            result.get("abstainReason")
            or "La API no encontró tesis que respondan a la pregunta y prefirió no contestar.",
            icon=":material/block:",
        )
    text, phantoms = answer_html(str(result.get("answer") or ""), refs)
    if (result.get("answer") or "").strip():
        st.html(text)
    if not abstained:
        explain.confidence(result.get("confidence"))
    check = result.get("citationCheck") or {}
    answered = (result.get("answer") or "").strip() and not abstained
    if answered and refs and not check.get("valid", check.get("cited")):
        st.warning(
            "La respuesta no cita ninguna referencia: verifíquela contra las tesis antes "
            "de usarla.",
            icon=":material/report:",
        )
    removed = [*phantoms, *(result.get("phantomRemoved") or [])]
    explain.citation_check(result.get("citationCheck"), removed)
    explain.intent_summary(result.get("intent"))
    if not refs:
        if not abstained:
            st.info("La API no devolvió referencias para esta pregunta.")
        return
    st.subheader("Referencias")
    st.caption("Pulse un [N] de la respuesta o una referencia para abrirla aquí mismo.")
    st.html(references_html(list(refs.values())))
    left, right = st.columns(2)
    left.download_button(
        "Exportar en Markdown",
        lambda: export.answer_markdown(question, result, _records(refs)),  # read on click
        file_name="respuesta.md",
        mime="text/markdown",
        icon=":material/download:",
        key=f"{state_key}_md",
    )
    right.download_button(
        "Exportar referencias (CSV)",
        export.references_csv(list(refs.values())),
        file_name="referencias.csv",
        mime="text/csv",
        icon=":material/table:",
        key=f"{state_key}_csv",
    )
    st.markdown("**Citar, leer el texto completo u opinar**")
    cited = set(check.get("valid") or check.get("cited") or refs)
    references.badge_bar(sorted(refs), state_key, cited)
    opened = st.session_state.get(state_key)
    if opened in refs:
        references.reference_panel(refs[opened], result.get("id"))
    if result.get("discarded"):
        with st.expander(f"Descartadas por las reglas de vigencia ({len(result['discarded'])})"):
            explain.discarded_table(result["discarded"], f"{state_key}_discarded")
    if result.get("context") or result.get("systemPrompt"):
        sent = "enviados al modelo" if result.get("ragUsed") else "que se enviarían a un modelo"
        with st.expander(f"Contexto e instrucciones {sent}"):
            st.code(
                f"{result.get('systemPrompt') or ''}\n\n{result.get('context') or ''}",
                language=None,
                wrap_lines=True,
            )


# What the answer is when the model was not used, as the end of a sentence.
WITHOUT_MODEL = {
    "EXTRACTIVE": "la respuesta es extractiva (fragmentos citados de las tesis)",
    "FULL_TEXT": "la respuesta transcribe el texto de la tesis",
    "ABSTAINED": "la API se abstuvo de responder",
}


def _records(refs: Mapping[int, Reference]) -> dict[int, TesisRecord]:
    """The stored record of each reference (its instancia is not in the reference); one the
    API cannot give is left out, and that citation goes without it."""
    records: dict[int, TesisRecord] = {}
    for ref in refs.values():
        try:
            record = client.tesis(int(ref["registro"]))
        except client.ApiError:
            continue
        if record:
            records[int(ref["registro"])] = record
    return records


def _mode(result: ChatPayload) -> None:
    mode = result.get("mode")
    model = f" · modelo `{escape_md(str(result['model']))}`" if result.get("model") else ""
    st.markdown(f"**Modo:** {mode_label(mode)}{model if result.get('ragUsed') else ''}")
    if result.get("llmError"):
        st.warning(
            f"El modelo de lenguaje no se usó o falló ({escape_md(str(result['llmError']))}); "
            f"{WITHOUT_MODEL.get(str(mode), f'modo de la respuesta: {mode_label(mode)}')}.",
            icon=":material/smart_toy:",
        )

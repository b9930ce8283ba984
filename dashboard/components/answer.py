"""A chat answer: its mode, the text with [N] badges, the citation check and the references."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import streamlit as st

from dashboard import client
from dashboard.components import api_status, explain, references
from dashboard.formatting import escape_md, mode_label


def show(result: Mapping[str, Any], state_key: str, can_feedback: bool = False) -> None:
    """Render ``result`` (a ChatPayload); badge ``[N]`` toggles ``session_state[state_key]``;
    with ``can_feedback`` each reference panel asks whether it was useful."""
    refs = {int(r["number"]): r for r in result.get("references") or []}
    _mode(result)
    text, phantoms = references.answer_markdown(result.get("answer") or "", set(refs))
    if text.strip():
        st.markdown(text)
    removed = [*phantoms, *(result.get("phantomRemoved") or [])]
    explain.citation_check(result.get("citationCheck"), removed)
    explain.intent_summary(result.get("intent"))
    if refs:
        st.subheader("Referencias")
        check = result.get("citationCheck") or {}
        cited = set(check.get("valid") or check.get("cited") or refs)
        references.badge_bar(sorted(refs), state_key, cited)
        opened = st.session_state.get(state_key)
        if opened in refs:
            log_id = result.get("id") if can_feedback else None
            references.reference_panel(refs[opened], log_id)
        else:
            st.caption("Pulse una insignia [N] para abrir la referencia.")
        with st.expander("Todas las referencias"):
            st.dataframe(explain.references_frame(list(refs.values())), hide_index=True)
    else:
        st.info("La API no devolvió referencias para esta pregunta.")
    if result.get("discarded"):
        with st.expander(f"Descartadas por las reglas de vigencia ({len(result['discarded'])})"):
            explain.discarded_table(result["discarded"], f"{state_key}_discarded")
    if result.get("context") or result.get("systemPrompt"):
        with st.expander("Contexto e instrucciones enviados al modelo"):
            st.code(f"{result.get('systemPrompt') or ''}\n\n{result.get('context') or ''}",
                    language=None, wrap_lines=True)  # fmt: skip


def stream(ask: Mapping[str, Any]) -> dict[str, Any] | None:
    """Ask through ``chatStream``, writing the answer as it arrives; the assembled payload."""
    result: dict[str, Any] = {"answer": "", "references": []}

    def deltas() -> Iterator[str]:
        for event in client.chat_stream(ask):
            kind = event.get("__typename")
            if kind == "ChatReferences":
                result["references"] = event.get("references") or []
                st.caption(f"{len(result['references'])} referencias encontradas; redactando…")
            elif kind == "ChatDelta":
                result["answer"] += event.get("text") or ""
                yield event.get("text") or ""
            else:  # ChatDone: mode, checks, log id
                result.update({k: v for k, v in event.items() if k != "__typename"})

    try:
        st.write_stream(deltas())
    except client.ApiError as exc:
        api_status.show_error(exc)
        return None
    return result


def _mode(result: Mapping[str, Any]) -> None:
    mode = result.get("mode")
    if not mode:
        st.markdown("**Modo:** sólo búsqueda (la API aún no redacta respuestas)")
        return
    model = (
        f" · modelo `{result['model']}`" if result.get("ragUsed") and result.get("model") else ""
    )
    st.markdown(f"**Modo:** {mode_label(mode)}{model}")
    if result.get("llmError"):
        st.warning(
            f"El modelo de lenguaje no se usó o falló ({escape_md(str(result['llmError']))}); "
            f"la respuesta es {mode_label(mode).split(' (')[0].lower()}."
        )

"""Useful / not useful buttons on a result of a logged search (``mutation feedback``)."""

from __future__ import annotations

import streamlit as st

from dashboard import client
from dashboard.components import api_status


def buttons(
    log_id: str, registro: int, comment: str | None = None, given: bool | None = None
) -> None:
    """Two buttons; once a verdict is sent (this session, or ``given`` by the log), it is said
    and the other one stays, to change it (the API keeps the latest verdict)."""
    done = st.session_state.setdefault("feedback_sent", {})
    key = f"{log_id}:{registro}"
    if key not in done and given is not None:
        done[key] = given
    options: tuple[tuple[bool, str, str], ...] = (
        (True, "Útil", ":material/thumb_up:"),
        (False, "No útil", ":material/thumb_down:"),
    )
    if key in done:
        st.caption("Gracias: opinión registrada (" + ("útil" if done[key] else "no útil") + ").")
        options = tuple(o for o in options if o[0] != done[key])
    row = st.container(horizontal=True)
    for useful, label, icon in options:
        label = label if key not in done else f"Cambiar a «{label.lower()}»"
        if row.button(label, key=f"fb_{key}_{useful}", icon=icon):
            sent = api_status.attempt(
                "Opinión", client.feedback, log_id, registro, useful, comment or None
            )
            if sent is not None:
                done[key] = useful
                st.toast("Opinión registrada")
                st.rerun()

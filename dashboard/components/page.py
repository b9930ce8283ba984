"""What every page does first: make sure it runs under the router, title, API check."""

from __future__ import annotations

import streamlit as st

from dashboard import client
from dashboard.components import api_status, style
from dashboard.stats_payloads import CorpusStats


def ensure_router() -> None:
    """Rerun under ``app.py`` when Streamlit ran this page on its own.

    A fresh server that is first opened on a page URL (``/busqueda``) runs the script from
    ``pages/`` directly (Streamlit's legacy multipage mode, chosen because that folder exists)
    and keeps doing so until ``st.navigation`` is called. Leaving that mode and rerunning runs
    ``app.py``, which routes back to the same page with the app's layout and navigation.
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a future Streamlit without it
        return
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        st.rerun()


def start(title: str, caption: str | None = None) -> CorpusStats | None:
    """Title and caption; the corpus statistics (the filters' options), or the page stops
    saying the API is down. Entering the page forgets the session's remembered reads."""
    ensure_router()
    style.apply()
    if st.session_state.get("_vigencia_page") != title:  # a page load asks the API afresh
        st.session_state["_vigencia_page"] = title
        client.clear_cache()
    st.title(title)
    if caption:
        st.caption(caption)
    return api_status.require_api()

"""The API's answers to cheap reads, remembered for one browser session, briefly.

Streamlit reruns the page on every click; without a memo each rerun would ask again for the
corpus statistics (several full scans) or the monitoring report. The memo is per session
(``st.session_state``), not process-wide like ``st.cache_data``: a reload or a new tab asks the
API afresh, so a page load notices it is down, and nothing answered to one analyst is served to
another. Outside a Streamlit session (a test, a script) nothing is remembered.
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

TTL_S = 30.0
_KEY = "_vigencia_api_reads"

Entry = tuple[str, float, Any]  # (root field, expiry on the monotonic clock, answer)


def _entries() -> dict[str, Entry] | None:
    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    entries: dict[str, Entry] = st.session_state.setdefault(_KEY, {})
    return entries


def recall(key: str) -> Any | None:
    """The answer kept under ``key``, if it is younger than ``TTL_S``."""
    entries = _entries()
    entry = entries.get(key) if entries is not None else None
    return entry[2] if entry is not None and entry[1] > time.monotonic() else None


def keep(key: str, root: str, answer: Any) -> None:
    entries = _entries()
    if entries is not None:
        entries[key] = (root, time.monotonic() + TTL_S, answer)


def forget(*roots: str) -> None:
    """Drop the answers of ``roots`` (all of them when none is named)."""
    entries = _entries()
    if entries is None:
        return
    for key in [k for k, (root, _, _) in entries.items() if not roots or root in roots]:
        del entries[key]

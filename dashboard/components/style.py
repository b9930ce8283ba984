"""Streamlit's own English words, said in Spanish with CSS (it offers no option for them).

Its input hint («Press Enter to submit form», always the first of two spans when the field
counts characters, as every text field here does) and the empty list of a selectbox or
multiselect («No results») are replaced in place; nothing is loaded from anywhere. Should a
later Streamlit change that markup, the English words simply show again.
"""

from __future__ import annotations

import streamlit as st

_HINT = '[data-testid="InputInstructions"] > span:first-child:not(:last-child)'
_EMPTY = '[role="listbox"][data-empty="true"] [role="option"] > span'
CSS = f"""
{_HINT}, {_EMPTY} {{ font-size: 0; }}
{_HINT}::after {{ content: "Intro para aplicar"; font-size: 0.75rem; }}
[data-testid="stForm"] {_HINT}::after {{ content: "Intro para enviar"; }}
[data-testid="stForm"] [data-testid="stTextArea"] {_HINT}::after {{
  content: "Ctrl+Intro (⌘+Intro en Mac) para enviar";
}}
{_EMPTY}::after {{ content: "Sin resultados"; font-size: 0.875rem; }}
"""


def apply() -> None:
    """Add the rules to the page (a style element takes no room)."""
    st.html(f"<style>{CSS}</style>")

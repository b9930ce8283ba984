"""Vigencia dashboard: the router. Run with ``streamlit run dashboard/app.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent
if str(ROOT.parent) not in sys.path:  # `streamlit run dashboard/app.py` without an install
    sys.path.insert(0, str(ROOT.parent))

from dashboard import client  # noqa: E402

st.set_page_config(page_title="Vigencia · Jurisprudencia", page_icon="⚖️", layout="wide")

PAGES = [
    st.Page(
        ROOT / "pages" / "consulta.py", title="Consulta", icon=":material/forum:", default=True
    ),
    st.Page(
        ROOT / "pages" / "busqueda.py", title="Búsqueda y puntuación", icon=":material/leaderboard:"
    ),
    st.Page(
        ROOT / "pages" / "linea_de_tiempo.py", title="Línea de tiempo", icon=":material/timeline:"
    ),
    st.Page(ROOT / "pages" / "monitoreo.py", title="Monitoreo", icon=":material/monitoring:"),
    st.Page(ROOT / "pages" / "corpus.py", title="Corpus", icon=":material/library_books:"),
]

page = st.navigation(PAGES)
with st.sidebar:
    st.caption(f"API: `{client.api_url()}`")
page.run()

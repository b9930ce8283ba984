"""Reusable Streamlit pieces: API status, filters, references, charts."""

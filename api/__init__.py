"""Vigencia: recency-aware retrieval for Mexican case law."""

__version__ = "0.1.0"

"""Chunk-level judges (seed 004): an LLM judge and an offline, embedder-based one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from api.core.models import Hit
from api.judge.models import JudgedFragment, JudgeResult


class Judge(Protocol):
    """Re-scores individual chunk hits for a query; never raises for provider failures."""

    def judge(self, query: str, hits: Sequence[Hit], summary: bool = True) -> JudgeResult:
        """Judged fragments, best first; input order with ``error`` set on failure.

        ``summary=False`` asks an LLM judge for no summary of its own (a shorter reply)."""
        ...


__all__ = ["Judge", "JudgeResult", "JudgedFragment"]

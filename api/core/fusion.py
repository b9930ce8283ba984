"""Hybrid relevance: BM25 and vector similarity fused into one score in [0, 1].

The fusion is Weaviate's ``relativeScoreFusion``: each signal is min-max normalized within the
candidate set, then mixed as ``alpha * vector + (1 - alpha) * bm25``. Because every candidate
here carries its cosine (lexical-only hits too), the vector side is normalized over the whole
union rather than over the vector hits alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from api.core.models import Candidate

RetrievalMode = Literal["hybrid", "vector", "lexical"]


def min_max(values: Sequence[float]) -> list[float]:
    """Scale to [0, 1]; a constant list maps to all ones (nothing to tell apart)."""
    if not values:
        return []
    low, high = min(values), max(values)
    if high - low < 1e-12:
        return [1.0] * len(values)
    return [(v - low) / (high - low) for v in values]


def relative_scores(
    candidates: Sequence[Candidate], mode: RetrievalMode, alpha: float
) -> list[float]:
    """Normalized relevance per candidate, in the candidates' order."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    vector = min_max([c.similarity for c in candidates])
    if mode == "vector":
        return vector
    lexical = min_max([c.lexical for c in candidates])
    if mode == "lexical":
        return lexical
    return [alpha * v + (1.0 - alpha) * b for v, b in zip(vector, lexical, strict=True)]


def merge_candidates(*lists: Sequence[Candidate]) -> list[Candidate]:
    """Union by chunk id, keeping the best cosine and the best BM25 seen for each chunk."""
    merged: dict[str, Candidate] = {}
    for candidates in lists:
        for c in candidates:
            key = c.passage.chunk.chunk_id
            seen = merged.get(key)
            if seen is None:
                merged[key] = c
            else:
                merged[key] = Candidate(
                    seen.passage,
                    max(seen.similarity, c.similarity),
                    max(seen.lexical, c.lexical),
                )
    return list(merged.values())

"""Hybrid relevance: BM25 and vector similarity fused into one score in [0, 1].

The fusion is Weaviate's ``relativeScoreFusion``: each signal is min-max normalized within the
candidate set, then mixed as ``alpha * vector + (1 - alpha) * bm25``. Because every candidate
here carries its cosine (lexical-only hits too), the vector side is normalized over the whole
union rather than over the vector hits alone.

The low end of each scale is a ``ScaleFloor`` taken from a *reference* candidate set of fixed
size (each retriever's first 50), not from however many candidates a request asked for: a page
of 20 then ranks its first 10 exactly as a page of 10 does, and a tesis pulled in afterwards (a
replacing criterion) does not stretch the scale of the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from api.core.models import Candidate

RetrievalMode = Literal["hybrid", "vector", "lexical"]


@dataclass(frozen=True, slots=True)
class ScaleFloor:
    """The lowest cosine and BM25 score of a search's reference candidates: where each scale
    starts."""

    similarity: float
    lexical: float


def scale_floor(candidates: Sequence[Candidate]) -> ScaleFloor | None:
    """The floor of ``candidates`` (None for none)."""
    if not candidates:
        return None
    return ScaleFloor(min(c.similarity for c in candidates), min(c.lexical for c in candidates))


def min_max(values: Sequence[float], low: float | None = None) -> list[float]:
    """Scale to [0, 1] from ``low`` (default: the least value) to the greatest; a value under
    ``low`` maps to 0, and a constant list to all ones (nothing to tell apart)."""
    if not values:
        return []
    high = max(values)
    low = min(values) if low is None else min(low, high)
    if high - low < 1e-12:
        return [1.0] * len(values)
    return [max(0.0, (v - low) / (high - low)) for v in values]


def relative_scores(
    candidates: Sequence[Candidate],
    mode: RetrievalMode,
    alpha: float,
    floor: ScaleFloor | None = None,
) -> list[float]:
    """Normalized relevance per candidate, in the candidates' order; each scale starts at
    ``floor`` (default: the candidates' own least values)."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    vector = min_max([c.similarity for c in candidates], floor.similarity if floor else None)
    if mode == "vector":
        return vector
    lexical = min_max([c.lexical for c in candidates], floor.lexical if floor else None)
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

"""The judge that works with no LLM: embedder cosine plus lexical overlap, per chunk.

Each fragment is scored on its own text (not its tesis), so two fragments of one tesis with
different spans get different scores; then the same legal rules as the LLM judge apply.

Example::

    judge = OfflineJudge(embedder, lexical_weight=0.3)
    result = judge.judge("suspensión provisional en amparo indirecto", hits)
    result.items[0].span, result.items[0].score, result.items[0].reason
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from api.core.models import Hit
from api.core.text import analyze
from api.embeddings.base import Embedder
from api.errors import EmbedderError
from api.judge.models import (
    ChunkJudge,
    JudgedFragment,
    JudgeResult,
    legal_notes,
    legal_score,
    spans_summary,
)


class OfflineJudge(ChunkJudge):
    """``relevance = (1 - w) * max(cosine, 0) + w * overlap``, then the legal rules.

    ``overlap`` is the share of the query's terms (accent-folded, stopword-free, stemmed)
    found in the fragment; ``w`` is ``lexical_weight``.
    """

    kind = "offline"

    def __init__(self, embedder: Embedder, lexical_weight: float = 0.3) -> None:
        if not 0.0 <= lexical_weight <= 1.0:
            raise ValueError(f"lexical_weight must be in [0, 1], got {lexical_weight}")
        self.embedder = embedder
        self.lexical_weight = lexical_weight

    def _judge(self, query: str, hits: Sequence[Hit], summary: bool) -> JudgeResult:
        texts = [hit.passage.chunk.text for hit in hits]
        try:
            query_vector = self.embedder.embed([query], "query")[0]
            cosines = self.embedder.embed(texts, "passage") @ query_vector
        except EmbedderError as exc:
            return self._unjudged(hits, f"embedder: {exc}")
        terms = set(analyze(query))
        items = [
            self._judged(hit, float(np.clip(cosine, 0.0, 1.0)), terms)
            for hit, cosine in zip(hits, cosines, strict=True)
        ]
        order = sorted(range(len(items)), key=lambda i: (-items[i].score, i))
        ranked = [items[i] for i in order]
        return JudgeResult(ranked, spans_summary(ranked), [], None, self.kind)

    def _judged(self, hit: Hit, cosine: float, query_terms: set[str]) -> JudgedFragment:
        found = query_terms & set(analyze(hit.passage.chunk.text))
        overlap = len(found) / len(query_terms) if query_terms else 0.0
        relevance = (1 - self.lexical_weight) * cosine + self.lexical_weight * overlap
        reason = (
            f"similitud {cosine:.2f}; términos de la consulta presentes "
            f"{len(found)}/{len(query_terms)}; {legal_notes(hit)}"
        )
        return JudgedFragment.of(hit, legal_score(relevance, hit), reason, "span", relevance)

"""Consolidated references: ranked chunk hits grouped by tesis and numbered 1..N.

The numbers are the ones an answer cites and the reader opens, so they are assigned here once
and every later step (context, prompt, citation check, extractive answer) uses them as given.

Example::

    refs = consolidate(hits, max_references=5)
    refs[0].number, refs[0].registro, [f.chunk_index for f in refs[0].fragments]
    # (1, 2006225, [0, 2])
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from api.core.models import Chunk, Hit, ScoreBreakdown, Tesis, TesisMeta, Validity, tesis_meta
from api.core.validity import loses_force

MAX_REFERENCES_LIMIT = 50
# Sources older than this year trigger the "every source predates 2000" warning (seed 000).
MODERN_YEAR = 2000


@dataclass(frozen=True, slots=True)
class Fragment:
    """One retrieved chunk of a tesis: its spans in ``Tesis.full_text`` and its scores."""

    chunk_index: int
    start_char: int
    end_char: int
    start_line: int
    end_line: int
    similarity: float
    final_score: float
    text: str
    relevance: float = 0.0

    @classmethod
    def of(cls, chunk: Chunk, score: ScoreBreakdown | None = None) -> Fragment:
        """``chunk`` with the score it was retrieved with; a chunk not retrieved scores 0.0."""
        similarity, final, relevance = (
            (score.similarity, score.final_score, score.relevance) if score else (0.0, 0.0, 0.0)
        )
        spans = (chunk.start_char, chunk.end_char, chunk.start_line, chunk.end_line)
        return cls(chunk.index, *spans, similarity, final, chunk.text, relevance)

    @property
    def lines(self) -> str:
        """'3' or '3-5': the line span as shown to models and readers."""
        if self.start_line == self.end_line:
            return str(self.start_line)
        return f"{self.start_line}-{self.end_line}"


@dataclass(frozen=True, slots=True)
class Reference(TesisMeta):
    """One tesis an answer may cite as ``[number]``; fragments are in document order.

    ``partial``: never quote the end of its text as whole."""

    number: int
    registro: int
    status: Validity
    chunk_count: int
    avg_similarity: float
    max_similarity: float
    final_score: float
    total_tokens: int
    fragments: tuple[Fragment, ...]
    relevance: float = 0.0  # relevance of the best-scoring fragment (before recency)
    warning: str | None = None  # e.g. older than its materia's reform
    dates: tuple[tuple[str, date], ...] = ()  # a generic record's extra dates, by field
    extra: tuple[tuple[str, str | int | float | bool], ...] = ()  # its own scalar fields

    @property
    def boost(self) -> float:
        """final ÷ relevance of the best fragment: what recency and época did to it."""
        return self.final_score / self.relevance if self.relevance else 1.0

    @property
    def generic(self) -> bool:
        """A record of a non-legal corpus: no época (see ``api.ingest.generic``)."""
        return not self.epoca

    @property
    def marker(self) -> str:
        return f"[{self.number}]"

    @property
    def superseded(self) -> bool:
        """True when an SJF note says the criterion no longer stands (``loses_force``)."""
        return loses_force(self.status)


def all_predate(refs: Sequence[Reference], year: int = MODERN_YEAR) -> bool:
    """True when there are references and every one is older than ``year``."""
    return bool(refs) and all(ref.anio < year for ref in refs)


def with_replacements(hits: Sequence[Hit], newer: Sequence[int], max_references: int) -> list[Hit]:
    """``hits`` cut to the tesis that ``consolidate`` will number, making room, at the end, for
    the ``newer`` criteria an old tesis was set aside for: a discard names one the reader sees.
    """
    order = list(dict.fromkeys(h.registro for h in hits))
    shown = order[:max_references]
    missing = [r for r in dict.fromkeys(newer) if r in order and r not in shown]
    if not missing:
        return list(hits)
    missing = missing[:max_references]
    kept = set(shown[: max_references - len(missing)]) | set(missing)
    return [h for h in hits if h.registro in kept]


def consolidate(hits: Sequence[Hit], max_references: int = 5) -> list[Reference]:
    """Group ranked chunk hits by registro, in order of first appearance, numbered 1..N.

    ``hits`` must already be in rank order. A repeated chunk (same registro and index) counts
    once. Hits of registros beyond the first ``max_references`` are dropped.
    """
    if not 1 <= max_references <= MAX_REFERENCES_LIMIT:
        raise ValueError(
            f"max_references must be in [1, {MAX_REFERENCES_LIMIT}], got {max_references}"
        )
    groups: dict[int, list[Hit]] = {}
    seen: set[tuple[int, int]] = set()
    for hit in hits:
        key = (hit.registro, hit.passage.chunk.index)
        if key in seen:
            continue
        if hit.registro not in groups and len(groups) == max_references:
            continue
        seen.add(key)
        groups.setdefault(hit.registro, []).append(hit)
    return [_reference(number, group) for number, group in enumerate(groups.values(), start=1)]


def _reference(number: int, group: list[Hit]) -> Reference:
    first = group[0].passage
    best = max(group, key=lambda h: h.score.final_score)
    similarities = [h.score.similarity for h in group]
    fragments = tuple(
        sorted(
            (Fragment.of(h.passage.chunk, h.score) for h in group),
            key=lambda f: (f.start_char, f.chunk_index),
        )
    )
    return Reference(
        number=number,
        registro=first.registro,
        status=group[0].status,
        chunk_count=len(group),
        avg_similarity=sum(similarities) / len(similarities),
        max_similarity=max(similarities),
        final_score=best.score.final_score,
        relevance=best.score.relevance,
        total_tokens=sum(h.passage.chunk.tokens for h in group),
        fragments=fragments,
        warning=next((h.warning for h in group if h.warning), None),
        **tesis_meta(first),
    )


def with_record(ref: Reference, tesis: Tesis | None) -> Reference:
    """The reference with what only the stored record knows: partial text, extra fields."""
    if tesis is None:
        return ref
    return replace(ref, partial=tesis.partial, dates=tesis.dates, extra=tesis.extra)


def in_date_order(refs: Sequence[Reference]) -> Literal["ASC", "DESC"] | None:
    """'ASC' or 'DESC' when the references (two or more) are sorted by date, else None."""
    days = [ref.sort_date for ref in refs]
    if len(days) < 2 or len(set(days)) < 2:
        return None
    if all(a <= b for a, b in itertools.pairwise(days)):
        return "ASC"
    if all(a >= b for a, b in itertools.pairwise(days)):
        return "DESC"
    return None


def with_all_chunks(ref: Reference, chunks: Sequence[Chunk]) -> Reference:
    """The reference with every chunk of its tesis as fragments (for full-text answers).

    Retrieved fragments keep their scores; the others get 0.0. Counts and similarity
    statistics still describe what retrieval found.
    """
    retrieved = {f.chunk_index: f for f in ref.fragments}
    fragments = tuple(
        retrieved.get(c.index) or Fragment.of(c)
        for c in sorted(chunks, key=lambda c: c.index)
        if c.registro == ref.registro
    )
    return replace(ref, fragments=fragments or ref.fragments)

"""Page-level ranking helpers: chunks per tesis, on-topic replacements, the recency-free view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from api.core.models import Hit, Validity
from api.core.scoring import rank


def first_chunks(hits: list[Hit], cap: int, limit: int | None = None) -> list[Hit]:
    """``hits`` in their order, at most ``cap`` chunks of each tesis (and ``limit`` in all)."""
    per_tesis: dict[int, int] = {}
    kept: list[Hit] = []
    for hit in hits:
        if limit is not None and len(kept) >= limit:
            break
        seen = per_tesis.get(hit.registro, 0)
        if seen < cap:
            per_tesis[hit.registro] = seen + 1
            kept.append(hit)
    return kept


def cap_chunks_per_tesis(hits: list[Hit], cap: int) -> list[Hit]:
    """Keep at most ``cap`` best-ranked chunks of each tesis; ranks are renumbered."""
    return rank(first_chunks(hits, cap))


def on_topic_with_replacement(hits: list[Hit], statuses: Mapping[int, Validity]) -> list[Hit]:
    """A criterion and the one that replaced it (per its SJF note) are on the same point: when
    either is on topic, both are, so the superseded criterion is shown beside its replacement
    and never ranks ahead of it for want of the replacement's wording ("¿Los criterios de la
    Corte Interamericana son sólo orientadores...?" is worded like the 2011 tesis, and the
    2014 one that replaced it had fallen under the gate). Read before superseded criteria are
    set aside, so the replacement answers when they are not shown."""
    replaced_by = {r: s.por_registro for r, s in statuses.items() if s.por_registro}
    if not replaced_by:  # most pages: no criterion among them was replaced
        return hits
    on_topic = {h.registro for h in hits if h.on_topic}
    replacing = {replaced_by[h.registro] for h in hits if h.on_topic and h.registro in replaced_by}
    return [
        replace(h, on_topic=True)
        if not h.on_topic and (replaced_by.get(h.registro) in on_topic or h.registro in replacing)
        else h
        for h in hits
    ]


def relevance_ranking(hits: list[Hit], cap: int, top_k: int) -> list[Hit]:
    """The ranking without recency, beside the real one: top-k by relevance alone, ranks
    1..k (scores keep every factor, so the reader sees what recency would have done)."""
    ordered = sorted(hits, key=lambda h: (h.rank_without_recency, h.registro))
    kept = first_chunks(ordered, cap, top_k)
    return [h.ranked(h.rank, i) for i, h in enumerate(kept, start=1)]


def on_the_page(plain: list[Hit], page: list[Hit]) -> list[Hit]:
    """The ranking without recency with each hit's ``rank`` where ``page`` (the hits, after
    the rules) shows that passage, or 0 where it does not (set aside, or below the page)."""
    shown = {h.passage.chunk.chunk_id: h.rank for h in page}
    return [h.ranked(shown.get(h.passage.chunk.chunk_id, 0), h.rank_without_recency) for h in plain]


def best_chunk_per_tesis(hits: list[Hit]) -> list[Hit]:
    """Each registro's first chunk, in the order given (a date order stays a date order)."""
    firsts: dict[int, Hit] = {}
    for hit in hits:
        firsts.setdefault(hit.registro, hit)
    return [h.ranked(i, h.rank_without_recency) for i, h in enumerate(firsts.values(), start=1)]


def in_cited_order(hits: list[Hit], cited: tuple[int, ...], cap: int) -> list[Hit]:
    """A lookup's hits as the asker cited the tesis: the first ``cap`` chunks of each, in
    their order, the tesis in the order cited; any other (a criterion that replaced one) after
    them, in the order given. Ranks are renumbered."""
    seen: dict[int, int] = {}
    for hit in hits:
        seen.setdefault(hit.registro, len(cited) + len(seen))
    order = {**seen, **{r: i for i, r in enumerate(cited)}}
    ordered = sorted(hits, key=lambda h: (order[h.registro], h.passage.chunk.index))
    kept = first_chunks(ordered, cap)
    return [h.ranked(i, h.rank_without_recency) for i, h in enumerate(kept, start=1)]

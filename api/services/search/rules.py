"""The reform rules on a ranked page, with the same-point judge they need."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

import numpy as np

from api.core.chunking import embedding_text
from api.core.intent import MateriaIntent
from api.core.models import Hit
from api.core.reform import RerankOutcome, SamePoint, apply_reform_rules, apply_same_point_rules
from api.embeddings.base import Embedder, Vectors
from api.errors import EmbedderError
from api.services.search.config import SearchConfig
from api.services.search.plan import Plan

_log = logging.getLogger("vigencia.search")
WARN_EVERY_S = 60.0  # an embedder that refuses refuses every search: say so once a minute
_last_warning = [-WARN_EVERY_S]  # monotonic time of the last "not applied" warning


def legal_materia(
    materia: MateriaIntent, page: Sequence[Hit], holds_tesis: Callable[[], bool]
) -> MateriaIntent:
    """``materia`` when it is a branch of law the answer speaks of, else no materia.

    A question worded like law ("reforma electoral", "huelga") over a generic corpus's records
    (no época) has no legal materia: no reform cutoff, rule or warning applies. Decided from
    the page's hits (a mixed store keeps the materia when tesis answer), or, when nothing
    answered, from whether the store holds tesis at all: a store of tesis that lacks the
    materia keeps it, so monitoring sees what people ask and the corpus lacks (an
    electoral question over the bundled corpus raises its coverage-gap alert). A filter's
    materia is the asker's and stays.
    """
    if materia.materia is None or materia.source == "filter":
        return materia
    legal = any(not h.passage.generic for h in page) if page else holds_tesis()
    return materia if legal else MateriaIntent(None)


def apply_rules(
    plan: Plan, hits: list[Hit], materia: MateriaIntent, config: SearchConfig, embedder: Embedder
) -> RerankOutcome:
    """Reform rules, except for questions about the earliest criteria (history)."""
    cutoff = config.reform.cutoff(materia.materia)
    top_k = plan.request.top_k
    if not plan.request.apply_rules or plan.ordering == "earliest":
        return RerankOutcome(hits, [], cutoff, applied=False)
    if plan.rules_mode == "literal":  # seed 000: discard within the page, no refill
        return apply_reform_rules(hits[:top_k], materia.materia, config.reform)
    window = hits[: top_k * config.oversample]
    same_point = same_point_judge(window, embedder, config.same_point_similarity)
    return apply_same_point_rules(window, materia.materia, config.reform, same_point, top_k)


def same_point_judge(hits: list[Hit], embedder: Embedder, threshold: float) -> SamePoint:
    """Two hits are on the same point when their passages' vectors (from the embedding
    cache: the ingest stored them) have a cosine of at least ``same_point_similarity``."""
    texts = {
        h.passage.chunk.chunk_id: embedding_text(h.passage.rubro, h.passage.chunk)
        for h in hits
        if h.on_topic
    }
    ids = list(texts)
    embedded: Sequence[Vectors] = []
    try:
        if ids:
            embedded = list(embedder.embed([texts[i] for i in ids], "passage"))
    except EmbedderError as exc:  # no passage vectors: no old criterion is set aside
        now = time.monotonic()
        if now - _last_warning[0] >= WARN_EVERY_S:
            _last_warning[0] = now
            _log.warning("same-point rule not applied (%s): old criteria are only flagged", exc)
        embedded = []
    vectors = dict(zip(ids, embedded, strict=False))

    def same_point(old: Hit, newer: Hit) -> bool:
        a = vectors.get(old.passage.chunk.chunk_id)
        b = vectors.get(newer.passage.chunk.chunk_id)
        return a is not None and b is not None and float(np.dot(a, b)) >= threshold

    return same_point

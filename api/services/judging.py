"""Re-score chunks for a query with the judge: the named chunks, or a search's top-k."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from api.core.models import Filters, Hit
from api.errors import InvalidRequest
from api.judge import Judge
from api.judge.models import JudgeResult
from api.services.search import SearchRequest, SearchService

MAX_JUDGE_CANDIDATES = 50


@dataclass(frozen=True, slots=True)
class JudgeRequest:
    query: str
    top_k: int = 10
    filters: Filters = field(default_factory=Filters)
    # (registro, chunk index); None: a search's top-k
    candidates: tuple[tuple[int, int], ...] | None = None
    summary: bool = True


def judged_hits(search: SearchService, request: JudgeRequest) -> tuple[list[Hit], list[str]]:
    """The hits to judge: the named chunks, or a search's top-k; and a warning for each
    named chunk that is not stored (judged without it)."""
    if request.candidates is None:
        searched = search.search(
            SearchRequest(query=request.query, filters=request.filters, top_k=request.top_k)
        )
        return searched.hits, []
    if not request.candidates:  # had silently meant a search
        raise InvalidRequest("candidates", "empty: name chunks, or leave it out to search")
    if len(request.candidates) > MAX_JUDGE_CANDIDATES:
        raise InvalidRequest(
            "candidates", f"{len(request.candidates)} chunks, at most {MAX_JUDGE_CANDIDATES}"
        )
    wanted = set(request.candidates)
    only = Filters(registros=tuple(sorted({r for r, _ in wanted})))
    result = search.search(
        SearchRequest(
            query=request.query,
            filters=only,
            top_k=100,
            max_chunks_per_tesis=10,
            apply_rules=False,
            temporal_mode="off",
        )
    )
    hits = [h for h in result.hits if (h.registro, h.passage.chunk.index) in wanted]
    if not hits:
        raise InvalidRequest("candidates", "none of the named chunks is stored")
    found = {(h.registro, h.passage.chunk.index) for h in hits}
    missing = [c for c in request.candidates if c not in found]
    warnings = [f"fragmento no almacenado, no juzgado: {r} #{i}" for r, i in missing]
    return hits, warnings


def judge_chunks(search: SearchService, judge: Judge, request: JudgeRequest) -> JudgeResult:
    """The judge's verdict on the hits of ``request``, with a warning per named chunk that is
    not stored."""
    hits, warnings = judged_hits(search, request)
    result = judge.judge(request.query, hits, request.summary)
    return replace(result, warnings=[*warnings, *result.warnings]) if warnings else result

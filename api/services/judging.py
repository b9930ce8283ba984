"""Re-score chunks for a query with the judge: the named chunks, or a search's top-k."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    candidates: tuple[tuple[int, int], ...] = ()  # (registro, chunk index); empty: search
    summary: bool = True


def judged_hits(search: SearchService, request: JudgeRequest) -> list[Hit]:
    """The hits to judge: the named chunks, or a search's top-k."""
    if not request.candidates:
        return search.search(
            SearchRequest(query=request.query, filters=request.filters, top_k=request.top_k)
        ).hits
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
    return hits


def judge_chunks(search: SearchService, judge: Judge, request: JudgeRequest) -> JudgeResult:
    """The judge's verdict on the hits of ``request``."""
    return judge.judge(request.query, judged_hits(search, request), request.summary)

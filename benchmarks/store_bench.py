"""Hybrid search on a synthetic corpus in the EmbeddedStore: latency, parts, memory, floor.

Run as a child process (``python -m benchmarks.store_bench N``) so resident memory is this
corpus' alone; prints one JSON object. Query vectors are precomputed: no embedder in the loop.
"""

from __future__ import annotations

import cProfile
import io
import json
import pstats
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from api.core.models import Filters
from api.embeddings.base import TextKind, Vectors
from api.errors import EmbedderError
from api.services.search import SearchConfig, SearchRequest, SearchService
from api.services.search.retrieval import candidate_pool
from api.settings import PROJECT_ROOT, Settings
from api.store.base import VectorQuery
from api.store.embedded import EmbeddedStore
from benchmarks.queries import query_vectors, questions
from benchmarks.stats import summarize
from benchmarks.synthetic import DIM, ensure_store
from benchmarks.system import peak_rss_bytes, rss_bytes, rss_file_bytes

YEAR_FILTER = Filters(anio_min=2000)
# query vectors of the warm-up and of the cold pass (the headline ones: query_vectors' default)
WARM_SEED, COLD_SEED = 11, 13
FLOOR_TOP = 100  # the top-k of the numpy floor and of recall@k
RETRIEVER_POOL = candidate_pool(10, SearchConfig().oversample)  # what a default search asks


class NoEmbedder:
    """Query vectors are passed in; embedding here would be a benchmark bug."""

    model_id = "none"
    dim = DIM

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        raise EmbedderError("the store benchmark passes precomputed query vectors")


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def search_latency(
    service: SearchService, texts: list[str], vectors: np.ndarray, filters: Filters
) -> dict[str, Any]:
    totals: list[float] = []
    parts: dict[str, list[float]] = {}
    routes: dict[str, int] = {}
    for text, vector in zip(texts, vectors, strict=True):
        started = time.perf_counter()
        result = service.search(SearchRequest(text, filters=filters), vector=vector)
        totals.append(_ms(started))
        for name, value in result.timings_ms.items():
            parts.setdefault(name, []).append(value)
        route = str(getattr(getattr(result, "intent", None), "route", "relevance"))
        routes[route] = routes.get(route, 0) + 1
    return {
        "total": summarize(totals),
        "parts": {name: summarize(values) for name, values in parts.items()},
        "routes": routes,
    }


def retriever_latency(
    store: EmbeddedStore, texts: list[str], vectors: np.ndarray, filters: Filters
) -> dict[str, Any]:
    """The two store calls a default hybrid search makes, timed apart."""
    vector_ms, lexical_ms = [], []
    for text, vector in zip(texts, vectors, strict=True):
        started = time.perf_counter()
        store.vector_search(VectorQuery(vector, filters, RETRIEVER_POOL))
        vector_ms.append(_ms(started))
        started = time.perf_counter()
        store.lexical_search(text, vector, filters, RETRIEVER_POOL)
        lexical_ms.append(_ms(started))
    return {"vector_search": summarize(vector_ms), "lexical_search": summarize(lexical_ms)}


def numpy_floor(matrix: np.ndarray, vectors: np.ndarray) -> dict[str, Any]:
    """The physical floor: one exact scan (matrix @ q) and an argpartition for the top 100."""
    samples = []
    for vector in vectors:
        started = time.perf_counter()
        scores = matrix @ vector
        np.argpartition(-scores, FLOOR_TOP - 1)[:FLOOR_TOP]
        samples.append(_ms(started))
    return dict(summarize(samples))


def vector_recall(
    store: EmbeddedStore, vectors: np.ndarray, filters: Filters, k: int = FLOOR_TOP
) -> dict[str, Any]:
    """recall@k of the store's vector top-k (ANN where it has one) against the exact scan."""
    index = store._current_index()
    ann = index.ann
    shares = []
    for vector in vectors:
        got = store.vector_search(VectorQuery(vector, filters, k))
        index.ann = None
        try:
            want = store.vector_search(VectorQuery(vector, filters, k))
        finally:
            index.ann = ann
        key = {(h.passage.registro, h.passage.chunk.index) for h in want}
        shares.append(len(key & {(h.passage.registro, h.passage.chunk.index) for h in got}) / k)
    return {"mean": float(np.mean(shares)), "min": float(np.min(shares)), "ann": ann is not None}


def exact_latency(
    store: EmbeddedStore, service: SearchService, texts: list[str], vectors: np.ndarray
) -> dict[str, Any]:
    """The hybrid search with the ANN index set aside: the exact scan, as reference."""
    index = store._current_index()
    ann, index.ann = index.ann, None
    try:
        return search_latency(service, texts, vectors, Filters())
    finally:
        index.ann = ann


def open_store(path: Path) -> EmbeddedStore:
    return EmbeddedStore(path, dim=DIM, ann_min_chunks=Settings().ann_min_chunks or None)


def short_path(path: str) -> str:
    """A profiled file relative to site-packages, the project or the standard library."""
    stdlib = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/"
    for marker in ("/site-packages/", f"{PROJECT_ROOT}/", stdlib):
        if marker in path:
            return path.split(marker)[-1]
    return path


def profile_top(
    service: SearchService, texts: list[str], vectors: np.ndarray, lines: int = 12
) -> list[dict[str, Any]]:
    """Where a search spends its time: functions by own time over the query set."""
    profiler = cProfile.Profile()
    profiler.enable()
    for text, vector in zip(texts, vectors, strict=True):
        service.search(SearchRequest(text), vector=vector)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=io.StringIO())
    rows = []
    # Stats.stats, the raw table print_stats reads, is not declared in typeshed.
    raw: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    for (path, line, name), (_, calls, own, cumulative, _) in raw.items():
        where = short_path(path)
        rows.append(
            {
                "function": f"{where}:{line}({name})" if line else name,
                "calls": calls,
                "own_ms_per_query": own * 1000 / len(texts),
                "cumulative_ms_per_query": cumulative * 1000 / len(texts),
            }
        )
    rows.sort(key=lambda r: -r["own_ms_per_query"])
    return rows[:lines]


def other_questions(
    taken: Sequence[str], n: int, seed: int
) -> tuple[list[str], npt.NDArray[np.float32]]:
    """``n`` questions sharing no text with ``taken`` (while the set lasts) and no vector."""
    seen = set(taken)
    pool = [q for q in questions() if q not in seen] or questions()
    return (pool * (n // len(pool) + 1))[:n], query_vectors(n, seed=seed)


def read_through(path: Path) -> float:
    """Read the store file once, as a server that has been answering for a while holds it in
    the OS page cache (this VM drops that cache between sessions). Seconds."""
    started = time.perf_counter()
    block = bytearray(16 << 20)
    with path.open("rb", buffering=0) as f:
        while f.readinto(block):
            pass
    return time.perf_counter() - started


def run(n_chunks: int, n_queries: int, profile: bool) -> dict[str, Any]:
    built = ensure_store(n_chunks)
    texts = (questions() * (n_queries // len(questions()) + 1))[:n_queries]
    vectors = query_vectors(n_queries)
    started = time.perf_counter()
    first = open_store(built.path)  # maps the saved columns, or builds and saves them
    first.vector_search(VectorQuery(vectors[0], Filters(), 1))
    first_open_s, index_built = time.perf_counter() - started, first.rebuilds > 0
    first.close()
    del first
    rss_before = rss_bytes()
    started = time.perf_counter()
    store = open_store(built.path)
    store.vector_search(
        VectorQuery(vectors[0], Filters(), 1)
    )  # maps (or loads) matrix and postings
    load_s = time.perf_counter() - started
    rss_loaded = rss_bytes()
    peak_loaded = peak_rss_bytes()
    service = SearchService(store, NoEmbedder(), SearchConfig())
    # steady state, as in a running server: one untimed pass over other questions pages in
    # the mapped columns, the postings and SQLite's interior pages (the first open is timed
    # above). Every timed question is unseen: its own rows were not read by an earlier one.
    cold_texts, cold_vectors = other_questions(texts, n_queries, COLD_SEED)
    warm_texts, warm_vectors = other_questions([*texts, *cold_texts], n_queries, WARM_SEED)
    search_latency(service, warm_texts, warm_vectors, Filters())
    # rows read from wherever the file is now (disk, when the OS has not cached it) ...
    cold = search_latency(service, cold_texts, cold_vectors, Filters())
    # ... and, the headline figures, with the file in the OS page cache
    read_s = read_through(built.path)
    result: dict[str, Any] = {
        "chunks": built.chunks,
        "tesis": built.tesis,
        "file_bytes": built.file_bytes,
        "build_s": built.build_s,
        "reused": built.reused,
        "first_open_s": first_open_s,
        "index_built": index_built,
        "load_s": load_s,
        "rss_before": rss_before,
        "rss_loaded": rss_loaded,
        "peak_loaded": peak_loaded,
        "ann": store._current_index().ann is not None,
        "unfiltered": search_latency(service, texts, vectors, Filters()),
        "year_filter": search_latency(service, texts, vectors, YEAR_FILTER),
        "cold": cold,
        "read_through_s": read_s,
        "retrievers": retriever_latency(store, texts, vectors, Filters()),
        "retrievers_year": retriever_latency(store, texts, vectors, YEAR_FILTER),
        "rss_searched": rss_bytes(),
        "rss_searched_file": rss_file_bytes(),
        "year_filter_share": float(np.mean(store._current_index().anio >= 2000)),
        "recall": vector_recall(store, vectors, Filters()),
        "recall_year": vector_recall(store, vectors, YEAR_FILTER),
        "exact": exact_latency(store, service, texts, vectors),
        "floor_scan": numpy_floor(store._current_index().vectors, vectors),
        "lexical_index": store._lexical is not None,
    }
    if profile:
        result["profile"] = profile_top(service, texts, vectors)
    result["rss_after"] = rss_bytes()
    result["rss_after_file"] = rss_file_bytes()
    result["peak_after"] = peak_rss_bytes()
    store.close()
    return result


if __name__ == "__main__":
    size, queries = int(sys.argv[1]), int(sys.argv[2])
    print(json.dumps(run(size, queries, profile="--profile" in sys.argv)))

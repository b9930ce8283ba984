"""More peers on the same vectors: LanceDB (hybrid: vector + its full-text index) and Chroma
(vector; HNSW), each unfiltered and with the year filter (``year >= 2000``) of section 2.

Run as a child process (``python -m benchmarks.peer_others lancedb|chroma N QUERIES``); prints
one JSON object, or ``{"skipped": reason}`` when the library is not installed (the ``bench``
extra installs both).
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.queries import query_vectors, questions
from benchmarks.stats import summarize
from benchmarks.synthetic import BENCH_DIR, Columns, ensure_store, read_columns
from benchmarks.system import peak_rss_bytes, rss_bytes

TOP_K = 10
YEAR_MIN = 2000  # store_bench.YEAR_FILTER
CHROMA_BATCH = 5000


def _timed(search: Callable[[str, np.ndarray, bool], int], n_queries: int) -> dict[str, Any]:
    texts = (questions() * (n_queries // len(questions()) + 1))[:n_queries]
    vectors = query_vectors(n_queries)
    search(texts[0], vectors[0], False)  # warm up
    out: dict[str, Any] = {}
    for name, filtered in (("unfiltered", False), ("year_filter", True)):
        samples = []
        for text, vector in zip(texts, vectors, strict=True):
            started = time.perf_counter()
            found = search(text, vector, filtered)
            samples.append((time.perf_counter() - started) * 1000)
            assert found > 0
        out[name] = summarize(samples)
    return out


def lancedb_peer(columns: Columns, directory: str) -> tuple[Callable[..., int], str]:
    import lancedb
    import pyarrow as pa
    from lancedb.index import FTS, BTree

    db = lancedb.connect(directory)
    flat = pa.array(columns.vectors.reshape(-1), type=pa.float32())
    data = pa.table(
        {
            "id": pa.array(columns.ids),
            "vector": pa.FixedSizeListArray.from_arrays(flat, columns.vectors.shape[1]),
            "text": pa.array(columns.texts),
            "year": pa.array(columns.years),
        }
    )
    table = db.create_table("chunks", data=data)
    table.create_index("text", config=FTS())
    table.create_index("year", config=BTree())

    def search(text: str, vector: np.ndarray, filtered: bool) -> int:
        query = table.search(query_type="hybrid").vector(vector.tolist()).text(text)
        if filtered:
            query = query.where(f"year >= {YEAR_MIN}", prefilter=True)
        return len(query.limit(TOP_K).to_list())

    return search, importlib.metadata.version("lancedb")


def chroma_peer(columns: Columns, directory: str) -> tuple[Callable[..., int], str]:
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(directory, Settings(anonymized_telemetry=False))
    collection = client.create_collection("chunks", metadata={"hnsw:space": "ip"})
    for start in range(0, len(columns.ids), CHROMA_BATCH):
        end = start + CHROMA_BATCH
        collection.add(
            ids=[str(i) for i in columns.ids[start:end].tolist()],
            embeddings=columns.vectors[start:end],
            documents=columns.texts[start:end],
            metadatas=[{"year": int(y)} for y in columns.years[start:end].tolist()],
        )

    def search(text: str, vector: np.ndarray, filtered: bool) -> int:
        where: Any = (
            {"year": {"$gte": YEAR_MIN}} if filtered else None
        )  # chromadb's Where type, when it is installed
        found = collection.query(query_embeddings=[vector], n_results=TOP_K, where=where)
        return len(found["ids"][0])

    return search, importlib.metadata.version("chromadb")


PEERS = {"lancedb": lancedb_peer, "chroma": chroma_peer}


def run(peer: str, n_chunks: int, n_queries: int) -> dict[str, Any]:
    try:
        importlib.import_module("lancedb" if peer == "lancedb" else "chromadb")
    except ImportError as exc:
        return {"peer": peer, "skipped": f"{exc}; pip install -e '.[bench]'"}
    columns = read_columns(ensure_store(n_chunks).path)
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=BENCH_DIR, prefix=f"{peer}-") as directory:
        rss_before = rss_bytes()
        started = time.perf_counter()
        search, version = PEERS[peer](columns, directory)
        build_s = time.perf_counter() - started
        del columns
        rss_loaded = rss_bytes()
        latency = _timed(search, n_queries)
    return {
        "peer": peer,
        "chunks": n_chunks,
        "version": version,
        "build_s": build_s,
        "rss_before": rss_before,
        "rss_loaded": rss_loaded,
        "peak": peak_rss_bytes(),
        **latency,
    }


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))))

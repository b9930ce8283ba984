"""The peer: the same corpus and query vectors in Haystack 2.x's in-memory pipeline.

InMemoryDocumentStore + InMemoryEmbeddingRetriever (top 50) + MetaFieldRanker on ``year``.
Run as a child process (``python -m benchmarks.peer_haystack N QUERIES``); prints one JSON
object, or ``{"skipped": reason}`` when haystack-ai is not installed (``pip install
haystack-ai``, the ``bench`` extra).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
import time
from typing import Any

from benchmarks.queries import query_vectors
from benchmarks.stats import summarize
from benchmarks.synthetic import ensure_store, read_columns
from benchmarks.system import peak_rss_bytes, rss_bytes

RETRIEVER_TOP_K = 50
RANKER_TOP_K = 10


def run(n_chunks: int, n_queries: int) -> dict[str, Any]:
    os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # never phone home
    try:
        from haystack import Document, Pipeline
        from haystack.components.rankers import MetaFieldRanker
        from haystack.components.retrievers.in_memory import InMemoryEmbeddingRetriever
        from haystack.document_stores.in_memory import InMemoryDocumentStore
    except ImportError as exc:
        return {"skipped": f"haystack-ai is not installed ({exc}); pip install haystack-ai"}

    columns = read_columns(ensure_store(n_chunks).path)
    rss_before = rss_bytes()
    started = time.perf_counter()
    documents = [
        Document(id=str(rowid), content=text, embedding=vector.tolist(), meta={"year": int(y)})
        for rowid, text, vector, y in zip(
            columns.ids.tolist(), columns.texts, columns.vectors, columns.years, strict=True
        )
    ]
    del columns
    store = InMemoryDocumentStore(embedding_similarity_function="dot_product")  # unit vectors
    store.write_documents(documents)
    del documents
    build_s = time.perf_counter() - started
    rss_loaded = rss_bytes()

    pipeline = Pipeline()
    pipeline.add_component("retriever", InMemoryEmbeddingRetriever(store, top_k=RETRIEVER_TOP_K))
    pipeline.add_component("ranker", MetaFieldRanker(meta_field="year", top_k=RANKER_TOP_K))
    pipeline.connect("retriever.documents", "ranker.documents")
    vectors = query_vectors(n_queries)
    pipeline.run({"retriever": {"query_embedding": vectors[0].tolist()}})  # warm up
    samples = []
    for vector in vectors:
        query = vector.tolist()
        started = time.perf_counter()
        out = pipeline.run({"retriever": {"query_embedding": query}})
        samples.append((time.perf_counter() - started) * 1000)
        assert len(out["ranker"]["documents"]) == RANKER_TOP_K
    return {
        "chunks": n_chunks,
        "version": importlib.metadata.version("haystack-ai"),
        "build_s": build_s,
        "rss_before": rss_before,
        "rss_loaded": rss_loaded,
        "peak": peak_rss_bytes(),
        "latency": summarize(samples),
    }


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]), int(sys.argv[2]))))

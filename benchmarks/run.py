"""`make bench`: every section, each heavy one in its own process, then docs/BENCHMARKS.md.

.venv/bin/python -m benchmarks.run              # the full run (~10-20 min on 2 cores)
.venv/bin/python -m benchmarks.run --quick      # smoke run: 10k chunks, light load
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

from api.settings import PROJECT_ROOT
from benchmarks import bundled
from benchmarks.report import render
from benchmarks.stats import GIB
from benchmarks.synthetic import BENCH_DIR
from benchmarks.system import Machine, total_memory_bytes

CHILD_TIMEOUT_S = 1800
# One BLAS and one OpenMP thread: the setting compared against the defaults in section 6.
SINGLE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def child(module: str, *args: object, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``python -m module args`` (``env`` added) and parse the JSON it prints last."""
    command = [sys.executable, "-m", module, *map(str, args)]
    shown = " ".join(f"{k}={v}" for k, v in (env or {}).items())
    print(f"$ {shown} {shlex.join(command[1:])}".replace("$  ", "$ "), file=sys.stderr)
    done = subprocess.run(
        command,
        stdout=subprocess.PIPE,
        text=True,
        timeout=CHILD_TIMEOUT_S,
        cwd=PROJECT_ROOT,
        env={**os.environ, **(env or {})},
    )
    if done.returncode != 0:
        return {"failed": f"{module} exited with {done.returncode}"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def python_shown() -> str:
    """The interpreter as a reader would type it: relative to the project when inside it."""
    executable = Path(sys.executable)
    if executable.is_relative_to(PROJECT_ROOT):
        return str(executable.relative_to(PROJECT_ROOT))
    return executable.name


def sizes(text: str) -> list[int]:
    return [int(s.replace("_", "")) for s in text.split(",") if s.strip()]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--sizes",
        type=sizes,
        default=[10_000, 100_000, 1_000_000],
        help="synthetic corpus sizes in chunks",
    )
    parser.add_argument(
        "--peer-sizes",
        type=sizes,
        default=[10_000, 100_000],
        help="sizes the Haystack peer runs at",
    )
    parser.add_argument("--queries", type=int, default=64, help="searches per synthetic size")
    parser.add_argument("--peer-queries", type=int, default=10, help="searches per peer size")
    parser.add_argument(
        "--other-peer-queries", type=int, default=32, help="searches per LanceDB/Chroma size"
    )
    parser.add_argument("--warm-passes", type=int, default=3, help="cached passes, bundled")
    parser.add_argument(
        "--ingest-chunks", type=int, default=64, help="chunks embedded per ingest run"
    )
    parser.add_argument("--clients", type=int, default=50, help="concurrent load clients")
    parser.add_argument("--per-client", type=int, default=40, help="searches per client")
    parser.add_argument("--load-timeout", type=float, default=600.0, help="load test cap, s")
    parser.add_argument("--mixed-clients", type=int, default=100, help="clients, mixed load")
    parser.add_argument(
        "--mixed-per-client", type=int, default=10, help="searches per mixed-load client"
    )
    parser.add_argument(
        "--hostile-every", type=int, default=10, help="every k-th mixed client is hostile"
    )
    parser.add_argument(
        "--during-added", type=int, default=10_000, help="chunks ingested during searches"
    )
    parser.add_argument(
        "--thread-sizes",
        type=sizes,
        default=[100_000],
        help="synthetic sizes re-run with one BLAS/OpenMP thread",
    )
    parser.add_argument("--output", type=Path, default=PROJECT_ROOT / "docs" / "BENCHMARKS.md")
    parser.add_argument("--quick", action="store_true", help="10k only, light load, no 1M")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.peer_sizes, args.queries, args.peer_queries = [10_000], [10_000], 16, 3
        args.thread_sizes = [10_000]
        args.warm_passes, args.ingest_chunks, args.clients, args.per_client = 1, 16, 5, 4
        args.mixed_clients, args.mixed_per_client, args.during_added = 10, 4, 1000
    return args


def peer_notes(results: dict[str, Any], peer_sizes: list[int]) -> str:
    """Why the peer did not run at 1M, from this run's own per-chunk figures."""
    peers = [p for p in results["peer"] if "chunks" in p]
    if not peers or 1_000_000 in peer_sizes:
        return ""
    largest = max(peers, key=lambda p: p["chunks"])
    per_chunk = (largest["rss_loaded"] - largest["rss_before"]) / largest["chunks"]
    per_query_s = largest["latency"]["p50"] / 1000 * 1_000_000 / largest["chunks"]
    need = per_chunk * 1_000_000
    return (
        f"Not run at 1,000,000 chunks: at {largest['chunks']:,} Haystack held "
        f"{per_chunk / 1024:.1f} KiB per chunk (embeddings as Python float lists), so 1M would "
        f"need ~{need / GIB:.0f} GiB of the machine's {total_memory_bytes() / GIB:.0f} GiB, "
        f"and each query would take ~{per_query_s:.0f} s at its measured linear cost."
    )


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    started = time.perf_counter()
    load_start = os.getloadavg()[0]
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "date": datetime.now().strftime("%Y-%m-%d %H:%M"),
        "command": shlex.join([python_shown(), "-m", "benchmarks.run", *sys.argv[1:]]),
        "machine": asdict(Machine.describe()),
        "load_start": load_start,
    }
    print("bundled corpus over GraphQL, and load", file=sys.stderr, flush=True)
    results["bundled"] = bundled.run(
        args.warm_passes,
        args.clients,
        args.per_client,
        args.load_timeout,
        args.mixed_clients,
        args.hostile_every,
        args.mixed_per_client,
    )
    results["synthetic"] = [
        child("benchmarks.store_bench", n, args.queries, "--profile") for n in args.sizes
    ]
    results["during_ingest"] = child("benchmarks.ingest_during", max(args.sizes), args.during_added)
    results["peer"] = [
        child("benchmarks.peer_haystack", n, args.peer_queries) for n in args.peer_sizes
    ]
    results["peer_note"] = peer_notes(results, args.peer_sizes)
    results["peers_more"] = [
        child("benchmarks.peer_others", name, n, args.other_peer_queries)
        for name in ("lancedb", "chroma")
        for n in args.peer_sizes
    ]
    results["ingest"] = child("benchmarks.ingest_bench", args.ingest_chunks)
    print("thread settings: one BLAS/OpenMP thread", file=sys.stderr, flush=True)
    results["single_thread"] = {
        "env": SINGLE_THREAD,
        "bundled": bundled.graphql_only(args.warm_passes, SINGLE_THREAD),
        "synthetic": [
            child("benchmarks.store_bench", n, args.queries, env=SINGLE_THREAD)
            for n in args.thread_sizes
        ],
    }
    results["load_end"] = os.getloadavg()[0]
    results["elapsed_s"] = time.perf_counter() - started
    (BENCH_DIR / "results.json").write_text(json.dumps(results, indent=1))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(render(results), encoding="utf-8")
    print(f"wrote {args.output} ({results['elapsed_s'] / 60:.1f} min)", file=sys.stderr)


if __name__ == "__main__":
    main()

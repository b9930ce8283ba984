"""The store sections of docs/BENCHMARKS.md: synthetic corpora, large stores, profiles."""

from __future__ import annotations

from typing import Any

from benchmarks.markdown import mib, ms, p50_95, table

LATENCY_HEADER = [
    "Chunks",
    "hybrid p50 / p95",
    "+ year filter p50 / p95",
    "rows read from disk p50",
    "retrieve p50",
    "score p50",
    "vector_search p50",
    "lexical_search p50",
    "floor: numpy scan p50",
]
MEMORY_HEADER = [
    "Chunks",
    "Tesis",
    "SQLite file",
    "Build",
    "Load",
    "RSS delta",
    "per chunk",
    "RSS after",
    "Peak RSS",
]


def _latency_row(s: dict[str, Any]) -> list[str]:
    plain, retrievers = s["unfiltered"], s["retrievers"]
    return [
        f"{s['chunks']:,}",
        p50_95(plain["total"]),
        p50_95(s["year_filter"]["total"]),
        ms(s["cold"]["total"]["p50"]) if "cold" in s else "-",
        ms(plain["parts"]["retrieve"]["p50"]),
        ms(plain["parts"]["score"]["p50"]),
        ms(retrievers["vector_search"]["p50"]),
        ms(retrievers["lexical_search"]["p50"]),
        ms(s["floor_scan"]["p50"]),
    ]


def _memory_row(s: dict[str, Any]) -> list[str]:
    n, delta = s["chunks"], s["rss_loaded"] - s["rss_before"]
    build = f"{s['build_s']:.0f} s" + ("" if s["reused"] else " (this run)")
    return [
        f"{n:,}",
        f"{s['tesis']:,}",
        mib(s["file_bytes"]),
        build,
        f"{s['load_s']:.1f} s",
        mib(delta),
        f"{delta / n:,.0f} B",
        mib(s["rss_after"]),
        mib(s["peak_after"]),
    ]


def synthetic(stores: list[dict[str, Any]]) -> list[str]:
    ok = [s for s in stores if "chunks" in s]
    routes = "; ".join(
        f"{s['chunks']:,}: "
        + ", ".join(f"{k} {v}" for k, v in s["unfiltered"]["routes"].items())
        + f" (the year filter keeps {s['year_filter_share']:.0%} of the rows)"
        for s in ok
    )
    failed = [f"A size failed: {s['failed']}." for s in stores if "failed" in s]
    return [
        "## 2. Synthetic corpora in the embedded store",
        "",
        "Random unit float32 vectors (dim 384) with realistic metadata (years 1917-2026 "
        "skewed old, the época in force on the date, tipo, instancia, 1-2 materias) and "
        "chunk texts cut as word windows from the bundled corpus, so BM25 sees real "
        "vocabulary (`benchmarks/synthetic.py`). Each size runs in its own process: "
        "`SearchService.search` (hybrid: vector top 50 + BM25 top 50, fusion, recency "
        "scoring, validity and reform rules) with precomputed query vectors, so no embedder "
        "is in the loop (section 1 has its cost). Every timed question is unseen: after one "
        "untimed pass over other questions (columns, postings and SQLite's interior pages "
        "warm; opening is timed apart, below), another set of questions reads its rows from "
        "wherever the store file is (*rows read from disk*: this VM drops the OS page cache "
        "between sessions, so mostly disk), then the file is read once, as a server that has "
        "been answering holds it in the OS page cache, and the headline set is timed. Year "
        "filter: `anioMin: 2000`. The two store "
        "calls and the floor (one `matrix @ q` plus `argpartition`) are timed apart on the "
        "same queries. Milliseconds.",
        "",
        *table(LATENCY_HEADER, [_latency_row(s) for s in ok]),
        f"Routes the questions took: {routes}.",
        "",
        *failed,
        "Memory and build. *RSS delta*: resident growth from opening the store to the end of "
        "its first search (vector matrix, filter columns, BM25 postings), also per chunk. "
        "*RSS after*: the whole process after every search. *Load* reads vectors, BM25 text "
        "and filter columns from the SQLite file, so at 1M chunks (5 GB) it depends on how "
        "much of the file the OS page cache holds.",
        "",
        *table(MEMORY_HEADER, [_memory_row(s) for s in ok]),
    ]


SCALE_HEADER = [
    "Chunks",
    "vector path",
    "hybrid p50 / p95",
    "exact hybrid p50 / p95",
    "recall@100 (min)",
    "+ year filter (min)",
    "open (mapped)",
    "first open",
    "RSS searched (mapped files)",
]


def scale(r: dict[str, Any]) -> list[str]:
    stores = [s for s in r.get("synthetic", []) if "chunks" in s and "recall" in s]
    rows = [
        [
            f"{s['chunks']:,}",
            "ANN + exact re-score" if s["ann"] else "exact",
            p50_95(s["unfiltered"]["total"]),
            p50_95(s["exact"]["total"]),
            f"{s['recall']['mean']:.4f} ({s['recall']['min']:.2f})",
            f"{s['recall_year']['mean']:.4f} ({s['recall_year']['min']:.2f})",
            f"{s['load_s']:.1f} s",
            f"{s['first_open_s']:.1f} s" + (" (built)" if s["index_built"] else ""),
            f"{mib(s['rss_searched'])} ({mib(s['rss_searched_file'])})",
        ]
        for s in stores
    ]
    lines = [
        "## 2b. Large stores: ANN shortlist, memory-mapped columns, no stall",
        "",
        "From `VIGENCIA_ANN_MIN_CHUNKS` (200,000) chunks on, the vector top-k comes from a "
        "faiss product-quantization fast scan (dim/2 4-bit codes, 96 bytes a vector) whose "
        "best `VIGENCIA_ANN_SHORTLIST` (3,000) rows, widened by the filters' share, are "
        "re-scored exactly; smaller stores, narrow filters and margin searches stay exact "
        "(`api/store/embedded_ann.py`). *Exact hybrid*: the same searches with the ANN set "
        "aside (the reference). *Recall@100*: the vector top 100 against the exact scan's, "
        "over the query set (mean, and the worst query). The search columns (vectors, "
        "filters, BM25 postings, the ANN index) are saved beside the SQLite file and "
        "memory-mapped (`api/store/embedded_files.py`): *open* is a fresh process's open plus "
        "its first search; *first open* built and saved them when marked. *RSS searched*: "
        "after the ANN searches, before the exact reference scans touch every vector page; "
        "in parentheses the file-backed part (shared between workers, reclaimable).",
        "",
        *table(SCALE_HEADER, rows),
    ]
    d = r.get("during_ingest") or {}
    if "latency" in d:
        lines += [
            f"No stall: a second process upserted {d['added']:,} new chunks into a copy of "
            f"the {d['chunks']:,}-chunk store ({d['commit_tesis']} tesis per commit, "
            f"{d['write_s']:.0f} s) while this one searched back to back; the columns are "
            "rebuilt in a background thread (and saved) while the previous ones serve. "
            f"{d['latency']['n']} searches from the writer's start until the new chunks "
            f"were searchable ({d['caught_up_s']:.0f} s, {d['rebuilds']} rebuilds): p50 "
            f"{ms(d['latency']['p50'])} ms, p95 {ms(d['latency']['p95'])} ms, p99 "
            f"{ms(d['latency']['p99'])} ms, max {ms(d['latency']['max'])} ms"
            + ("." if d["caught_up"] else " (it had not caught up when the cap ended it)."),
            "",
        ]
    elif d:
        lines += [f"No-stall run failed: {d.get('failed')}.", ""]
    return lines


def profiles(stores: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for s in stores:
        if "profile" not in s:
            continue
        rows = [
            [
                f"`{p['function']}`",
                f"{p['own_ms_per_query']:.2f}",
                f"{p['cumulative_ms_per_query']:.2f}",
            ]
            for p in s["profile"]
        ]
        lines += [
            f"### {s['chunks']:,} chunks: cProfile, ms per search",
            "",
            *table(["Function", "own", "cumulative"], rows),
        ]
    if not lines:
        return []
    intro = (
        "cProfile sees the search's own thread. A hybrid search's vector retriever runs on a "
        "helper thread meanwhile (`api/services/search/retrieval.py`), so what it takes beyond "
        "BM25 shows here as the wait for it (`acquire` of a lock); its own time is section 2's "
        "*vector_search* column."
    )
    return ["## Where the time goes", "", intro, "", *lines]

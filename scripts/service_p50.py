"""A search's own cost, service only: the 175 evaluation questions three times over, their
vectors embedded once beforehand, against the bundled store. ``python scripts/service_p50.py
[TREE]`` measures the code of TREE (a git worktree of another commit, to compare on the same
machine; default: this checkout); run the two alternately, twice each.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.cli.loading import ensure_loaded  # noqa: E402
from api.services.container import Services  # noqa: E402
from api.services.evaluation import load_judgements  # noqa: E402
from api.services.search import SearchRequest  # noqa: E402
from api.settings import Settings  # noqa: E402

PASSES = 3


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="service-p50-") as data_dir:
        settings = Settings(data_dir=Path(data_dir), search_log_enabled=False)
        services = Services.build(settings)
        ensure_loaded(services, settings)
        search = services.search
        questions = [j.query for j in load_judgements(ROOT / "data" / "eval" / "queries.jsonl")]
        vectors = [search.embed_query(q) for q in questions]
        for question, vector in zip(questions[:5], vectors, strict=False):  # warm up
            search.search(SearchRequest(query=question), vector=vector)
        times: list[float] = []
        for _ in range(PASSES):
            for question, vector in zip(questions, vectors, strict=True):
                started = time.perf_counter()
                search.search(SearchRequest(query=question), vector=vector)
                times.append((time.perf_counter() - started) * 1000)
        services.close()
    times.sort()
    p95 = times[int(len(times) * 0.95)]
    print(
        f"{ROOT}: p50 {statistics.median(times):.2f} ms, p95 {p95:.2f} ms ({len(times)} searches)"
    )


if __name__ == "__main__":
    main()

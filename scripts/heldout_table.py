"""The held-out figures: the configured ranking on every blind set, per split, into README.md.

Each ``data/eval/blind*.jsonl`` was written by a helper who never read the product's code,
and its first run is its honest figure (``docs/EVAL_SET.md`` keeps those). This table is
what they read now: one row per set and split, and the halves pooled. Only counts: no
question of a test half is listed. ``python scripts/heldout_table.py`` (``make eval`` runs it
after ``eval_table.py``); ``--print`` prints the table instead of writing it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from api.cli.loading import ensure_loaded
from api.core.evaluation import Judgement, current_at_1, mean
from api.services.container import Services
from api.services.evaluation import (
    EvalConfig,
    Scores,
    held_out_sets,
    load_judgements,
    run_config,
    score,
)
from api.services.search import SearchResult, best_chunk_per_tesis
from api.settings import PROJECT_ROOT, Settings

START, END = "<!-- heldout:start -->", "<!-- heldout:end -->"
K = 10
HEADER = (
    "| set | split | questions | current@1 | nDCG@10 | abstention P / R | English | temporal "
    "| high confidence: share / current@1 |",
    "|---|---|---|---|---|---|---|---|---|",
)


def _pct(value: float | None) -> str:
    """A share as a percentage with one decimal; "n/a" where nothing was due."""
    return "n/a" if value is None else f"{100 * value:.1f}"


def row(name: str, split: str, scores: Scores, sure: tuple[float | None, float | None]) -> str:
    """One Markdown row of the table: a set (or the pooled halves) on one split; ``sure``:
    the share of relevance-ranked answers given high confidence, and their current@1."""
    abstention = f"{_pct(scores.abstain_precision)} / {_pct(scores.abstain_recall)}"
    return (
        f"| {name} | {split} | {scores.questions} | {_pct(scores.current_at_1)} | "
        f"{_pct(scores.ndcg)} | {abstention} | {_pct(scores.by_class.get('english'))} | "
        f"{_pct(scores.by_class.get('temporal'))} | {_pct(sure[0])} / {_pct(sure[1])} |"
    )


def high_confidence(
    judgements: Sequence[Judgement], results: Sequence[SearchResult]
) -> tuple[float | None, float | None]:
    """Of the answerable questions given a confidence (answered by relevance), the share
    given a high one, and how often their first tesis was the expected one."""
    rated = [
        (j, r) for j, r in zip(judgements, results, strict=True) if not j.abstain and r.confidence
    ]
    high = [(j, r) for j, r in rated if r.confidence and r.confidence.level == "high"]
    right = [current_at_1([h.registro for h in best_chunk_per_tesis(r.hits)], j) for j, r in high]
    return (len(high) / len(rated) if rated else None), mean(right)


def table(services: Services) -> list[str]:
    """The rows: each blind set's splits, then every set's halves pooled per split."""
    search = services.search
    lines = list(HEADER)
    pooled: dict[str, tuple[list[Judgement], list[SearchResult]]] = {}
    for path in held_out_sets(PROJECT_ROOT / "data" / "eval"):
        judgements = load_judgements(path)
        vectors = [search.embed_query(j.query) for j in judgements]
        results = run_config(search, judgements, vectors, EvalConfig("configured"), K)
        for split in sorted({j.split for j in judgements}):
            part = [(j, r) for j, r in zip(judgements, results, strict=True) if j.split == split]
            asked = [j for j, _ in part]
            found = [r for _, r in part]
            lines.append(
                row(path.stem, split, score(asked, found, K), high_confidence(asked, found))
            )
            js, rs = pooled.setdefault(split, ([], []))
            js.extend(asked)
            rs.extend(found)
    for split, (js, rs) in sorted(pooled.items()):
        lines.append(row("**all**", split, score(js, rs, K), high_confidence(js, rs)))
    return lines


def write(readme_text: str, lines: Sequence[str]) -> str:
    """``readme_text`` with the lines between ``START`` and ``END`` replaced by ``lines``."""
    head, rest = readme_text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n" + "\n".join(lines) + f"\n{END}{tail}"


def main(argv: Sequence[str]) -> None:
    settings = Settings(search_log_enabled=False)  # the store `vigencia eval` and `make run` use
    services = Services.build(settings)
    try:
        ensure_loaded(services, settings)
        lines = table(services)
    finally:
        services.close()
    if "--print" in argv:
        print("\n".join(lines))
        return
    readme = PROJECT_ROOT / "README.md"
    readme.write_text(write(readme.read_text(encoding="utf-8"), lines), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])

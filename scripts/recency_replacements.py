"""Does recency ever replace an on-point first answer with another? Counted on every labelled set.

For each answerable question of ``data/eval/queries.jsonl`` and every ``blind*.jsonl``, the first
tesis of the configured ranking and of the same ranking without recency (weight 0) are compared with
the question's labels (any graded tesis counts as on point). ``python
scripts/recency_replacements.py`` prints, per set and split, how many questions recency took
from an on-point first answer to an unlabelled one, and how many the other way. Only counts:
the test halves are not to be read question by question.
"""

from __future__ import annotations

from api.cli.loading import ensure_loaded
from api.services.container import Services
from api.services.evaluation import EvalConfig, held_out_sets, load_judgements, run_config
from api.services.search import SearchResult, best_chunk_per_tesis
from api.settings import PROJECT_ROOT, Settings

EVAL = PROJECT_ROOT / "data" / "eval"


def first(result: SearchResult) -> int | None:
    hits = best_chunk_per_tesis(result.hits)
    return hits[0].registro if hits else None


def main() -> None:
    settings = Settings(search_log_enabled=False)  # the store `vigencia eval` and `make run` use
    services = Services.build(settings)
    ensure_loaded(services, settings)
    search = services.search
    total = [0, 0, 0]  # questions, replaced by recency, put right by recency
    # the main set and every blind set, in the order they were written
    for name in ("queries", *(path.stem for path in held_out_sets(EVAL))):
        judgements = load_judgements(EVAL / f"{name}.jsonl")
        for split in ("dev", "test"):
            asked = [j for j in judgements if j.split == split and not j.abstain]
            if not asked:
                continue
            vectors = [search.embed_query(j.query) for j in asked]
            configured = run_config(search, asked, vectors, EvalConfig("configured"), 10)
            plain = run_config(search, asked, vectors, EvalConfig("w=0", 0.0), 10)
            replaced = righted = 0
            for j, with_recency, without in zip(asked, configured, plain, strict=True):
                on_point = (first(with_recency) in j.relevant, first(without) in j.relevant)
                replaced += on_point == (False, True)
                righted += on_point == (True, False)
            print(
                f"{name:8} {split:4} {len(asked):3} questions: recency replaced an on-point "
                f"first answer {replaced}, put one right {righted}"
            )
            for i, n in enumerate((len(asked), replaced, righted)):
                total[i] += n
    print(f"all      {total[0]} questions: replaced {total[1]}, put right {total[2]}")


if __name__ == "__main__":
    main()

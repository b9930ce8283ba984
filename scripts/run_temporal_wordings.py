"""How first/latest answers hold up when the same request is worded differently.

``data/eval/temporal_wordings.jsonl`` holds 300 requests a helper wrote: 25 topics the corpus
covers, each asked for its earliest and its latest criterion in six wordings (Spanish plain,
colloquial, a lawyer's, with a synonym or lay word; English plain and colloquial), with the
registros that are right answers as the helper read them from the full texts (``answers``; a
same-year tie lists each member). ``python scripts/run_temporal_wordings.py [-v]`` prints,
per wording, how many first answers are right and how many abstain, and how many of the 50
topic-and-order groups answer alike in every wording; ``-v`` lists the misses.
``data/eval/temporal_wordings2.jsonl`` (200 requests, 20 more topics, five wordings, by another
helper; split by topic into dev and test, test's misses never listed) is read when named:
``python scripts/run_temporal_wordings.py data/eval/temporal_wordings2.jsonl``; so is
``temporal_wordings3.jsonl`` (120 requests, 15 more topics, four wordings, split by topic).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from api.cli.loading import ensure_loaded
from api.services.container import Services
from api.services.search import SearchRequest
from api.settings import PROJECT_ROOT, Settings

WORDINGS = PROJECT_ROOT / "data" / "eval" / "temporal_wordings.jsonl"


def main(verbose: bool, path: Path = WORDINGS) -> None:
    settings = Settings(search_log_enabled=False)  # the store `vigencia eval` and `make run` use
    services = Services.build(settings)
    ensure_loaded(services, settings)
    # (split, wording) -> asked, right, abstained; a file without splits has one, ""
    right: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    firsts: dict[tuple[str, str, str], set[int | None]] = defaultdict(set)
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        split = item.get("split", "")
        result = services.search.search(SearchRequest(query=item["query"], top_k=5))
        first = result.hits[0].registro if result.hits else None
        tally = right[(split, item["wording"])]
        tally[0] += 1
        tally[1] += first in item["answers"]
        tally[2] += result.abstained
        firsts[(split, item["topic"], item["kind"])].add(first)
        if verbose and split != "test" and first not in item["answers"]:  # never list test's
            print(f"miss {item['kind']:8} {item['query'][:80]} -> {first} ({item['answers']})")
    for (split, wording), (asked, good, abstained) in sorted(right.items()):
        print(f"{split:5}{wording:10} right {good:3} of {asked}, abstained {abstained}".strip())
    for split in sorted({key[0] for key in firsts}):
        groups = [answers for key, answers in firsts.items() if key[0] == split]
        alike = sum(1 for answers in groups if len(answers) == 1)
        print(f"{split:5}groups answered alike in every wording: {alike} of {len(groups)}".strip())


if __name__ == "__main__":
    paths = [Path(a) for a in sys.argv[1:] if a != "-v"]
    main("-v" in sys.argv[1:], *paths[:1])

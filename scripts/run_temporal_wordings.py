"""How first/latest answers hold up when the same request is worded differently.

``data/eval/temporal_wordings.jsonl`` holds 300 requests a helper wrote: 25 topics the corpus
covers, each asked for its earliest and its latest criterion in six wordings (Spanish plain,
colloquial, a lawyer's, with a synonym or lay word; English plain and colloquial), with the
registros that are right answers as the helper read them from the full texts (``answers``; a
same-year tie lists each member). ``python scripts/run_temporal_wordings.py [-v]`` prints,
per wording, how many first answers are right and how many abstain, and how many of the 50
topic-and-order groups answer alike in every wording; ``-v`` lists the misses.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

from api.cli.loading import ensure_loaded
from api.services.container import Services
from api.services.search import SearchRequest
from api.settings import PROJECT_ROOT, Settings

WORDINGS = PROJECT_ROOT / "data" / "eval" / "temporal_wordings.jsonl"


def main(verbose: bool) -> None:
    settings = Settings(search_log_enabled=False)  # the store `vigencia eval` and `make run` use
    services = Services.build(settings)
    ensure_loaded(services, settings)
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # asked, right, abstained
    firsts: dict[tuple[str, str], set[int | None]] = defaultdict(set)
    for line in WORDINGS.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        result = services.search.search(SearchRequest(query=item["query"], top_k=5))
        first = result.hits[0].registro if result.hits else None
        tally = right[item["wording"]]
        tally[0] += 1
        tally[1] += first in item["answers"]
        tally[2] += result.abstained
        firsts[(item["topic"], item["kind"])].add(first)
        if verbose and first not in item["answers"]:
            print(f"miss {item['kind']:8} {item['query'][:80]} -> {first} ({item['answers']})")
    for wording, (asked, good, abstained) in sorted(right.items()):
        print(f"{wording:10} right {good:3} of {asked}, abstained {abstained}")
    alike = sum(1 for answers in firsts.values() if len(answers) == 1)
    print(f"groups answered alike in every wording: {alike} of {len(firsts)}")


if __name__ == "__main__":
    main("-v" in sys.argv[1:])

"""Print how search reads and answers each probe of data/eval/lawyer_probes.jsonl.

The probes are 131 queries written by a helper as lawyers, paralegals and the public type them
(identifiers, metadata, temporal wording, search-box habits, lay questions, edge input), each
with one sentence saying what a competent search should do. They carry no graded labels: read
the output beside each ``expect``. ``python scripts/run_probes.py [category ...]``.
"""

from __future__ import annotations

import json
import sys

from api.cli.loading import ensure_loaded
from api.services.container import Services
from api.services.search import SearchRequest
from api.settings import PROJECT_ROOT, Settings

PROBES = PROJECT_ROOT / "data" / "eval" / "lawyer_probes.jsonl"


def main(categories: list[str]) -> None:
    settings = Settings(search_log_enabled=False)  # the store `vigencia eval` and `make run` use
    services = Services.build(settings)
    ensure_loaded(services, settings)
    for line in PROBES.read_text(encoding="utf-8").splitlines():
        probe = json.loads(line)
        if categories and probe["category"] not in categories:
            continue
        result = services.search.search(SearchRequest(query=probe["query"], top_k=5))
        intent = result.intent
        found = list(dict.fromkeys(h.registro for h in result.hits))[:4]
        read = [f"route={intent.route}"]
        for name, value in (
            ("cited", intent.cited),
            ("filters", intent.named_filters),
            ("excluded", intent.excluded),
            ("topic", intent.topic),
        ):
            if value:
                read.append(f"{name}={list(value)}")
        answer = (
            result.abstain_reason
            if result.abstained
            else f"{found} {result.hits[0].passage.rubro[:60]}"
        )
        print(f"{probe['id']} [{probe['category']}] {probe['query'][:100]}")
        print(f"    read:   {' '.join(read)}")
        print(f"    answer: {answer}")
        print(f"    expect: {probe['expect']}")


if __name__ == "__main__":
    main(sys.argv[1:])

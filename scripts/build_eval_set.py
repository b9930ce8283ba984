"""Merge the labelled question files into data/eval/queries.jsonl and split it (run once).

Sources: data/eval/queries_v1.jsonl (the first 32 questions; only those with a rubro overlap of
at most 0.40 are kept), queries_a.jsonl (Spanish, cutoff, abstain) and queries_b.jsonl
(English, temporal). The split is fixed here, once: within each class group (abstain, temporal,
english, cutoff, spanish, checked in that order), questions sorted by a hash of their id
alternate dev, test. Re-running it reproduces the same file.

``--split FILE`` splits another labelled file the same way, in place (``blind2.jsonl``: written
after the defaults were tuned, split once so its dev half can be read and its test half not).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from api.core.evaluation import rubro_overlap
from api.core.text import analyze

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "data" / "eval"
MAX_OVERLAP = 0.40
GROUPS = ("abstain", "temporal", "english", "cutoff", "spanish")


def rubros() -> dict[int, str]:
    lines = (ROOT / "data" / "tesis.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["registro"]: r["rubro"] for r in map(json.loads, lines)}


def overlap(question: dict, rubro: dict[int, str]) -> float:
    relevant = {int(k): g for k, g in question["relevant"].items()}
    if not relevant:
        return 0.0
    top = max(relevant.values())
    terms = set(analyze(question["query"]))
    return max(
        rubro_overlap(terms, set(analyze(rubro[r]))) for r, g in relevant.items() if g == top
    )


def load(name: str) -> list[dict]:
    path = EVAL / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def split(questions: list[dict]) -> None:
    """Set each question's ``split`` that has none: alternate dev, test within each class group,
    in the order of a hash of the id."""
    for group in GROUPS:
        members = [q for q in questions if "split" not in q and group in q["classes"]]
        members.sort(key=lambda q: hashlib.sha1(q["id"].encode()).hexdigest())
        for i, q in enumerate(members):
            q["split"] = "dev" if i % 2 == 0 else "test"


def write(questions: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for q in questions:
            out.write(json.dumps(q, ensure_ascii=False) + "\n")


def split_file(path: Path) -> None:
    rubro = rubros()
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    for q in questions:
        q.pop("split", None)
        q["rubro_overlap"] = round(overlap(q, rubro), 2)
    split(questions)
    write(questions, path)
    dev = sum(q["split"] == "dev" for q in questions)
    print(f"{path.name}: {dev} dev, {len(questions) - dev} test")


def main() -> None:
    rubro = rubros()
    questions: list[dict] = []
    for i, q in enumerate(load("queries_v1.jsonl"), start=1):
        q = {"id": f"v{i:03d}", "lang": "es", "classes": ["spanish"], **q}
        questions.append(q)
    questions += load("queries_a.jsonl") + load("queries_b.jsonl")
    kept = []
    for q in questions:
        q["rubro_overlap"] = round(overlap(q, rubro), 2)
        if q["rubro_overlap"] <= MAX_OVERLAP:
            kept.append(q)
    split(kept)
    kept.sort(key=lambda q: q["id"])
    write(kept, EVAL / "queries.jsonl")
    print(f"{len(kept)} questions ({len(questions) - len(kept)} over the overlap limit)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--split"]:
        split_file(Path(sys.argv[2]))
    else:
        main()

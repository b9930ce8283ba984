"""Short questions as people type them: does search answer the answerable and abstain on the rest?

The labelled set (``data/eval/queries.jsonl``) has long questions (9 to 28 content words); typed
ones are often 2 to 8 ("¿Qué es la cosa juzgada?"), and their best cosines sit lower, near the
null questions'. ``data/eval/short_questions.jsonl`` holds such questions, each expected to be
answered (the corpus has tesis on it) or to abstain (keyword search finds nothing on it), split
into dev and test like the labelled set. ``vigencia eval`` reports both error kinds per split.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from api.core.evaluation import SPLITS
from api.services.jsonl import numbered_lines
from api.services.search import SearchRequest, SearchService

Expectation = Literal["answer", "abstain"]
EXPECTATIONS: tuple[Expectation, ...] = ("answer", "abstain")


@dataclass(frozen=True, slots=True)
class ShortQuestion:
    id: str
    query: str
    expect: Expectation
    split: str


@dataclass(frozen=True, slots=True)
class ShortScores:
    """Per split: answerable questions that abstained, and off-corpus ones that did not."""

    split: str
    answerable: int
    false_abstentions: list[str]
    off_corpus: int
    missed_abstentions: list[str]


def load_short_questions(path: Path) -> list[ShortQuestion]:
    """The questions of ``path``; a bad line is reported with its number and field."""
    questions = []
    for line_no, line in numbered_lines(path):
        try:
            raw = json.loads(line)
            question = ShortQuestion(
                id=str(raw["id"]),
                query=str(raw["query"]),
                expect=raw["expect"],
                split=str(raw["split"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path.name}:{line_no}: not a short question: {exc}") from exc
        if question.expect not in EXPECTATIONS:
            raise ValueError(f"{path.name}:{line_no}: expect must be one of {EXPECTATIONS}")
        if question.split not in SPLITS:
            raise ValueError(f"{path.name}:{line_no}: split must be one of {SPLITS}")
        questions.append(question)
    return questions


def score_short_questions(
    service: SearchService, questions: Sequence[ShortQuestion]
) -> list[ShortScores]:
    """Run each question through the configured search and count both error kinds."""
    abstained = {
        q.id: service.search(SearchRequest(query=q.query, top_k=5)).abstained for q in questions
    }
    scores = []
    for split in SPLITS:
        mine = [q for q in questions if q.split == split]
        answerable = [q for q in mine if q.expect == "answer"]
        off_corpus = [q for q in mine if q.expect == "abstain"]
        scores.append(
            ShortScores(
                split=split,
                answerable=len(answerable),
                false_abstentions=[q.id for q in answerable if abstained[q.id]],
                off_corpus=len(off_corpus),
                missed_abstentions=[q.id for q in off_corpus if not abstained[q.id]],
            )
        )
    return scores


def format_short_scores(scores: Sequence[ShortScores]) -> str:
    lines = ["short questions (data/eval/short_questions.jsonl), configured search:"]
    for s in scores:
        false, missed = len(s.false_abstentions), len(s.missed_abstentions)
        lines.append(
            f"  {s.split:4s}  answerable that abstained {false}/{s.answerable}"
            f"{' ' + ', '.join(s.false_abstentions) if false else ''}; "
            f"off-corpus answered {missed}/{s.off_corpus}"
            f"{' ' + ', '.join(s.missed_abstentions) if missed else ''}"
        )
    return "\n".join(lines)

"""``vigencia tune``: fit the recency weight and alpha per materia, check them on the test split.

The dev split of the eval set plus exported feedback (``vigencia log export-feedback``) choose,
per materia (read from the question, as the search does), the grid point that maximizes
current@1 then nDCG@10 (``api.core.tune``). The fitted values are then run on the test split,
which no fit ever sees: the settings snippet is written only when test current@1 does not drop.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from api.core.evaluation import Judgement, current_at_1, mean, ndcg
from api.core.intent import detect_materia
from api.core.tune import Fitted, Point, QuestionScore, fit
from api.embeddings.base import Vectors
from api.services.evaluation import load_judgements
from api.services.jsonl import numbered_lines
from api.services.search import SearchConfig, SearchRequest, SearchService, best_chunk_per_tesis

DEFAULT_WEIGHTS = (0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0)
DEFAULT_ALPHAS = (0.2, 0.4, 0.6)
K = 10


@dataclass(frozen=True, slots=True)
class SplitScores:
    questions: int
    current_at_1: float | None
    ndcg: float | None


@dataclass(frozen=True, slots=True)
class TuneResult:
    dev_questions: int
    feedback_questions: int
    grid: tuple[Point, ...]
    default: Point
    fitted: dict[str, Fitted]
    test_before: SplitScores
    test_after: SplitScores
    test_by_materia: dict[str, tuple[SplitScores, SplitScores]]

    @property
    def weights(self) -> dict[str, float]:
        return {m: f.point.weight for m, f in self.fitted.items() if f.changed}

    @property
    def alphas(self) -> dict[str, float]:
        return {m: f.point.alpha for m, f in self.fitted.items() if f.changed}

    @property
    def accepted(self) -> bool:
        """The fit does not lower test current@1 (and changes something)."""
        before, after = self.test_before.current_at_1, self.test_after.current_at_1
        return bool(self.weights) and (before is None or (after or 0.0) >= before)


def load_feedback(paths: Sequence[Path]) -> list[Judgement]:
    """Exported feedback lines as dev questions (graded tesis, no criterion in force)."""
    out = []
    for path in paths:
        for n, line in numbered_lines(path):
            raw = json.loads(line)
            out.append(
                Judgement(
                    query=str(raw["query"]),
                    relevant={int(k): int(v) for k, v in raw["relevant"].items()},
                    current=tuple(int(r) for r in raw.get("current") or ()),
                    id=f"{path.name}:{n}",
                    split="dev",
                )
            )
    return out


def materia_of(question: str) -> str:
    """The materia the search's per-materia defaults would use ('' when none)."""
    return detect_materia(question).materia or ""


def _scores(
    service: SearchService, judgements: Sequence[Judgement], vectors: Sequence[Vectors]
) -> list[QuestionScore]:
    out = []
    for j, vector in zip(judgements, vectors, strict=True):
        result = service.search(SearchRequest(query=j.query, top_k=2 * K), vector)
        ranking = [h.registro for h in best_chunk_per_tesis(result.hits)]
        out.append(
            QuestionScore(
                current_at_1(ranking, j), ndcg(ranking, j.relevant, K) if j.relevant else None
            )
        )
    return out


def _test_scores(scores: Sequence[QuestionScore]) -> SplitScores:
    return SplitScores(
        len(scores), mean([s.current for s in scores]), mean([s.ndcg for s in scores])
    )


def tune(
    base: SearchService,
    eval_path: Path,
    feedback: Sequence[Path] = (),
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    alphas: Sequence[float] = DEFAULT_ALPHAS,
    min_questions: int = 3,
) -> TuneResult:
    judgements = [j for j in load_judgements(eval_path) if not j.abstain]
    dev = [j for j in judgements if j.split == "dev"] + load_feedback(feedback)
    test = [j for j in judgements if j.split == "test"]
    cfg = base.config
    default = Point(cfg.recency_weight, cfg.alpha)
    grid = tuple(sorted({Point(w, a) for w in weights for a in alphas} | {default}))
    dev_vectors = [base.embed_query(j.query) for j in dev]
    table = {
        p: _scores(
            SearchService(
                base.store,
                base.embedder,
                replace(
                    cfg,
                    recency_weight=p.weight,
                    alpha=p.alpha,
                    materia_weights={},
                    materia_alphas={},
                ),
            ),
            dev,
            dev_vectors,
        )
        for p in grid
    }
    groups: dict[str, list[int]] = {}
    for i, j in enumerate(dev):
        materia = materia_of(j.query)
        if materia:
            groups.setdefault(materia, []).append(i)
    fitted = fit(groups, table, default, min_questions)
    tuned_weights = {m: f.point.weight for m, f in fitted.items() if f.changed}
    tuned_alphas = {m: f.point.alpha for m, f in fitted.items() if f.changed}
    test_vectors = [base.embed_query(j.query) for j in test]
    plain_cfg: SearchConfig = replace(cfg, materia_weights={}, materia_alphas={})
    tuned_cfg = replace(cfg, materia_weights=tuned_weights, materia_alphas=tuned_alphas)
    before = _scores(SearchService(base.store, base.embedder, plain_cfg), test, test_vectors)
    after = _scores(SearchService(base.store, base.embedder, tuned_cfg), test, test_vectors)
    by_materia: dict[str, tuple[SplitScores, SplitScores]] = {}
    for materia in sorted({materia_of(j.query) for j in test} - {""}):
        idx = [i for i, j in enumerate(test) if materia_of(j.query) == materia]
        by_materia[materia] = (
            _test_scores([before[i] for i in idx]),
            _test_scores([after[i] for i in idx]),
        )
    return TuneResult(
        dev_questions=len(dev) - len(load_feedback(feedback)),
        feedback_questions=len(load_feedback(feedback)),
        grid=grid,
        default=default,
        fitted=fitted,
        test_before=_test_scores(before),
        test_after=_test_scores(after),
        test_by_materia=by_materia,
    )


def snippet(result: TuneResult) -> str:
    """The settings lines (an env file) that apply the fit."""
    return (
        "# written by `vigencia tune`: per-materia recency weight and hybrid alpha\n"
        f"VIGENCIA_MATERIA_RECENCY_WEIGHTS='{json.dumps(result.weights, ensure_ascii=False)}'\n"
        f"VIGENCIA_MATERIA_ALPHAS='{json.dumps(result.alphas, ensure_ascii=False)}'\n"
    )


def _pct(value: float | None) -> str:
    return "n/a" if value is None or value < 0 else f"{100 * value:.1f}"


def report(result: TuneResult, command: str) -> str:
    """A Markdown report: the fit per materia on dev, the effect on test, the decision."""
    lines = [
        "# `vigencia tune` report",
        "",
        f"Command: `{command}`",
        "",
        f"Dev questions: {result.dev_questions} from the eval set + "
        f"{result.feedback_questions} from feedback; grid: "
        f"{len(result.grid)} points (weights {sorted({p.weight for p in result.grid})}, alphas "
        f"{sorted({p.alpha for p in result.grid})}); defaults {result.default}.",
        "",
        "## Fit on the dev split (per materia read from the question)",
        "",
        "| materia | dev questions | defaults cur@1 / nDCG@10 | fitted | fitted cur@1 / nDCG@10 |",
        "|---|---|---|---|---|",
    ]
    for f in result.fitted.values():
        fitted = str(f.point) if f.changed else "(keeps the defaults)"
        lines.append(
            f"| {f.materia} | {f.questions} | {_pct(f.dev_before[0])} / {_pct(f.dev_before[1])} "
            f"| {fitted} | {_pct(f.dev_after[0])} / {_pct(f.dev_after[1])} |"
        )
    b, a = result.test_before, result.test_after
    lines += [
        "",
        "## Effect on the test split (never used to fit)",
        "",
        "| | questions | cur@1 | nDCG@10 |",
        "|---|---|---|---|",
        f"| defaults | {b.questions} | {_pct(b.current_at_1)} | {_pct(b.ndcg)} |",
        f"| fitted | {a.questions} | {_pct(a.current_at_1)} | {_pct(a.ndcg)} |",
        "",
        "| materia | test questions | defaults cur@1 | fitted cur@1 |",
        "|---|---|---|---|",
    ]
    for materia, (mb, ma) in result.test_by_materia.items():
        lines.append(
            f"| {materia} | {mb.questions} | {_pct(mb.current_at_1)} | {_pct(ma.current_at_1)} |"
        )
    if not result.weights:
        decision = "No materia improved on dev: nothing to write."
    elif result.accepted:
        decision = "Test current@1 does not drop: the settings snippet was written."
    else:
        decision = "Refused: the fit lowers test current@1, so no settings snippet was written."
    label = "Snippet (written):" if result.accepted else "Snippet (not written):"
    lines += [
        "",
        "## Decision",
        "",
        decision,
        "",
        label,
        "",
        "```",
        snippet(result).rstrip(),
        "```",
        "",
    ]
    return "\n".join(lines)

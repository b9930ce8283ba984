"""``vigencia eval``: rank labelled queries under several configurations, side by side.

Each query is embedded once; every configuration (baselines and the recency sweep) runs the
real search pipeline on that vector, and rankings are compared at the level of whole tesis.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from api.core.evaluation import (
    Judgement,
    current_at_1,
    mean,
    ndcg,
    recall,
    reciprocal_rank,
    share_before,
    vigencia,
)
from api.core.fusion import RetrievalMode
from api.core.scoring import Profile
from api.search import SearchRequest, SearchService, best_chunk_per_tesis

DEFAULT_WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)


@dataclass(frozen=True, slots=True)
class EvalConfig:
    name: str
    profile: Profile
    mode: RetrievalMode
    recency_weight: float
    alpha: float = 0.5
    baseline: bool = False
    rules: bool = True  # vigencia re-ranking (reform cutoffs, pre-Novena) on


@dataclass(frozen=True, slots=True)
class EvalRow:
    config: EvalConfig
    ndcg: float
    mrr: float
    recall: float
    vigencia: float | None
    current_at_1: float | None
    pre1995_at_5: float
    queries: int


def baselines() -> list[EvalConfig]:
    """Plain rankings (no recency, no rules) and seed 000's formula, for comparison."""
    return [
        EvalConfig("vector only (e5 cosine)", "default", "vector", 0.0, baseline=True, rules=False),
        EvalConfig("BM25 only", "default", "lexical", 0.0, baseline=True, rules=False),
        EvalConfig("seed 000 on raw cosine", "seed", "vector", 0.3, baseline=True, rules=False),
    ]


def sweep(weights: Sequence[float], alphas: Sequence[float]) -> list[EvalConfig]:
    """Each (alpha, weight) with the vigencia rules on and off: rules fire only when recent
    hits and a wide year gap are present, so a default must hold in both regimes."""
    return [
        EvalConfig(f"hybrid a={a:g} w={w:g}{'' if rules else ', no rules'}", "default",
                   "hybrid", w, a, rules=rules)
        for rules in (True, False)
        for a in alphas
        for w in weights
    ]  # fmt: skip


def load_judgements(path: Path) -> list[Judgement]:
    judgements = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            judgements.append(
                Judgement(
                    query=str(raw["query"]),
                    relevant={int(k): int(v) for k, v in raw["relevant"].items()},
                    current=tuple(int(r) for r in raw.get("current", ())),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path.name}:{line_no}: not a labelled query: {exc}") from exc
    return judgements


def evaluate(
    service: SearchService,
    judgements: Sequence[Judgement],
    configs: Sequence[EvalConfig],
    k: int = 10,
    depth: int = 40,
) -> list[EvalRow]:
    """Metrics per configuration; ``depth`` chunk hits are ranked before grouping by tesis."""
    vectors = [service.embed_query(j.query) for j in judgements]
    years: dict[int, int] = {}
    rows = []
    for config in configs:
        per_query = []
        for judgement, vector in zip(judgements, vectors, strict=True):
            request = SearchRequest(
                query=judgement.query,
                top_k=depth,
                recency_weight=config.recency_weight,
                profile=config.profile,
                mode=config.mode,
                alpha=config.alpha,
                apply_rules=config.rules,
            )
            hits = best_chunk_per_tesis(service.search(request, vector).hits)
            years.update({h.registro: h.passage.anio for h in hits})
            per_query.append((judgement, [h.registro for h in hits]))
        rows.append(
            EvalRow(
                config=config,
                ndcg=mean([ndcg(r, j.relevant, k) for j, r in per_query]) or 0.0,
                mrr=mean([reciprocal_rank(r, j.relevant) for j, r in per_query]) or 0.0,
                recall=mean([recall(r, j.relevant, k) for j, r in per_query]) or 0.0,
                vigencia=mean([vigencia(r, j, years, k) for j, r in per_query]),
                current_at_1=mean([current_at_1(r, j) for j, r in per_query]),
                pre1995_at_5=mean([share_before(r, years, 1995, 5) for _, r in per_query]) or 0.0,
                queries=len(per_query),
            )
        )
    return rows


def best(rows: Sequence[EvalRow]) -> EvalRow:
    """The swept (alpha, weight) whose criterion in force ranks first most often, averaged
    over rules on and off; ties go to vigencia@k, then nDCG (rules on). Returns its
    rules-on row."""
    swept = [r for r in rows if not r.config.baseline]
    if not swept:
        return max(rows, key=lambda r: (r.current_at_1 or 0.0, r.ndcg))
    by_setting: dict[tuple[float, float], list[EvalRow]] = {}
    for row in swept:
        by_setting.setdefault((row.config.alpha, row.config.recency_weight), []).append(row)

    def merit(group: list[EvalRow]) -> tuple[float, float, float]:
        on = next((r for r in group if r.config.rules), group[0])
        current = [r.current_at_1 or 0.0 for r in group]
        return (sum(current) / len(current), on.vigencia or 0.0, on.ndcg)

    winner = max(by_setting.values(), key=merit)
    return next((r for r in winner if r.config.rules), winner[0])


def _pct(value: float | None) -> str:
    return "  n/a" if value is None else f"{100 * value:5.1f}"


def format_table(rows: Sequence[EvalRow], k: int = 10) -> str:
    header = (
        f"{'configuration':<32} {'nDCG@' + str(k):>8} {'MRR':>6} {'R@' + str(k):>6} "
        f"{'vig@' + str(k):>7} {'cur@1':>6} {'<1995@5':>8}"
    )
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(
            f"{r.config.name:<32} {_pct(r.ndcg):>8} {_pct(r.mrr):>6} {_pct(r.recall):>6} "
            f"{_pct(r.vigencia):>7} {_pct(r.current_at_1):>6} {_pct(r.pre1995_at_5):>8}"
        )
    return "\n".join(lines)


def to_json(rows: Sequence[EvalRow], k: int) -> str:
    return json.dumps(
        {
            "k": k,
            "rows": [asdict(r) for r in rows],
            "best": asdict(best(rows).config),
        },
        ensure_ascii=False,
        indent=1,
    )

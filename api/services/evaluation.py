"""``vigencia eval``: rank labelled questions under several configurations, per split and class.

Each question is embedded once; every configuration (the configured defaults, each part
switched off, baselines, an optional sweep) runs the real search pipeline on that vector, and
rankings are compared at the level of whole tesis. The set is split once into ``dev`` (tune
on it) and ``test`` (report it, never tune on it): see ``docs/EVAL_SET.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence, Set
from dataclasses import asdict, dataclass, field
from pathlib import Path

from api.core.evaluation import (
    CLASSES,
    SPLITS,
    Judgement,
    abstention_scores,
    current_at_1,
    mean,
    ndcg,
)
from api.core.fusion import RetrievalMode
from api.core.scoring import Profile
from api.embeddings.base import Vectors
from api.services.jsonl import numbered_lines
from api.services.search import (
    RulesMode,
    SearchRequest,
    SearchResult,
    SearchService,
    best_chunk_per_tesis,
)
from api.services.short_questions import ShortScores


@dataclass(frozen=True, slots=True)
class EvalConfig:
    """A way to rank; ``None`` fields take the configured default."""

    name: str
    recency_weight: float | None = None
    alpha: float | None = None
    profile: Profile | None = None
    mode: RetrievalMode | None = None
    apply_rules: bool = True
    rules_mode: RulesMode | None = None
    gate: bool = True
    baseline: bool = False

    def request(self, query: str, top_k: int) -> SearchRequest:
        """The search this configuration runs for ``query`` (same field names)."""
        return SearchRequest(query=query, top_k=top_k, **{n: getattr(self, n) for n in _ASKED})


# The EvalConfig fields a SearchRequest takes as they are.
_ASKED = ("recency_weight", "alpha", "profile", "mode", "apply_rules", "rules_mode", "gate")


@dataclass(frozen=True, slots=True)
class Scores:
    """Metrics of one configuration on one split.

    ``current_at_1``: the expected tesis ranked first, over questions that have one;
    ``by_class``: the same per class; ``current_discarded``: ids of questions whose expected
    tesis the vigencia rules discarded.
    """

    questions: int
    ndcg: float | None
    current_at_1: float | None
    abstain_precision: float | None  # None: no question was due an abstention (n/a)
    abstain_recall: float | None
    by_class: dict[str, float | None] = field(default_factory=dict)
    current_discarded: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class EvalRow:
    config: EvalConfig
    split: str
    scores: Scores


def default_configs() -> list[EvalConfig]:
    """The configured ranking, each of its parts switched off, and plain baselines."""
    return [
        EvalConfig("configured (gate, same-point rules, recency)"),
        EvalConfig("  without the vigencia rules", apply_rules=False),
        EvalConfig("  without recency (w=0)", recency_weight=0.0),
        EvalConfig("  without the relevance gate", gate=False),
        EvalConfig("  seed 000's literal rules", rules_mode="literal"),
        EvalConfig(
            "hybrid, w=0, no rules, no gate", 0.0, apply_rules=False, gate=False, baseline=True
        ),
        EvalConfig(
            "vector only, w=0", 0.0, mode="vector", apply_rules=False, gate=False, baseline=True
        ),
        EvalConfig(
            "BM25 only, w=0", 0.0, mode="lexical", apply_rules=False, gate=False, baseline=True
        ),
        EvalConfig(
            "seed 000 on raw cosine",
            0.3,
            profile="seed",
            mode="vector",
            rules_mode="literal",
            gate=False,
            baseline=True,
        ),
    ]


def sweep(weights: Sequence[float], alphas: Sequence[float]) -> list[EvalConfig]:
    """The configured ranking at each (alpha, weight)."""
    return [EvalConfig(f"a={a:g} w={w:g}", w, a) for a in alphas for w in weights]


def load_judgements(path: Path) -> list[Judgement]:
    judgements = []
    for line_no, line in numbered_lines(path):
        try:
            raw = json.loads(line)
            judgement = Judgement(
                query=str(raw["query"]),
                relevant={int(k): int(v) for k, v in raw["relevant"].items()},
                current=tuple(int(r) for r in raw.get("current") or ()),
                id=str(raw.get("id", f"line{line_no}")),
                classes=tuple(raw.get("classes") or ("spanish",)),
                split=str(raw.get("split", "dev")),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{path.name}:{line_no}: not a labelled query: {exc}") from exc
        unknown = set(judgement.classes) - set(CLASSES)
        if unknown or judgement.split not in SPLITS:
            what = f"classes {sorted(unknown)}" if unknown else f"split {judgement.split!r}"
            raise ValueError(f"{path.name}:{line_no}: unknown {what}")
        judgements.append(judgement)
    return judgements


def held_out_sets(directory: Path) -> list[Path]:
    """The blind sets of ``directory`` (``blind.jsonl``, ``blind2.jsonl``, ...) in the order
    they were written: ``blind10`` after ``blind9``, not after ``blind1``."""

    def written(path: Path) -> int:
        number = path.stem.removeprefix("blind")
        return int(number) if number.isdigit() else 1

    return sorted(directory.glob("blind*.jsonl"), key=written)


def unknown_registros(judgements: Sequence[Judgement], stored: Set[int]) -> dict[str, list[int]]:
    """Per question id, its labelled registros (relevant or current) that are not stored:
    such a question cannot be answered right, and its scores say so."""
    unknown = {}
    for j in judgements:
        missing = sorted((set(j.relevant) | set(j.current)) - stored)
        if missing:
            unknown[j.id] = missing
    return unknown


def run_config(
    service: SearchService,
    judgements: Sequence[Judgement],
    vectors: Sequence[Vectors],
    config: EvalConfig,
    k: int,
) -> list[SearchResult]:
    return [
        service.search(
            config.request(j.query, 2 * k),
            vector,
        )
        for j, vector in zip(judgements, vectors, strict=True)
    ]


def score(judgements: Sequence[Judgement], results: Sequence[SearchResult], k: int) -> Scores:
    """Metrics of one configuration's results on ``judgements``."""
    rankings = [[h.registro for h in best_chunk_per_tesis(r.hits)] for r in results]
    answerable = [(j, r) for j, r in zip(judgements, rankings, strict=True) if not j.abstain]
    by_class: dict[str, float | None] = {}
    for name in CLASSES:
        if name != "abstain":
            by_class[name] = mean([current_at_1(r, j) for j, r in answerable if name in j.classes])
    precision, recall = abstention_scores(
        [r.abstained for r in results], [j.abstain for j in judgements]
    )
    discarded = [
        j.id
        for j, r in zip(judgements, results, strict=True)
        if set(j.current) & {d.hit.registro for d in r.discarded}
    ]
    return Scores(
        questions=len(judgements),
        ndcg=mean([ndcg(r, j.relevant, k) for j, r in answerable]),
        current_at_1=mean([current_at_1(r, j) for j, r in answerable]),
        abstain_precision=precision,
        abstain_recall=recall,
        by_class=by_class,
        current_discarded=discarded,
    )


def evaluate(
    service: SearchService,
    judgements: Sequence[Judgement],
    configs: Sequence[EvalConfig],
    k: int = 10,
) -> list[EvalRow]:
    """One row per configuration and split."""
    vectors = [service.embed_query(j.query) for j in judgements]
    rows = []
    for config in configs:
        results = run_config(service, judgements, vectors, config, k)
        for split in SPLITS:
            part = [(j, r) for j, r in zip(judgements, results, strict=True) if j.split == split]
            if part:
                js, rs = zip(*part, strict=True)
                rows.append(EvalRow(config, split, score(js, rs, k)))
    return rows


def _pct(value: float | None) -> str:
    return "  n/a" if value is None else f"{100 * value:5.1f}"


def class_counts(judgements: Sequence[Judgement], split: str) -> str:
    part = [j for j in judgements if j.split == split]
    counts = ", ".join(f"{c} {sum(1 for j in part if c in j.classes)}" for c in CLASSES)
    return f"{split}: {len(part)} questions ({counts})"


def format_table(rows: Sequence[EvalRow], k: int = 10) -> str:
    header = (
        f"{'configuration':<46} {'split':<5} {'cur@1':>6} {'nDCG@' + str(k):>8} "
        f"{'abstP':>6} {'abstR':>6} {'es':>6} {'en':>6} {'temp':>6} {'cutoff':>6} {'disc':>5}"
    )
    lines = [header, "-" * len(header)]
    for r in rows:
        s, c = r.scores, r.scores.by_class
        lines.append(
            f"{r.config.name:<46} {r.split:<5} {_pct(s.current_at_1):>6} {_pct(s.ndcg):>8} "
            f"{_pct(s.abstain_precision):>6} {_pct(s.abstain_recall):>6} "
            f"{_pct(c.get('spanish')):>6} {_pct(c.get('english')):>6} "
            f"{_pct(c.get('temporal')):>6} {_pct(c.get('cutoff')):>6} "
            f"{len(s.current_discarded):>5}"
        )
    return "\n".join(lines)


def overlap_summary(overlaps: Mapping[str, float]) -> str:
    values = sorted(overlaps.values())
    if not values:
        return "rubro overlap: n/a"
    worst = max(overlaps, key=lambda q: overlaps[q])
    return (
        f"rubro overlap (share of a question's terms in its best rubro): mean "
        f"{sum(values) / len(values):.2f}, max {values[-1]:.2f} ({worst})"
    )


def to_json(
    rows: Sequence[EvalRow],
    k: int,
    overlaps: Mapping[str, float],
    short: Sequence[ShortScores] = (),
) -> str:
    return json.dumps(
        {
            "k": k,
            "rows": [asdict(r) for r in rows],
            "rubro_overlap": dict(overlaps),
            "short_questions": [asdict(s) for s in short],
        },
        ensure_ascii=False,
        indent=1,
    )

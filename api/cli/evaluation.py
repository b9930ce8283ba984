"""``vigencia eval`` and ``vigencia tune``: labelled questions against rankings."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from api.cli.loading import ensure_loaded, missing_files
from api.core.weight_policy import WEIGHT_RANGE, in_weight_range
from api.settings import PROJECT_ROOT, Settings


def cmd_tune(args: argparse.Namespace, settings: Settings) -> int:
    from api.services.container import Services
    from api.services.tune import DEFAULT_ALPHAS, DEFAULT_WEIGHTS, report, snippet, tune

    paths = [Path(args.queries), *(Path(f) for f in args.feedback)]
    if missing_files(paths):
        return 2
    for name, values in (("--weight", args.weight), ("--alpha", args.alpha)):
        if not all(in_weight_range(v) for v in values or ()):
            print(f"error: {name} values must be in {WEIGHT_RANGE}", file=sys.stderr)
            return 2
    services = Services.build(settings)
    ensure_loaded(services, settings)
    try:
        result = tune(
            services.search,
            paths[0],
            paths[1:],
            args.weight or DEFAULT_WEIGHTS,
            args.alpha or DEFAULT_ALPHAS,
            args.min_questions,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        services.close()
    feedback = " ".join(f"--feedback {f}" for f in args.feedback)
    command = f"vigencia tune {_shown(Path(args.queries))} {feedback}".strip()
    text = report(result, command)
    # outputs go to the data directory unless named: never over a tracked file by default
    report_path = Path(args.report) if args.report else settings.data_dir / "TUNE.md"
    output = Path(args.output) if args.output else settings.data_dir / "tune.env"
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(text, encoding="utf-8")
    print(text)
    print(f"wrote {report_path}", file=sys.stderr)
    if result.accepted:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(snippet(result), encoding="utf-8")
        print(f"wrote {output}", file=sys.stderr)
        return 0
    if result.weights:
        print("refused: the fit lowers test current@1; no snippet written", file=sys.stderr)
        return 1
    return 0


def _shown(path: Path) -> str:
    """``path`` relative to the project when inside it (the report names no home directory)."""
    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from api.core.evaluation import SPLITS, rubro_overlap
    from api.core.text import analyze
    from api.services.container import Services
    from api.services.evaluation import (
        class_counts,
        default_configs,
        evaluate,
        format_table,
        load_judgements,
        overlap_summary,
        sweep,
        to_json,
        unknown_registros,
    )
    from api.services.short_questions import (
        format_short_scores,
        load_short_questions,
        score_short_questions,
    )

    try:
        judgements = load_judgements(Path(args.queries))
        short = load_short_questions(Path(args.short)) if args.short else []
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    services = Services.build(settings)
    ensure_loaded(services, settings)
    configs = default_configs()
    if args.weight or args.alpha:
        configs += sweep(
            args.weight or [settings.recency_weight], args.alpha or [settings.hybrid_alpha]
        )
    labelled = {r for j in judgements for r in (*j.relevant, *j.current)}
    rubros = services.store.get_tesis(sorted(labelled))
    for question, missing in unknown_registros(judgements, set(rubros)).items():
        print(
            f"warning: {question}: labelled registros not in the store: "
            f"{', '.join(map(str, missing))} (scored as misses)",
            file=sys.stderr,
        )
    rows = evaluate(services.search, judgements, configs, k=args.k)
    overlaps = {
        j.id: max(
            (
                rubro_overlap(set(analyze(j.query)), set(analyze(rubros[r].rubro)))
                for r, g in j.relevant.items()
                if g == max(j.relevant.values()) and r in rubros
            ),
            default=0.0,
        )
        for j in judgements
        if any(r in rubros for r in j.relevant)
    }
    short_scores = score_short_questions(services.search, short) if short else []
    services.close()
    if args.json:
        print(to_json(rows, args.k, overlaps, short_scores))
        return 0
    print(f"{len(judgements)} questions, metrics at k={args.k} over whole tesis (%)")
    for split in SPLITS:
        print(class_counts(judgements, split))
    print(overlap_summary(overlaps))
    print(
        f"configured: a={settings.hybrid_alpha:g} w={settings.recency_weight:g} "
        f"gate={settings.relevance_gate:g} rules={settings.reform_rules_mode}\n"
    )
    print(format_table(rows, args.k))
    if short_scores:
        print(f"\n{format_short_scores(short_scores)}")
    return 0

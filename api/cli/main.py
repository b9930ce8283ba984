"""The ``vigencia`` command line: ingest, search, serve, dashboard, demo."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from api.core.models import Filters, IngestReport
from api.settings import Settings, get_settings

if TYPE_CHECKING:
    from api.services.container import Services


def _progress(total: int | None) -> object:
    started = time.perf_counter()

    def show(report: IngestReport) -> None:
        rate = report.embedded / max(time.perf_counter() - started, 1e-9)
        done = report.read
        if total:
            filled = int(30 * min(done, total) / total)
            bar = f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{total}"
        else:
            bar = f"{done} read"
        sys.stderr.write(f"\r{bar} stored {report.stored} ({rate:.0f} chunks/s)")
        sys.stderr.flush()

    return show


def _count_lines(paths: Sequence[Path]) -> int | None:
    """Records to expect, for the progress bar (CSV: minus the header)."""
    total = 0
    try:
        for path in paths:
            with path.open(encoding="utf-8") as handle:
                total += sum(1 for line in handle if line.strip())
            total -= 1 if path.suffix.lower() == ".csv" else 0
    except (OSError, UnicodeDecodeError):
        return None
    return total


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from api.ingest.pipeline import ingest, write_report
    from api.services.container import Services

    paths = [Path(p) for p in args.paths]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"error: not a file: {', '.join(missing)}", file=sys.stderr)
        return 2
    services = Services.build(settings)
    started_at = datetime.now()
    started = time.perf_counter()
    progress = None if args.quiet else _progress(_count_lines(paths))
    generic = None
    if args.generic:
        from api.ingest.generic import GenericFields

        generic = GenericFields.of(
            args.id_field, args.title_field, args.text_field, args.date_field or ["created_at"]
        )
    report = ingest(paths, services.store, services.embedder, progress=progress, generic=generic)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - started
    if not args.quiet:
        sys.stderr.write("\n")
    report_path = write_report(report, settings.data_dir / "ingest_reports", started_at)
    for rejection in report.rejected:
        print(f"rejected: {rejection}")
    for warning in report.warnings:
        print(f"warning: {warning}")
    print(
        f"read {report.read}, stored {report.stored}, unchanged {report.unchanged}, "
        f"rejected {len(report.rejected)}, warnings {len(report.warnings)}; "
        f"{report.chunks} chunks ({report.embedded / elapsed:.1f} chunks/s) in {elapsed:.1f}s; "
        f"report: {report_path}"
    )
    services.close()
    return _accounted(report)


def _accounted(report: IngestReport) -> int:
    """Say that every record read was stored, rejected or unchanged; 1 if not."""
    total = report.stored + len(report.rejected) + report.unchanged
    if total == report.read:
        print(
            f"every record accounted for: read {report.read} = stored {report.stored} + "
            f"rejected {len(report.rejected)} + unchanged {report.unchanged}"
        )
        return 0
    print(
        f"error: read {report.read} != stored {report.stored} + rejected "
        f"{len(report.rejected)} + unchanged {report.unchanged}: see the report",
        file=sys.stderr,
    )
    return 1


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    from api.errors import InvalidRequest
    from api.services.container import Services
    from api.services.search import SearchRequest

    services = Services.build(settings)
    request = SearchRequest(
        query=args.question,
        top_k=args.top_k,
        recency_weight=args.recency_weight,
        profile=args.profile,
        mode=args.mode,
        filters=Filters(
            materias=tuple(args.materia or ()), anio_min=args.anio_min, anio_max=args.anio_max
        ),
    )
    try:
        result = services.search.search(request)
    except InvalidRequest as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([_hit_json(h) for h in result.hits], ensure_ascii=False, indent=1))
        return 0
    intent = result.intent
    print(
        f"intent: materia={intent.materia.materia} temporal={intent.temporal.kind} "
        f"route={intent.route} w={result.recency_weight:g} rules={intent.rules_applied}"
    )
    print(
        f"{'#':>3} {'w/o':>4} {'registro':>9} {'año':>4} {'época':<16} {'sim':>6} "
        f"{'rec':>5} {'ép':>5} {'final':>6}  {'vigencia':<10} rubro"
    )
    for h in result.hits:
        s, p = h.score, h.passage
        print(
            f"{h.rank:>3} {h.rank_without_recency:>4} {p.registro:>9} {p.anio:>4} "
            f"{p.epoca:<16} {s.similarity:6.3f} {s.recency_factor:5.2f} {s.epoca_factor:5.2f} "
            f"{s.final_score:6.3f}  {h.status.estado:<10} {p.rubro[:60]}"
        )
    for d in result.discarded:
        print(f"  descartada {d.hit.registro} ({d.hit.passage.anio}): {d.code} {d.reason}")
    services.close()
    return 0


def _hit_json(hit: object) -> dict[str, object]:
    from api.core.models import Hit

    assert isinstance(hit, Hit)
    p, s = hit.passage, hit.score
    return {
        "rank": hit.rank,
        "rank_without_recency": hit.rank_without_recency,
        "registro": p.registro,
        "rubro": p.rubro,
        "epoca": p.epoca,
        "anio": p.anio,
        "tipo": p.tipo,
        "materias": list(p.materias),
        "similarity": s.similarity,
        "relevance": s.relevance,
        "recency_factor": s.recency_factor,
        "epoca_factor": s.epoca_factor,
        "final_score": s.final_score,
        "chunk": {
            "index": p.chunk.index,
            "start_line": p.chunk.start_line,
            "end_line": p.chunk.end_line,
        },
        "status": hit.status.estado,
    }


def cmd_tune(args: argparse.Namespace, settings: Settings) -> int:
    from api.services.container import Services
    from api.services.tune import DEFAULT_ALPHAS, DEFAULT_WEIGHTS, report, snippet, tune

    paths = [Path(args.queries), *(Path(f) for f in args.feedback)]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"error: not a file: {', '.join(missing)}", file=sys.stderr)
        return 2
    for name, values in (("--weight", args.weight), ("--alpha", args.alpha)):
        if any(not 0.0 <= v <= 1.0 for v in values or ()):
            print(f"error: {name} values must be in 0..1", file=sys.stderr)
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
    command = f"vigencia tune {args.queries} {feedback}".strip()
    text = report(result, command)
    Path(args.report).parent.mkdir(parents=True, exist_ok=True)
    Path(args.report).write_text(text, encoding="utf-8")
    print(text)
    if result.accepted:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(snippet(result), encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
        return 0
    if result.weights:
        print("refused: the fit lowers test current@1; no snippet written", file=sys.stderr)
        return 1
    return 0


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
    )

    try:
        judgements = load_judgements(Path(args.queries))
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
    rows = evaluate(services.search, judgements, configs, k=args.k)
    rubros = services.store.get_tesis(sorted({r for j in judgements for r in j.relevant}))
    overlaps = {
        j.id: max(
            rubro_overlap(set(analyze(j.query)), set(analyze(rubros[r].rubro)))
            for r, g in j.relevant.items()
            if g == max(j.relevant.values()) and r in rubros
        )
        for j in judgements
        if j.relevant
    }
    services.close()
    if args.json:
        print(to_json(rows, args.k, overlaps))
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
    return 0


def cmd_import_notes(args: argparse.Namespace, settings: Settings) -> int:
    from api.services.container import Services
    from api.services.notes import import_notes

    services = Services.build(settings)
    try:
        report = import_notes(Path(args.file), services.store)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        services.close()
    for problem in report.rejected:
        print(f"rejected: {problem}")
    print(
        f"imported {report.imported} notes ({report.in_corpus} about stored tesis, "
        f"{report.unknown} about registros not in the store), rejected {len(report.rejected)}"
    )
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from api.app import create_app
    from api.preflight import check_data_dir
    from api.services.container import DATA_FILES

    check_data_dir(settings, DATA_FILES)  # before uvicorn, so a refusal is one sentence
    host, port = args.host or settings.host, args.port or settings.port
    workers = getattr(args, "workers", None) or settings.workers
    if workers > 1:  # each worker builds its app from the environment's settings
        uvicorn.run(
            "api.app:create_app",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level="info",
        )
    else:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
    return 0


def dashboard_command(settings: Settings, port: int | None = None) -> list[str]:
    app = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app),
        "--server.port",
        str(port or settings.dashboard_port),
        "--server.address",
        settings.dashboard_host,
        "--client.toolbarMode",
        "viewer",
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
    ]


def cmd_dashboard(args: argparse.Namespace, settings: Settings) -> int:
    return subprocess.call(dashboard_command(settings, args.port))


def ensure_loaded(services: Services, settings: Settings) -> None:
    """Ingest the bundled corpus and import its validity notes when the store is empty."""
    from api.ingest.pipeline import ingest, write_report
    from api.services.notes import import_notes

    if services.store.count()[0] > 0:
        return
    print(f"Loading the bundled corpus {settings.corpus_path} ...", file=sys.stderr)
    started_at = datetime.now()
    progress = _progress(_count_lines([settings.corpus_path]))
    report = ingest([settings.corpus_path], services.store, services.embedder, progress=progress)  # type: ignore[arg-type]
    sys.stderr.write("\n")
    write_report(report, settings.data_dir / "ingest_reports", started_at)
    notes = import_notes(settings.notes_path, services.store)
    print(
        f"stored {report.stored} tesis, {report.chunks} chunks; {notes.imported} validity notes",
        file=sys.stderr,
    )


def ensure_corpus(settings: Settings) -> None:
    from api.services.container import Services

    services = Services.build(settings)
    try:
        ensure_loaded(services, settings)
    finally:
        services.close()


def key_advice(settings: Settings) -> str:
    """How to protect writes and the search log; printed by ``vigencia demo`` / ``make run``."""
    if settings.api_key:
        return (
            "API key: set. Writes, the search log, monitoring and alerts need it "
            "(Authorization: Bearer <key> or X-API-Key)."
        )
    return (
        "API key: NOT set: anyone who reaches the API can ingest, delete and read every "
        "logged question. Set one, e.g.\n"
        "  export VIGENCIA_API_KEY=\"$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')\"\n"
        "and restart (the dashboard sends it). See docs/SECURITY.md."
    )


def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    ensure_corpus(settings)
    dashboard = subprocess.Popen(dashboard_command(settings))
    print(f"API:       http://{settings.host}:{settings.port}/graphql", file=sys.stderr)
    print(f"Dashboard: http://127.0.0.1:{settings.dashboard_port}", file=sys.stderr)
    print(key_advice(settings), file=sys.stderr)
    try:
        return cmd_serve(argparse.Namespace(host=None, port=None), settings)
    finally:
        dashboard.terminate()
        dashboard.wait(timeout=10)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vigencia", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="Load tesis from CSV (bj.scjn.gob.mx) or JSONL files.")
    ingest.add_argument("paths", nargs="+")
    ingest.add_argument("--quiet", action="store_true", help="No progress bar.")
    ingest.add_argument("--generic", action="store_true", help="A dated corpus, not tesis.")
    ingest.add_argument("--id-field", default="id")
    ingest.add_argument("--title-field", default="name")
    ingest.add_argument("--text-field", default="description")
    ingest.add_argument(
        "--date-field",
        action="append",
        help="Date field (repeatable): the first is the primary date; others as name[:role] "
        "(role: created, updated, pushed), e.g. --date-field created_at "
        "--date-field pushed_at:updated. Default: created_at.",
    )
    ingest.set_defaults(func=cmd_ingest)

    search = sub.add_parser("search", help="Recency-aware search.")
    search.add_argument("question")
    search.add_argument("--top-k", type=int, default=10)
    search.add_argument("--recency-weight", type=float)
    search.add_argument("--profile", choices=["default", "seed"])
    search.add_argument("--mode", choices=["hybrid", "vector", "lexical"])
    search.add_argument("--materia", action="append")
    search.add_argument("--anio-min", type=int)
    search.add_argument("--anio-max", type=int)
    search.add_argument("--json", action="store_true")
    search.set_defaults(func=cmd_search)

    serve = sub.add_parser("serve", help="Run the GraphQL API.")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--workers", type=int, help="Worker processes (VIGENCIA_WORKERS).")
    serve.set_defaults(func=cmd_serve)

    dashboard = sub.add_parser("dashboard", help="Run the Streamlit dashboard.")
    dashboard.add_argument("--port", type=int)
    dashboard.set_defaults(func=cmd_dashboard)

    evaluation = sub.add_parser("eval", help="Rank labelled queries under each configuration.")
    evaluation.add_argument(
        "queries", help='JSONL: {"query", "relevant": {registro: 1-3}, "current": [...]}'
    )
    evaluation.add_argument("--k", type=int, default=10)
    evaluation.add_argument("--alpha", type=float, action="append", help="Hybrid alphas to sweep.")
    evaluation.add_argument(
        "--weight", type=float, action="append", help="Recency weights to sweep."
    )
    evaluation.add_argument("--json", action="store_true")
    evaluation.set_defaults(func=cmd_eval)

    tune_cmd = sub.add_parser(
        "tune",
        help="Fit the recency weight and alpha per materia (dev split + feedback), check them "
        "on the test split, and write a settings snippet unless test current@1 drops.",
    )
    tune_cmd.add_argument("queries", nargs="?", default="data/eval/queries.jsonl")
    tune_cmd.add_argument(
        "--feedback", action="append", default=[], help="JSONL from `vigencia log export-feedback`."
    )
    tune_cmd.add_argument("--weight", type=float, action="append", help="Weights of the grid.")
    tune_cmd.add_argument("--alpha", type=float, action="append", help="Alphas of the grid.")
    tune_cmd.add_argument("--min-questions", type=int, default=3)
    tune_cmd.add_argument("--output", "-o", default="var/tune.env", help="Settings snippet.")
    tune_cmd.add_argument("--report", default="docs/TUNE.md", help="Markdown report.")
    tune_cmd.set_defaults(func=cmd_tune)

    notes = sub.add_parser("import-notes", help="Import SJF validity notes (JSON).")
    notes.add_argument("file")
    notes.set_defaults(func=cmd_import_notes)

    demo = sub.add_parser("demo", help="Load the bundled corpus if empty, serve API + dashboard.")
    demo.set_defaults(func=cmd_demo)

    from api.cli.monitoring import add_commands

    add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None, settings: Settings | None = None) -> int:
    from api.errors import StartupError

    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args, settings or get_settings()))
    except StartupError as exc:  # one sentence naming the path, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

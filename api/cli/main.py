"""The ``vigencia`` command line: ingest, search, serve, dashboard, demo."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from contextlib import suppress

from api.cli import evaluation as evaluating
from api.cli import loading
from api.cli import search as searching
from api.cli import serve as serving
from api.cli.monitoring import add_commands
from api.settings import PROJECT_ROOT, Settings, get_settings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="vigencia", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="Load tesis from CSV (bj.scjn.gob.mx) or JSONL files.")
    ingest.add_argument("paths", nargs="+")
    ingest.add_argument("--quiet", action="store_true", help="No progress bar.")
    ingest.add_argument("--generic", action="store_true", help="A dated corpus, not tesis.")
    ingest.add_argument("--strict", action="store_true", help="Exit 1 when any record is rejected.")
    ingest.add_argument("--id-field", help="Generic only: the id field (default: id).")
    ingest.add_argument("--title-field", help="Generic only: the title field (default: name).")
    ingest.add_argument("--text-field", help="Generic only: the text field (default: description).")
    ingest.add_argument(
        "--date-field",
        action="append",
        help="Generic only. Date field (repeatable): the first is the primary date; others as "
        "name[:role] (role: created, updated, pushed), e.g. --date-field created_at "
        "--date-field pushed_at:updated. Default: created_at.",
    )
    ingest.set_defaults(func=loading.cmd_ingest)

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
    search.set_defaults(func=searching.cmd_search)

    serve = sub.add_parser("serve", help="Run the GraphQL API.")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--workers", type=int, help="Worker processes (VIGENCIA_WORKERS).")
    serve.set_defaults(func=serving.cmd_serve)

    dashboard = sub.add_parser("dashboard", help="Run the Streamlit dashboard.")
    dashboard.add_argument("--port", type=int)
    dashboard.set_defaults(func=serving.cmd_dashboard)

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
    evaluation.add_argument(
        "--short",
        default=str(PROJECT_ROOT / "data" / "eval" / "short_questions.jsonl"),
        help='Short questions, JSONL: {"id", "query", "expect": "answer"|"abstain", "split"} '
        '(default: the shipped set); "" to skip.',
    )
    evaluation.set_defaults(func=evaluating.cmd_eval)

    tune_cmd = sub.add_parser(
        "tune",
        help="Fit the recency weight and alpha per materia (dev split + feedback), check them "
        "on the test split, and write a settings snippet unless test current@1 drops.",
    )
    tune_cmd.add_argument(
        "queries",
        nargs="?",
        default=str(PROJECT_ROOT / "data" / "eval" / "queries.jsonl"),
        help="Labelled questions (default: the shipped set).",
    )
    tune_cmd.add_argument(
        "--feedback", action="append", default=[], help="JSONL from `vigencia log export-feedback`."
    )
    tune_cmd.add_argument("--weight", type=float, action="append", help="Weights of the grid.")
    tune_cmd.add_argument("--alpha", type=float, action="append", help="Alphas of the grid.")
    tune_cmd.add_argument("--min-questions", type=int, default=3)
    tune_cmd.add_argument(
        "--output", "-o", help="Settings snippet (default: tune.env in VIGENCIA_DATA_DIR)."
    )
    tune_cmd.add_argument(
        "--report",
        help="Markdown report (default: TUNE.md in VIGENCIA_DATA_DIR; give docs/TUNE.md to "
        "update the shipped one).",
    )
    tune_cmd.set_defaults(func=evaluating.cmd_tune)

    notes = sub.add_parser("import-notes", help="Import SJF validity notes (JSON).")
    notes.add_argument("file")
    notes.set_defaults(func=loading.cmd_import_notes)

    demo = sub.add_parser("demo", help="Load the bundled corpus if empty, serve API + dashboard.")
    demo.set_defaults(func=serving.cmd_demo)

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
    except BrokenPipeError:  # the reader (head, less) stopped reading: not an error of ours
        with suppress(OSError, ValueError):  # no file descriptor (captured): nothing to flush
            out = sys.stdout.fileno()
            os.dup2(os.open(os.devnull, os.O_WRONLY), out)  # so the exit flush is quiet
        return 1


if __name__ == "__main__":
    sys.exit(main())

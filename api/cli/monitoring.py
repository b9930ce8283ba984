"""Monitoring from a terminal: ``vigencia log tail|prune|export-feedback`` and ``vigencia alerts``.

``add_commands(subparsers)`` registers them on the ``vigencia`` parser; each command is
``func(args, settings) -> exit status`` like the others. Only the log (and, for alerts, the
store) is opened: no embedder is loaded.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TextIO

from api.core.monitoring import SEVERITY_ORDER, Alert, LogEntry, entry_to_dict
from api.errors import LogError
from api.monitoring.log_base import MAX_RECENT, SearchLog
from api.settings import Settings

QUESTION_CHARS = 80  # question width in a tail line


def _fmt_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def format_entry(entry: LogEntry) -> str:
    """One line: time, kind, materia, weight and profile, hits, short id, question, top 3."""
    question = " ".join(entry.question.split())
    if len(question) > QUESTION_CHARS:
        question = question[: QUESTION_CHARS - 1] + "…"
    top = " ".join(f"{h.registro}({h.anio})" for h in entry.hits[:3])
    return (
        f"{_fmt_time(entry.timestamp)} {entry.kind:<6} {(entry.materia or '-'):<14} "
        f"w={entry.recency_weight:.2f} {entry.profile:<7} {len(entry.hits):>3} hits "
        f"{entry.id[:8]}  {question}  [{top}]"
    )


def _show(entries: Sequence[LogEntry], out: TextIO, as_json: bool) -> None:
    for entry in entries:
        if as_json:
            line = json.dumps(entry_to_dict(entry), ensure_ascii=False)
        else:
            line = format_entry(entry)
        print(line, file=out, flush=True)


def tail(
    log: SearchLog,
    n: int,
    out: TextIO,
    *,
    follow: bool = False,
    as_json: bool = False,
    interval: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
    max_polls: int | None = None,
) -> None:
    """Print the last ``n`` entries oldest first; with ``follow``, then poll for new ones
    every ``interval`` seconds (``max_polls`` bounds it, for tests). Raises ``LogError``."""
    entries = list(reversed(log.recent(n)))
    _show(entries, out, as_json)
    since = entries[-1].timestamp if entries else None
    seen = {e.id for e in entries if e.timestamp == since}
    polls = 0
    while follow and (max_polls is None or polls < max_polls):
        sleep(interval)
        polls += 1
        fresh = [e for e in reversed(log.recent(MAX_RECENT, 0, since)) if e.id not in seen]
        _show(fresh, out, as_json)
        if fresh:  # only entries at the newest timestamp can come back in the next poll
            if fresh[-1].timestamp != since:
                since, seen = fresh[-1].timestamp, set()
            seen |= {e.id for e in fresh if e.timestamp == since}


def format_alerts(alerts: Sequence[Alert]) -> str:
    if not alerts:
        return "no alerts"
    lines = []
    for a in alerts:
        span = f"{_fmt_time(a.first_seen)} .. {_fmt_time(a.last_seen)}"
        lines.append(f"{a.severity.upper():<8} {a.code:<20} {a.count:>5}  {span}  {a.message}")
        lines += [f"{'':<8} e.g. {example}" for example in a.examples]
    return "\n".join(lines)


def _alert_json(a: Alert) -> dict[str, Any]:
    times = {"first_seen": a.first_seen.isoformat(), "last_seen": a.last_seen.isoformat()}
    return {**dataclasses.asdict(a), **times, "examples": list(a.examples)}


def _open_log(settings: Settings) -> SearchLog:
    from api.services.factory import build_search_log

    return build_search_log(settings)


def cmd_log_tail(args: argparse.Namespace, settings: Settings) -> int:
    if not 1 <= args.n <= MAX_RECENT:
        print(f"error: -n {args.n} is outside 1..{MAX_RECENT}", file=sys.stderr)
        return 2
    log = _open_log(settings)
    try:
        tail(log, args.n, sys.stdout, follow=args.follow, as_json=args.json, interval=args.interval)
    except LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        log.close()
    return 0


def cmd_log_prune(args: argparse.Namespace, settings: Settings) -> int:
    days = args.days
    if days is None:
        days = settings.search_log_retention_days
    if days < 1:
        print(f"error: --days {days} must be >= 1", file=sys.stderr)
        return 2
    log = _open_log(settings)
    try:
        removed = log.prune(datetime.now(UTC) - timedelta(days=days))
    except LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        log.close()
    print(f"removed {removed} entries older than {days} days")
    return 0


def cmd_log_export_feedback(args: argparse.Namespace, settings: Settings) -> int:
    from api.services.log_feedback import export_feedback

    log = _open_log(settings)
    try:
        lines = export_feedback(log)
    except LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        log.close()
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            print(f"error: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return 2
        print(f"wrote {len(lines)} labelled queries to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_alerts(args: argparse.Namespace, settings: Settings) -> int:
    from api.core.reform import DEFAULT_CUTOFFS
    from api.errors import InvalidRequest, StoreError
    from api.services.factory import build_store
    from api.services.monitoring import MonitoringScope, alerts, thresholds_from_settings

    hours = args.window_hours
    if hours is None:
        hours = settings.monitoring_window_hours
    log = _open_log(settings)
    store = build_store(settings)
    try:
        cutoffs = settings.reform_cutoffs or DEFAULT_CUTOFFS
        found = alerts(
            MonitoringScope(log, store, hours, thresholds_from_settings(settings), cutoffs)
        )
    except InvalidRequest as exc:
        print(f"error: --window-hours: {exc.reason}", file=sys.stderr)
        return 2
    except (LogError, StoreError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        log.close()
        store.close()
    if args.json:
        print(json.dumps([_alert_json(a) for a in found], ensure_ascii=False, indent=1))
    else:
        print(f"alerts of the last {hours} h:\n{format_alerts(found)}")
    if args.fail_on is not None:
        worst = SEVERITY_ORDER[args.fail_on]
        return 1 if any(SEVERITY_ORDER[a.severity] <= worst for a in found) else 0
    return 0


def add_commands(subparsers: Any) -> None:
    """Register ``log`` and ``alerts`` on the ``vigencia`` subparsers."""
    log = subparsers.add_parser("log", help="The search log: tail, prune, export feedback.")
    log_sub = log.add_subparsers(dest="log_command", required=True)

    tail_cmd = log_sub.add_parser("tail", help="The latest logged searches, oldest first.")
    tail_cmd.add_argument("-n", type=int, default=10, help="How many (default 10).")
    tail_cmd.add_argument("-f", "--follow", action="store_true", help="Keep printing new ones.")
    tail_cmd.add_argument("--interval", type=float, default=2.0, help="Seconds between polls.")
    tail_cmd.add_argument("--json", action="store_true", help="One JSON entry per line.")
    tail_cmd.set_defaults(func=cmd_log_tail)

    prune = log_sub.add_parser("prune", help="Delete entries older than the retention.")
    prune.add_argument("--days", type=int, help="Default: VIGENCIA_SEARCH_LOG_RETENTION_DAYS.")
    prune.set_defaults(func=cmd_log_prune)

    export = log_sub.add_parser(
        "export-feedback", help="Feedback as labelled queries (JSONL) for `vigencia eval`."
    )
    export.add_argument("--output", "-o", help="File to write (default: stdout).")
    export.set_defaults(func=cmd_log_export_feedback)

    alerts_cmd = subparsers.add_parser("alerts", help="Monitoring alerts of a recent window.")
    alerts_cmd.add_argument(
        "--window-hours", type=int, help="Default: VIGENCIA_MONITORING_WINDOW_HOURS (168)."
    )
    alerts_cmd.add_argument("--json", action="store_true")
    alerts_cmd.add_argument(
        "--fail-on",
        choices=["warning", "critical"],
        help="Exit 1 when an alert this severe (or worse) is found (for cron).",
    )
    alerts_cmd.set_defaults(func=cmd_alerts)

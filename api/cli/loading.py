"""Loading data: ``vigencia ingest`` and ``import-notes``, and the bundled corpus on first run."""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from api.core.models import IngestReport
from api.settings import Settings

if TYPE_CHECKING:
    from api.ingest.generic import GenericFields
    from api.services.container import Services


def missing_files(paths: Sequence[Path]) -> bool:
    """Say which of ``paths`` are not files; True if any."""
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"error: not a file: {', '.join(missing)}", file=sys.stderr)
    return bool(missing)


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
    """Records to expect, for the progress bar (CSV: rows, not physical lines, minus the
    header)."""
    total = 0
    try:
        for path in paths:
            with path.open(encoding="utf-8-sig", newline="") as handle:
                if path.suffix.lower() == ".csv":
                    total += max(sum(1 for row in csv.reader(handle) if row) - 1, 0)
                else:
                    total += sum(1 for line in handle if line.strip())
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    return total


GENERIC_ONLY = ("id_field", "title_field", "text_field", "date_field")


def _generic_fields(args: argparse.Namespace) -> GenericFields | None:
    """The generic fields asked for, None without ``--generic``; ValueError when a generic-only
    option comes without it (it would be ignored)."""
    from api.ingest.generic import GenericFields

    if not args.generic:
        given = [f"--{n.replace('_', '-')}" for n in GENERIC_ONLY if getattr(args, n)]
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise ValueError(f"{', '.join(given)} only {verb} with --generic")
        return None
    return GenericFields.of(
        args.id_field or "id",
        args.title_field or "name",
        args.text_field or "description",
        args.date_field or ["created_at"],
    )


def _once(paths: Sequence[Path]) -> list[Path]:
    """``paths`` without repeats (the same file given twice is read once, and said so)."""
    seen: dict[Path, Path] = {}
    for path in paths:
        key = path.resolve()
        if key in seen:
            print(f"note: {path} given twice; read once", file=sys.stderr)
            continue
        seen[key] = path
    return list(seen.values())


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from api.ingest.pipeline import ingest, write_report
    from api.services.container import Services

    paths = [Path(p) for p in args.paths]
    if missing_files(paths):
        return 2
    try:
        generic = _generic_fields(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    paths = _once(paths)
    services = Services.build(settings)
    started_at = datetime.now()
    started = time.perf_counter()
    progress = None if args.quiet else _progress(_count_lines(paths))
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
    return max(_accounted(report), _verdict(report, args.strict))


def _verdict(report: IngestReport, strict: bool) -> int:
    """1 when nothing was stored (nor already there) and something was rejected, or with
    ``strict`` when anything was rejected; else 0."""
    if not report.rejected:
        return 0
    if report.stored + report.unchanged == 0:
        print(f"error: nothing stored: all {len(report.rejected)} rejected", file=sys.stderr)
        return 1
    if strict:
        print(f"error: {len(report.rejected)} rejected (--strict)", file=sys.stderr)
        return 1
    return 0


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
    for problem in report.warnings:
        print(f"warning: {problem}")
    print(
        f"imported {report.imported} notes ({report.in_corpus} about stored tesis, "
        f"{report.unknown} about registros not in the store), {len(report.warnings)} with a "
        f"warning; rejected {len(report.rejected)}"
    )
    return 1 if report.rejected and not report.imported else 0  # as ingest: nothing good read


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

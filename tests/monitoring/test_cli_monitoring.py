"""``vigencia log tail|prune|export-feedback`` and ``vigencia alerts`` on a temporary data dir."""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from api.cli.monitoring import add_commands, format_entry, tail
from api.core.monitoring import Feedback
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.services.factory import log_path
from api.settings import Settings
from tests.monitoring.builders import NOW, log_entry, logged_hit


def run(argv: Sequence[str], settings: Settings) -> int:
    parser = argparse.ArgumentParser(prog="vigencia")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return int(args.func(args, settings))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path)


@pytest.fixture
def log(settings: Settings) -> EmbeddedSearchLog:
    log = EmbeddedSearchLog(log_path(settings.data_dir))
    now = datetime.now(UTC)
    for i in range(3):
        log.append(
            log_entry(
                [logged_hit(100 + i, 1975 + i)],
                log_id=f"id-{i}{'x' * 10}",
                question=f"pregunta {i}",
                at=now - timedelta(minutes=i),
            )
        )
    log.append(log_entry([], log_id="ancient", question="vieja", at=now - timedelta(days=400)))
    return log


def question_of(line: str) -> str:
    """The question of a tail line: between the short id and the top registros."""
    return line.rsplit("  [", 1)[0].rsplit("  ", 1)[1]


def test_format_entry_is_one_line() -> None:
    entry = log_entry(
        [logged_hit(2023871, 2021), logged_hit(166837, 2009, rank=2)],
        log_id="0123456789abcdef",
        question="¿Qué\nrequisitos " + "x" * 100,
    )
    line = format_entry(entry)
    assert "\n" not in line
    assert line.startswith("2025-06-01 12:00:00Z search Laboral")
    assert "w=0.50 default" in line and "2 hits 01234567" in line
    assert line.endswith("…  [2023871(2021) 166837(2009)]")


def test_tail_prints_the_last_n_oldest_first(log, settings, capsys) -> None:
    assert run(["log", "tail", "-n", "2"], settings) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [question_of(line) for line in lines] == ["pregunta 1", "pregunta 0"]


def test_tail_json(log, settings, capsys) -> None:
    assert run(["log", "tail", "-n", "1", "--json"], settings) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line)["question"] == "pregunta 0"


def test_tail_follow_prints_only_new_entries() -> None:
    log = EmbeddedSearchLog(None)
    log.append(log_entry([], log_id="a", question="primera", at=NOW))
    arrivals = [
        [log_entry([], log_id="b", question="segunda", at=NOW)],  # same timestamp as "a"
        [],
        [
            log_entry([], log_id="c", question="tercera", at=NOW + timedelta(seconds=5)),
            log_entry([], log_id="d", question="cuarta", at=NOW + timedelta(seconds=6)),
        ],
    ]

    def sleep(seconds: float) -> None:
        for entry in arrivals.pop(0):
            log.append(entry)

    out = io.StringIO()
    tail(log, 5, out, follow=True, sleep=sleep, max_polls=3)
    questions = [question_of(line) for line in out.getvalue().splitlines()]
    assert questions == ["primera", "segunda", "tercera", "cuarta"]


def test_tail_refuses_a_bad_count(settings, capsys) -> None:
    assert run(["log", "tail", "-n", "0"], settings) == 2
    assert "-n 0" in capsys.readouterr().err


def test_tail_reports_an_unreadable_log(tmp_path, capsys) -> None:
    (tmp_path / "file").write_text("")
    settings = Settings(data_dir=tmp_path / "file")
    assert run(["log", "tail"], settings) == 1
    assert "cannot open the search log" in capsys.readouterr().err


def test_prune_uses_the_given_days(log, settings, capsys) -> None:
    assert run(["log", "prune", "--days", "365"], settings) == 0
    assert capsys.readouterr().out.strip() == "removed 1 entries older than 365 days"
    assert [e.id for e in log.recent(10)][-1] == "id-2xxxxxxxxxx"


def test_export_feedback_to_a_file(log, settings, tmp_path, capsys) -> None:
    log.add_feedback(Feedback("id-0xxxxxxxxxx", 100, True, None, datetime.now(UTC)))
    out = tmp_path / "feedback.jsonl"
    assert run(["log", "export-feedback", "-o", str(out)], settings) == 0
    [line] = out.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["relevant"] == {"100": 2}
    assert "wrote 1 labelled queries" in capsys.readouterr().err


def test_alerts_table_json_and_fail_on(log, settings, capsys) -> None:
    assert run(["alerts", "--window-hours", "24"], settings) == 0
    out = capsys.readouterr().out
    assert out.startswith("alerts of the last 24 h:")
    assert "ALL_PRE_2000" in out and "e.g. pregunta 0" in out
    assert "COVERAGE_GAP" in out  # the store under this data dir is empty

    assert run(["alerts", "--window-hours", "24", "--json"], settings) == 0
    alerts = json.loads(capsys.readouterr().out)
    assert {"code", "severity", "count", "first_seen", "examples"} <= set(alerts[0])

    assert run(["alerts", "--fail-on", "warning"], settings) == 1
    capsys.readouterr()
    assert run(["alerts", "--window-hours", "0"], settings) == 2
    assert "--window-hours" in capsys.readouterr().err

"""``vigencia ingest``'s exit status, option checks, repeated paths and progress count."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cli.loading import _count_lines
from api.cli.main import main
from api.settings import Settings
from tests.hardening.test_fuzz_loaders import COLUMNS, csv_line, csv_row
from tests.ingest.test_ingest import good, write_jsonl


def test_nothing_stored_and_all_rejected_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(b'{"registro": 1, "rubro": "DA\xd1OS"}\n{"registro": 2, "rubro": "\xe9"}\n')
    assert main(["ingest", "--quiet", str(latin1)], Settings(data_dir=tmp_path / "var")) == 1
    assert "nothing stored" in capsys.readouterr().err


def test_strict_exits_1_on_any_rejection(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "lote.jsonl", [good(1), good(2, rubro="")])
    settings = Settings(data_dir=tmp_path / "var")
    assert main(["ingest", "--quiet", str(path)], settings) == 0
    assert main(["ingest", "--quiet", "--strict", str(path)], settings) == 1
    clean = write_jsonl(tmp_path / "clean.jsonl", [good(1)])
    assert main(["ingest", "--quiet", "--strict", str(clean)], settings) == 0


def test_generic_options_without_generic_are_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_jsonl(tmp_path / "lote.jsonl", [good(1)])
    argv = ["ingest", "--quiet", "--date-field", "pushed_at", "--id-field", "key", str(path)]
    assert main(argv, Settings(data_dir=tmp_path / "var")) == 2
    assert "--id-field, --date-field only apply with --generic" in capsys.readouterr().err
    assert not (tmp_path / "var" / "vigencia.sqlite").exists()
    one = ["ingest", "--quiet", "--id-field", "key", str(path)]
    assert main(one, Settings(data_dir=tmp_path / "var")) == 2
    assert "--id-field only applies with --generic" in capsys.readouterr().err


def test_a_path_given_twice_is_read_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_jsonl(tmp_path / "good.jsonl", [good(1), good(2)])
    settings = Settings(data_dir=tmp_path / "var")
    assert main(["ingest", "--quiet", str(path), str(path)], settings) == 0
    out, err = capsys.readouterr()
    assert "given twice; read once" in err
    assert "read 2, stored 2" in out and "duplicate" not in out


def test_the_progress_bar_counts_csv_rows_not_lines(tmp_path: Path) -> None:
    row = csv_row("8")
    row[2] = "Uno.\n\nDos.\nTres."
    path = tmp_path / "bj.csv"
    path.write_text("".join(map(csv_line, [COLUMNS, csv_row("7"), row])), encoding="utf-8")
    assert _count_lines([path]) == 2

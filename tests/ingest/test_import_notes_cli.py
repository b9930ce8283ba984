"""``vigencia import-notes``: a byte-order mark, and notes kept with a warning counted apart;
``vigencia log export-feedback`` to a path that cannot be written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli.main import main
from api.settings import Settings

BAD = {
    "tesis": {
        "251883": {"estado": "inventada"},
        "abc": {"estado": "abandonada"},
        "252824": {"estado": "abandonada", "por_registro": "xyz"},
        "252782": {"estado": "superada", "desde": "2025-13-01"},
        "253908": "no-dict",
        "160584": {"estado": "abandonada", "por_registro": "160584"},
    }
}


def test_notes_with_a_bom_are_imported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(
        b"\xef\xbb\xbf" + json.dumps({"tesis": {"7": {"estado": "abandonada"}}}).encode()
    )
    assert main(["import-notes", str(path)], Settings(data_dir=tmp_path / "var")) == 0
    assert "imported 1 notes" in capsys.readouterr().out


def test_notes_kept_with_a_warning_are_not_counted_as_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD), encoding="utf-8")
    assert main(["import-notes", str(path)], Settings(data_dir=tmp_path / "var")) == 0
    out = capsys.readouterr().out
    assert out.count("rejected: ") == 4 and out.count("warning: ") == 2
    assert "note kept without it" not in "".join(
        line for line in out.splitlines() if line.startswith("rejected: ")
    )
    assert "2 with a warning; rejected 4" in out
    assert "imported 2 notes" in out


def test_a_notes_file_with_no_good_note_exits_1(tmp_path: Path) -> None:
    """As ingest: every note rejected and none imported is a failed load a script can see."""
    path = tmp_path / "worse.json"
    path.write_text(json.dumps({"tesis": {"1": {"estado": "inventada"}}}), encoding="utf-8")
    assert main(["import-notes", str(path)], Settings(data_dir=tmp_path / "var")) == 1


def test_export_feedback_to_a_missing_directory_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nonexistent" / "x.jsonl"
    argv = ["log", "export-feedback", "-o", str(target)]
    assert main(argv, Settings(data_dir=tmp_path / "var")) == 2
    assert f"error: cannot write {target}: No such file or directory" in capsys.readouterr().err

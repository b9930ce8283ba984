"""A CSV file cut short (a download or copy that stopped) loses no row silently."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from api.ingest.pipeline import ingest
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder
from tests.hardening.test_fuzz_loaders import COLUMNS, csv_line, csv_row

TODAY = date(2026, 1, 1)


def run(tmp_path: Path, text: str) -> list[tuple[int, str, str]]:
    path = tmp_path / "bj.csv"
    path.write_text(text, encoding="utf-8")
    store = EmbeddedStore(None, dim=32)
    report = ingest([path], store, FakeEmbedder(), today=TODAY)
    assert report.stored == 1 and 7 in store.get_tesis([7])
    return [(r.line, r.field, r.reason) for r in report.rejected]


def test_a_row_cut_inside_its_last_cells_is_rejected(tmp_path: Path) -> None:
    cut = csv_line(csv_row("8"))[:-30]  # inside the órgano cell
    assert run(tmp_path, csv_line(COLUMNS) + csv_line(csv_row("7")) + cut) == [
        (3, "row", "row has 8 of 12 columns: truncated?")
    ]


def test_a_quote_open_at_the_end_of_the_file_is_named(tmp_path: Path) -> None:
    row = csv_row("8")
    row[2] = "Primer párrafo.\nSegundo párrafo, cortado"
    line = csv_line(row)
    cut = line[: line.index("Segundo") + 7]
    [(line, field, reason)] = run(tmp_path, csv_line(COLUMNS) + csv_line(csv_row("7")) + cut)
    assert (line, field) == (3, "row")
    assert "not closed before the end of the file" in reason


def test_a_multi_line_row_is_reported_where_it_starts(tmp_path: Path) -> None:
    row = csv_row("8")
    row[2] = "Uno.\nDos.\nTres."
    row[9] = "NINGUNO"
    row[8] = "mil"
    text = csv_line(COLUMNS) + csv_line(csv_row("7")) + csv_line(row)
    assert run(tmp_path, text) == [(3, "anio", "not a year: 'mil'")]


def test_an_empty_csv_says_so(tmp_path: Path) -> None:
    path = tmp_path / "vacio.csv"
    path.write_text("", encoding="utf-8")
    report = ingest([path], EmbeddedStore(None, dim=32), FakeEmbedder(), today=TODAY)
    assert [(r.field, r.reason) for r in report.rejected] == [
        ("file", "the file is empty (no header, no rows)")
    ]


def test_latin1_names_the_record_the_field_and_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"registro": 9000301, "rubro": "ARRENDAMIENTO. DA\xd1OS", "texto": "x"}\n')
    report = ingest([path], EmbeddedStore(None, dim=32), FakeEmbedder(), today=TODAY)
    [rejection] = report.rejected
    assert (rejection.line, rejection.registro, rejection.field) == (1, "9000301", "rubro")
    assert "re-save the file as UTF-8" in rejection.reason

"""Ingest edge cases from the second outside attack: a quote left open in a CSV, a BOM before the
first JSONL record, strict booleans, ASCII-digit registros, text-size limits, and one bad
record in an ``ingestTesis`` batch rejected alone, by name.

Invariant checked everywhere: ``read == stored + rejected + unchanged``.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from api.core.models import IngestReport
from api.ingest.pipeline import ingest, ingest_records
from api.ingest.records import MAX_TEXT_CHARS
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder
from tests.hardening.test_fuzz_loaders import COLUMNS, csv_line, csv_row

DIM = 32
TODAY = date(2026, 1, 1)
GOOD = {
    "registro": 1,
    "rubro": "RUBRO.",
    "texto": "Texto del criterio.",
    "epoca": "Décima Época",
    "anio": 2015,
    "tipo": "Jurisprudencia",
    "materias": ["Común"],
}


def balanced(report: IngestReport) -> bool:
    return report.read == report.stored + len(report.rejected) + report.unchanged


def run(path: Path) -> tuple[IngestReport, EmbeddedStore]:
    store = EmbeddedStore(None, dim=DIM)
    return ingest([path], store, FakeEmbedder(DIM), today=TODAY), store


def test_a_quote_left_open_loses_no_row(tmp_path: Path) -> None:
    """199 rows, a stray quote in row 100: before, rows 101-199 vanished into one field."""
    rows = [csv_line(csv_row(str(1000 + i))) for i in range(1, 200)]
    rows[99] = csv_line(csv_row("1100")).replace("RUBRO.", '"RUBRO sin cierre', 1)
    path = tmp_path / "bj.csv"
    path.write_text(csv_line(COLUMNS) + "".join(rows), encoding="utf-8")
    report, store = run(path)
    assert (report.read, report.stored, len(report.rejected)) == (199, 198, 1)
    assert balanced(report)
    (stray,) = report.rejected
    assert (stray.line, stray.field) == (101, "row")  # the header is line 1
    assert "quote" in stray.reason
    assert store.count()[0] == 198 and 1199 in store.get_tesis([1199])


def test_multi_line_fields_are_still_read(tmp_path: Path) -> None:
    row = csv_row("7")
    row[2] = "Primer párrafo.\nSegundo párrafo.\n\nTercero, con comas, y más."
    path = tmp_path / "bj.csv"
    path.write_text("".join(map(csv_line, [COLUMNS, row, csv_row("8")])), encoding="utf-8")
    report, store = run(path)
    assert (report.read, report.stored, report.rejected) == (2, 2, [])
    assert "Segundo párrafo." in store.get_tesis([7])[7].texto


def test_quote_open_to_the_end_of_the_file_reports_every_row(tmp_path: Path) -> None:
    rows = [csv_row(str(i)) for i in (7, 8, 9)]
    text = csv_line(COLUMNS) + csv_line(rows[0]) + '8,"RUBRO sin cierre,x\n' + csv_line(rows[2])
    path = tmp_path / "bj.csv"
    path.write_text(text, encoding="utf-8")
    report, store = run(path)
    assert balanced(report)
    assert report.stored == 2 and sorted(store.get_tesis([7, 9])) == [7, 9]
    assert [r.line for r in report.rejected] == [3]


def test_jsonl_starting_with_a_bom_keeps_its_first_record(tmp_path: Path) -> None:
    path = tmp_path / "lote.jsonl"
    lines = [json.dumps(GOOD), json.dumps(GOOD | {"registro": 2})]
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode())
    report, store = run(path)
    assert (report.read, report.stored, report.rejected) == (2, 2, [])
    assert sorted(store.get_tesis([1, 2])) == [1, 2]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"parcial": "false"}, "parcial"),
        ({"parcial": 1}, "parcial"),
        ({"registro": "１２３"}, "registro"),  # full-width digits
        ({"registro": "١٢٣"}, "registro"),  # Arabic-Indic digits
        ({"anio": "２０１５"}, "anio"),
        ({"texto": "x" * (MAX_TEXT_CHARS["texto"] + 1)}, "texto"),
        ({"rubro": "R" * (MAX_TEXT_CHARS["rubro"] + 1)}, "rubro"),
        ({"precedentes": "p" * (MAX_TEXT_CHARS["precedentes"] + 1)}, "precedentes"),
        ({"clave": "c" * 10_000}, "clave"),
    ],
)
def test_strict_fields(change: dict[str, object], field: str) -> None:
    store = EmbeddedStore(None, dim=DIM)
    report = ingest_records([GOOD | change], "api", store, FakeEmbedder(DIM))
    assert [(r.line, r.field) for r in report.rejected] == [(1, field)]
    assert report.stored == 0 and balanced(report)


def test_parcial_accepts_json_booleans_only() -> None:
    store = EmbeddedStore(None, dim=DIM)
    records = [GOOD | {"parcial": False}, GOOD | {"registro": 2, "parcial": True}]
    report = ingest_records(records, "api", store, FakeEmbedder(DIM))
    assert report.stored == 2
    found = store.get_tesis([1, 2])
    assert (found[1].partial, found[2].partial) == (False, True)


def test_a_lone_surrogate_rejects_only_its_record_by_name() -> None:
    store = EmbeddedStore(None, dim=DIM)
    records = [
        GOOD,
        GOOD | {"registro": 2, "organo": "Pleno \ud800"},
        GOOD | {"registro": 3, "materias": ["Común", "\udfff"]},
        GOOD | {"registro": 4},
    ]
    report = ingest_records(records, "api", store, FakeEmbedder(DIM))
    assert report.stored == 2 and balanced(report)
    assert [(r.line, r.registro, r.field) for r in report.rejected] == [
        (2, "2", "organo"),
        (3, "3", "materias"),
    ]
    json.dumps([str(r) for r in report.rejected], ensure_ascii=False).encode("utf-8")

"""Hypothesis on the loaders: random files of good and malformed JSONL lines and CSV rows.

Each generated row knows what must happen to it: stored (a valid record whose registro was not
seen before among the valid ones), rejected (anything else: malformed, wrong-typed, invalid
JSON or UTF-8, not an object, a duplicate), or nothing (a blank line is not a row). The test
ingests the file with ``FakeEmbedder`` into ``EmbeddedStore(None, dim=32)`` and checks the
report row by row (by line number) and the store record by record. No exception may escape,
and every rejection must print and save (``write_report``) as the CLI does.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.core.epocas import EPOCA_NAMES
from api.core.models import IngestReport
from api.ingest.pipeline import ingest, write_report
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder

TODAY = date(2026, 11, 22)  # valid years: 1871 .. 2027
DIM = 32
FUZZ = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ORGANO = "PRIMER TRIBUNAL COLEGIADO EN MATERIA CIVIL DEL PRIMER CIRCUITO."
COLUMNS = [
    "id",
    "title",
    "body",
    "body_full",
    "instancia",
    "epoca",
    "materias",
    "tipo",
    "localizacion_anio",
    "organo_jurisdiccional",
    "clave",
    "fecha_publicacion",
]
BAD_UTF8 = b"\xff\xfe\xc3("  # never valid UTF-8
BLANKS = ["", " ", "\t", "   \t "]


@dataclass(frozen=True)
class Row:
    """One JSONL line or CSV row as bytes, with its fate: stored (``registro`` set) or not."""

    data: bytes
    registro: int | None = None  # None: the row must be rejected
    rubro: str = ""
    texto: str | None = None  # None: not checked (it depends on a cell that was cut)
    blank: bool = False


def normalize(text: str) -> str:
    """What ``parse_record`` keeps of a text field."""
    return text.replace("\r\n", "\n").strip()


# -- shared pieces ----------------------------------------------------------------------------

registros = st.integers(1, 30).map(lambda i: 1000 + i)  # a small pool: duplicates are frequent
texts = st.text(min_size=1, max_size=60).filter(lambda s: normalize(s) != "")
one_line = st.text(max_size=40).map(lambda s: re.sub(r"[\r\n]", " ", s))
covered_years = st.integers(1918, 2027) | st.integers(1881, 1914) | st.integers(1871, 1875)
materias_lists = st.lists(
    st.sampled_from(["Civil", "Común", "laboral", "Penal", "administrativo", "Constitucional"]),
    max_size=3,
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


# -- JSONL ------------------------------------------------------------------------------------


@st.composite
def valid_records(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    registro = draw(registros)
    anio = draw(covered_years)
    record: dict[str, Any] = {
        "registro": draw(st.sampled_from([registro, str(registro), f" {registro} "])),
        "rubro": draw(texts),
        "texto": draw(texts),
        "anio": draw(st.sampled_from([anio, str(anio)])),
    }
    if draw(st.booleans()):  # else derived from the year, with a warning
        record["epoca"] = draw(st.sampled_from([*EPOCA_NAMES, "10a.", "decima", "Novena época"]))
    optional: dict[str, st.SearchStrategy[Any]] = {
        "tipo": st.sampled_from(["Jurisprudencia", "Aislada", "Tesis Aislada", "J", "", None]),
        "materias": materias_lists | materias_lists.map("|".join),
        "fecha_publicacion": st.sampled_from([f"{anio:04d}-03-15", "0001-01-01", None, ""]),
        "clave": st.sampled_from(["P./J. 21/2014 (10a.)", "I.3o.C.1 K", "", None]),
        "instancia": one_line,
        "organo": one_line,
        "precedentes": texts,
        "parcial": st.booleans(),
    }
    for name, strategy in optional.items():
        if draw(st.booleans()):
            record[name] = draw(strategy)
    extra = draw(
        st.dictionaries(st.text(max_size=6).map(lambda k: f"x_{k}"), json_values, max_size=2)
    )
    return record | extra, registro


def _without(key: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda r: {k: v for k, v in r.items() if k != key}


def _setting(
    key: str, value: Any, drop: str | None = None
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda r: {k: v for k, v in r.items() if k != drop} | {key: value}


NOT_TEXT = [5, 2.5, True, ["texto"], {"a": 1}, "", "   \n ", "\r\n", "ok\ud800"]
DEFECTS: list[Callable[[dict[str, Any]], dict[str, Any]]] = [
    _without("registro"),
    _without("rubro"),
    _without("texto"),
    _setting("fecha_publicacion", None, drop="anio"),  # no year at all
    *[
        _setting("registro", v)
        for v in [
            "12a",
            -5,
            0,
            "0",
            1.5,
            True,
            [1],
            {"r": 1},
            10**12,
            "",
            None,
            "1e5",
            10**30,
            "\ud800",
            "١٢٣٤٥٦٧٨٩٠",
        ]
    ],
    *[_setting("rubro", v) for v in NOT_TEXT],
    *[_setting("texto", v) for v in NOT_TEXT],
    *[
        _setting("anio", v, drop="fecha_publicacion")
        for v in [1870, 2028, 99999, "20x5", True, 2015.5, 10**20, -2015, "", "²⁰¹⁵"]
    ],
    *[_setting("fecha_publicacion", v) for v in ["no es fecha", 12345, ["2015"], "2015-13-40"]],
    *[
        _setting("fecha_publicacion", v, drop="anio")
        for v in ["3020-01-01", "1500-06-01", "0002-01-01"]
    ],
    *[_setting("tipo", v) for v in ["Opinión", 7, ["Aislada"]]],
    *[_setting("materias", v) for v in [["Astrología"], 5, {"a": 1}, "Civil|Nada", "Civil|"]],
    *[_setting("epoca", v) for v in ["Vigésima Época", 10, "²", "13", "0a."]],
]


@st.composite
def jsonl_rows(draw: st.DrawFn) -> Row:
    kind = draw(st.sampled_from(["valid"] * 5 + ["defect"] * 3 + ["line"] * 2 + ["blank"]))
    record, registro = draw(valid_records())
    dump = json.dumps(record, ensure_ascii=draw(st.booleans()))
    if kind == "valid":
        return Row(dump.encode(), registro, normalize(record["rubro"]), normalize(record["texto"]))
    if kind == "blank":
        return Row(draw(st.sampled_from(BLANKS)).encode(), blank=True)
    if kind == "defect":
        broken = draw(st.sampled_from(DEFECTS))(record)
        dump = json.dumps(broken, ensure_ascii=draw(st.booleans()))
        return Row(dump.encode("utf-8", "surrogatepass"))  # a raw surrogate is not UTF-8
    line = draw(
        st.sampled_from(
            [
                "{" + draw(one_line),
                dump[:-1],
                dump + "}",
                "[" + dump + "]",
                "null",
                "true",
                "42",
                '"texto suelto"',
                "NaN",
                "-Infinity",
                "1e999",
                "[]",
                "\ufeff" + dump,
                "9" * 5000,
                '{"registro": ' + "9" * 5000 + "}",
                "[" * 20000 + "]" * 20000,
                '{"a": ' * 5000 + "1" + "}" * 5000,
            ]
        )
    )
    data = line.encode()
    if draw(st.booleans()):  # invalid UTF-8 inside an otherwise valid record
        data = json.dumps(record | {"rubro": "@@"}).encode().replace(b"@@", BAD_UTF8)
    return Row(data)


@dataclass(frozen=True)
class Outcome:
    stored: dict[int, Row]
    rejected_lines: list[int]
    rows: int


def expected(rows: list[Row], lines: list[int]) -> Outcome:
    """Replay the rules: the first valid record of a registro is stored, the rest rejected."""
    stored: dict[int, Row] = {}
    rejected: list[int] = []
    count = 0
    for row, line in zip(rows, lines, strict=True):
        if row.blank:
            continue
        count += 1
        if row.registro is None or row.registro in stored:
            rejected.append(line)
        else:
            stored[row.registro] = row
    return Outcome(stored, rejected, count)


def run_ingest(path: Path, outcome: Outcome) -> None:
    """Ingest twice; check the report row by row and the store record by record."""
    store = EmbeddedStore(None, dim=DIM)
    report = ingest([path], store, FakeEmbedder(DIM), today=TODAY)

    assert report.read == outcome.rows
    assert all(r.source == path.name for r in report.rejected)  # no store-side errors
    assert report.read == report.stored + report.unchanged + len(report.rejected)
    assert sorted(r.line for r in report.rejected) == sorted(outcome.rejected_lines)
    assert (report.stored, report.unchanged) == (len(outcome.stored), 0)
    assert_reportable(report, path.parent)

    found = store.get_tesis(list(outcome.stored))
    assert store.count()[0] == len(outcome.stored) == len(found)
    for registro, row in outcome.stored.items():
        assert found[registro].rubro == row.rubro
        if row.texto is not None:
            assert found[registro].texto == row.texto
        indexes = [c.index for c in store.get_chunks(registro)]
        assert indexes == list(range(len(indexes))) and indexes

    again = ingest([path], store, FakeEmbedder(DIM), today=TODAY)  # nothing new, same verdicts
    assert (again.read, again.stored, again.unchanged) == (report.read, 0, len(outcome.stored))
    assert [r.line for r in again.rejected] == [r.line for r in report.rejected]


def assert_reportable(report: IngestReport, directory: Path) -> None:
    """The CLI prints each rejection and saves the report; both must work for any input."""
    for rejection in report.rejected:
        str(rejection).encode("utf-8")
    saved = json.loads(write_report(report, directory / "reports").read_text(encoding="utf-8"))
    assert len(saved["rejected"]) == len(report.rejected)


@FUZZ
@given(
    rows=st.lists(jsonl_rows(), max_size=25),
    newline=st.sampled_from([b"\n", b"\r\n"]),
    trailing=st.booleans(),
)
def test_every_jsonl_line_is_stored_or_reported(
    rows: list[Row], newline: bytes, trailing: bool
) -> None:
    data = newline.join(r.data for r in rows) + (newline if trailing and rows else b"")
    with TemporaryDirectory() as tmp:
        path = Path(tmp) / "lote.jsonl"
        path.write_bytes(data)
        run_ingest(path, expected(rows, list(range(1, len(rows) + 1))))


# -- CSV (bj.scjn.gob.mx export) ----------------------------------------------------------------


def csv_line(cells: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(cells)
    return buffer.getvalue()


@st.composite
def valid_cells(draw: st.DrawFn) -> tuple[list[str], int, str, str]:
    """(cells, registro, rubro, texto)."""
    registro = draw(registros)
    anio = draw(covered_years)
    title, core = draw(texts), draw(texts)
    body = core + (f"\n\n{ORGANO}" if draw(st.booleans()) else "")
    precedentes = draw(st.sampled_from(["", "\n\nAmparo directo 1/2015. Unanimidad."]))
    cells = [
        draw(st.sampled_from([str(registro), f"0{registro}", f" {registro} "])),
        title,
        body,
        draw(st.sampled_from(["", body + precedentes])),
        draw(st.sampled_from(["Tribunales Colegiados de Circuito", "Pleno", ""])),
        draw(st.sampled_from([*EPOCA_NAMES, ""])),
        draw(materias_lists.map("|".join)),
        draw(st.sampled_from(["Tesis Aislada", "Jurisprudencia", "Aislada", ""])),
        str(anio),
        ORGANO,
        draw(st.sampled_from(["", "I.3o.C.1 K (10a.)", "2a./J. 5/2019 (10a.)"])),
        "01/01/0001 12:00:00",
    ]
    return cells, registro, normalize(title), normalize(core)


CELL_DEFECTS: list[tuple[int, str]] = [
    *[(0, v) for v in ["", "abc", "-3", "0", "1e5", "1234567890", "²", "12 34"]],
    *[(1, v) for v in ["", "   ", "\r\n"]],
    (2, ""),
    (2, ORGANO),  # nothing left once the appended órgano is removed
    *[(8, v) for v in ["", "20a5", "1800", "3000", "dos mil"]],
    *[(5, v) for v in ["Época Imaginaria", "²", "99a."]],
    *[(6, v) for v in ["Astrología", "Civil|", "Civil|Nada"]],
    (7, "Opinión Consultiva"),
]


@st.composite
def csv_rows(draw: st.DrawFn) -> Row:
    kind = draw(st.sampled_from(["valid"] * 5 + ["defect", "cut", "wide", "utf8", "blank"]))
    cells, registro, rubro, texto = draw(valid_cells())
    if kind == "valid":
        return Row(csv_line(cells).encode(), registro, rubro, texto)
    if kind == "blank":
        return Row(draw(st.sampled_from([b"\r\n", b"\n"])), blank=True)  # csv skips only these
    if kind == "defect":
        index, value = draw(st.sampled_from(CELL_DEFECTS))
        broken = [*cells]
        broken[index] = value
        if index == 2:
            broken[3] = ""
        return Row(csv_line(broken).encode())
    if kind == "cut":  # fewer cells than columns: a row cut short is never stored
        keep = draw(st.integers(1, len(COLUMNS) - 1))
        return Row(csv_line(cells[:keep]).encode())
    if kind == "wide":  # more cells than columns
        return Row(csv_line([*cells, *draw(st.lists(one_line, min_size=1, max_size=3))]).encode())
    marked = [*cells]
    marked[draw(st.sampled_from([0, 1, 2, 4]))] = "@@"
    return Row(csv_line(marked).encode().replace(b"@@", BAD_UTF8))


def physical_lines(data: bytes) -> int:
    """Lines as ``csv`` counts them (a file opened with ``newline=''``)."""
    return len(re.findall(rb"\r\n|\r|\n", data))


@FUZZ
@given(
    rows=st.lists(csv_rows(), max_size=25),
    bom=st.booleans(),
    unterminated=st.sampled_from([None, "sin cierre", "sin cierre\r\n"]),
)
def test_every_csv_row_is_stored_or_reported(
    rows: list[Row], bom: bool, unterminated: str | None
) -> None:
    header = csv_line(COLUMNS).encode()
    lines, at = [], physical_lines(header)
    for row in rows:
        lines.append(at + 1)  # a row is reported at the line where it starts
        at += physical_lines(row.data)
    data = (b"\xef\xbb\xbf" if bom else b"") + header + b"".join(r.data for r in rows)
    if unterminated is not None:  # a quote opened in the last row swallows the rest of the file
        tail = f'77,"{unterminated}'.encode()
        data += tail
        rows = [*rows, Row(tail)]
        lines.append(at + 1)
    with TemporaryDirectory() as tmp:
        path = Path(tmp) / "bj.csv"
        path.write_bytes(data)
        run_ingest(path, expected(rows, lines))


def test_a_csv_without_an_id_column_is_one_reported_problem(tmp_path: Path) -> None:
    path = tmp_path / "otro.csv"
    path.write_text("clave,title\nX,Y\n", encoding="utf-8")
    report = ingest([path], EmbeddedStore(None, dim=DIM), FakeEmbedder(DIM), today=TODAY)
    assert (report.read, report.stored, [r.field for r in report.rejected]) == (1, 0, ["header"])


# -- what the fuzzing found, pinned as plain examples ------------------------------------------

GOOD = {"registro": 1, "rubro": "R.", "texto": "Texto.", "anio": 2015, "epoca": "Décima Época"}
JSONL_FINDINGS: dict[str, tuple[bytes, str]] = {
    "invalid UTF-8": (b'{"registro": 2, "rubro": "\xff\xfe"}', "rubro"),
    "integer beyond the digit limit": (b'{"registro": ' + b"9" * 5000 + b"}", "json"),
    "nested too deeply": (b"[" * 20000 + b"]" * 20000, "json"),
    "lone surrogate escape": (
        json.dumps(GOOD | {"registro": 2, "rubro": "R\ud800"}).encode(),
        "rubro",
    ),
    "surrogate registro": (json.dumps(GOOD | {"registro": "\udc00"}).encode(), "registro"),
    "year of a future fecha": (
        json.dumps(
            {k: v for k, v in GOOD.items() if k != "anio"}
            | {"registro": 2, "fecha_publicacion": "3020-01-01"}
        ).encode(),
        "fecha_publicacion",
    ),
    "year of an ancient fecha": (
        json.dumps(
            {k: v for k, v in GOOD.items() if k != "anio"}
            | {"registro": 2, "fecha_publicacion": "0002-01-01"}
        ).encode(),
        "fecha_publicacion",
    ),
    "superscript época": (json.dumps(GOOD | {"registro": 2, "epoca": "²"}).encode(), "epoca"),
}


@pytest.mark.parametrize("finding", list(JSONL_FINDINGS))
def test_jsonl_findings_are_reported_not_raised(tmp_path: Path, finding: str) -> None:
    line, field = JSONL_FINDINGS[finding]
    path = tmp_path / "lote.jsonl"
    path.write_bytes(
        b"\n".join([json.dumps(GOOD).encode(), line, json.dumps(GOOD | {"registro": 3}).encode()])
    )
    report = ingest([path], EmbeddedStore(None, dim=DIM), FakeEmbedder(DIM), today=TODAY)
    assert (report.read, report.stored) == (3, 2)
    assert [(r.line, r.field) for r in report.rejected] == [(2, field)]
    assert_reportable(report, tmp_path)


def csv_row(registro: str, title: str = "RUBRO.") -> list[str]:
    return [
        registro,
        title,
        "Texto del criterio.",
        "",
        "Pleno",
        "Décima Época",
        "Común",
        "Jurisprudencia",
        "2015",
        "",
        "",
        "01/01/0001 12:00:00",
    ]


def test_csv_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bj.csv"
    path.write_bytes(b"\xef\xbb\xbf" + "".join(map(csv_line, [COLUMNS, csv_row("7")])).encode())
    report = ingest([path], EmbeddedStore(None, dim=DIM), FakeEmbedder(DIM), today=TODAY)
    assert (report.read, report.stored, report.rejected) == (1, 1, [])


def test_csv_row_with_invalid_utf8_is_reported_not_raised(tmp_path: Path) -> None:
    rows = [COLUMNS, csv_row("7"), csv_row("8", "@@"), csv_row("9"), [*csv_row("@@"), "extra"]]
    path = tmp_path / "bj.csv"
    path.write_bytes("".join(map(csv_line, rows)).encode().replace(b"@@", BAD_UTF8))
    report = ingest([path], EmbeddedStore(None, dim=DIM), FakeEmbedder(DIM), today=TODAY)
    assert (report.read, report.stored) == (4, 2)
    assert [(r.line, r.field) for r in report.rejected] == [(3, "title"), (5, "id")]
    assert_reportable(report, tmp_path)

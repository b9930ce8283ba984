from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from api.cli.main import main
from api.embeddings.cache import CachedEmbedder, EmbeddingCache
from api.ingest.pipeline import ingest, write_report
from api.settings import Settings
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder

TODAY = date(2026, 11, 22)


def good(registro: int | str, **overrides: object) -> dict[str, object]:
    record: dict[str, object] = {
        "registro": registro,
        "rubro": f"AMPARO {registro}. IMPROCEDENCIA.",
        "texto": "Es improcedente el juicio de amparo contra actos consentidos.",
        "epoca": "Décima Época",
        "anio": 2015,
        "tipo": "Jurisprudencia",
        "materias": ["Común"],
    }
    return record | overrides


def write_jsonl(path: Path, records: list[object]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "lote.jsonl",
        [
            good(1001),
            good(1002, rubro=""),  # missing rubro
            good(1003, anio=3020),  # year in the future
            good("12a"),  # non-numeric registro
            good(1001),  # duplicate line
            "{not json",
            good(1004, epoca=None, anio=1980),  # época derived, with a warning
            good(1005, epoca="Séptima Época", anio=2015),  # contradiction: warning, kept
        ],
    )


def test_bad_records_are_reported_and_good_ones_stored(bad_file: Path) -> None:
    store = EmbeddedStore(None, dim=32)
    report = ingest([bad_file], store, FakeEmbedder(), today=TODAY)
    reasons = {(r.line, r.field): r.reason for r in report.rejected}
    assert set(reasons) == {
        (2, "rubro"),
        (3, "anio"),
        (4, "registro"),
        (5, "registro"),
        (6, "json"),
    }
    assert "3020" in reasons[(3, "anio")]
    assert "'12a'" in reasons[(4, "registro")]
    assert "duplicate" in reasons[(5, "registro")] and "lote.jsonl:1" in reasons[(5, "registro")]
    assert str(report.rejected[0]).startswith("lote.jsonl:2: registro 1002: rubro:")
    assert (report.read, report.stored) == (8, 3)
    assert store.count()[0] == 3
    assert store.get_tesis([1004])[1004].epoca == "Séptima Época"
    assert {(w.registro, w.field) for w in report.warnings} == {(1004, "epoca"), (1005, "epoca")}


def test_a_year_outside_its_epoca_is_taken_from_the_informe_that_published_it(
    tmp_path: Path,
) -> None:
    informe = "Informe 1979, Tercera Parte, Tribunales Colegiados de Circuito, tesis 22."
    lote = write_jsonl(
        tmp_path / "lote.jsonl",
        [
            # a source gave 1948 (a decree its text names) to a Séptima Época tesis of 1979
            good(2001, epoca="Séptima Época", anio=1948, precedentes=informe),
            # the Informe's year is no better: kept as given, with the same warning as before
            good(2002, epoca="Décima Época", anio=1948, precedentes=informe),
            good(2003, epoca="Séptima Época", anio=1979, precedentes="Informe 1980"),  # fine
        ],
    )
    store = EmbeddedStore(None, dim=32)
    report = ingest([lote], store, FakeEmbedder(), today=TODAY)
    years = {r: t.anio for r, t in store.get_tesis([2001, 2002, 2003]).items()}
    assert years == {2001: 1979, 2002: 1948, 2003: 1979}
    fields = {(w.registro, w.field): w.message for w in report.warnings}
    assert set(fields) == {(2001, "anio"), (2002, "epoca")}
    assert "1948 is outside the Séptima Época; took 1979" in fields[(2001, "anio")]


def test_second_run_adds_nothing_and_embeds_nothing(bad_file: Path) -> None:
    store = EmbeddedStore(None, dim=32)
    embedder = FakeEmbedder()
    ingest([bad_file], store, embedder, today=TODAY)
    calls = embedder.calls
    again = ingest([bad_file], store, embedder, today=TODAY)
    assert (again.stored, again.unchanged) == (0, 3)
    assert embedder.calls == calls
    assert store.count() == (3, 3)


def test_changed_record_is_replaced_not_duplicated(tmp_path: Path) -> None:
    store = EmbeddedStore(None, dim=32)
    ingest([write_jsonl(tmp_path / "a.jsonl", [good(1)])], store, FakeEmbedder(), today=TODAY)
    changed = good(1, texto="Nuevo texto. " * 200)
    report = ingest(
        [write_jsonl(tmp_path / "b.jsonl", [changed])], store, FakeEmbedder(), today=TODAY
    )
    assert report.stored == 1
    assert store.count()[0] == 1
    assert store.count()[1] == report.chunks > 1


def test_cache_skips_reembedding_unchanged_text(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "a.jsonl", [good(1), good(2)])
    embedder = CachedEmbedder(FakeEmbedder(), EmbeddingCache(tmp_path / "cache.sqlite"))
    ingest([source], EmbeddedStore(None, dim=32), embedder, today=TODAY)
    first = embedder.misses
    ingest([source], EmbeddedStore(None, dim=32), embedder, today=TODAY)  # fresh store
    assert first == 2 and embedder.misses == first


def test_bj_csv_export_is_read(tmp_path: Path) -> None:
    csv_path = tmp_path / "bj.csv"
    csv_path.write_text(
        "id,title,body,body_full,instancia,epoca,materias,tipo,localizacion_anio,"
        "organo_jurisdiccional,clave,fecha_publicacion\n"
        '251751,"PRUEBAS. IMPROCEDENCIA.","Texto del criterio.\n\nPRIMER TRIBUNAL.",'
        '"Texto del criterio.\n\nPRIMER TRIBUNAL.\n\nInforme 1979.",Tribunales Colegiados de '
        "Circuito,Séptima Época,Laboral|Común,Tesis Aislada,1979,PRIMER TRIBUNAL.,,"
        "01/01/0001 12:00:00\n",
        encoding="utf-8",
    )
    store = EmbeddedStore(None, dim=32)
    report = ingest([csv_path], store, FakeEmbedder(), today=TODAY)
    assert (report.stored, report.rejected) == (1, [])
    tesis = store.get_tesis([251751])[251751]
    assert (tesis.texto, tesis.precedentes, tesis.anio, tesis.fecha) == (
        "Texto del criterio.",
        "Informe 1979.",
        1979,
        None,
    )
    assert tesis.materias == ("Laboral", "Común") and tesis.tipo == "Aislada"


def test_report_file_names_each_rejection(bad_file: Path, tmp_path: Path) -> None:
    report = ingest([bad_file], EmbeddedStore(None, dim=32), FakeEmbedder(), today=TODAY)
    path = write_report(report, tmp_path / "reports")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["stored"] == 3 and len(saved["rejected"]) == 5
    assert json.loads((tmp_path / "reports" / "last.json").read_text()) == saved


def test_cli_ingest_prints_counts_and_second_run_adds_zero(
    bad_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(data_dir=tmp_path / "var")
    assert main(["ingest", "--quiet", str(bad_file)], settings) == 0
    out = capsys.readouterr().out
    assert "read 8, stored 3, unchanged 0, rejected 5, warnings 2" in out
    assert "rejected: lote.jsonl:3: registro 1003: anio: 3020 is outside" in out
    assert "every record accounted for: read 8 = stored 3 + rejected 5 + unchanged 0" in out
    assert main(["ingest", "--quiet", str(bad_file)], settings) == 0
    again = capsys.readouterr().out
    assert "stored 0, unchanged 3" in again
    assert "read 8 = stored 0 + rejected 5 + unchanged 3" in again
    assert EmbeddedStore(settings.data_dir / "vigencia.sqlite").count()[0] == 3


def test_cli_rejects_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", str(tmp_path / "nope.jsonl")], Settings(data_dir=tmp_path)) == 2
    assert "not a file" in capsys.readouterr().err

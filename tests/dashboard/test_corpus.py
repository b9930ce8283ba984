"""Corpus: counts by época, materia, tipo, year; coverage gaps; last ingest."""

from __future__ import annotations

from tests.dashboard.conftest import assert_api_down, charts, frame, texts
from tests.dashboard.fake_api import FakeApi


def test_counts_gaps_and_ingest(api: FakeApi, page) -> None:
    at = page("corpus")
    at.run()
    assert not at.exception and not at.error and not api.errors
    titles = [c.get("title") for c in charts(at)]
    assert sorted(titles) == ["Por año", "Por materia", "Por tipo", "Por época"]
    by_epoca = next(c for c in charts(at) if c["title"] == "Por época")
    assert by_epoca["encoding"]["y"]["sort"][:2] == ["Séptima Época", "Novena Época"]

    gaps = frame(at, "Materia", "Año de corte", "Tesis desde el corte")
    assert list(gaps["Materia"]) == ["Penal", "Laboral"]
    assert list(gaps["Año de corte"]) == ["2016", "2019"]

    shown = texts(at)
    assert "Tesis en el corpus: 1,060" in shown and "Fragmentos indexados: 1,931" in shown
    assert "Leídas: 1,060" in shown and "Guardadas: 1,060" in shown and "Rechazadas: 0" in shown
    assert "Terminó: 22 de noviembre de 2026, 01:51" in shown and "Fragmentos: 1,931" in shown
    assert "Advertencias: 1" in shown


def test_api_down(api_down, page) -> None:
    at = page("corpus")
    at.run()
    assert_api_down(at)

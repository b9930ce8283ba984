"""The SJF citation names a Supreme Court tesis' chamber as its Instancia (a prober's find:
the app wrote «Instancia: Suprema Corte de Justicia de la Nación» where the SJF writes «Pleno»)."""

from __future__ import annotations

from dashboard import export


def test_a_supreme_court_tesis_is_cited_by_its_chamber() -> None:
    record = {"instancia": "Suprema Corte de Justicia de la Nación", "organo": "Segunda Sala"}
    ref = {"registro": 1, "rubro": "RUBRO.", "epoca": "Décima Época", "tipo": "Aislada"}
    assert "Instancia: Segunda Sala;" in export.citation(export.cited_record(ref, record))
    court = {"instancia": "Tribunales Colegiados de Circuito", "organo": "PRIMER TRIBUNAL."}
    cited = export.citation(export.cited_record(ref, court))
    assert "Instancia: Tribunales Colegiados de Circuito;" in cited

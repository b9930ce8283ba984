"""A collegiate court's circuit, read from its organo and written back."""

from __future__ import annotations

import pytest

from api.core.circuits import MAX_CIRCUIT, circuit_of, circuit_spellings


@pytest.mark.parametrize(
    ("organo", "circuit"),
    [
        ("TERCER TRIBUNAL COLEGIADO EN MATERIA ADMINISTRATIVA DEL PRIMER CIRCUITO.", 1),
        ("TRIBUNAL COLEGIADO DEL SEXTO CIRCUITO.", 6),
        ("SEPTIMO TRIBUNAL COLEGIADO EN MATERIA ADMINISTRATIVA DEL TERCER CIRCUITO.", 3),
        ("TRIBUNAL COLEGIADO DEL DÉCIMO CIRCUITO.", 10),
        ("TRIBUNAL COLEGIADO DEL DÉCIMO TERCER CIRCUITO.", 13),
        ("SEGUNDO TRIBUNAL COLEGIADO DEL VIGÉSIMO QUINTO CIRCUITO.", 25),
        ("Primer Tribunal Colegiado en Materia Civil del Trigésimo Segundo Circuito", 32),
        ("PLENO EN MATERIA ADMINISTRATIVA DEL PRIMER CIRCUITO.", 1),
        ("Segunda Sala", None),
        ("PLENO REGIONAL EN MATERIAS ADMINISTRATIVA Y CIVIL DE LA REGIÓN CENTRO-NORTE", None),
        ("TRIBUNAL COLEGIADO DEL TRIGÉSIMO TERCER CIRCUITO.", None),  # there are 32
    ],
)
def test_circuit_of_an_organo(organo: str, circuit: int | None) -> None:
    assert circuit_of(organo) == circuit


def test_every_circuit_is_written_the_way_its_organo_is_read() -> None:
    for circuit in range(1, MAX_CIRCUIT + 1):
        spellings = circuit_spellings(circuit)
        assert {circuit_of(f"TRIBUNAL COLEGIADO {s}.") for s in spellings} == {circuit}
    assert circuit_spellings(7) == (
        "DEL SÉPTIMO CIRCUITO",
        "del Séptimo Circuito",
        "DEL SEPTIMO CIRCUITO",
        "del Septimo Circuito",
    )
    with pytest.raises(ValueError, match=r"1\.\.32"):
        circuit_spellings(33)

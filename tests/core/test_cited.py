"""Which questions cite tesis by registro digital (a lookup) and which stay questions."""

from __future__ import annotations

import pytest

from api.core.cited import cited_registros, not_in_corpus_reason


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("2024502", (2024502,)),
        ("registro 2024502", (2024502,)),
        ("Registro digital: 2024502", (2024502,)),
        ("registro digital núm. 2024502 sobre la suspensión", (2024502,)),
        ("https://sjf2.scjn.gob.mx/detalle/tesis/2024502", (2024502,)),
        ("¿Qué dice https://sjf2.scjn.gob.mx/detalle/tesis/160584?", (160584,)),
        ("la tesis con registro 160584", (160584,)),
        ("tesis 2024502 y 160584, y 2024502", (2024502, 160584)),
        ("show me record 253895", (253895,)),
    ],
)
def test_a_registro_is_cited_by_name_link_or_alone(question: str, cited: tuple[int, ...]) -> None:
    assert cited_registros(question) == cited


@pytest.mark.parametrize(
    "question",
    [
        "mi registro de marca 654321 fue negado",  # a number in a question's story
        "el expediente 1234567 sigue sin resolverse",
        "amparo 1234567",
        "12345",  # too short for a registro
        "123456789",  # too long
        "registro civil",
        "",
    ],
)
def test_a_number_in_a_question_is_not_a_lookup(question: str) -> None:
    assert cited_registros(question) == ()


def test_the_reason_names_the_registros_the_corpus_lacks() -> None:
    assert not_in_corpus_reason([9999999]) == "El registro digital 9999999 no está en el corpus."
    assert "Los registros digitales 1, 2 no están" in not_in_corpus_reason([1, 2])

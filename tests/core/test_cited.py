"""Which questions cite tesis by registro digital (a lookup) and which stay questions."""

from __future__ import annotations

import pytest

from api.core.cited import (
    MAX_CITED,
    cited_claves,
    cited_labels,
    cited_registros,
    clave_key,
    clave_needle,
    not_in_corpus_reason,
    partly_cited_note,
)


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
        # as a paralegal pastes it: thousands separators, or several to compare
        ("Registro: 2,024,502", (2024502,)),
        ("reg. 2.024.502", (2024502,)),
        ("2027780 y 2026558 ¿cuál es más reciente?", (2027780, 2026558)),
        ("¿Qué dice la tesis 253881?", (253881,)),  # had been a question: it abstained
        ("Explícame el registro 253881 y sus alcances", (253881,)),
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
        "mi expediente 1234567 es por 2,500,000 pesos",  # an amount, not a second registro
        # a reviewer's: two amounts, an amount beside "registro público", a folio
        "Mi patrón me debe 150000 pesos y le reclamo 250000 de indemnización, ¿qué procede?",
        "embargo de 2,000,000 en el registro público de la propiedad, folio 123456",
        "",
    ],
)
def test_a_number_in_a_question_is_not_a_lookup(question: str) -> None:
    assert cited_registros(question) == ()


@pytest.mark.parametrize(
    ("question", "claves"),
    [
        ("jurisprudencia 2a./J. 64/2022", ("2a./J. 64/2022",)),
        ("¿Qué dice la 2a/j 64/2022 (11a.) sobre la conciliación?", ("2a/j 64/2022 (11a.)",)),
        ("P. LXVI/2011 (9a.)", ("P. LXVI/2011 (9a.)",)),
        ("la tesis I.3o.C. J/45 K", ("I.3o.C. J/45 K",)),
        ("XXV.2o.4 L (11a.) y 1a./J. 78/2005", ("XXV.2o.4 L (11a.)", "1a./J. 78/2005")),
        ("PR.A.C.CN. J/3 A (12a.)", ("PR.A.C.CN. J/3 A (12a.)",)),
        ("2a.-J. 60/2024", ("2a.-J. 60/2024",)),
        ("en la página 12/2020 del expediente 123/2020", ()),
        ("amparo en revisión 1234/2019", ()),
    ],
)
def test_claves_are_found_as_written(question: str, claves: tuple[str, ...]) -> None:
    assert cited_claves(question) == claves


def test_a_clave_is_compared_without_spacing_case_or_epoca() -> None:
    assert clave_key("2a./J. 64/2022 (11a.)") == clave_key("2a/j 64/2022") == "2a/j64/2022"
    assert clave_key("2a.-J. 64/2022") == "2a/j64/2022"
    assert clave_key("2a./J. 164/2022") != clave_key("2a./J. 64/2022")
    assert clave_needle("2a./J. 64/2022 (11a.)") == "64/2022"  # not the época's 11


def test_the_numbers_of_a_clave_are_not_registros() -> None:
    assert cited_registros("registro 2024502 y la 2a./J. 12/2019") == (2024502,)


def test_the_reason_names_what_the_corpus_lacks() -> None:
    assert not_in_corpus_reason(cited_labels([9999999])) == (
        "No está en el corpus: registro digital 9999999."
    )
    assert not_in_corpus_reason(cited_labels([1], ["2a./J. 12/2019"])) == (
        "No está en el corpus: registro digital 1, tesis 2a./J. 12/2019."
    )


def test_one_question_cites_at_most_max_cited_of_each() -> None:
    numbers = " ".join(str(2_000_000 + i) for i in range(3 * MAX_CITED))
    assert len(cited_registros(f"tesis {numbers}")) == MAX_CITED
    claves = " y ".join(f"2a./J. {i}/2020" for i in range(1, 3 * MAX_CITED))
    assert len(cited_claves(claves)) == MAX_CITED


def test_a_partly_found_lookup_names_what_is_missing() -> None:
    assert partly_cited_note([]) is None
    assert partly_cited_note(["tesis 2a./J. 12/2019"]) == (
        "No está en el corpus: tesis 2a./J. 12/2019; se respondió con las demás citadas."
    )

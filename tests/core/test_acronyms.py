"""Acronyms of institutions and laws, spelled out as the tesis spell them."""

from __future__ import annotations

import pytest

from api.core.acronyms import ACRONYMS, spelled_out, with_names
from api.core.text import analyze
from api.core.topic import topic_terms
from api.services.search import SearchConfig
from api.services.search.plan import make_plan
from api.services.search.request import SearchRequest


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("La CFE me cortó la luz", ["Comisión Federal de Electricidad"]),
        ("me dieron de baja en el imss", ["Instituto Mexicano del Seguro Social"]),
        (
            "¿El SAT puede aplicar el CFF o la LFT? ¿Y el SAT otra vez?",
            [
                "Servicio de Administración Tributaria",
                "Código Fiscal de la Federación",
                "Ley Federal del Trabajo",
            ],
        ),
        ("Is the CFE an authority?", ["Comisión Federal de Electricidad"]),
        ("Profeco", ["Procuraduría Federal del Consumidor"]),  # capitalized, as often written
        ("la Corte IDH", ["Interamericana de Derechos Humanos"]),
        # the laws and bodies of the corpus's labour, commercial and agrarian tesis
        (
            "¿Me toca PTU si me despidieron?",
            ["participación de los trabajadores en las utilidades"],
        ),
        (
            "la LFTSE y el ISSSTE",
            [
                "Ley Federal de los Trabajadores al Servicio del Estado",
                "Instituto de Seguridad y Servicios Sociales de los Trabajadores del Estado",
            ],
        ),
    ],
)
def test_acronyms_are_spelled_out_once_each(question: str, names: list[str]) -> None:
    assert spelled_out(question) == names


@pytest.mark.parametrize(
    "question",
    [
        "el sat de la sep",  # lower-case acronyms that are also words stay words
        "la iva y el mp",
        "la ran y el sar",
        "La Sra. Pérez y el dif de la afore",  # capitals only: a title, words
        "CFEs y SCJNX",  # whole words only
        "",
    ],
)
def test_words_that_are_not_acronyms_are_left_alone(question: str) -> None:
    assert spelled_out(question) == []
    assert with_names(question) == question


def test_every_acronym_is_capitals_and_every_name_is_words() -> None:
    assert all(a.isupper() and analyze(name) for a, name in ACRONYMS.items())


def test_with_names_replaces_each_acronym_by_its_name() -> None:
    assert with_names("el primer criterio sobre la CFE y el imss") == (
        "el primer criterio sobre la Comisión Federal de Electricidad y el "
        "Instituto Mexicano del Seguro Social"
    )


def test_a_question_s_lexical_query_gets_the_names_not_its_embedded_text() -> None:
    for question in ("¿La CFE es autoridad para el amparo?", "Is the CFE an authority?"):
        plan = make_plan(SearchRequest(query=question), SearchConfig())
        assert plan.lexical_query.endswith("Comisión Federal de Electricidad")
        assert plan.request.query == question


def test_a_topic_named_by_an_acronym_is_its_name_not_an_owner() -> None:
    # "... de Electricidad" closing the question would read as an owner ("... de Jakub")
    topic = topic_terms("el primer criterio sobre la CFE", ["primer"])
    assert topic == analyze("comisión federal electricidad")

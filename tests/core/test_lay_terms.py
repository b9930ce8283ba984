"""Everyday Spanish -> the tesis' words, added to the BM25 query of a Spanish question."""

from __future__ import annotations

import pytest

from api.core.lay_terms import LAY_TERMS, legal_terms
from api.core.text import fold
from api.services.search import SearchConfig
from api.services.search.plan import make_plan
from api.services.search.request import SearchRequest


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("Mi jefe me cambió de turno sin preguntarme", "patron jornada horario"),
        ("El INQUILINO dejó de pagar", "arrendatario"),
        ("Renté una casa sin plazo fijo", "arrendamiento arrendado tiempo indeterminado"),
        ("¿Me pueden meter a la cárcel?", "prision"),
        ("La pensión alimenticia de mis hijos", "alimentos"),
        ("¿Pueden correr a un trabajador embarazada?", "despido"),
        ("la tesis más vieja sobre desalojos", "desocupacion lanzamiento"),  # plurals too
        # common phrases whose legal name the tesis use (a bail is no civil "fianza")
        ("¿Puedo salir bajo fianza?", "libertad caucional libertad provisional"),
        ("hay una orden de arresto contra mi hermano", "orden de aprehension"),
        ("me tocó un abogado de oficio", "defensor de oficio"),
        ("no lo llamaron a juicio", "emplazamiento"),
        # another name for the institution: "el silencio administrativo" is a negativa ficta
        ("la tesis más reciente sobre el silencio administrativo", "negativa ficta"),
        ("el primer criterio sobre la disolución del matrimonio", "divorcio"),
    ],
)
def test_everyday_words_get_the_words_of_the_tesis(question: str, terms: str) -> None:
    assert legal_terms(question) == terms


@pytest.mark.parametrize(
    "question",
    [
        "¿Desde cuándo empieza a correr el plazo?",  # "correr" is not a dismissal here
        "El plazo empieza a correr a partir de la notificación",
        "El impuesto sobre la renta de las personas morales",  # la renta is not a lease
        "Jefatura de gobierno",  # whole words only
        "",
    ],
)
def test_no_term_without_an_everyday_word(question: str) -> None:
    assert "arrendamiento" not in legal_terms(question)
    assert "despido" not in legal_terms(question)
    assert "patron" not in legal_terms(question)


def test_keys_are_folded_so_they_can_match() -> None:
    assert all(key == fold(key) for key in LAY_TERMS)


def test_only_a_spanish_question_gets_them_and_only_in_its_lexical_query() -> None:
    spanish = make_plan(
        SearchRequest(query="¿Puede el casero quedarse el depósito?"), SearchConfig()
    )
    assert spanish.lexical_query.endswith("arrendador")
    assert spanish.request.query == "¿Puede el casero quedarse el depósito?"  # embedded as asked
    english = make_plan(SearchRequest(query="Can my boss change my shift?"), SearchConfig())
    assert "patron" not in english.lexical_query

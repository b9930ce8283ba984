"""Everyday Spanish -> the tesis' words, added to the BM25 query of a Spanish question."""

from __future__ import annotations

import pytest

from api.core.lay_terms import LAY_TERMS, legal_readings, legal_terms
from api.core.text import fold
from api.services.search import SearchConfig
from api.services.search.plan import make_plan
from api.services.search.request import SearchRequest
from tests.core.corpus_words import words_not_in_corpus


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
        # the everyday words for the frequent heads of the rubros, branch by branch
        ("Me demandaron y no me avisaron", "emplazamiento"),
        ("¿Qué hago si me quitaron mis cosas?", "embargo secuestro"),
        ("mi ex no da el gasto", "alimentos"),
        (
            "Me quieren sacar de la casa que rento",
            "lanzamiento desocupacion arrendamiento arrendado",
        ),
        ("Me robaron el carro afuera de mi trabajo", "robo vehiculo automovil"),
        ("el prestamista me cobra intereses muy altos", "mutuo usura usura intereses usurarios"),
        ("el comisariado no me deja entrar a mi parcela", "comisariado ejidal derechos agrarios"),
        ("¿Me pueden auditar si me auditaron el año pasado?", "visita domiciliaria visitadores"),
        (
            "Trabajo en el gobierno y no me dio de alta en el seguro",
            "trabajadores al servicio del estado inscripcion seguro social",
        ),
        ("El abogado de la otra parte no me deja ver el expediente", "contraparte apoderado"),
        ("Compré un carro chocolate", "vehiculos de procedencia extranjera"),
        ("me cerraron el negocio por vender alcohol", "clausura bebidas alcoholicas"),
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


def test_a_phrase_and_a_shorter_one_inside_it_read_as_the_longer() -> None:
    """ "me echaron de la casa" is an eviction, "me echaron" a dismissal; "el dueño de la casa"
    stays the landlord."""
    assert legal_terms("me echaron de la casa") == "lanzamiento desocupacion"
    assert legal_terms("me echaron del trabajo") == "despido"
    assert legal_terms("el dueño de la casa no me regresa el depósito") == "arrendador"


def test_a_first_or_latest_question_reads_each_everyday_word_one_way_at_a_time() -> None:
    assert legal_readings("la primera tesis sobre cheque rebotado") == ["cheque", "fraude"]


def test_every_word_given_for_an_everyday_one_is_in_the_corpus() -> None:
    """BM25 and a date order's topic find a tesis by the words it uses: a word no tesis writes
    ("intestamentaria") reads an everyday question into nothing."""
    missing = words_not_in_corpus(LAY_TERMS)
    assert not missing, sorted(missing)


def test_no_everyday_phrase_is_given_itself() -> None:
    assert not {
        phrase
        for phrase, legal in LAY_TERMS.items()
        if phrase in (reading.strip() for reading in legal.split("|"))
    }


def test_only_a_spanish_question_gets_them_and_only_in_its_lexical_query() -> None:
    spanish = make_plan(
        SearchRequest(query="¿Puede el casero quedarse el depósito?"), SearchConfig()
    )
    assert spanish.lexical_query.endswith("arrendador")
    assert spanish.request.query == "¿Puede el casero quedarse el depósito?"  # embedded as asked
    english = make_plan(SearchRequest(query="Can my boss change my shift?"), SearchConfig())
    assert "patron" not in english.lexical_query

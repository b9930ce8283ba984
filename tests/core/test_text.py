from __future__ import annotations

import pytest

from api.core.text import (
    QUESTION_STOPWORDS,
    STOPWORDS,
    analyze,
    indexed_forms,
    lemmas,
    without_question_words,
)


def test_question_scaffolding_is_not_asked_for() -> None:
    question = "¿Tengo que probar que el acto está vigente o basta con que HAYA sido revocado?"
    assert without_question_words(question).split() == [
        "probar",
        "acto",
        "vigente",
        "basta",
        "revocado",
    ]


def test_content_words_keep_their_accents_and_case() -> None:
    assert without_question_words("Suspensión del acto, ¿procede?") == "Suspensión acto procede"


def test_every_form_of_the_auxiliaries_is_dropped_accents_or_not() -> None:
    for word in ("tendríamos", "tendriamos", "HUBIÉSEMOS", "estuvieron", "fuéramos", "éramos"):
        assert without_question_words(f"amparo {word}") == "amparo", word


def test_the_asking_verbs_are_dropped() -> None:
    question = (
        "Quisiera saber: ¿puedo pedir la revisión si gané el amparo? ¿Qué pasa si no quiere pagar?"
    )
    assert without_question_words(question).split() == [
        "pedir",
        "revisión",
        "gané",
        "amparo",
        "pagar",
    ]


def test_the_index_still_keeps_the_question_words() -> None:
    # Only the query side drops them: the stores' analyzed text is unchanged.
    assert analyze("tengo tiene hubiera") == ["tengo", "tiene", "hubier"]
    assert not QUESTION_STOPWORDS & STOPWORDS


@pytest.mark.parametrize(
    ("plural", "singular"),
    [
        ("órdenes", "orden"),
        ("actos reclamados", "acto reclamado"),
        ("leyes", "ley"),
        ("jueces", "juez"),
        ("plazos", "plazo"),
        ("intereses", "interés"),  # a singular in -és is not a plural once folded
        ("INTERES JURIDICO", "interés jurídico"),
        ("pruebas", "prueba"),
    ],
)
def test_lemmas_read_a_plural_like_its_singular(plural: str, singular: str) -> None:
    assert lemmas(plural) == lemmas(singular)


def test_bm25_keeps_the_plain_stems() -> None:
    assert analyze("órdenes") == ["ordene"] and lemmas("órdenes") == ["orden"]


@pytest.mark.parametrize("word", ["costas", "órdenes", "jueces", "actos", "leyes", "pruebas"])
def test_a_lemma_s_indexed_forms_include_what_analyze_indexed(word: str) -> None:
    (lemma,) = lemmas(word)
    assert analyze(word)[0] in indexed_forms(lemma) and lemma in indexed_forms(lemma)


def test_a_stem_that_is_a_stopword_survives_as_a_query_word() -> None:
    # "contrato" stems to "contra", a stopword as a word: the query kept nothing of it
    (lemma,) = lemmas("contratos")
    assert analyze(" ".join(indexed_forms(lemma))) == ["contra"] and "contra" in STOPWORDS


def test_a_stem_that_is_a_stopword_keeps_one_more_letter_in_a_topic() -> None:
    # contrato, contrario, contradicción: one BM25 stem, four topics
    assert lemmas("contratos contrario contradicción contraloría costas") == [
        "contrat",
        "contrar",
        "contrad",
        "contral",
        "costa",
    ]

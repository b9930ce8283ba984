"""The English glossary against the bundled corpus: its Spanish is the tesis' own words."""

from __future__ import annotations

import pytest

from api.core.glossary import (
    GLOSSARY,
    coverage,
    knows_nothing_of,
    translate_terms,
    translations,
    understands,
    with_plurals,
)
from api.core.text import analyze
from tests.core.corpus_words import corpus_terms, words_not_in_corpus

# Topics the bundled corpus has no tesis on, known so that "the first ruling on adoption"
# abstains instead of dating the nearest tesis by meaning (af20d5d): their Spanish is right,
# the corpus just never says it.
NOT_IN_THE_CORPUS = frozenset({"usucapión", "paternidad", "adopción", "educación", "tortura"})


def test_every_spanish_word_of_the_glossary_is_in_the_corpus() -> None:
    """BM25 and a date order's topic find a tesis by the words it uses: a typo or a word the
    tesis never write ("profeco") translates a question into nothing."""
    missing = words_not_in_corpus(GLOSSARY, NOT_IN_THE_CORPUS)
    assert not missing, sorted(missing)


def test_the_words_known_absent_are_still_absent() -> None:
    """Once the corpus names one of them it leaves the exemption (and its topics answer)."""
    stems, _ = corpus_terms()
    assert not {w for w in NOT_IN_THE_CORPUS if set(analyze(w)) <= stems}


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        ("the earliest ruling on likelihood of confusion between trademarks", "confusión"),
        ("are these marks confusingly similar?", "semejanza en grado de confusión"),
        ("latest case law on child support and spousal support", "pensión alimenticia"),
        ("expiry of assessment powers of the tax authority", "caducidad facultades"),
        ("grounds of violation in a direct amparo", "conceptos de violación"),
        ("the aggrieved third party in amparo", "tercero perjudicado"),
        ("first ruling on the principle of finality", "definitividad"),
        ("lapse of the proceedings for inactivity", "caducidad de la instancia"),
        ("the Christmas bonus of state employees", "aguinaldo"),
        ("state employees", "trabajadores al servicio del estado"),
        ("is a trust employee entitled to reinstatement?", "trabajadores de confianza"),
        ("deemed admission of the defendant", "confesión ficta"),
        ("endorsement for collection of a promissory note", "endosatario en procuración"),
        ("right of first refusal of the tenant", "derecho del tanto"),
        ("abandonment of the marital home as grounds for divorce", "domicilio conyugal"),
        ("the mixed agrarian commission", "comisión agraria mixta"),
        ("suspended sentence", "condena condicional"),
        ("embezzlement by a public official", "peculado"),
        ("social security contributions and constitutive capital", "capital constitutivo"),
        ("descriptive marks", "denominaciones descriptivas"),
        # lay words of English date questions (dev of the second temporal set)
        ("brand names that sound alike", "marca"),
        ("someone tricked me out of my money", "engaño"),
        ("the tax office ran out of time to audit me", "fisco"),
        ("unequal treatment under the law", "trato diferenciado"),
        # a promissory note is a título de crédito, the rubros' word for it
        ("the prescription of promissory notes", "títulos de crédito"),
    ],
)
def test_the_corpus_s_frequent_heads_have_their_english_names(english: str, spanish: str) -> None:
    assert spanish in translate_terms(english)


def test_a_head_s_readings_are_each_a_topic_the_tesis_name() -> None:
    assert translations("likelihood of confusion") == [
        "confusión",
        "semejanza en grado de confusión",
    ]
    assert translations("statute of limitations on surety bonds") == [
        "prescripción fianzas",
        "prescripción fianza",
    ]


@pytest.mark.parametrize(
    "question",
    [
        "Do I need a license to fly a drone?",
        "How do I register a cryptocurrency?",
        "what is the best pizza in naples",
        "Which era of the Court first held that the amparo was available?",
    ],
)
def test_everyday_english_stays_unknown(question: str) -> None:
    """No entry for words of no specific legal meaning: the abstention reads a question the
    glossary knows half of as understood."""
    assert coverage(question) < 0.5


def test_every_entry_and_its_plural_is_lowercase_and_reads_something() -> None:
    table = with_plurals(GLOSSARY)
    assert all(phrase == phrase.lower() for phrase in table)
    assert all(translate_terms(phrase) for phrase in table)


@pytest.mark.parametrize(
    ("question", "nothing"),
    [
        ("Is surrogacy legal in Mexico?", True),
        ("Who won the game last night?", True),
        ("Can the mayor ban food trucks?", True),  # "mayor" is English too, "food" everyday
        ("Can PEMEX fire me?", False),  # an institution's acronym
        ("What are the albacea duties?", False),  # the tesis' own word
        ("Can I claim overtime pay?", False),
        ("amparo", False),  # one word: too little to tell
    ],
)
def test_a_question_with_no_legal_term_is_told_apart(question: str, nothing: bool) -> None:
    assert knows_nothing_of(question) is nothing


def test_the_tesis_own_terms_count_as_understood() -> None:
    """ "theft (robo)": "robo" is a word the glossary gives, so the question is understood
    whole, not one term of three (its topic then met the floor through them)."""
    assert coverage("the crime of theft (robo) and its elements", {"theft", "robo"}) == 1.0
    assert coverage("theft (zapatos)") == 0.5  # "zapatos" is no legal term of the glossary


@pytest.mark.parametrize(
    ("question", "topic", "understood"),
    [
        ("What is res judicata?", None, True),
        ("What is the earliest ruling on wrongful dismissal?", None, True),
        ("overtime", None, True),
        # a date order's topic: one legal term of two is enough, an everyday one is not
        ("What is the latest ruling on unpaid overtime?", {"unpaid", "overti"}, True),
        ("What is the latest ruling on road maintenance?", {"road", "mainte"}, False),
        ("Can a public official block me on Twitter?", None, False),
        ("Do I need a license to fly a drone?", None, False),
    ],
)
def test_the_glossary_understands_a_question_by_its_legal_entries(
    question: str, topic: set[str] | None, understood: bool
) -> None:
    assert understands(question, topic) is understood

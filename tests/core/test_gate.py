"""The relevance gate, abstention, language detection and the cross-lingual glossary (pure)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from api.core.gate import (
    GateConfig,
    QuerySignals,
    abstain_floor,
    abstain_reason,
    asks_the_service,
    gate_values,
    reads_as_code,
    unnamed_topic_reason,
)
from api.core.glossary import (
    coverage,
    reads_as_english,
    translate_terms,
    translations,
    with_plurals,
)
from api.core.language import detect_language
from api.core.thesaurus import Thesaurus
from api.core.topic import (
    heads_topic,
    name_candidates,
    names_topic,
    topic_terms,
    topic_words,
)
from api.services.search import SearchConfig
from api.services.search.plan import make_plan
from api.services.search.request import SearchRequest


def test_gate_values_read_the_cosine_gap_on_a_fixed_span() -> None:
    values = gate_values([0.90, 0.88, 0.80, 0.75], [10.0, 5.0, 0.0, 0.0], "hybrid", 0.5)
    assert values[0] == 1.0
    assert values[1] == pytest.approx((0.5 * 0.8 + 0.5 * 0.5) / 1.0)
    assert values[2] == pytest.approx(0.0) and values[3] == 0.0  # 0.1 below the best: off topic
    # Near-identical candidates stay together instead of being stretched apart.
    assert min(gate_values([0.851, 0.850, 0.849], [3.0, 3.0, 3.0], "hybrid", 0.4)) > 0.95


def test_gate_values_per_mode() -> None:
    assert gate_values([0.9, 0.85], [1.0, 4.0], "lexical", 0.4) == [0.25, 1.0]
    assert gate_values([0.9, 0.85], [1.0, 4.0], "vector", 0.4) == pytest.approx([1.0, 0.5])
    assert gate_values([0.9, 0.85], [0.0, 0.0], "hybrid", 0.4) == pytest.approx([1.0, 0.5])
    assert gate_values([], [], "hybrid", 0.4) == []


@pytest.mark.parametrize(
    ("signals", "expected"),
    [
        (QuerySignals("unknown", 0, False, 0.84), "no contiene palabras"),
        (QuerySignals("unknown", 3, False, 0.84), "Ninguna palabra"),
        (QuerySignals("es", 3, True, 0.85), "por debajo del umbral 0.868"),
        (QuerySignals("es", 3, True, None, nothing_under_filters=True), "filtros"),
        # filters that leave tesis, none of them near enough: not the filters' fault
        (QuerySignals("es", 3, True, None, filtered=True, threshold=0.99), "similitud mínima"),
        # no candidate without filters: the threshold asked for, or no word matched
        (QuerySignals("es", 3, True, None, threshold=0.92), "similitud mínima (0.92)"),
        (QuerySignals("es", 3, False, None), "Ninguna palabra"),
        (QuerySignals("es", 5, True, 0.90), None),
        (QuerySignals("es", 5, False, 0.90), None),  # a Spanish question over an English corpus
        # in no language, most of its terms in no document; unmeasured (None) abstains on nothing
        (QuerySignals("unknown", 6, True, 0.90, known=1 / 6), "Casi ninguna palabra"),
        (QuerySignals("unknown", 6, True, 0.90, known=0.5), None),
        (QuerySignals("unknown", 2, True, 0.90, known=None), None),
        (QuerySignals("en", 6, True, 0.90, placeholder=True), "texto de relleno"),
    ],
)
def test_abstain_reason(signals: QuerySignals, expected: str | None) -> None:
    reason = abstain_reason(signals, abstain_floor([0.846, 0.81], 0.022))
    assert (reason is None) if expected is None else (expected in (reason or ""))


def test_a_short_spanish_question_needs_a_smaller_margin() -> None:
    config = GateConfig(margin=0.022, short_margin=0.016)
    assert config.margin_for("es") == config.margin_for("es", 25) == pytest.approx(0.022)
    assert config.margin_for("es", 10) == pytest.approx(0.022)
    assert config.margin_for("es", 2) == config.margin_for("es", 5) == pytest.approx(0.016)
    assert config.margin_for("es", 7) == pytest.approx(0.0184)  # 2/5 of the way
    assert config.margin_for("en", 2) == config.cross_margin  # English: not by length
    with pytest.raises(ValueError, match="short_margin"):
        GateConfig(short_margin=2.0)


def test_abstain_floor_is_the_best_null_plus_the_margin() -> None:
    assert abstain_floor([0.80, 0.846, 0.83], 0.022) == pytest.approx(0.868)
    assert abstain_floor([], 0.022) == 0.0
    assert GateConfig().margin_for("en") == GateConfig().cross_margin
    with pytest.raises(ValueError, match="relative"):
        GateConfig(relative=1.5)


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("¿Procede la suspensión contra una orden de aprehensión?", "es"),
        ("Can the district judge dismiss an amparo before the hearing?", "en"),
        ("¿Procede el amparo against the arrest warrant of the prosecutor?", "mixed"),
        ("asdkjh qwpoeiru zxmcnb", "unknown"),
        ("🙂🙂🚀", "unknown"),
    ],
)
def test_detect_language(question: str, language: str) -> None:
    assert detect_language(question) == language


def test_glossary_translates_legal_phrases_longest_first() -> None:
    spanish = translate_terms(
        "Is an arrest warrant stayed in indirect amparo by the district judge?"
    )
    assert "orden de aprehensión" in spanish
    assert "amparo indirecto" in spanish and "juez de distrito" in spanish
    assert translate_terms("what is the best pizza in naples") == ""


@pytest.mark.parametrize(
    ("question", "share"),
    [
        ("What is res judicata?", 1.0),
        ("Who is entitled to a seniority premium?", 2 / 3),  # "entitled" is not a legal term
        ("Do I need a license to fly a drone?", 0.25),  # only "license"
        ("what is the best pizza in naples", 0.0),
        ("is it?", 0.0),  # no content word at all
    ],
)
def test_glossary_coverage_is_the_share_of_content_words_it_knows(
    question: str, share: float
) -> None:
    assert coverage(question) == pytest.approx(share)


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        ("the first ruling on the formal imprisonment order", "auto de formal prisión"),
        ("latest case law about negotiable instruments", "títulos de crédito"),
        ("the most recent ruling on constructive denial", "negativa ficta"),
        ("oldest rulings about occupational hazards", "riesgos de trabajo"),
        ("latest case law about soldiers", "militares"),
    ],
)
def test_the_glossary_names_institutions_a_prober_asked_for(english: str, spanish: str) -> None:
    """Temporal questions on these had abstained: no reading named their topic."""
    assert spanish in translate_terms(english)


def test_a_prosecutor_is_no_tax_matter() -> None:
    """ "fiscal" is the tesis' word for tax: "oldest case law about prosecutors" had answered
    PRUEBA PERICIAL EN EL JUICIO FISCAL."""
    assert "fiscal" not in translate_terms("oldest case law about prosecutors")


def test_the_glossary_reads_criminal_procedure_and_labour_words() -> None:
    spanish = translate_terms(
        "Is the defendant entitled to a lawyer during the preliminary investigation?"
    )
    for words in ("inculpado", "defensor", "averiguación previa"):
        assert words in spanish
    assert "despido" in translate_terms("Who must prove the dismissal?")
    # a topic the glossary knows whole is looked for in Spanish, not read as a description
    assert translations("seizures of assets") == ["embargo bienes"]
    assert translations("service of process") == ["emplazamiento"]


def test_one_word_entries_get_their_regular_plural() -> None:
    table = with_plurals({"lease": "arrendamiento", "authority": "autoridad", "day": "día"})
    assert table["leases"] == "arrendamiento" and table["authorities"] == "autoridad"
    assert table["days"] == "día"  # a vowel before the y: just an s
    assert with_plurals({"fine": "multa", "fines": "multas"})["fines"] == "multas"  # kept
    assert translate_terms("first ruling on leases").endswith("arrendamiento")


def test_a_phrase_s_readings_reach_bm25_together_and_a_topic_one_at_a_time() -> None:
    table = Thesaurus({"dismissal": "sobreseimiento | despido", "burden of proof": "carga"})
    assert table.terms("burden of proof in dismissal") == "carga sobreseimiento despido"
    assert table.readings("burden of proof in dismissal") == [
        "carga sobreseimiento",
        "carga despido",
    ]
    assert table.readings("nothing known") == []
    assert len(Thesaurus({"a": "x | y", "b": "x | y", "c": "x | y"}).readings("a b c", 5)) == 5
    assert "|" not in translate_terms("Who bears the burden of proof in a dismissal?")
    assert "carga de la prueba despido" in translations("burden of proof in dismissals")


def test_a_longer_phrase_starting_a_word_later_wins_over_a_shorter_one_it_overlaps() -> None:
    table = Thesaurus({"el dueño": "propietario", "dueño de la casa": "arrendador", "casa": "x"})
    assert table.terms("el dueño de la casa me quiere sacar") == "arrendador"
    assert table.terms("el dueño y la casa") == "propietario x"  # apart, each is read
    folded = "el dueno de la casa"
    assert [folded[a:b] for a, b in table.spans(folded)] == ["dueno de la casa"]


def test_an_english_topic_is_read_in_spanish_only_when_the_glossary_knows_it_whole() -> None:
    known = make_plan(
        SearchRequest(query="What was the first ruling on the burden of proof in dismissals?"),
        SearchConfig(),
    )
    assert ("carga", "prueba", "despid") in known.translated_topics
    partly = make_plan(  # "exhausted" is unknown: "recursos ... amparo" would be any recurso
        SearchRequest(query="the most recent ruling on remedies exhausted before amparo"),
        SearchConfig(),
    )
    assert partly.topic and partly.translated_topics == ()
    # the crime named is the subject, in English as in Spanish; a union's registro is one
    for question, reading in (
        ("What is the latest ruling on the crime of fraud?", ("fraude",)),
        ("the earliest ruling on the registration of labor unions", ("regist", "sindic")),
    ):
        plan = make_plan(SearchRequest(query=question), SearchConfig())
        assert plan.translated_topics == (reading,), question


def test_phrases_get_the_plural_of_their_last_word() -> None:
    assert with_plurals({"arrest warrant": "orden de aprehensión"})["arrest warrants"] == (
        "orden de aprehensión"
    )
    assert "orden de aprehensión" in translate_terms("stays against arrest warrants")


def test_coverage_of_a_topic_counts_only_the_topic_words() -> None:
    question = "What was the first thesis about overtime?"
    assert coverage(question) == pytest.approx(1 / 3)  # "first", "thesis", "overtime"
    assert coverage(question, {"overti"}) == 1.0


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("overtime", True),
        ("res judicata", True),
        ("amparo", False),  # the glossary gives the same word: nothing to translate
        ("horas extras", False),
        ("asdkjh qwpoeiru", False),
    ],
)
def test_words_of_no_grammar_read_as_english_when_the_glossary_translates_them(
    text: str, english: bool
) -> None:
    assert reads_as_english(text) is english


@pytest.mark.parametrize(
    ("question", "triggers", "topic"),
    [
        ("Which is Jakub's oldest repo on GitHub?", ("oldest",), []),
        ("show me the very first project", ("first",), []),
        ("el repositorio más antiguo de Jakub", ("más antiguo",), []),
        ("Show me the very latest repo Jakub has made.", ("latest",), []),
        ("¿Con qué repositorio empezó Jakub en GitHub?", ("empezó",), []),
        ("¿Cuál es el repositorio de Rust más reciente?", ("más reciente",), ["rust"]),
        ("¿Cuál fue el primer criterio sobre la suspensión?", ("primer",), ["suspen"]),
        ("Dime cuál es el repo más reciente de Jakub, porfa.", ("más reciente",), []),
        ("la tesis más nueva del corpus", ("más nueva",), []),
        ("What did Jakub publish last?", ("last",), []),  # the subject of "did" is the owner
        # what a wait is without names a date, not a topic
        ("el proyecto que lleva más tiempo sin cambios", ("más tiempo sin",), []),
        ("the repo he hasn't touched in the longest time", ("in the longest time",), []),
        ("Which game did Jakub make first?", ("first",), ["game"]),
        ("What was the first thesis about overtime?", ("first",), ["overti"]),
        ("When did the courts first rule on suspension?", ("first",), ["suspen"]),
        ("¿Desde cuándo se sostiene algún criterio sobre la suspensión?", ("desde",), ["suspen"]),
        ("¿Cuál es el repositorio que lleva más tiempo sin actualizarse?", ("más",), []),
        ("el primer criterio sobre tiempo extraordinario", ("primer",), ["tiempo", "extrao"]),
        # a trigger leaves where it stands: "antigüedad" shares "más antiguo"'s stem
        (
            "el criterio más antiguo sobre la prima de antigüedad",
            ("más antiguo",),
            ["prima", "antigu"],
        ),
        ("la primera tesis, la primera de todas, sobre despido", ("primera",), ["despid"]),
        (  # saying and must are how the question asks, not what it is about
            "¿Desde cuándo se dice que el patrón debe probar el despido?",
            ("desde cuándo",),
            ["patron", "probar", "despid"],
        ),
        (  # English function words are never a topic
            "What was the first ruling on suspension against an arrest warrant?",
            ("first",),
            ["suspen", "arrest", "warran"],
        ),
        ("la tesis más vieja sobre órdenes de aprehensión", ("más vieja",), ["orden", "aprehe"]),
        # "position" is a document noun taken out whole: "positiva" shares its stem
        ("the original position on prescripción positiva", ("original",), ["prescr", "positi"]),
        # and so are "repositorio" (not "reposición"), "author" (not "authority"); "cosa" and
        # "hechos" are words of the law (cosa juzgada, hechos supervenientes)
        ("el repositorio más reciente sobre la reposición", ("más reciente",), ["reposi"]),
        ("the first ruling by its author on the authority", ("first",), ["author"]),
        ("la primera tesis sobre cosa juzgada", ("primera",), ["cosa", "juzgad"]),
        ("el primer criterio sobre hechos supervenientes", ("primer",), ["hecho", "superv"]),
        # a court speaking is not the topic; as stems, "determin" and "trato" are topics
        ("la primera vez que la Corte se pronunció sobre el embargo", ("primera vez",), ["embarg"]),
        (
            "the first time the court held that strikes are legal",
            ("first time",),
            ["strike", "legal"],
        ),
        (
            "la primera tesis sobre trato digno y determinación",
            ("primera",),
            ["trato", "digno", "determ"],
        ),
        # the country of every tesis, and the corpus as a collection; but a state is a place
        ("the latest ruling on strikes in Mexico", ("latest",), ["strike"]),
        ("la tesis más antigua del acervo sobre huelgas", ("más antigua",), ["huelga"]),
        (
            "la tesis más reciente sobre el Código Penal del Estado de México",
            ("más reciente",),
            ["codigo", "penal", "estado", "mexico"],
        ),
        # words that only point at the topic (a prober's finds: each had abstained or
        # answered from a document that says the pointing word)
        (
            "Dame la tesis más nueva que hable de suspensión provisional",
            ("más nueva",),
            ["suspen", "provis"],
        ),
        ("la tesis más nueva que trate de despido", ("más nueva",), ["despid"]),
        ("el criterio inicial en materia de arrendamiento", ("inicial",), ["arrend"]),
        ("¿Cuál es la tesis más antigua que tienen?", ("más antigua",), []),
        (
            "¿cuál es la última palabra de la Corte sobre el recurso de queja?",
            ("última",),
            ["recurs", "queja"],
        ),
        (
            "¿Qué dijo la Corte la primera vez que trató el recurso de queja?",
            ("primera vez",),
            ["recurs", "queja"],
        ),
        ("la postura más nueva sobre el amparo", ("más nueva",), ["amparo"]),
        (
            "la postura legal más reciente en el remate",
            ("más reciente",),
            ["postur", "legal", "remate"],
        ),
        (
            "¿Hay algo más nuevo sobre marcas que lo de los años ochenta?",
            ("algo más nuevo",),
            ["marca"],
        ),
        # a year dates the answer; a named court is a filter, its acronym's name too
        ("la tesis más reciente sobre horas extras de 1982", ("más reciente",), ["hora", "extra"]),
        ("el primer criterio sobre el artículo 123", ("primer",), ["articu", "123"]),
        # a third prober's: calling out, "en torno a", "vigente" and "case law" point too
        ("Oye, dime la tesis más vieja que hable del divorcio", ("más vieja",), ["divorc"]),
        ("Precedente más antiguo en torno al divorcio", ("más antiguo",), ["divorc"]),
        ("Criterio vigente más reciente respecto del divorcio", ("más reciente",), ["divorc"]),
        ("oldest case law about divorce", ("oldest",), ["divorc"]),
        ("oldest case law about getting out on bail", ("oldest",), ["bail"]),
        # a reviewer's: "perdón" is the law's, and an article's number is no year
        (
            "la tesis más reciente sobre el perdón del ofendido",
            ("más reciente",),
            ["perdon", "ofendi"],
        ),
        (
            "la tesis más reciente sobre el artículo 1915 del Código Civil",
            ("más reciente",),
            ["articu", "1915", "codigo", "civil"],
        ),
        ("lo más reciente de la SCJN sobre arrendamiento", ("más reciente", "SCJN"), ["arrend"]),
        # the date a question names ("last push")
        ("which repo has the oldest last push?", ("oldest",), []),
        # the crime is the subject; a registro is one when something is registered
        ("la tesis más reciente sobre el delito de fraude", ("más reciente",), ["fraude"]),
        ("the latest ruling on the crime of fraud", ("latest",), ["fraud"]),
        (
            "la tesis más antigua sobre el registro de sindicatos",
            ("más antigua",),
            ["regist", "sindic"],
        ),
        ("el registro más reciente", ("más reciente",), []),
        # asking for the subject is no subject
        (
            "la tesis más antigua sobre la legitimación para pedir amparo",
            ("más antigua",),
            ["legiti", "amparo"],
        ),
        ("lo último sobre cuándo algo es robo", ("lo último",), ["robo"]),  # a pronoun
        (
            "lo más nuevo que han dicho los tribunales colegiados sobre el embargo",
            ("más nuevo",),
            ["embarg"],
        ),
        # the courts who said it, and what the asker must do, are not the subject; a judge
        # who is the subject is
        (
            "¿Qué es lo más nuevo que han dicho los jueces sobre el fraude?",
            ("más nuevo",),
            ["fraude"],
        ),
        (
            "desde cuándo dicen los tribunales que procede el embargo",
            ("desde cuándo",),
            ["proced", "embarg"],
        ),
        (
            "lo más reciente sobre tener que agotar los recursos antes del amparo",
            ("más reciente",),
            ["agotar", "recurs", "amparo"],
        ),
        (
            "el criterio más reciente sobre los impedimentos del juez de distrito",
            ("más reciente",),
            ["impedi", "juez", "distri"],
        ),
    ],
)
def test_topic_sets_aside_filler_platform_and_owners(
    question: str, triggers: tuple[str, ...], topic: list[str]
) -> None:
    assert topic_terms(question, triggers) == topic


@pytest.mark.parametrize(
    ("question", "triggers", "over_records", "over_tesis"),
    [
        ("¿Cuál fue el primer artículo publicado?", ("primer",), [], ["articu"]),
        ("la primera nota sobre las elecciones", ("primera",), ["elecci"], ["nota", "elecci"]),
        ("la noticia más reciente sobre inflación", ("más reciente",), ["inflac"], None),
        ("el primer criterio sobre el artículo 27", ("primer",), ["articu", "27"], None),
    ],
)
def test_a_news_archives_nouns_are_document_nouns_only_in_a_generic_corpus(
    question: str,
    triggers: tuple[str, ...],
    over_records: list[str],
    over_tesis: list[str] | None,
) -> None:
    """ "la primera nota", "the first article" name a news archive's records; over the tesis,
    "notas de crédito" and "los artículos transitorios" are law."""
    assert topic_terms(question, triggers, records=True) == over_records
    if over_tesis is not None:
        assert topic_terms(question, triggers) == over_tesis


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Suspensión del acto reclamado en materia laboral.", True),
        ("El acto reclamado: procede la suspensión", True),  # any order, close together
        (
            "Se concede la suspensión. "
            + "Otro asunto sin relación alguna aquí. " * 3
            + "El acto reclamado consta.",
            False,
        ),
        ("La suspensión del acto.", False),  # "reclamado" is missing
    ],
)
def test_a_document_names_a_topic_only_with_its_terms_close_together(
    text: str, named: bool
) -> None:
    assert names_topic(text, ["suspen", "acto", "reclam"]) is named
    assert names_topic(text, []) is True


@pytest.mark.parametrize(
    ("rubro", "headed"),
    [
        (  # the heading is the topic's head, the rest qualifies it: terms far apart
            "SUSPENSIÓN PROVISIONAL. SON INSUFICIENTES, POR SÍ SOLAS, LAS MANIFESTACIONES "
            "REALIZADAS BAJO PROTESTA DE DECIR VERDAD EN LA DEMANDA DE AMPARO PARA TENER POR "
            "EXISTENTE EL ACTO RECLAMADO.",
            True,
        ),
        ("ACTO RECLAMADO. SU SUSPENSIÓN EN EL AMPARO.", False),  # headed by another term
        ("SUSPENSIÓN PROVISIONAL. REQUISITOS.", False),  # the rest is not there
    ],
)
def test_a_rubro_headed_by_a_topic_names_it_whatever_the_distance(rubro: str, headed: bool) -> None:
    assert heads_topic(rubro, ["suspen", "acto", "reclam"]) is headed
    assert not heads_topic(rubro, ["suspen"])  # one term: names_topic decides


def test_name_candidates_are_capitalized_words_inside_a_sentence() -> None:
    assert name_candidates("What was the first Rust repository? Jakub knows.") == {"rust"}


def test_topic_words_are_the_question_s_own() -> None:
    question = "¿Cuál fue el primer criterio sobre las órdenes de aprehensión?"
    assert topic_words(question, ["orden", "aprehe"]) == ["órdenes", "aprehensión"]
    assert "«teletrabajo»" in unnamed_topic_reason(["teletrabajo"])


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("SELECT * FROM tesis;", True),
        ("SELECT * FROM tesis WHERE anio > 2020", True),
        ("select rubro, anio from tesis", True),
        ("'; DROP TABLE tesis; --", True),
        ("1' UNION SELECT NULL, password FROM users--", True),
        ("Can the employer select workers from the union list?", False),
        ("Can the union select its delegates without a vote?", False),
        ("Can the employer insert into the contract a non-compete clause?", False),
        ("can the employer select workers from unions", False),
        ("¿Puedo elegir (select) al árbitro desde la lista?", False),
        ("delete from my record the old conviction?", False),
    ],
)
def test_a_database_statement_reads_as_code(text: str, code: bool) -> None:
    assert reads_as_code(text) is code


def test_code_abstains_with_its_own_reason() -> None:
    signals = QuerySignals("en", terms=3, matched=True, best_similarity=0.95, code=True)
    assert abstain_reason(signals, floor=0.5) == (
        "La pregunta es una instrucción de base de datos (SQL), no una pregunta."
    )


@pytest.mark.parametrize(
    ("question", "to_the_service"),
    [
        ("¿Quién eres y cómo funcionas?", True),
        ("Who are you?", True),
        ("what can you do", True),
        ("¿Qué ha dicho la Corte sobre quién es parte en el amparo?", False),
        ("¿Es usted quien debe probar el despido?", False),
        # a reviewer's: "you" asked about the law
        ("¿Qué puedes hacer si tu patrón no te paga las horas extra?", False),
        ("what can you do if your landlord keeps the deposit?", False),
    ],
)
def test_a_question_to_the_search_itself_is_told_apart(question: str, to_the_service: bool) -> None:
    assert asks_the_service(question) is to_the_service
    signals = QuerySignals(language="es", terms=3, matched=True, best_similarity=0.95)
    reason = abstain_reason(replace(signals, to_the_service=to_the_service), floor=0.8)
    assert (reason is not None and "buscador" in reason) is to_the_service


def test_an_abstention_under_filters_says_the_filters_narrowed_it() -> None:
    """ "despido injustificado" under Laboral and the Undécima Época was told no word of it
    appears in the corpus, though dozens of tesis say "despido"."""
    signals = QuerySignals(language="unknown", terms=2, matched=False, best_similarity=0.8)
    assert "el corpus" in (abstain_reason(signals, floor=0.9) or "")
    filtered = abstain_reason(replace(signals, filtered=True), floor=0.9) or ""
    assert "las tesis que cumplen los filtros" in filtered
    below = abstain_reason(replace(signals, matched=True, filtered=True), floor=0.9) or ""
    assert below.startswith("Nada en las tesis que cumplen los filtros")

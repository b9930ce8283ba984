"""Which words of a first/latest question name filters (época, years, kind, court)."""

from __future__ import annotations

import pytest

from api.core.epocas import EPOCA_NAMES
from api.core.intent.named_filters import (
    COLEGIADOS,
    SCJN,
    named_filters,
    without_named_filters,
    without_years,
)


@pytest.mark.parametrize(
    ("question", "fields", "phrases"),
    [
        ("la primera tesis de la Décima Época", {"epocas": ("Décima Época",)}, ("décima época",)),
        ("la tesis más antigua de la 9a. Época", {"epocas": ("Novena Época",)}, ("9a. época",)),
        ("the first thesis of the Eleventh Epoch", {"epocas": ("Undécima Época",)}, None),
        ("12th epoch tesis", {"epocas": ("Duodécima Época",)}, ("12th epoch",)),
        ("la tesis más reciente de 1980", {"anio_min": 1980, "anio_max": 1980}, ("de 1980",)),
        ("¿Cuál es la tesis más reciente publicada en 2024?", {"anio_min": 2024}, ("en 2024",)),
        ("la primera tesis entre 1975 y 1980 sobre huelga", {"anio_max": 1980}, None),
        ("the earliest ruling before 1980 on strikes", {"anio_max": 1979}, ("before 1980",)),
        ("el primer criterio después de 2011 sobre tratados", {"anio_min": 2012}, None),
        ("the first ruling since 2011 on treaties", {"anio_min": 2011}, ("since 2011",)),
        ("¿qué criterios había antes del 2000?", {"anio_max": 1999}, ("antes del 2000",)),
        ("criterios desde el 2011 sobre tratados", {"anio_min": 2011}, ("desde el 2011",)),
        ("Second Chamber rulings 2024", {"anio_min": 2024, "organo": "Segunda Sala"}, None),
        ("the first repository of 2020", {"anio_min": 2020, "anio_max": 2020}, None),
        ("el primer repositorio de 2020", {"anio_min": 2020, "anio_max": 2020}, None),
        ("la última tesis aislada", {"tipo": "Aislada"}, ("tesis aislada",)),
        ("the most recent isolated ruling on amparo", {"tipo": "Aislada"}, None),
        ("la tesis de jurisprudencia más reciente", {"tipo": "Jurisprudencia"}, None),
        ("lo último de los tribunales colegiados", {"instancia": COLEGIADOS}, None),
        ("latest Supreme Court rulings on amparo", {"instancia": SCJN}, ("supreme court",)),
        ("la tesis más reciente de la Suprema Corte", {"instancia": SCJN}, ("suprema corte",)),
        # the Court's chambers are organos (and the Court the instancia)
        ("jurisprudencia de la Segunda Sala", {"organo": "Segunda Sala", "instancia": SCJN}, None),
        ("jurisprudencia del Pleno en materia constitucional", {"organo": "Pleno"}, ("pleno",)),
        ("latest First Chamber rulings", {"organo": "Primera Sala"}, ("first chamber",)),
        ("Fourth Chamber (Cuarta Sala) jurisprudence", {"organo": "Cuarta Sala"}, None),
        ("la última tesis de la 2ª Sala", {"organo": "Segunda Sala"}, ("2ª sala",)),
        ("la primera tesis de la 10ª Época", {"epocas": ("Décima Época",)}, None),
        # a bound on the época, a negated época, kind or court (a prober's finds: "que no sea de
        # la Séptima Época" had filtered to the Séptima)
        (
            "tesis anteriores a la Novena Época sobre interés legítimo",
            {"epocas": EPOCA_NAMES[:8]},
            ("anteriores a la novena época",),
        ),
        ("criterios desde la Novena Época sobre amparo", {"epocas": EPOCA_NAMES[8:]}, None),
        ("tesis posteriores a la Décima Época", {"epocas": EPOCA_NAMES[10:]}, None),
        ("the first ruling before the Ninth Epoch on strikes", {"epocas": EPOCA_NAMES[:8]}, None),
        (
            "tesis sobre arrendamiento que no sea de la Séptima Época",
            {"epocas": tuple(e for e in EPOCA_NAMES if e != "Séptima Época")},
            ("no sea de la séptima época",),
        ),
        ("jurisprudencia, no tesis aisladas, sobre marcas", {"tipo": "Jurisprudencia"}, None),
        (
            "la última tesis que no sea de la Segunda Sala",
            {"organo": None, "instancia": None},
            ("no sea de la segunda sala",),
        ),
        # a reviewer's: épocas named, bounded and negated together
        (
            "la primera tesis de la Octava Época, excepto la Novena Época",
            {"epocas": ("Octava Época",)},
            None,
        ),
        (
            "tesis que no sean de la Quinta Época ni de la Sexta Época",
            {"epocas": tuple(e for e in EPOCA_NAMES if e not in ("Quinta Época", "Sexta Época"))},
            None,
        ),
        ("tesis de la Novena Época, no de la Décima Época", {"epocas": ("Novena Época",)}, None),
        (
            "rulings on strikes except for the Fifth Epoch",
            {"epocas": tuple(e for e in EPOCA_NAMES if e != "Quinta Época")},
            None,
        ),
        ("the latest ruling from the Twenty-first Circuit", {"circuito": 21}, None),
        # years after other filters, and bounds worded "anteriores / posteriores a"
        ("tesis del Pleno anteriores a 2015", {"anio_max": 2014, "organo": "Pleno"}, None),
        ("tesis de la Segunda Sala entre 1996 y 2003", {"anio_min": 1996, "anio_max": 2003}, None),
        (
            "tesis de la Segunda Sala en materia laboral posteriores a 2000",
            {"anio_min": 2001},
            None,
        ),
        (
            "tesis aisladas de tribunales colegiados en materia laboral de 1987",
            {"anio_min": 1987, "anio_max": 1987, "tipo": "Aislada", "instancia": COLEGIADOS},
            None,
        ),
        # a branch of law between the ordering word and the year; a range closing the request
        (
            "la tesis más reciente en materia laboral de 1980",
            {"anio_min": 1980, "anio_max": 1980},
            ("de 1980",),
        ),
        (
            "el primer criterio sobre arrendamiento entre 1975 y 1980",
            {"anio_min": 1975, "anio_max": 1980},
            ("entre 1975 y 1980",),
        ),
        ("the first ruling on strikes before 1980?", {"anio_max": 1979}, ("before 1980",)),
        # a circuit, in words, digits or English
        ("tesis del Sexto Circuito", {"circuito": 6}, ("sexto circuito",)),
        ("criterios del Décimo Tercer Circuito sobre despido", {"circuito": 13}, None),
        ("lo último del 6o. Circuito", {"circuito": 6}, ("6o. circuito",)),
        ("tesis del circuito 25", {"circuito": 25}, ("circuito 25",)),
        ("the latest ruling of the Tenth Circuit", {"circuito": 10}, ("tenth circuit",)),
        ("jurisprudencia del Vigésimo Circuito", {"circuito": 20}, None),
        # a circuit's Pleno is of that circuit, and no chamber of the Court
        (
            "la última jurisprudencia del Pleno en Materia Administrativa del Primer Circuito",
            {"circuito": 1, "organo": None},
            ("primer circuito",),
        ),
    ],
)
def test_named_filters(question: str, fields: dict, phrases: tuple[str, ...] | None) -> None:
    named = named_filters(question)
    for name, value in fields.items():
        assert getattr(named, name) == value, name
    if phrases is not None:
        assert named.phrases == phrases


@pytest.mark.parametrize(
    "question",
    [
        # a year inside a description, or a law's name
        "Lo más reciente: ¿qué normas de la reforma minera y de aguas de 2023 pueden combatirse?",
        "el primer criterio sobre la Ley de Amparo de 2013",
        "lo último después de la reforma de 2011",
        # a court as the subject; a chamber (no filter knows it); jurisprudencia, the noun
        "the latest ruling on collegiate courts",
        "el pleno del ayuntamiento aprobó la obra",  # not the Court's Pleno
        "jurisprudencia del Pleno de Circuito",
        "circuito cerrado de televisión como prueba",  # no circuit of the courts
        "la última tesis del Trigésimo Tercer Circuito",  # there are 32
        # a year after a description, with free words before "en materia" (a reviewer's)
        "¿Qué dicen las tesis de la reforma en materia laboral de 2019?",
        "tesis del artículo 27 en materia agraria de 1992",
        # a year dated by no document noun (a reviewer's finds)
        "¿Qué criterios hay sobre la reforma laboral publicada en 2019?",
        "Can the authority revoke a license issued in 2015?",
        "What does the recent 2023 judicial reform mean?",
        "la jurisprudencia más reciente sobre despido",
        "el primer criterio sobre la Ley de Amparo de 1936",  # a bare closing year: its name
        # a closing range that dates what the topic tells, not the tesis (a reviewer's)
        "la tesis más reciente sobre los juicios de amparo promovidos antes de 2013",
        "la jurisprudencia más reciente sobre la pensión de quienes cotizaron antes de 1997",
        "el criterio más reciente sobre la Ley de Amparo vigente antes de 2013",
        "la tesis más reciente sobre despido",
        "tesis 2024502",  # a registro, not a year
        "jurisprudencia 2a./J. 12/2019",
    ],
)
def test_no_filter_is_named(question: str) -> None:
    named = named_filters(question)
    assert not named and named.phrases == ()


def test_a_court_is_read_only_when_asked_for() -> None:
    question = "la tesis más reciente de la Suprema Corte"
    assert named_filters(question, ordering=False) == named_filters("la tesis más reciente")


@pytest.mark.parametrize(
    ("question", "embedded"),
    [
        (
            "¿Qué dicen las tesis de la Novena Época sobre la suspensión?",
            "¿Qué dicen las tesis sobre la suspensión?",
        ),
        ("criterios de 1980 sobre arrendamiento", "criterios sobre arrendamiento"),
        ("the earliest ruling before 1980 on strikes", "the earliest ruling on strikes"),
        ("la tesis más reciente de la Suprema Corte", "la tesis más reciente de la Suprema Corte"),
        ("¿Procede el amparo contra leyes?", "¿Procede el amparo contra leyes?"),
    ],
)
def test_the_embedded_question_leaves_out_what_names_filters(question: str, embedded: str) -> None:
    assert without_named_filters(question) == embedded


@pytest.mark.parametrize(
    "question",
    [
        "¿Qué valor probatorio tiene una tesis aislada?",
        "¿La jurisprudencia obligatoria puede aplicarse retroactivamente?",
        "When does a ruling become binding precedent?",
    ],
)
def test_a_question_about_a_kind_of_tesis_is_not_filtered_by_it(question: str) -> None:
    assert named_filters(question, ordering=False).tipo is None
    assert without_named_filters(question) == question


def test_a_negated_court_leaves_a_question_without_filtering_it() -> None:
    """ "que no sea de tribunales colegiados": no filter can say "any other court", but the
    words are no topic either (they had pulled collegiate courts' tesis first)."""
    named = named_filters("suspensión provisional que no sea de tribunales colegiados", False)
    assert named.instancia is None and named.phrases == ("no sea de tribunales colegiados",)
    assert not named_filters("¿Qué valor probatorio tiene una tesis aislada?", False)


def test_a_circuit_filters_a_question_too() -> None:
    """Naming a circuit restricts to its courts, in a question as in a first/latest request
    (unlike a chamber of the Court, often the subject: "¿qué ha dicho la Suprema Corte...?")."""
    named = named_filters("¿Qué ha resuelto el 6o. Circuito sobre la prueba pericial?", False)
    assert named.circuito == 6 and named.phrases == ("6o. circuito",)


@pytest.mark.parametrize(
    ("question", "embedded"),
    [
        ("Me despidieron en 1980 y el patrón dice", "Me despidieron y el patrón dice"),
        ("jurisprudencia reciente sobre huelga 2023", "jurisprudencia reciente sobre huelga"),
        # an article's number and a law told apart by its year are meaning (a reviewer's)
        ("el artículo 1915 del Código Civil", "el artículo 1915 del Código Civil"),
        ("la Ley del Seguro Social de 1973", "la Ley del Seguro Social de 1973"),
        ("1980", "1980"),
    ],
)
def test_years_of_the_story_leave_the_embedded_question(question: str, embedded: str) -> None:
    assert without_years(question) == embedded

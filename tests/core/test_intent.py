"""Materia and temporal intent detection, recency weight selection."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.core.intent import (
    MATERIA_PRIORITY,
    MATERIAS,
    MateriaIntent,
    TemporalIntent,
    canonical_materia,
    detect_materia,
    detect_temporal,
    named_materia,
)
from api.core.text import fold, fold_with_map
from api.core.weight_policy import check_weight, effective_recency_weight, in_weight_range

# --- materia -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "materia", "trigger"),
    [
        ("¿Qué debe probar el trabajador en un despido injustificado?", "Laboral", "trabajador"),
        ("Requisitos de la Constancia de Representatividad", "Laboral", "representatividad"),
        ("¿Cuándo es legal una huelga?", "Laboral", "huelga"),
        ("Obligaciones del PATRÓN frente al sindicato", "Laboral", "patrón"),
        ("¿Qué es un crédito fiscal?", "Fiscal", "fiscal"),
        ("Devolución del impuesto sobre la renta por el SAT", "Fiscal", "impuesto"),
        ("Nulidad de una elección municipal", "Electoral", "elección"),
        ("¿Cuándo procede la prisión preventiva oficiosa?", "Penal", "prisión"),
        ("¿Qué es la reparación del daño?", "Penal", "reparación del daño"),
        ("Facultades del ministerio público en la investigación", "Penal", "ministerio público"),
        ("Control difuso de convencionalidad", "Constitucional", "control difuso"),
        ("Jurisprudencia de la Corte Interamericana", "Constitucional", "corte interamericana"),
        ("¿Qué requisitos exige la prescripción positiva?", "Civil", "prescripción positiva"),
        ("¿Puede revocarse el aval en un pagaré?", "Mercantil", "aval"),
        ("Criterios sobre la guarda y custodia de menores", "Familiar", "guarda y custodia"),
        ("¿Cómo se calcula la pensión alimenticia?", "Familiar", "pensión alimenticia"),
        ("¿Cuáles son las causas de pérdida de la patria potestad?", "Familiar", "patria potestad"),
        ("Plazo para promover el juicio de nulidad", "Administrativa", "juicio de nulidad"),
        ("Derechos de un ejidatario sobre su parcela", "Agraria", "ejidatario"),
        ("¿Cuándo procede la suspensión provisional en el amparo?", "Común", "suspensión"),
        ("Causas de improcedencia y sobreseimiento", "Común", "improcedencia"),
    ],
)
def test_lexicon(question: str, materia: str, trigger: str) -> None:
    intent = detect_materia(question)
    assert intent.materia == materia
    assert intent.source == "question"
    assert trigger in intent.triggers


def test_triggers_are_the_words_as_written_lowercased_and_deduplicated() -> None:
    intent = detect_materia("Despido del Trabajador; el trabajador y su despido")
    assert intent == MateriaIntent("Laboral", ("despido", "trabajador"), "question")


def test_the_longest_term_wins_an_overlap() -> None:
    # "contrato colectivo" is one laboral trigger, not also the civil "contrato".
    assert detect_materia("Revisión del contrato colectivo").triggers == ("contrato colectivo",)
    # "el fiscal" is the prosecutor.
    assert detect_materia("¿Puede el fiscal desistir de la acusación?").materia == "Penal"


def test_most_triggers_wins() -> None:
    question = "Amparo contra el despido de un trabajador por el patrón"
    assert detect_materia(question).materia == "Laboral"  # 3 laboral vs 1 común


def test_ties_follow_the_priority_order() -> None:
    assert detect_materia("¿Procede el amparo contra el despido?").materia == "Laboral"
    assert detect_materia("Constitucionalidad del impuesto predial").materia == "Fiscal"
    assert detect_materia("Divorcio y arrendamiento").materia == "Familiar"
    assert set(MATERIA_PRIORITY) == set(MATERIAS)


def test_an_explicit_filter_wins_and_is_canonicalized() -> None:
    intent = detect_materia("despido injustificado", explicit=("penal", "Laboral"))
    assert intent == MateriaIntent("Penal", (), "filter")
    assert detect_materia("x", explicit=("", "amparo")).materia == "Común"
    assert detect_materia("x", explicit=("Propiedad Industrial",)).materia == "Propiedad Industrial"


def test_falls_back_to_a_strict_majority_of_the_hits() -> None:
    hits = [("Laboral",), ("Laboral", "Común"), ("Civil",)]
    assert detect_materia("¿y esto?", hit_materias=hits) == MateriaIntent("Laboral", (), "hits")
    # Ties among majorities follow the priority order.
    both = [("Constitucional", "Común"), ("Común", "Constitucional")]
    assert detect_materia("", hit_materias=both).materia == "Constitucional"
    # Canonicalized: 'comun' and 'Común' count as one.
    assert detect_materia("", hit_materias=[("comun",), ("Común",)]).materia == "Común"


@pytest.mark.parametrize(
    "hits",
    [[], [()], [("Laboral",), ("Civil",)], [("Laboral",), ("Civil",), ("Penal",), ("Laboral",)]],
)
def test_no_materia_without_triggers_or_a_majority(hits: list[tuple[str, ...]]) -> None:
    assert detect_materia("¿Qué dice esta tesis?", hit_materias=hits) == MateriaIntent(None)


def test_canonical_materia() -> None:
    assert canonical_materia(" laboral ") == "Laboral"
    assert canonical_materia("COMUN") == "Común"
    assert canonical_materia("administrativo") == "Administrativa"
    assert canonical_materia("  ") is None
    assert fold("Patrón ÉPOCA Ñandú") == "patron epoca nandu"


# --- temporal ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "kind", "triggers"),
    [
        # Spanish
        ("¿Cuál fue el primer criterio sobre el interés legítimo?", "earliest", ("primer",)),
        (
            "¿Cuál fue la primera tesis que reconoció el matrimonio igualitario?",
            "earliest",
            ("primera",),
        ),
        ("¿Qué se resolvió primero?", "earliest", ("primero",)),
        ("¿Cuál se publicó primero?", "earliest", ("primero",)),
        ("¿Qué tribunal lo determinó primero?", "earliest", ("primero",)),
        ("¿El patrón debe pagar el sueldo fijo primero?", None, ()),  # an adjective, folded
        ("¿Me deben pagar el salario íntegro primero?", None, ()),
        ("¿Cuál sala se pronunció primero?", "earliest", ("primero",)),
        ("La jurisprudencia más antigua sobre usura", "earliest", ("más antigua",)),
        ("El criterio MAS ANTIGUO de la Corte", "earliest", ("mas antiguo",)),
        ("¿Cuál era el criterio original sobre la suspensión?", "earliest", ("original",)),
        ("La postura inicial de la Segunda Sala", "earliest", ("inicial",)),
        ("¿Cuál es el origen de la jurisprudencia sobre alimentos?", "earliest", ("origen",)),
        ("¿Cuál fue el primer repositorio?", "earliest", ("primer",)),
        ("¿Cuál fue su primer criterio sobre la usura?", "earliest", ("primer",)),
        ("¿Desde cuándo se considera usurario un interés excesivo?", "earliest", ("desde cuándo",)),
        ("¿Cuándo comenzó la Corte a admitir el interés legítimo?", "earliest", ("comenzó",)),
        ("La tesis más reciente sobre outsourcing", "latest", ("más reciente",)),
        ("¿Cuál es la última jurisprudencia sobre pensiones?", "latest", ("última",)),
        ("El último criterio de la Primera Sala", "latest", ("último",)),
        ("¿Hay un nuevo criterio sobre el IVA?", "latest", ("nuevo criterio",)),
        ("¿Cuáles son los requisitos actuales?", "current", ("actuales",)),
        ("¿Qué criterio está vigente sobre el despido?", "current", ("vigente",)),
        ("¿Qué se exige hoy en día?", "current", ("hoy en día",)),
        ("¿Cómo quedó después de la reforma?", "current", ("después de la reforma",)),
        ("Criterios recientes sobre la prisión preventiva", "current", ("recientes",)),
        # English
        ("What was the first repository?", "earliest", ("first",)),
        ("Show me the earliest ruling on due process", "earliest", ("earliest",)),
        ("the OLDEST criterion", "earliest", ("oldest",)),
        ("What is the latest criterion on outsourcing?", "latest", ("latest",)),
        ("newest project", "latest", ("newest",)),
        ("the most recent ruling on strikes", "latest", ("most recent",)),
        ("la tesis más actualizada sobre huelgas", "latest", ("más actualizada",)),
        ("¿Cuál es el criterio más actual sobre la usura?", "latest", ("más actual",)),
        ("the most current ruling on strikes", "latest", ("most current",)),
        ("the most up-to-date ruling on strikes", "latest", ("most up-to-date",)),
        ("Since when have strikes been protected?", "earliest", ("since when",)),
        ("the repo he hasn't touched in the longest time", "earliest", ("in the longest time",)),
        ("¿Cuándo se empezó a hablar de la prima?", "earliest", ("cuándo se empezó",)),
        ("¿Cuándo surgió el criterio sobre la huelga?", "earliest", ("cuándo surgió",)),
        ("What was the last repository created?", "latest", ("last",)),
        ("When did the courts first say that a coalition may sue?", "earliest", ("first",)),
        # a question mark or the end of a typed query closes no story: these still ask
        ("Of the two criteria on strikes, which came first?", "earliest", ("first",)),
        ("what did the supreme court say last", "latest", ("last",)),
        # ... nor does a clause whose sentence asks for the order (a reviewer's finds)
        (
            "Which ruling came first, the one on strikes or the one on lockouts?",
            "earliest",
            ("first",),
        ),
        ("Which criterion came last, A or B?", "latest", ("last",)),
        ("Show me the criterion the Supreme Court issued last.", "latest", ("last",)),
        ("What is the current rule on strikes?", "current", ("current",)),
        ("Is this criterion still in force?", "current", ("in force",)),
        # the first time the courts spoke, news, and whether a criterion still stands
        ("¿Cuál fue la primera vez que la Corte habló de la huelga?", "earliest", ("primera vez",)),
        (
            "¿Cuándo se resolvió por primera vez sobre el embargo?",
            "earliest",
            ("se resolvió por primera vez",),
        ),
        ("la primera ocasión en que se trató la prescripción", "earliest", ("primera ocasión",)),
        ("the first time the court held that strikes suspend", "earliest", ("first time",)),
        ("¿Hay algo nuevo sobre la suspensión en amparo?", "latest", ("algo nuevo",)),
        ("¿Qué novedades hay sobre la prisión preventiva?", "latest", ("novedades",)),
        ("¿qué hay de nuevo sobre pensión alimenticia?", "latest", ("qué hay de nuevo",)),
        ("¿Hay alguna novedad sobre el cheque?", "latest", ("novedad",)),
        ("Is there anything new on pretrial detention?", "latest", ("anything new",)),
        ("What's new on legitimate interest?", "latest", ("what's new",)),
        ("¿Todavía aplica el criterio sobre los sábados?", "current", ("todavía aplica",)),
        ("¿Ha cambiado el criterio sobre las multas?", "current", ("ha cambiado el criterio",)),
        ("Does the rule on Saturdays still apply?", "current", ("still apply",)),
        # a criterion's history reads oldest first
        ("histórico de criterios sobre huelga", "earliest", ("histórico de criterios",)),
        ("evolución del criterio sobre la suplencia", "earliest", ("evolución del criterio",)),
        ("timeline of rulings on divorce grounds", "earliest", ("timeline",)),
        ("history of rulings on strikes", "earliest", ("history of rulings",)),
    ],
)
def test_temporal_kinds(question: str, kind: str, triggers: tuple[str, ...]) -> None:
    assert detect_temporal(question) == TemporalIntent(kind, triggers)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "question",
    [
        "Sentencia de primera instancia en un juicio ordinario",
        "Criterio de la Primera Sala sobre alimentos",
        "Tesis de la primera sala sobre alimentos",
        "Tesis del Tercer Tribunal Colegiado en Materia Civil del Primer Circuito",
        "Tesis aislada del Primer Tribunal Colegiado en Materia de Trabajo",
        "Jurisprudencia de los tribunales colegiados del primer circuito",
        "El Juzgado Primero de Distrito negó la suspensión",
        "Conforme al artículo primero transitorio de la ley",
        "Alcance del último párrafo del artículo 14",
        "Notificación en el último domicilio conocido",
        "Por último, ¿procede el recurso de queja?",
        "En última instancia resuelve la Corte",
        "Documentos expedidos en el país de origen",
        "Competencia del juez de origen",
        "Copia certificada del documento original",
        "Requisitos del escrito inicial de demanda",
        "Qué ocurre en la audiencia inicial del proceso penal",
        "Interés jurídico: afectación real y actual",
        "Primero, ¿procede el amparo contra leyes?",
        "Sentence of the court of first instance",
        "Ruling of the First Chamber",
        "First, is the amparo admissible?",
        "Read the last paragraph of article 14",
        "cuando se empezó a aplicar el descuento me quejé",  # told, not asked: no "¿"
        "Requisitos de la demanda de amparo indirecto",
        "",
    ],
)
def test_temporal_false_positives(question: str) -> None:
    assert detect_temporal(question) == TemporalIntent(None, ())


@pytest.mark.parametrize(
    "question",
    [
        "En mi primer juicio no ofrecí pruebas; ¿puedo ofrecerlas en el segundo?",
        "¿Es válido el primer emplazamiento si se entregó a un menor de edad?",
        "¿Vale ese primer requerimiento de pago aunque no traía firma?",
        "Me despidieron porque falté dos veces el último mes. ¿Es justificado?",
        "¿Cuenta mi último salario o el promedio para la indemnización?",
        "La cuota que empezó a cobrarse en 2022, ¿es proporcional?",
        "¿Desde cuándo corre el plazo para presentar la demanda de amparo?",
        "¿Es discriminatorio negar un empleo por la edad o el origen?",
        "Can I raise in my second amparo what I left out of the first trial?",
        "My first hearing was held without my lawyer; is it void?",
        "I was fired after being late three times last month. Is that fair?",
        "Must we first bring a nullity suit before the Tax Court, or go straight to amparo?",
        "Do I have to first exhaust the appeal?",
        "I first went to the labor board and then filed for amparo. Was that right?",
        # an ordinal closing a clause tells the story's order (blind8-013)
        "For months he feared the neighbour. One day he attacked the neighbour first. Is fear "
        "an excuse?",
        "He hit me first, then I defended myself. Is that self-defense?",
        "Of the two creditors, I was paid last; can the other one still seize my house?",
        "He attacked first: is that legal self-defense?",
        "At long last the court ruled on my case; can I appeal?",
        "The original contract said nothing about interest; can the lender charge it now?",
        "My landlord wants the latest payment in cash, can he refuse a bank transfer?",
        "What happens first in an amparo: the suspension or the report?",
        "¿Puedo exigir que el pago más reciente se haga en efectivo?",
        "Mi recibo de nómina más reciente no incluye las horas extra",
        "La deuda más antigua es de 2010, ¿ya prescribió?",
        "¿Qué pasa la primera vez que no pago la pensión?",
        "La primera vez que me despidieron no me pagaron nada",
        "The first time I was fired they paid me nothing",
        "¿Se protege la novedad de una invención ya divulgada?",
        "¿Pueden negarme la historia clínica del paciente?",
        # the asker's story, or a history that is not a criterion's (a reviewer's finds)
        "¿Cuál es la pena por robo si es la primera vez?",
        "¿Qué pena me toca si delinquí por primera vez?",
        "la primera vez que el patrón no pagó",
        "Is a first time offender eligible for probation?",
        "Can a history of domestic violence affect custody?",
        "¿Se considera riesgo de trabajo la evolución de la enfermedad?",
        "la historia de mensajes de WhatsApp como prueba",
        "Soy capitán y en la última promoción ascendieron a oficiales con menos antigüedad.",
        "Desde la última visita del inspector no me han notificado nada, ¿caducó?",
        "En mi primera resolución de pensión me negaron el aumento, ¿qué hago?",
        "en la última sentencia de mi juicio me condenaron a pagar alimentos, ¿puedo apelar?",
        "tras la última sentencia del tribunal colegiado en mi amparo directo, ¿qué procede?",
        "En la última resolución del juez me negaron la suspensión",
        # "primero" the adverb, closing a sentence of the story or asking which comes first
        "Mi hermano vendió su mitad sin ofrecérmela primero. ¿Puedo pedir que anulen la venta?",
        "Si embargan la casa, ¿a quién le pagan primero?",
        "Debo a dos bancos, ¿a quién le pago primero?",  # a first person, folded like "pagó"
        "¿Qué hago primero?",
    ],
)
def test_a_litigants_story_is_not_a_temporal_question(question: str) -> None:
    """Ordinals that count the steps of the asker's own case do not ask for a date order."""
    assert detect_temporal(question) == TemporalIntent(None, ())


def test_an_ordinal_name_does_not_hide_a_real_trigger() -> None:
    question = "¿Cuál fue el primer criterio de la Primera Sala sobre el tema?"
    assert detect_temporal(question) == TemporalIntent("earliest", ("primer",))
    question = "Último criterio del Primer Tribunal Colegiado"
    assert detect_temporal(question) == TemporalIntent("latest", ("último",))
    for question in (
        "¿Qué dijo la Corte en la última tesis sobre el despido?",
        "¿Qué dijo la Segunda Sala en la última sentencia sobre outsourcing?",
        "¿Qué resolvió la Corte en la última contradicción de tesis sobre el despido?",
    ):
        assert detect_temporal(question) == TemporalIntent("latest", ("última",)), question


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("my first repo", "earliest"),
        ("what was my first project?", "earliest"),
        ("¿Cuál fue mi primer proyecto en Python?", "earliest"),
        ("¿cuál es mi último repositorio?", "latest"),
        ("en la última versión de la jurisprudencia sobre pensión alimenticia", "latest"),
    ],
)
def test_the_owners_record_or_a_criterions_version_is_a_date_order(
    question: str, kind: str
) -> None:
    """ "mi primer amparo" tells the asker's case; "mi primer repositorio" asks for a record."""
    assert detect_temporal(question).kind == kind


def test_ordering_beats_current() -> None:
    intent = detect_temporal("¿Cuál es la jurisprudencia vigente más reciente?")
    assert intent == TemporalIntent("latest", ("más reciente",))


def test_between_earliest_and_latest_most_triggers_then_first_mention() -> None:
    assert detect_temporal("la primera y la última tesis").kind == "earliest"
    assert detect_temporal("la última y la primera tesis").kind == "latest"
    assert detect_temporal("latest, newest, but also the first").kind == "latest"


def test_the_last_reform_is_current_not_latest() -> None:
    intent = detect_temporal("¿Qué cambió después de la última reforma?")
    assert intent == TemporalIntent("current", ("después de la última reforma",))


@given(st.text(max_size=200))
def test_detectors_never_fail(text: str) -> None:
    temporal = detect_temporal(text)
    assert temporal.kind in (None, "earliest", "latest", "current")
    assert (temporal.kind is None) == (temporal.triggers == ())
    materia = detect_materia(text)
    assert materia.materia is None or materia.materia in MATERIAS


# --- recency weight ----------------------------------------------------------------------

CURRENT = TemporalIntent("current", ("actual",))
LATEST = TemporalIntent("latest", ("último",))
NONE = TemporalIntent(None, ())


@pytest.mark.parametrize(
    ("requested", "default", "temporal", "current_weight", "expected"),
    [
        (0.3, 0.1, CURRENT, 0.6, 0.3),  # explicit wins
        (0.0, 0.1, CURRENT, 0.6, 0.0),  # explicit zero too
        (None, 0.1, CURRENT, 0.6, 0.6),  # current raises
        (None, 0.8, CURRENT, 0.6, 0.8),  # ... never lowers
        (None, 0.1, LATEST, 0.6, 0.1),
        (None, 0.1, NONE, 0.6, 0.1),
    ],
)
def test_effective_recency_weight(
    requested: float | None,
    default: float,
    temporal: TemporalIntent,
    current_weight: float,
    expected: float,
) -> None:
    assert effective_recency_weight(requested, default, temporal, current_weight) == expected


@pytest.mark.parametrize(
    ("requested", "default", "current_weight", "name"),
    [(1.5, 0.1, 0.5, "recency_weight"), (None, -0.1, 0.5, "default"), (None, 0.1, 2, "current")],
)
def test_effective_recency_weight_bounds(
    requested: float | None, default: float, current_weight: float, name: str
) -> None:
    with pytest.raises(ValueError, match=name):
        effective_recency_weight(requested, default, CURRENT, current_weight)


def test_fold_with_map_points_each_folded_character_at_its_source() -> None:
    folded, source = fold_with_map("Año Ñandú")
    assert folded == fold("Año Ñandú") == "ano nandu"
    assert [("Año Ñandú")[i] for i in source] == list("Año Ñandú")


def test_one_bound_for_weights() -> None:
    assert in_weight_range(0.0) and in_weight_range(1.0) and not in_weight_range(1.01)
    assert check_weight("w", 0.3) == 0.3
    with pytest.raises(ValueError, match=r"w must be in \[0, 1\], got -0.1"):
        check_weight("w", -0.1)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("¿Cuál fue el último criterio en materia penal?", ("Penal", "materia penal")),
        ("la tesis laboral más reciente", ("Laboral", "tesis laboral")),
        ("What is the latest criterion in labor matters?", ("Laboral", "labor matters")),
        ("the oldest criminal case", ("Penal", "criminal case")),
        ("the oldest tax case", None),  # the SJF files tax tesis under Administrativa
        ("el primer criterio del derecho civil", ("Civil", "derecho civil")),
        ("el primer criterio sobre el despido", None),  # a laboral subject, not the branch named
        ("the first Rust repository", None),
    ],
)
def test_a_question_may_name_a_branch_of_law(question: str, named: tuple[str, str] | None) -> None:
    assert named_materia(question) == named

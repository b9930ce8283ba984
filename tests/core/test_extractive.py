from __future__ import annotations

import dataclasses
import json
import math
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from api.core.chunking import chunk_tesis
from api.core.citations import check_citations
from api.core.extractive import HEADER, extractive_answer, split_sentences, transcription
from api.core.models import Chunk, Hit, Passage, ScoreBreakdown, Tesis, Validity
from api.core.references import consolidate
from api.core.text import analyze
from api.core.validity import parse_notes
from api.ingest.loaders import read_records
from api.ingest.records import Parsed, parse_record
from tests.fakes import make_hit

REPO = Path(__file__).resolve().parents[2]
QUESTIONS = Path(__file__).resolve().parent.parent / "fixtures" / "preguntas_12.json"


def refs_for(*hits: Hit):  # type: ignore[no-untyped-def]
    return consolidate(list(hits))


def generic(hit: Hit, **passage: object) -> Hit:
    """``hit`` as a generic corpus's record (no época)."""
    return dataclasses.replace(hit, passage=dataclasses.replace(hit.passage, epoca="", **passage))


def test_picks_the_sentences_that_match_the_question_with_their_numbers() -> None:
    refs = refs_for(
        make_hit(1, 0, "El plazo es de treinta días. Nada que ver aquí con el tema."),
        make_hit(
            2,
            0,
            "La suspensión provisional procede contra actos de autoridad. "
            "Otra frase sin relación alguna.",
        ),
    )
    text = extractive_answer("¿Cuándo procede la suspensión provisional?", refs, max_sentences=1)

    assert text.startswith(f"{HEADER}:")
    assert "«La suspensión provisional procede contra actos de autoridad.» " in text
    assert text.rstrip().endswith("[2]")
    assert check_citations(text, 2).cited == (2,)


def test_each_sentence_carries_epoca_year_and_tipo() -> None:
    refs = refs_for(
        make_hit(
            5, 0, "El interés legítimo basta para el amparo.", anio=2014, tipo="Jurisprudencia"
        )
    )
    text = extractive_answer("interés legítimo", refs)
    assert "(Décima Época, 2014, jurisprudencia) [1]" in text


def test_ties_go_to_the_better_ranked_reference() -> None:
    same = "La prescripción positiva exige posesión pública y continua."
    refs = refs_for(
        make_hit(10, 0, same + " Uno."), make_hit(20, 0, "Según otro criterio, " + same)
    )
    text = extractive_answer("prescripción positiva", refs, max_sentences=2)
    assert text.index("[1]") < text.index("[2]")


def test_accents_and_stopwords_do_not_matter() -> None:
    refs = refs_for(make_hit(1, 0, "La pension alimenticia se calcula conforme a la necesidad."))
    text = extractive_answer("¿Cómo se CALCULA la pensión alimenticia?", refs)
    assert "«La pension alimenticia se calcula" in text
    assert "[1]" in text


def test_rubro_is_not_quoted_as_a_sentence() -> None:
    rubro = "SUSPENSIÓN PROVISIONAL. PROCEDE CONTRA ACTOS FUTUROS."
    refs = refs_for(
        make_hit(
            1,
            0,
            f"{rubro}\n\nLa suspensión provisional se concede si hay apariencia del buen derecho.",
            rubro=rubro,
        )
    )
    text = extractive_answer("suspensión provisional", refs)
    assert "«La suspensión provisional se concede" in text
    assert "«SUSPENSIÓN PROVISIONAL" not in text


def test_upper_case_organo_lines_are_not_quoted() -> None:
    refs = refs_for(
        make_hit(1, 0, "El tribunal resolvió la revisión.\nTRIBUNAL COLEGIADO DEL DECIMO CIRCUITO.")
    )
    text = extractive_answer("¿Qué han resuelto los tribunales colegiados?", refs)
    assert "«El tribunal resolvió la revisión.»" in text
    assert "DECIMO CIRCUITO" not in text


def test_no_matching_sentence_lists_the_rubros() -> None:
    refs = refs_for(make_hit(1, 0, "Texto sobre otra materia.", rubro="RUBRO DISTINTO."))
    text = extractive_answer("divorcio incausado", refs)
    assert "ninguna frase" in text
    assert "- RUBRO DISTINTO. (" in text
    assert check_citations(text, 1).cited == (1,)


def test_no_references_says_there_is_no_information() -> None:
    text = extractive_answer("¿Qué es la reparación del daño?", [])
    assert (
        text == "No tengo información sobre qué es la reparación del daño en las tesis recuperadas."
    )


def test_warns_about_superseded_and_old_sources() -> None:
    superada = Validity("superada", por_registro=2006225, desde=date(2014, 4, 28))
    refs = refs_for(
        make_hit(1, 0, "El amparo directo procede contra sentencias.", anio=1975),
        make_hit(2, 0, "El amparo directo procede también aquí.", anio=1990, status=superada),
    )
    text = extractive_answer("amparo directo", refs)
    assert "la referencia [2] está superada por 2006225 desde 2014-04-28" in text
    assert "todas las fuentes son anteriores a 2000" in text


def test_long_sentences_are_shortened_and_bracketed_numbers_neutralized() -> None:
    long = "La suspensión " + "procede en el caso concreto " * 30 + "[12]."
    refs = refs_for(make_hit(1, 0, long))
    text = extractive_answer("suspensión", refs)
    assert "«La suspensión procede" in text and " … " in text
    assert check_citations(text, 1).phantom == ()


def test_a_long_sentence_keeps_its_holding_at_the_end() -> None:
    # 465 characters: cut at 400 it lost who bears the burden of proof
    holding = (
        "Si el trabajador reclama ser reinstalado en el trabajo afirmando que fue despedido por "
        "el patrón y éste se limita a negar el despido sin oponer excepción alguna, y además "
        "manifiesta su conformidad respecto de que continúe prestándole servicios con el mismo "
        "salario, horario y categoría que en su demanda dijo tener, independientemente de que "
        "proceda la reinstalación, la carga de la prueba del despido para los efectos del pago "
        "de salarios caídos recae en el actor."
    )
    text = extractive_answer("carga de la prueba del despido", refs_for(make_hit(1, 0, holding)))
    quote = text[text.index("«") + 1 : text.index("»")]
    assert quote.startswith("Si el trabajador reclama ser reinstalado")
    assert quote.endswith("salarios caídos recae en el actor.") and " … " in quote
    assert len(quote) <= 405


def test_max_sentences_is_validated() -> None:
    with pytest.raises(ValueError, match="max_sentences must be >= 1, got 0"):
        extractive_answer("x", [], max_sentences=0)


def test_split_sentences_keeps_ordinal_abbreviations() -> None:
    assert split_sentences("Artículo 1o. de la Constitución. Otra frase.\nTercera") == [
        "Artículo 1o. de la Constitución.",
        "Otra frase.",
        "Tercera",
    ]


def test_transcription_is_verbatim_with_markers() -> None:
    refs = refs_for(make_hit(3, 0, "Uno."), make_hit(3, 1, "Dos."), make_hit(4, 0, "Tres."))
    text = transcription(refs)
    assert "[1] RUBRO DE LA TESIS 3. (Décima Época, 2015, registro 3)\nUno.\nDos." in text
    assert "[2] RUBRO DE LA TESIS 4." in text
    assert check_citations(text, 2).cited == (1, 2)


def test_transcription_shows_the_rubro_once_and_where_a_partial_text_stops() -> None:
    first = make_hit(
        5, 0, "AMPARO. RUBRO.\nEl texto de la tesis que la fuente corta en", rubro="AMPARO. RUBRO."
    )
    cut = dataclasses.replace(first, passage=dataclasses.replace(first.passage, partial=True))
    text = transcription(refs_for(cut))
    assert text.count("AMPARO. RUBRO.") == 1
    assert "la fuente corta en [texto incompleto en la fuente]" in text


# The bundled corpus and the 12 real questions: lexical top chunks -> references -> answer.


@cache
def corpus() -> tuple[dict[int, Tesis], dict[int, Validity]]:
    tesis: dict[int, Tesis] = {}
    for item in read_records(REPO / "data" / "tesis.jsonl"):
        if isinstance(item, tuple):
            parsed = parse_record(item[1], "tesis.jsonl", item[0], date(2026, 1, 1))
            if isinstance(parsed, Parsed):
                tesis[parsed.tesis.registro] = parsed.tesis
    notes = parse_notes(json.loads((REPO / "data" / "vigencia_notas.json").read_text())).notes
    return tesis, notes


@cache
def chunk_index() -> list[tuple[Tesis, Chunk, set[str]]]:
    return [(t, c, set(analyze(c.text))) for t in corpus()[0].values() for c in chunk_tesis(t)]


def lexical_hits(question: str, top: int = 12) -> list[Hit]:
    """The stand-in for search: chunks ranked by the idf of the question terms they contain."""
    _, notes = corpus()
    chunks = chunk_index()
    terms = set(analyze(question))
    df = {term: sum(term in ts for _, _, ts in chunks) for term in terms}
    idf = {t: math.log(1 + len(chunks) / n) for t, n in df.items() if n}
    scored = sorted(
        ((sum(idf.get(t, 0.0) for t in ts & terms), i) for i, (_, _, ts) in enumerate(chunks)),
        key=lambda pair: (-pair[0], pair[1]),
    )[:top]
    best = scored[0][0] or 1.0
    hits = []
    for rank, (score, i) in enumerate(scored, start=1):
        t, c, _ = chunks[i]
        s = score / best
        breakdown = ScoreBreakdown(s, s, 1.0, 1.0, s, 0.0, "default")
        status = notes.get(t.registro, Validity())
        hits.append(Hit(Passage.of(t, c), breakdown, rank, rank, status))
    return hits


def questions() -> list[str]:
    return [q["texto"] for q in json.loads(QUESTIONS.read_text(encoding="utf-8"))["preguntas"]]


def test_twelve_real_questions_cite_only_valid_existing_references() -> None:
    tesis, _ = corpus()
    asked = questions()
    assert len(asked) == 12
    for question in asked:
        refs = consolidate(lexical_hits(question), max_references=5)
        text = extractive_answer(question, refs)
        check = check_citations(text, len(refs))
        assert check.phantom == (), question
        assert check.cited, question
        cited = {refs[n - 1].registro for n in check.cited}
        assert cited <= tesis.keys(), question


@pytest.mark.parametrize(
    ("order", "which"), [("latest", "más reciente"), ("earliest", "más antigua")]
)
def test_a_date_ordered_answer_quotes_reference_1_first(order: str, which: str) -> None:
    # [1] is the latest (or earliest) criterion; [2] matches the question's words better
    refs = refs_for(
        make_hit(1, 0, "El quejoso debe acreditar el daño con pruebas idóneas.", anio=2024),
        make_hit(2, 0, "La suspensión provisional procede contra actos de autoridad.", anio=1980),
    )
    question = "¿Cuál es el criterio sobre la suspensión provisional?"
    plain = extractive_answer(question, refs)
    assert "[1]" not in plain  # by relevance alone, [1] is not quoted at all
    text = extractive_answer(question, refs, date_order=order)  # type: ignore[arg-type]
    lines = text.split("\n\n")[1].splitlines()
    assert lines[0].startswith("- «El quejoso debe acreditar el daño") and lines[0].endswith("[1]")
    assert lines[1].startswith("- «La suspensión provisional") and lines[1].endswith("[2]")
    assert f"[1] es la {which} de las tesis recuperadas" in text


def test_a_date_ordered_answer_says_which_references_share_its_date() -> None:
    """Year-only tesis tie: two wordings of one request could lead with either (a prober's
    "first criterion on divorce": 251163 or 251162, both 1980)."""
    refs = refs_for(
        make_hit(1, 0, "El divorcio procede por injurias graves.", anio=1980),
        make_hit(2, 0, "El divorcio por abandono del domicilio conyugal.", anio=1980),
        make_hit(3, 0, "Los alimentos del cónyuge inocente.", anio=1982),
    )
    text = extractive_answer("el primer criterio sobre el divorcio", refs, date_order="earliest")
    assert "Con la misma fecha (1980): [2]; la fuente no precisa cuál fue primero." in text
    alone = extractive_answer("el divorcio", refs[::2], date_order="earliest")
    assert "misma fecha" not in alone


def test_a_year_only_first_reference_ties_with_every_reference_of_its_year() -> None:
    """[1] carries only 2022 and [3] is dated 2022-02-25: which came last is unknown."""
    dated = make_hit(3, 0, "El laudo laboral debe firmarse por la junta completa.", anio=2022)
    passage = dataclasses.replace(dated.passage, fecha=date(2022, 2, 25))
    refs = refs_for(
        make_hit(1, 0, "El laudo laboral se notifica personalmente.", anio=2022),
        make_hit(2, 0, "El laudo laboral admite amparo directo.", anio=2019),
        dataclasses.replace(dated, passage=passage),
    )
    text = extractive_answer("el laudo laboral más reciente", refs, date_order="latest")
    assert "Con la misma fecha (2022): [3];" in text


def test_a_date_ordered_answer_names_reference_1_by_its_rubro_without_a_whole_sentence() -> None:
    cut = make_hit(1, 0, "el texto empieza a media frase y no termina", rubro="AMPARO. RUBRO.")
    refs = refs_for(cut, make_hit(2, 0, "La suspensión provisional procede siempre."))
    text = extractive_answer("suspensión provisional", refs, date_order="latest")
    assert text.split("\n\n")[1].splitlines()[0] == (
        "- AMPARO. RUBRO. (Décima Época, 2015, jurisprudencia) [1]"  # no sentence to quote
    )
    assert check_citations(text, 2).cited == (1, 2)


def test_a_date_ordered_answer_leads_with_the_holding_of_a_recent_tesis() -> None:
    text = (
        "Hechos: Una persona promovió amparo contra la suspensión provisional negada. "
        "Criterio jurídico: La suspensión provisional exige certeza del acto reclamado."
    )
    refs = refs_for(make_hit(1, 0, text, anio=2026), make_hit(2, 0, "Otra suspensión."))
    answer = extractive_answer("suspensión provisional", refs, date_order="latest")
    assert answer.split("\n\n")[1].startswith("- «Criterio jurídico: La suspensión")


def test_a_sentence_the_chunker_cut_at_a_semicolon_is_read_across_its_two_fragments() -> None:
    refs = refs_for(
        make_hit(
            1, 0, "La Comisión no es autoridad cuando contrata el suministro con quien lo pide;"
        ),
        make_hit(1, 1, "por tanto, el amparo contra el corte del suministro es improcedente."),
    )
    answer = extractive_answer("¿Es la Comisión autoridad para el amparo?", refs)
    assert "quien lo pide; por tanto, el amparo contra el corte" in answer
    assert "lo pide;»" not in answer


def test_a_fragment_ending_at_a_colon_is_not_quoted_as_whole_without_its_sequel() -> None:
    refs = refs_for(
        make_hit(1, 0, "El agua es un derecho humano. Sus garantías son las siguientes:"),
        make_hit(1, 3, "Otra frase sobre el derecho humano al agua potable."),
    )
    answer = extractive_answer("garantías del derecho humano al agua", refs)
    assert "las siguientes:»" not in answer


def test_split_sentences_keeps_abbreviations_and_lines_broken_inside_a_sentence() -> None:
    text = (
        "Conforme a la jurisprudencia P./J. 9/2016, procede. Se impugnó el Acuerdo Núm. "
        "A/018/2023 de la Comisión. El artículo 15o.\nde la Ley lo prevé.\nOtra línea."
    )
    assert split_sentences(text) == [
        "Conforme a la jurisprudencia P./J. 9/2016, procede.",
        "Se impugnó el Acuerdo Núm. A/018/2023 de la Comisión.",
        "El artículo 15o. de la Ley lo prevé.",
        "Otra línea.",
    ]


@pytest.mark.parametrize(
    ("chunk", "text", "question", "quoted", "left_out"),
    [
        (
            0,
            "Hechos: Una persona sostuvo que la notificación surte efectos en días inhábiles. "
            "Criterio jurídico: Los días en que el juzgado laboró a puerta cerrada son "
            "inhábiles para la notificación. Justificación: Así lo exige la seguridad jurídica.",
            "¿La notificación surte efectos en días inhábiles?",
            "Criterio jurídico: Los días",
            "Una persona sostuvo",
        ),
        # a run that starts inside the case: quoted from the criterion on
        (
            1,
            "El Juzgado de Distrito determinó que no era factible ampliar la demanda de amparo. "
            "Criterio jurídico: Procede ampliar la demanda de amparo cuando los actos están "
            "vinculados.",
            "¿se puede ampliar la demanda de amparo?",
            "Criterio jurídico: Procede ampliar",
            "no era factible",
        ),
    ],
)
def test_the_case_of_a_recent_tesis_is_not_quoted_as_its_criterion(
    chunk: int, text: str, question: str, quoted: str, left_out: str
) -> None:
    answer = extractive_answer(question, refs_for(make_hit(1, chunk, text, anio=2026)))
    assert quoted in answer
    assert left_out not in answer and "Hechos:" not in answer


def test_a_long_sentence_cut_between_two_words_reads_whole_across_its_fragments() -> None:
    """The chunker also cuts a long sentence between words: a line break there had made two
    "sentences" of «… sin control por el Poder» and «Judicial, el que tiene …»."""
    refs = refs_for(
        make_hit(
            1,
            0,
            "La facultad de la autoridad no puede quedar sin control por el Poder",
            start_line=1,
            end_line=1,
        ),
        make_hit(
            1,
            1,
            "Judicial, el que tiene competencia para revisar el acto reclamado.",
            start_line=1,
            end_line=1,
        ),
    )
    answer = extractive_answer("control judicial de la facultad de la autoridad", refs)
    assert "sin control por el Poder Judicial, el que tiene competencia" in answer


def test_hechos_without_a_heading_or_in_an_older_tesis_is_just_a_word() -> None:
    refs = refs_for(
        make_hit(1, 0, "Hechos notorios son los que conoce el juez sin prueba.", anio=1980)
    )
    assert "Hechos notorios son los que conoce" in extractive_answer("hechos notorios", refs)


def test_a_numbered_part_of_a_law_may_end_a_sentence() -> None:
    assert split_sentences("Conforme a la fracción X. Ahora bien, procede.") == [
        "Conforme a la fracción X.",
        "Ahora bien, procede.",
    ]


def test_a_generic_corpus_answer_speaks_of_records_not_tesis() -> None:
    """A doc audit's find: the repositories' answer read "(, 2026, tesis aislada)" and quoted
    "Created on …", the sentence ingest writes."""
    text = (
        "Retrieval-augmented generation experiments with small local language models.\n\n"
        "Language: Python.\n\nCreated on 2024-05-05 (created in May 2024)."
    )
    hit = make_hit(929691, 0, text, anio=2024, rubro="llm-rag-playground")
    record = generic(hit, fecha=date(2024, 5, 5))
    (ref,) = refs_for(record)
    ref = dataclasses.replace(ref, extra=(("language", "Python"), ("stars", 3)))
    question = "retrieval-augmented generation experiments created in May 2024 in Python"
    answer = extractive_answer(question, [ref])
    assert "frases de los registros recuperados" in answer
    assert "(05/05/2024) [1]" in answer and "tesis" not in answer
    assert "Created on" not in answer and "Language:" not in answer


def test_a_records_own_heading_sentence_is_quoted() -> None:
    """Only what ingest wrote is left out, told by the record's own fields and date."""
    hit = make_hit(5, 0, "Breaking: Earthquake hits the coast of Oaxaca tonight.", anio=2024)
    record = generic(hit)
    answer = extractive_answer("earthquake in Oaxaca", refs_for(record))
    assert "Breaking: Earthquake hits the coast of Oaxaca tonight." in answer


def test_old_tesis_beside_a_generic_record_still_carry_the_old_law_warning() -> None:
    old = make_hit(1, 0, "La suspensión provisional procede contra actos de autoridad.", anio=1980)
    hit = make_hit(2, 0, "Notes on the provisional suspension of acts.", anio=2024)
    record = generic(hit)
    answer = extractive_answer("suspensión provisional", refs_for(old, record))
    assert "todas las fuentes son anteriores a 2000" in answer


def test_a_generic_transcription_speaks_of_records() -> None:
    hit = make_hit(5, 0, "A guestbook web app in Flask.", anio=2015)
    record = generic(hit)
    assert "texto íntegro de cada registro" in transcription(refs_for(record))


def test_an_english_question_matches_sentences_by_its_glossary_terms_in_spanish() -> None:
    # "res" of "res judicata" matched "RES/003/2011" of an unrelated tesis and left out the
    # cosa juzgada ones (a prober's find)
    refs = refs_for(
        make_hit(1, 0, "La sentencia firme adquiere autoridad de cosa juzgada."),
        make_hit(2, 0, "Así lo resolvió la Comisión en las resoluciones RES/003/2011 y otras."),
    )
    text = extractive_answer("What is res judicata?", refs, max_sentences=1)
    assert "cosa juzgada" in text and text.rstrip().endswith("[1]")
    # an acronym by its name: "CFE" is "Comisión Federal de Electricidad"
    refs = refs_for(
        make_hit(1, 0, "El interés jurídico basta para promover el amparo."),
        make_hit(2, 0, "La Comisión Federal de Electricidad no es autoridad para el amparo."),
    )
    text = extractive_answer("Is the CFE an authority?", refs, max_sentences=1)
    assert text.rstrip().endswith("[2]")


def test_a_fragment_opening_inside_a_parenthesis_is_not_quoted_from_there() -> None:
    hit = make_hit(
        1,
        0,
        "1977) no transcurrió el año del artículo 107 del Código Penal. "
        "La prescripción de la acción penal corre desde que se consuma el delito.",
    )
    text = extractive_answer(
        "¿Cuándo transcurre el año del artículo 107 del Código Penal?", [*refs_for(hit)]
    )
    assert "1977)" not in text


def test_an_english_question_keeps_its_spanish_terms() -> None:
    """A reviewer's find: only glossary phrases were kept, so "albacea" was lost and no
    sentence matched."""
    refs = refs_for(
        make_hit(1, 0, "El plazo del recurso corre desde la notificación."),
        make_hit(2, 0, "El albacea debe rendir cuentas de su administración a los herederos."),
    )
    text = extractive_answer("What happens to an albacea?", refs, max_sentences=1)
    assert text.rstrip().endswith("[2]")


def test_a_list_item_is_quoted_from_its_marker() -> None:
    """A reviewer's find: "A) …", "II) …" and "1) …" read as starting mid-sentence."""
    hit = make_hit(1, 0, "A) El plazo para interponer la revisión es de diez días.")
    text = extractive_answer("¿Cuál es el plazo para interponer la revisión?", refs_for(hit))
    assert "«A) El plazo para interponer la revisión es de diez días.»" in text
    # a lower-case item goes on a sentence begun before it: not quoted from there
    item = make_hit(2, 0, "b) que el plazo para interponer la revisión no haya vencido.")
    assert "b) que" not in extractive_answer("¿Cuál es el plazo de la revisión?", refs_for(item))
    # nor a marked one whose words go on in lower case (the chunker cut at ";" before it)
    item = make_hit(3, 0, "1) que el plazo para interponer la revisión no haya vencido.")
    assert "1) que" not in extractive_answer("¿Cuál es el plazo de la revisión?", refs_for(item))

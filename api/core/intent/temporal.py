"""Whether a question asks for the earliest, the latest or the current criterion.

Triggers are folded regexes with context vetoes (the words around a match); overlapping
matches are resolved longest-first, so "más reciente" (latest) hides "reciente" (current).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from api.core.intent.matching import Match, compile_terms, dedupe, non_overlapping, surface
from api.core.text import fold_with_map

TemporalKind = Literal["earliest", "latest", "current"]


@dataclass(frozen=True, slots=True)
class TemporalIntent:
    """Whether the question asks for the earliest, the latest or the current criterion."""

    kind: TemporalKind | None
    triggers: tuple[str, ...] = ()


NO_TEMPORAL = TemporalIntent(None, ())


@dataclass(frozen=True, slots=True)
class _Rule:
    """A temporal trigger with its context checks (on folded words around the match).

    ``stop_next``/``stop_prev``: a following/preceding word (or two-word phrase) that vetoes
    the match. ``need_prev``/``need_next``: when set, the preceding/following word must be
    one of these.
    ``proper_name``: veto a capitalized ordinal inside a name ("Primer Tribunal Colegiado",
    "Tercer Tribunal ... del Primer Circuito") when it is not at the start of a sentence and
    the next word is capitalized too. ``court_before``: the match counts only after a court
    in the same sentence ("¿qué dijo la Sala en la última sentencia...?", not "en la última
    sentencia de mi juicio..."). ``story_order``: veto an ordinal closing a clause of a story
    (``_tells_order``).
    """

    kind: TemporalKind
    pattern: re.Pattern[str]
    stop_next: frozenset[str] = frozenset()
    stop_prev: frozenset[str] = frozenset()
    need_prev: frozenset[str] = frozenset()
    need_next: frozenset[str] = frozenset()
    proper_name: bool = False
    court_before: bool = False  # a court must be named earlier in the sentence
    story_order: bool = False  # closing a clause of a story is no date order (``_tells_order``)


def _words(text: str) -> frozenset[str]:
    return frozenset(w.strip() for w in text.split(",") if w.strip())


# What a court or a text did, in the past (folded): before a closing "primero" it asks which
# came first; a first person ("pago", "hago", "presento") tells the asker's own steps. Not
# "fijó" or "integró": folded, they are the adjectives "fijo" and "íntegro".
_PAST_OF_COURTS = _words(
    "resolvio, resolvieron, publico, publicaron, dicto, dictaron, emitio, emitieron, "
    "sostuvo, sostuvieron, establecio, establecieron, decidio, decidieron, salio, salieron, "
    "aprobo, aprobaron, surgio, surgieron, sustento, sustentaron, reconocio, reconocieron, "
    "pronuncio, pronunciaron, determino, determinaron, dijo, dijeron, interpreto, "
    "interpretaron, definio, definieron, fijaron, sento, sentaron, integraron"
)


# "primer/primera/primero" names courts, chambers, circuits, instances, paragraphs and
# articles far more often than it asks for the first criterion; and in a litigant's story
# it counts the steps of their own case ("mi primer amparo", "el primer acto", "el último
# mes"). Those nouns veto an ordinal; a criterion noun after it never does.
_CASE_STEPS = _words(
    "amparo, amparos, juicio, juicios, laudo, laudos, acto, actos, demanda, demandas,"
    "emplazamiento, llamamiento, notificacion, audiencia, audiencias, pago, pagos, abono,"
    "contrato, contratos, empleo, trabajo, despido, embargo, requerimiento, citatorio,"
    "escrito, recurso, dia, dias, semana, semanas, mes, meses, ano, anos, quincena, bimestre,"
    "trimestre, semestre, periodo, ejercicio, hijo, hija, esposo, esposa, matrimonio"
)
_ORDINAL_STOP_NEXT = _CASE_STEPS | _words(
    "instancia, instancias, sala, salas, circuito, circuitos, tribunal, tribunales, colegiado,"
    "juzgado, juzgados, distrito, region, parrafo, parrafos, parte, lugar, termino, grado,"
    "nivel, epoca, titulo, capitulo, seccion, fraccion, apartado, inciso, punto, transitorio,"
    "resolutivo, considerando, vista, infancia, necesidad, mano, plana, vez, ocasion,"
    "de enero, de febrero, de marzo, de abril, de mayo, de junio, de julio, de agosto,"
    "de septiembre, de octubre, de noviembre, de diciembre, de distrito"
)
# "mi primer amparo", "ese primer llamamiento", "esta última audiencia": the asker's own
# case. ("su primer criterio" is the court's, and "su primer repositorio" the owner's.)
_OWN_CASE_PREV = _words(
    "mi, mis, tu, tus, nuestro, nuestra, nuestros, nuestras, ese, esa, esos, esas, este,"
    "esta, estos, estas, aquel, aquella, dicho, dicha"
)
_ORDINAL_STOP_PREV = _OWN_CASE_PREV | _words(
    "juzgado, tribunal, colegiado, sala, articulo, punto, resolutivo, transitorio,"
    "considerando, parrafo, inciso, fraccion, apartado, capitulo, titulo, libro, tomo"
)
# "el pago más reciente", "la deuda más antigua", "mi recibo de nómina más reciente": a
# superlative after the asker's own papers ("la tesis más reciente" is a date order).
_SUPERLATIVE_STOP_PREV = (_CASE_STEPS - _words("amparo, amparos")) | _words(
    "recibo, recibos, nomina, deuda, deudas, adeudo, adeudos, factura, facturas, multa, multas,"
    "cobro, cobros, renta, rentas, prestamo, prestamos, credito, creditos, notificaciones,"
    "audiencias, citatorios, requerimientos"
)
_LAST_STOP_NEXT = _ORDINAL_STOP_NEXT | _words(
    "domicilio, voluntad, salario, ratio, renglon, linea, oracion, tiempos, momento"
)
# "original" and "inicial" mostly qualify documents and procedural acts (copia original,
# demanda inicial, audiencia inicial): they count only after a word for a criterion.
_CRITERION_WORDS = _words(
    "criterio, criterios, tesis, jurisprudencia, jurisprudencias, postura, posturas,"
    "interpretacion, version, versiones, redaccion, texto, precedente, precedentes, sentido,"
    "doctrina, decision, resolucion, regla, posicion, repo, repositorio, proyecto"
)
# "en la última promoción", "desde el último pago", "durante la última audiencia": a
# preposition and an article before "último" place a step of the asker's story in time.
_IN_THE = frozenset(
    f"{preposition} {article}"
    for preposition in ("en", "desde", "durante", "hasta", "para", "a", "de", "con", "tras")
    for article in ("el", "la", "los", "las")
)
# What a court issues, after "en la última ..." (a date order, unlike "en la última
# promoción"); and a criterion or an owner's record after "mi primer ..." ("mi primer
# repositorio", unlike "mi primera resolución de pensión", the asker's case).
_COURT_OUTPUT = _words(
    "criterio, criterios, tesis, jurisprudencia, jurisprudencias, precedente, precedentes,"
    "postura, posturas, sentencia, sentencias, ejecutoria, ejecutorias, contradiccion,"
    "contradicciones, resolucion, resoluciones, decision, decisiones, interpretacion, doctrina"
)
_LATEST_RECORDS = _words(
    "repo, repos, repositorio, repositorios, proyecto, proyectos, version, versiones, redaccion"
)
# A court, folded: who speaks in "¿qué dijo la Sala en la última sentencia…?" and in "la
# primera vez que la Corte se pronunció".
_COURTS = r"corte|scjn|salas?|plenos?|tribunal\w*|colegiados?|juez|jueces|jueza|juzgados?"
_COURT_WORDS = re.compile(rf"\b(?:{_COURTS})\b")
_FIRST_RECORDS = _words(
    "criterio, criterios, tesis, jurisprudencia, jurisprudencias, precedente, precedentes,"
    "repo, repos, repositorio, repositorios, proyecto, proyectos"
)
# English "original/initial" open a noun phrase: after a determiner, or at the start.
_EN_DETERMINERS = _words("the, his, her, my, its, their, your, our, an, a") | {""}
_EN_DOCUMENT_STOP_NEXT = _words(
    "complaint, claim, hearing, filing, petition, document, documents, copy, deadline, term,"
    "brief, demand, jurisdiction, appearance, instance, answer, contract, contracts, agreement,"
    "agreements, lease, deed, will, invoice, receipt, title, loan, debt, price, amount, owner,"
    "judgment, sentence, award, order, charge, charges, indictment"
)
# The steps of the asker's own case, and "my/this first ...", as in Spanish.
_EN_CASE_STEPS = _words(
    "amparo, trial, hearing, appeal, award, awards, complaint, lawsuit, suit, act, notice,"
    "summons, payment, payments, instalment, installment, contract, job, dismissal, seizure,"
    "filing, brief, day, days, week, weeks, month, months, year, years, marriage, wife,"
    "husband, child, son, daughter"
)
_EN_OWN_CASE_PREV = _words("my, our, your, this, that, these, those")
_EN_FIRST_STOP_NEXT = _EN_CASE_STEPS | _words(
    "instance, chamber, circuit, collegiate, court, courts, district, paragraph, place, glance,"
    "sight, of all, name, degree, amendment, section, article, part, time"
)
# "first" as an adverb of the asker's own steps: "must we first bring a nullity suit?", "do
# I have to first...", "I first went to the board"; unlike "when did the courts first say".
_EN_FIRST_STEP_PREV = _words(
    "i, we, to, must, should, shall, may, might, must we, must i, should we, should i, do we,"
    "do i, can we, can i, could we, could i, will we, will i, happens, happen, comes, come,"
    "goes, go"
)
# "the latest payment", "my newest notice": the asker's own papers, not a date order.
_EN_LATEST_STOP_NEXT = _words(
    "payment, payments, instalment, installment, notice, notices, summons, hearing, bill,"
    "invoice, receipt, paycheck, salary, wage, wages, rent, contract, offer, letter, day, days,"
    "week, month, year"
)
_EN_LAST_STOP_NEXT = _EN_CASE_STEPS | _words(
    "paragraph, sentence, part, resort, name, word, but, time"
)


# "la primera vez que la Corte se pronunció", "cuándo se resolvió por primera vez" ask for
# the first criterion: a court, a criterion or a court's verb comes within a few words. "la
# primera vez que el patrón no pagó", "si es la primera vez", "a first time offender" tell the
# asker's story.
# A court speaking, past tense, folded: "la Corte se pronunció", "se trató", "resolvieron".
COURT_VERBS = (
    r"pronuncio|pronunciaron|resolvio|resolvieron|hablo|hablaron|abordo|abordaron|establecio|"
    r"establecieron|decidio|decidieron|determino|determinaron|sostuvo|sostuvieron|trato|"
    r"trataron"
)
_COURT_NEAR = rf"(?:{_COURTS}|jurisprudencia|tesis|criterios?|{COURT_VERBS})"
_FIRST_TIME = (
    rf"(?:por )?primera (?:vez|ocasion)(?=(?:\s+\w+){{0,4}}?\s+{_COURT_NEAR}\b)|"
    rf"se (?:{COURT_VERBS}) por primera vez|"
    r"first time(?=(?:\s+\w+){0,3}?\s+(?:court|courts|judges?|supreme|scjn|tribunal|held|ruled"
    r"|decided)\b)"
)
# "¿hay algo nuevo sobre...?", "any news on...?": the latest criterion. A lone "novedad" is
# mostly an invention's novelty.
_NEWS = (
    r"algo (?:mas )?nuevo|que hay de nuevo|novedades|"
    r"anything new|something new|what'?s new|any news|any updates?"
)
# "¿sigue vigente...?", "¿ha cambiado el criterio...?", "does it still apply?": in force now.
_STILL = (
    r"todavia (?:aplica|aplican|rige|rigen|es valid[oa]|esta vigente|sirve)|"
    r"sigue(?:n)? (?:aplicando(?:se)?|siendo valid[oa]s?|en vigor|rigiendo)|"
    r"ha(?:n)? cambiado (?:el|los|la|las) (?:criterios?|jurisprudencias?|posturas?)|"
    r"still (?:applies|apply|stands|stand|holds|hold)"
)


# Verbs of a legal term running, after "desde cuándo".
_TERM_RUNS = _words(
    "empieza, comienza, inicia, corre, corren, cuenta, cuentan, computa, se computa, se cuenta,"
    "surte, opera, prescribe, transcurre, vence, es exigible, debo, debe, tengo"
)


def _rule(
    kind: TemporalKind,
    terms: str,
    stop_next: frozenset[str] = frozenset(),
    stop_prev: frozenset[str] = frozenset(),
    need_prev: frozenset[str] = frozenset(),
    need_next: frozenset[str] = frozenset(),
    proper_name: bool = False,
    court_before: bool = False,
    story_order: bool = False,
) -> _Rule:
    """A rule from a folded regex matched on word boundaries. Alternatives ('|') are tried
    in order, so a phrase goes before a word that begins it ("hoy en dia|hoy")."""
    pattern = compile_terms([terms])
    return _Rule(
        kind,
        pattern,
        stop_next,
        stop_prev,
        need_prev,
        need_next,
        proper_name,
        court_before,
        story_order,
    )


_TEMPORAL_RULES: tuple[_Rule, ...] = (
    # earliest
    _rule(
        "earliest",
        r"primerisim(?:o|a|os|as)|primer|primera|primeras|primeros",
        stop_next=_ORDINAL_STOP_NEXT,
        stop_prev=_ORDINAL_STOP_PREV,
        proper_name=True,
    ),
    # ... but "mi primer repositorio", "my first project" ask for the owner's first record
    _rule("earliest", rf"primer(?:a|o)?(?= (?:{'|'.join(sorted(_FIRST_RECORDS))})\b)"),
    _rule("earliest", r"first(?= (?:repo|repos|repository|repositories|project|projects)\b)"),
    # "primero" alone is mostly the adverb ("primero presenté", "necesita primero calcular",
    # "sin ofrecérmela primero.", "¿qué hago primero?", "¿a quién le pagan primero?"): it asks
    # for the first as a pronoun ("el primero") or after a court's or a text's past verb
    # closing the question ("¿qué se resolvió primero?", "¿cuál se publicó primero?").
    _rule("earliest", r"primero", need_prev=_words("el, lo, los, fue, es, sea")),
    _rule("earliest", r"primero(?=\s*\?|\s*$)", need_prev=_PAST_OF_COURTS),
    _rule(
        "earliest", r"original|initial", need_prev=_EN_DETERMINERS, stop_next=_EN_DOCUMENT_STOP_NEXT
    ),
    _rule("earliest", r"when did(?:\s+\w+){0,3}\s+(?:start|begin)"),
    # "el aumento que empezó a aplicarse en 2023" tells a story; "¿con qué repositorio
    # empezó?" and "¿cuándo comenzó la Corte a sostener...?" ask for the first.
    _rule("earliest", r"empezo|comenzo", stop_prev=_words("que, se, lo, ya, cual")),
    # ... unlike "¿cuándo se empezó a hablar de...?", "¿cuándo surgió...?", asked (the "¿")
    _rule("earliest", r"(?<=¿)cuando (?:se (?:empezo|comenzo)|(?:se )?(?:surgio|aparecio))"),
    # "¿desde cuándo se sostiene...?" asks for the first criterion; "¿desde cuándo empieza
    # a correr el plazo?" asks when a legal term starts.
    _rule("earliest", r"desde cuando", stop_next=_TERM_RUNS),
    _rule("earliest", r"since when"),
    _rule("earliest", r"longest without|mas tiempo sin|(?:in|for) the longest(?: time)?"),
    _rule(
        "earliest",
        r"mas antigu(?:o|a|os|as)|mas viej(?:o|a|os|as)",
        stop_prev=_SUPERLATIVE_STOP_PREV,
    ),
    _rule("earliest", r"original(?:es)?|inicial(?:es)?", need_prev=_CRITERION_WORDS),
    _rule(
        "earliest",
        r"origen|origenes",
        # "país/juez/tribunal de origen", "el sexo o el origen": not a question of dates;
        # "el origen del criterio" is.
        stop_prev=_words("de, del"),
        need_next=_words("de, del"),
    ),
    _rule(
        "earliest",
        r"first",
        stop_next=_EN_FIRST_STOP_NEXT,
        stop_prev=_EN_OWN_CASE_PREV | _EN_FIRST_STEP_PREV,
        proper_name=True,
        story_order=True,  # "he attacked the neighbour first." tells the story's order
    ),
    _rule("earliest", r"earliest|oldest"),
    _rule("earliest", _FIRST_TIME),
    # a criterion's history, oldest first: "histórico de criterios sobre la huelga",
    # "evolución del criterio sobre...", "timeline of rulings on..."
    _rule(
        "earliest",
        # of a criterion, not of a disease or of messages ("la evolución de la enfermedad")
        r"(?:historico|historia|evolucion|cronologia) de(?:l| la| los| las)? "
        r"(?:criterios?|jurisprudencias?|tesis|postura|precedentes?)|"
        r"linea de(?:l)? tiempo|timeline|"
        r"(?:history|evolution|chronology) of (?:the )?(?:case law|rulings?|criteria|criterion|"
        r"precedents?|jurisprudence|theses|thesis)",
    ),
    # latest
    _rule(
        "latest",
        r"mas recientes?|mas nuev(?:o|a|os|as)|mas actualizad(?:o|a|os|as)|mas actual(?:es)?",
        stop_prev=_SUPERLATIVE_STOP_PREV,
    ),
    _rule(
        "latest",
        r"ultim(?:o|a|os|as)",
        stop_next=_LAST_STOP_NEXT,
        # por último (finally), en última instancia; "mi último salario"; "en la última
        # promoción ascendieron...": a step of the asker's story
        stop_prev=_words("por, en") | _OWN_CASE_PREV | _IN_THE,
    ),
    # ... unless what a court issues follows: "¿qué dijo la Sala en la última sentencia
    # sobre...?" (not "mi última resolución", the asker's own)
    _rule(
        "latest",
        rf"ultim(?:o|a|os|as)(?= (?:{'|'.join(sorted(_COURT_OUTPUT))})\b)",
        stop_prev=_OWN_CASE_PREV,
        court_before=True,
    ),
    # ... and an owner's record, or a criterion's wording: "mi último repositorio", "en la
    # última versión de la jurisprudencia"
    _rule("latest", rf"ultim(?:o|a|os|as)(?= (?:{'|'.join(sorted(_LATEST_RECORDS))})\b)"),
    _rule("latest", r"nuev(?:o|os) criterios?|nuevas? (?:jurisprudencias?|tesis)"),
    _rule("latest", _NEWS),
    _rule("latest", r"novedad", need_prev=_words("hay, alguna, ninguna, ultima")),
    _rule("latest", r"latest|newest", stop_next=_EN_LATEST_STOP_NEXT, stop_prev=_EN_OWN_CASE_PREV),
    _rule(
        "latest",
        r"most recently|most recent|most current|most up[ -]to[ -]date|last updated|updated last",
    ),
    _rule(
        "latest",
        r"last",
        stop_next=_EN_LAST_STOP_NEXT,
        stop_prev=_words("at, at long") | _EN_OWN_CASE_PREV,
        story_order=True,  # "of the two creditors, I was paid last." is the story's order
    ),
    # current
    _rule(
        "current",
        r"actual(?:es)?",
        # "afectación real y actual", "agravio personal, directo y actual": amparo doctrine.
        stop_prev=_words("real y, directo y, directa y, personal y"),
        stop_next=_words("y directo, y directa, y real"),
    ),
    _rule("current", r"actualmente|en la actualidad|vigentes?|hoy en dia|hoy"),
    _rule(
        "current",
        r"(?:despues de|a partir de|desde|tras|con|posterior(?:es)? a) la (?:ultima )?reforma|"
        r"recientes?|en los ultimos anos",
        stop_prev=_words("mas"),  # a "más reciente" the latest rule left: the asker's papers
    ),
    _rule(
        "current",
        r"current|currently|in force|today|nowadays|after the reform|still valid|good law",
    ),
    _rule("current", _STILL),
)

_WORD = re.compile(r"\w+")
_SENTENCE_OPENERS = frozenset(".?!¿¡:;\n")
_KINDS: dict[str, TemporalKind] = {"earliest": "earliest", "latest": "latest", "current": "current"}


def _next_words(folded: str, end: int) -> tuple[str, str]:
    """The next word and the next two words, when only whitespace separates them."""
    first = re.match(r"\s+(\w+)(?:\s+(\w+))?", folded[end:])
    if not first:
        return "", ""
    one = first.group(1)
    return one, f"{one} {first.group(2)}" if first.group(2) else one


def _prev_words(folded: str, start: int) -> tuple[str, str]:
    """The previous word and the previous two words (no punctuation in between)."""
    before = re.search(r"(?:(\w+)\s+)?(\w+)\s+$", folded[max(0, start - 80) : start])
    if not before:
        return "", ""
    one = before.group(2)
    return one, f"{before.group(1)} {one}" if before.group(1) else one


def _sentence_before(folded: str, start: int, reach: int) -> str:
    """The words of the sentence that reaches ``start``, at most ``reach`` characters back."""
    return re.split(r"[.?!¿¡;]", folded[max(0, start - reach) : start])[-1]


def _court_before(folded: str, start: int) -> bool:
    """Whether a court is named earlier in the sentence that reaches ``start``."""
    return bool(_COURT_WORDS.search(_sentence_before(folded, start, 120)))


def _opens_sentence(question: str, start: int) -> bool:
    head = question[:start].rstrip()
    return not head or head[-1] in _SENTENCE_OPENERS


def _is_proper_name(question: str, source: Sequence[int], m: Match) -> bool:
    """A capitalized ordinal, not opening a sentence, followed by a capitalized word."""
    start = source[m.start]
    if not question[start].isupper() or _opens_sentence(question, start):
        return False
    after = _WORD.search(question, source[m.end - 1] + 1)
    return bool(after and after.group(0)[0].isupper())


# An English ordinal closing a clause (before a period, comma, semicolon, colon, exclamation,
# dash, bracket or quote; not a question mark, nor a typed query's end) tells the order of the
# asker's story, unless the sentence asks for it ("which ruling came first, A or B?", "show
# me the criterion the Court issued last.").
_CLAUSE_END = re.compile(r"\s*(?:[.,;:!)\]\"”»…]|--?\s|—)")
_ASKING = re.compile(r"\b(?:which|what|when|who|show me|give me|tell me|list|find)\b")


def _tells_order(folded: str, m: Match) -> bool:
    if not _CLAUSE_END.match(folded, m.end):
        return False
    return not _ASKING.search(_sentence_before(folded, m.start, 200))


def _vetoed(rule: _Rule, question: str, source: Sequence[int], folded: str, m: Match) -> bool:
    nxt = _next_words(folded, m.end)
    prev = _prev_words(folded, m.start)
    if any(w in rule.stop_next for w in nxt if w):
        return True
    if any(w in rule.stop_prev for w in prev if w):
        return True
    if rule.need_prev and prev[0] not in rule.need_prev:
        return True
    if rule.need_next and nxt[0] not in rule.need_next:
        return True
    if rule.court_before and not _court_before(folded, m.start):
        return True
    if rule.story_order and _tells_order(folded, m):
        return True
    if not rule.proper_name:
        return False
    if _is_proper_name(question, source, m):
        return True
    # "Primero," / "First," opening a sentence is a discourse marker (firstly), not a date.
    return folded[m.end : m.end + 1] in {",", ":"} and _opens_sentence(question, source[m.start])


def temporal_matches(question: str) -> list[tuple[TemporalKind, str]]:
    """Every (kind, trigger) in the question, in text order, vetoed and overlapping removed."""
    folded, source = fold_with_map(question)
    found: list[Match] = []
    for rule in _TEMPORAL_RULES:
        for hit in rule.pattern.finditer(folded):
            match = Match(hit.start(), hit.end(), rule.kind)
            if not _vetoed(rule, question, source, folded, match):
                found.append(match)
    return [(_KINDS[m.label], surface(question, source, m)) for m in non_overlapping(found)]


def detect_temporal(question: str) -> TemporalIntent:
    """Earliest, latest or current, with its trigger words.

    An ordering request (earliest, latest) beats ``current``: "la jurisprudencia vigente más
    reciente" is a latest question. Between earliest and latest the kind with more triggers
    wins, and on a tie the one mentioned first.
    """
    matches = temporal_matches(question)
    if not matches:
        return NO_TEMPORAL
    ordering = [(k, t) for k, t in matches if k != "current"]
    if ordering:
        counts = Counter(k for k, _ in ordering)  # insertion order = order of first mention
        kind: TemporalKind = counts.most_common(1)[0][0]  # ties: first encountered
    else:
        kind = "current"
    return TemporalIntent(kind, dedupe(t for k, t in matches if k == kind))

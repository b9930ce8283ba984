"""An answer composed from the references' own sentences, for when no LLM is configured.

Sentences are scored by the idf-weighted question terms they contain (accent-folded, Spanish
stopwords removed, prefix-stemmed as for BM25) and, when a ``SentenceScorer`` is given (the
embedder's cosine to the question), by their meaning: both normalized and averaged. Ties go to
the better-ranked reference, then to the earlier sentence. Sentences of off-topic references
(no question term anywhere, when others have some) and cut sentences (the last one of a
fragment that stops mid-sentence or of a tesis whose stored text is partial, or a fragment's
first one starting mid-sentence) are never quoted. Each sentence carries its reference's
``[N]``, so only valid numbers can appear. When a configured LLM failed, the header says
"el modelo no respondió (motivo)".

Example::

    extractive_answer("¿Procede la suspensión provisional?", refs)
    # 'Respuesta extractiva (sin modelo de lenguaje): …
    #
    #  - «La suspensión …» (Décima Época, 2014, jurisprudencia) [1]'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from api.core.acronyms import spelled_out
from api.core.citations import neutralize
from api.core.glossary import reads_as_english, translate_terms, untranslated
from api.core.language import detect_language
from api.core.record_text import written_by_ingest
from api.core.references import MODERN_YEAR, Fragment, Reference, all_predate
from api.core.text import analyze, fold
from api.core.validity import describe

HEADER = "Respuesta extractiva (sin modelo de lenguaje)"
CUT_MARK = "[texto incompleto en la fuente]"
_HOLDING = "criterio juridico"  # folded: how Undécima and Duodécima Época tesis state it
DateOrder = Literal["earliest", "latest"]
# What reference [1] of a date-ordered answer is, for tesis and for a generic corpus's records.
_FIRST_OF: dict[DateOrder, dict[bool, str]] = {
    "earliest": {
        False: "la más antigua de las tesis recuperadas",
        True: "el más antiguo de los registros recuperados",
    },
    "latest": {
        False: "la más reciente de las tesis recuperadas",
        True: "el más reciente de los registros recuperados",
    },
}
# The question and the sentences -> one cosine per sentence (the embedder, in the service).
SentenceScorer = Callable[[str, Sequence[str]], Sequence[float]]
SEMANTIC_SHARE = 0.5  # weight of the meaning against the lexical overlap when both are known
# A fragment ending at ";" or ":" stops mid-sentence: the chunker cuts there, and the rest
# (often the holding, or the list a colon announces) is in the next chunk.
_ENDS_WHOLE = re.compile(r"[.?!»\")…]\s*$")
NO_INFO = "No tengo información sobre"
# A sentence ends at . ? ! before an upper-case opener (not at "1o. de"), or at a line break.
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[¿¡«\"(]?[A-ZÁÉÍÓÚÑ])|\n+")
# ... but not after an abbreviation ("la jurisprudencia P./J. 9/2016", "el Acuerdo Núm.
# A/018/2023", "C. Juez"): an initial, or a short word the tesis abbreviate.
_ABBREVIATION = re.compile(
    r"(?:^|[\s(./])(?:[A-ZÁÉÍÓÚÑ]|[Nn]úms?|[Aa]rts?|[Ff]racc?|[Ii]ncs?|[Pp]ágs?|[Vv]ol"
    r"|[Ee]xp|[Ll]ic|[Ss]r|[Ss]ra|[Dd]r|[Dd]ra|[Ii]ng|[Cc]fr|[Cc]onst)\.$"
)
# ... except a Roman numeral that numbers a part of a law, which may end a sentence
# ("conforme a la fracción X. Ahora bien, ...")
_NUMBERED_PART = re.compile(
    r"(?:fracci[oó]n|tomo|t[ií]tulo|cap[ií]tulo|libro|apartado)\s+[IVXLC]+\.$", re.IGNORECASE
)


def _generated(ref: Reference, sentence: str) -> bool:
    """A date or label sentence ingest wrote into a generic record's text."""
    return ref.generic and written_by_ingest(sentence, ref.fecha, ref.extra)


# The sections of an Undécima or Duodécima Época tesis (folded openings): the case, the
# holding, the reasons. The case is the parties' dispute, never the criterion.
_SECTIONS = {"hechos": "case", _HOLDING: "holding", "justificacion": "reasons"}
_SECTIONED = frozenset({"Undécima Época", "Duodécima Época"})
MAX_SENTENCE_CHARS = 400
HEAD_CHARS = 150  # of a shortened sentence, the opening kept; the close gets the rest
MIN_SENTENCE_CHARS = 20
LENGTH_B = 0.5  # BM25's b: how much a sentence's length discounts its matches
RELATIVE_FLOOR = 0.35  # sentences scoring under this share of the best one are left out
# Without a question term, a sentence counts only when its cosine is this close to the best
# sentence's (e5's cosines sit in a narrow band).
SEMANTIC_MARGIN = 0.02


def header(llm_error: str | None = None) -> str:
    """'Respuesta extractiva (sin modelo de lenguaje)', or, when a configured model failed,
    'Respuesta extractiva; el modelo no respondió (motivo)'."""
    if llm_error is None:
        return HEADER
    return f"Respuesta extractiva; el modelo no respondió ({neutralize(llm_error)})"


@dataclass(frozen=True, slots=True)
class _Sentence:
    ref: Reference
    order: int  # position within the reference, for ties
    text: str
    terms: frozenset[str]


def split_sentences(text: str) -> list[str]:
    """``text``'s sentences: cut at . ? ! before a capital and at line breaks, joined again
    after an abbreviation and where a line break falls inside a sentence (the next line opens
    in lower case: "artículo 15o.\nde la Ley")."""
    sentences: list[str] = []
    start = 0
    for end in [*_SENTENCE_END.finditer(text), None]:
        piece = text[start : end.start() if end else len(text)].strip()
        if piece and sentences and (_abbreviated(sentences[-1]) or piece[:1].islower()):
            sentences[-1] = f"{sentences[-1]} {piece}"
        elif piece:
            sentences.append(piece)
        start = end.end() if end else len(text)
    return sentences


def _abbreviated(sentence: str) -> bool:
    """Whether ``sentence`` ends at an abbreviation, so the next piece continues it."""
    return bool(_ABBREVIATION.search(sentence)) and not _NUMBERED_PART.search(sentence)


def _shorten(sentence: str) -> str:
    """A sentence over ``MAX_SENTENCE_CHARS`` keeps its opening and its close, the middle
    elided: a tesis' sentence states its conditions first and its holding last ("Si el
    trabajador reclama … la carga de la prueba del despido … recae en el actor.")."""
    sentence = neutralize(sentence)
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return sentence
    head = sentence[:HEAD_CHARS].rsplit(" ", 1)[0].rstrip(",;: ")
    tail = sentence[len(sentence) - (MAX_SENTENCE_CHARS - len(head)) :]
    tail = tail.split(" ", 1)[1] if " " in tail else tail  # from a whole word
    return f"{head} … {tail}"


def _body(ref: Reference, text: str) -> str:
    """Fragment text without the rubro (chunk 0 starts with it; it is shown as the title)."""
    return text[len(ref.rubro) :] if text.startswith(ref.rubro) else text


def _shouting(sentence: str) -> bool:
    """Upper-case lines are rubros and órgano names, not statements worth quoting."""
    letters = [c for c in sentence if c.isalpha()]
    return sum(c.isupper() for c in letters) > 0.6 * len(letters)


# A fragment's first words inside a sentence: lowercase, a mark that follows a word, or a
# bracket closed before any is opened ("1977) no transcurrió el año…").
_MID_SENTENCE = re.compile(r"^(?:[a-záéíóúñü]|[,;:.)\]]|[^\s(\[]*[)\]])")


# A list item's marker before a capital is a sentence's start ("A) La autoridad…", "II) El…",
# "1) Que…"); "1) disponibilidad, …" or "b) que…" goes on a sentence begun before it.
_ENUMERATOR = re.compile(r"^(?:[A-Z]|[IVXLC]+|\d{1,2})[).]\s+[A-ZÁÉÍÓÚÑ«\"]")


def _starts_mid_sentence(sentence: str) -> bool:
    return not _ENUMERATOR.match(sentence) and bool(_MID_SENTENCE.match(sentence))


def _whole_sentences(ref: Reference, text: str, last_fragment: bool) -> list[str]:
    """The sentences of contiguous fragments without the cut ones: a last sentence that stops
    mid-word or mid-sentence (or ends a partial tesis), a first one that starts mid-sentence,
    and those of the case ("Hechos: ...") of a recent tesis."""
    sentences = split_sentences(_body(ref, text))
    if sentences and (not _ENDS_WHOLE.search(sentences[-1]) or (ref.partial and last_fragment)):
        sentences = sentences[:-1]
    if sentences and _starts_mid_sentence(sentences[0]):
        sentences = sentences[1:]
    if ref.epoca not in _SECTIONED:
        return sentences
    sections = [_section(s) for s in sentences]
    # the sections come in order (case, holding, reasons): before the first heading of a run
    # that starts inside the text, the case when that heading is the holding's
    first = next((s for s in sections if s), "")
    section = "case" if first == "holding" else ""
    kept = []
    for sentence, heading in zip(sentences, sections, strict=True):
        section = heading or section
        if section != "case":
            kept.append(sentence)
    return kept


def _section(sentence: str) -> str:
    """The section a sentence's heading opens ("Hechos:", "Criterio jurídico:"), or ""."""
    opening = fold(sentence[:40])
    return next((v for k, v in _SECTIONS.items() if opening.startswith(f"{k}:")), "")


def _contiguous(ref: Reference) -> list[str]:
    """The text of each run of consecutive fragments (chunks i, i+1, ...), so a sentence the
    chunker cut at ";" or ":" is read whole when both its chunks were retrieved."""
    runs: list[str] = []
    previous: Fragment | None = None
    for fragment in ref.fragments:
        if previous is not None and fragment.chunk_index == previous.chunk_index + 1:
            # a new line where the text breaks one; else a space (the chunker also cuts a long
            # sentence between two words, and a line break there would end it)
            joint = "\n" if fragment.start_line > previous.end_line else " "
            runs[-1] = f"{runs[-1]}{joint}{fragment.text}"
        else:
            runs.append(fragment.text)
        previous = fragment
    return runs


def _candidates(refs: Sequence[Reference]) -> list[_Sentence]:
    out: list[_Sentence] = []
    seen: set[str] = set()
    for ref in refs:
        order = 0
        runs = _contiguous(ref)
        for i, text in enumerate(runs):
            last = i == len(runs) - 1
            for sentence in _whole_sentences(ref, text, last):
                key = fold(sentence)
                if len(sentence) < MIN_SENTENCE_CHARS or key in seen or _shouting(sentence):
                    continue
                if _generated(ref, sentence):  # its date and labels, written by ingest
                    continue
                seen.add(key)
                out.append(_Sentence(ref, order, sentence, frozenset(analyze(sentence))))
                order += 1
    return out


def _topic(question: str) -> str:
    topic = question.strip().strip("¿?¡! ")
    return topic[0].lower() + topic[1:] if topic else "esa pregunta"


def _source(ref: Reference) -> str:
    if ref.generic:  # a record of a generic corpus: its date, no época or kind of tesis
        return f"({_date_said(ref)}) {ref.marker}"
    tipo = "jurisprudencia" if ref.tipo == "Jurisprudencia" else "tesis aislada"
    return f"({ref.epoca}, {ref.anio}, {tipo}) {ref.marker}"


def _sources(refs: Sequence[Reference]) -> tuple[str, str]:
    """What the references are and what their titles are called: tesis and their rubros, or
    a generic corpus's records and their titles."""
    if refs and all(r.generic for r in refs):
        return "los registros recuperados", "títulos"
    return "las tesis recuperadas", "rubros"


def _date_said(ref: Reference) -> str:
    """ "1980" for a year-only tesis, "24/11/2026" for one dated to the day."""
    return ref.fecha.strftime("%d/%m/%Y") if ref.fecha else str(ref.anio)


def _same_date(ref: Reference, first: Reference) -> bool:
    """Whether the sources cannot tell ``ref`` and ``first`` apart by date: the same day, or
    the same year when either carries only its year."""
    if ref.fecha is None or first.fecha is None:
        return ref.anio == first.anio
    return ref.fecha == first.fecha


def _quote(sentence: _Sentence) -> str:
    return f"- «{_shorten(sentence.text)}» {_source(sentence.ref)}"


def _warnings(refs: Sequence[Reference]) -> list[str]:
    notes = [
        f"Advertencia: la referencia {ref.marker} está {describe(ref.status)}."
        for ref in refs
        if not ref.status.vigente
    ]
    tesis = [ref for ref in refs if not ref.generic]  # a generic record is no old law
    if tesis and all_predate(tesis):
        notes.append(
            f"Advertencia: todas las fuentes son anteriores a {MODERN_YEAR}; pueden no "
            "reflejar el criterio vigente."
        )
    return notes


def _on_topic(sentences: list[_Sentence], query: set[str]) -> list[_Sentence]:
    """Drop the sentences of references that share no question term (when some do)."""
    matching = {s.ref.number for s in sentences if s.terms & query}
    if not matching:
        return sentences
    return [s for s in sentences if s.ref.number in matching]


def _normalized(values: Sequence[float]) -> list[float]:
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return [1.0 if high > 0 else 0.0 for _ in values]
    return [(v - low) / (high - low) for v in values]


def question_terms(question: str, tesis: bool = True) -> set[str]:
    """The terms a sentence must share with ``question`` to answer it. An English question's,
    over ``tesis``, are its glossary phrases in Spanish, its acronyms' names and its words no
    glossary phrase covers ("albacea"): a phrase's own words ("res" of "res judicata") match
    only look-alikes ("RES/003/2011") there. A generic corpus's records are read in the
    question's own words."""
    english = detect_language(question) in ("en", "mixed") or reads_as_english(question)
    if tesis and english:
        said = [translate_terms(question), untranslated(question), *spelled_out(question)]
        return set(analyze(" ".join(said)))
    return set(analyze(question))


def rank_sentences(
    question: str, refs: Sequence[Reference], scorer: SentenceScorer | None = None
) -> list[tuple[float, _Sentence]]:
    """Sentences by score, best first: idf of the matched question terms over a BM25-style
    length norm (long legal sentences otherwise win by matching generic terms), averaged with
    the sentence's cosine to the question when ``scorer`` is given. A sentence with neither a
    question term nor a cosine near the best one scores 0."""
    query = question_terms(question, tesis=any(ref.epoca for ref in refs))
    sentences = _on_topic(_candidates(refs), query)
    if not sentences:
        return []
    df = {term: sum(term in s.terms for s in sentences) for term in query}
    idf = {t: math.log(1 + len(sentences) / n) for t, n in df.items() if n}
    avg_terms = sum(len(s.terms) for s in sentences) / len(sentences) or 1.0
    rank = {ref.number: i for i, ref in enumerate(refs)}

    def lexical(s: _Sentence) -> float:
        norm = 1 - LENGTH_B + LENGTH_B * len(s.terms) / avg_terms
        return sum(idf.get(t, 0.0) for t in s.terms & query) / norm

    lex = [lexical(s) for s in sentences]
    scores = lex
    if scorer is not None:
        cosines = [float(c) for c in scorer(question, [s.text for s in sentences])]
        best = max(cosines)
        lex_n, sem_n = _normalized(lex) if max(lex) > 0 else [0.0] * len(lex), _normalized(cosines)
        scores = [
            (1 - SEMANTIC_SHARE) * lx + SEMANTIC_SHARE * sm
            if raw_lex > 0 or cos >= best - SEMANTIC_MARGIN
            else 0.0
            for lx, sm, raw_lex, cos in zip(lex_n, sem_n, lex, cosines, strict=True)
        ]
    return sorted(
        zip(scores, sentences, strict=True),
        key=lambda pair: (-pair[0], rank[pair[1].ref.number], pair[1].order),
    )


def extractive_answer(
    question: str,
    refs: Sequence[Reference],
    max_sentences: int = 4,
    scorer: SentenceScorer | None = None,
    llm_error: str | None = None,
    date_order: DateOrder | None = None,
) -> str:
    """The sentences of ``refs`` that best answer ``question``, each followed by its ``[N]``.

    ``llm_error`` (a configured model failed) is named in the header. ``date_order``: the
    references were sorted by date because the question asked for the earliest or latest
    criterion, so reference [1] is the answer: it is quoted first, whatever its sentences score.
    """
    if max_sentences < 1:
        raise ValueError(f"max_sentences must be >= 1, got {max_sentences}")
    if not refs:
        return f"{NO_INFO} {_topic(question)} en las tesis recuperadas."
    title = header(llm_error)
    scored = rank_sentences(question, refs, scorer)
    floor = RELATIVE_FLOOR * scored[0][0] if scored else 0.0
    chosen = [s for score, s in scored if score > 0 and score >= floor]
    if date_order is not None:
        first = refs[0]
        own = [s for _, s in scored if s.ref.number == first.number]
        if not own:  # its sentences share no question word: its best one all the same
            own = [s for _, s in rank_sentences(question, [first], scorer)]
        # a recent tesis states its holding after "Criterio jurídico:", its case after "Hechos:"
        lead = next((s for s in own if fold(s.text).startswith(_HOLDING)), None)
        lead = lead or (own[0] if own else None)
        others = [s for s in chosen if s is not lead][: max_sentences - 1]
        line = f"- «{_shorten(lead.text)}»" if lead else f"- {neutralize(first.rubro)}"
        lines = [f"{line} {_source(first)}"] + [_quote(s) for s in others]
        which = _FIRST_OF[date_order][first.generic]
        intro = (
            f"{title}: {first.marker} es {which} sobre el tema; después, las frases que mejor "
            "coinciden con la pregunta."
        )
        if tied := [r.marker for r in refs[1:] if _same_date(r, first)]:
            # a year-only date ties: no wording of the question should pass for an order
            intro += (
                f" Con la misma fecha ({_date_said(first)}): {', '.join(tied)}; la fuente no "
                "precisa cuál fue primero."
            )
        cited = {first.number} | {s.ref.number for s in others}
    elif chosen := chosen[:max_sentences]:
        lines = [_quote(s) for s in chosen]
        intro = f"{title}: frases de {_sources(refs)[0]} que mejor coinciden con la pregunta."
        cited = {s.ref.number for s in chosen}
    else:
        lines = [f"- {neutralize(ref.rubro)} {_source(ref)}" for ref in refs[:max_sentences]]
        sources, titles = _sources(refs)
        intro = (
            f"{title}: ninguna frase de {sources} coincide con los términos de la "
            f"pregunta; estos son sus {titles}."
        )
        cited = {ref.number for ref in refs[:max_sentences]}
    notes = _warnings([ref for ref in refs if ref.number in cited])
    return "\n\n".join([intro, "\n".join(lines), *(["\n".join(notes)] if notes else [])])


def transcription(refs: Sequence[Reference], llm_error: str | None = None) -> str:
    """The fragments verbatim, per reference, for full-text requests without an LLM."""
    if not refs:
        return f"{NO_INFO} esos documentos en las tesis recuperadas."
    each = "registro" if all(ref.generic for ref in refs) else "tesis"
    parts = [
        f"{header(llm_error)}: transcripción literal de los fragmentos recuperados (puede no ser "
        f"el texto íntegro de cada {each})."
    ]
    for ref in refs:
        # the rubro is the title line; a partial tesis says where its source stops
        body = neutralize("\n".join(_body(ref, f.text).strip() for f in ref.fragments))
        if ref.partial:
            body = f"{body} {CUT_MARK}"
        source = f"({ref.epoca}, {ref.anio}, registro {ref.registro})"
        title = f"{ref.marker} {neutralize(ref.rubro)} {source}"
        parts.append(f"{title}\n{body}")
    notes = _warnings(refs)
    return "\n\n".join([*parts, *(["\n".join(notes)] if notes else [])])

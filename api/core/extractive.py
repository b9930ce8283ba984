"""An answer composed from the references' own sentences, for when no LLM is configured.

Sentences are scored by the idf-weighted question terms they contain (accent-folded, Spanish
stopwords removed, prefix-stemmed as for BM25); ties go to the better-ranked reference, then to
the earlier sentence. Each sentence carries its reference's ``[N]``, so only valid numbers can
appear.

Example::

    extractive_answer("¿Procede la suspensión provisional?", refs)
    # 'Respuesta extractiva (sin modelo de lenguaje): …
    #
    #  - «La suspensión …» (Décima Época, 2014, jurisprudencia) [1]'
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from api.core.citations import neutralize
from api.core.references import MODERN_YEAR, Reference, all_predate
from api.core.text import analyze, fold
from api.core.validity import describe

HEADER = "Respuesta extractiva (sin modelo de lenguaje)"
NO_INFO = "No tengo información sobre"
# A sentence ends at . ? ! before an upper-case opener (not at "1o. de"), or at a line break.
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[¿¡«\"(]?[A-ZÁÉÍÓÚÑ])|\n+")
MAX_SENTENCE_CHARS = 400
MIN_SENTENCE_CHARS = 20
LENGTH_B = 0.5  # BM25's b: how much a sentence's length discounts its matches
RELATIVE_FLOOR = 0.35  # sentences scoring under this share of the best one are left out


@dataclass(frozen=True, slots=True)
class _Sentence:
    ref: Reference
    order: int  # position within the reference, for ties
    text: str
    terms: frozenset[str]


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _shorten(sentence: str) -> str:
    sentence = neutralize(sentence)
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return sentence
    cut = sentence[:MAX_SENTENCE_CHARS].rsplit(" ", 1)[0]
    return cut.rstrip(",;: ") + " …"


def _body(ref: Reference, text: str) -> str:
    """Fragment text without the rubro (chunk 0 starts with it; it is shown as the title)."""
    return text[len(ref.rubro) :] if text.startswith(ref.rubro) else text


def _shouting(sentence: str) -> bool:
    """Upper-case lines are rubros and órgano names, not statements worth quoting."""
    letters = [c for c in sentence if c.isalpha()]
    return sum(c.isupper() for c in letters) > 0.6 * len(letters)


def _candidates(refs: Sequence[Reference]) -> list[_Sentence]:
    out: list[_Sentence] = []
    seen: set[str] = set()
    for ref in refs:
        order = 0
        for fragment in ref.fragments:
            for sentence in split_sentences(_body(ref, fragment.text)):
                key = fold(sentence)
                if len(sentence) < MIN_SENTENCE_CHARS or key in seen or _shouting(sentence):
                    continue
                seen.add(key)
                out.append(_Sentence(ref, order, sentence, frozenset(analyze(sentence))))
                order += 1
    return out


def _topic(question: str) -> str:
    topic = question.strip().strip("¿?¡! ")
    return topic[0].lower() + topic[1:] if topic else "esa pregunta"


def _source(ref: Reference) -> str:
    tipo = "jurisprudencia" if ref.tipo == "Jurisprudencia" else "tesis aislada"
    return f"({ref.epoca}, {ref.anio}, {tipo}) {ref.marker}"


def _warnings(refs: Sequence[Reference]) -> list[str]:
    notes = [
        f"Advertencia: la referencia {ref.marker} está {describe(ref.status)}."
        for ref in refs
        if not ref.status.vigente
    ]
    if all_predate(refs):
        notes.append(
            f"Advertencia: todas las fuentes son anteriores a {MODERN_YEAR}; pueden no "
            "reflejar el criterio vigente."
        )
    return notes


def rank_sentences(question: str, refs: Sequence[Reference]) -> list[tuple[float, _Sentence]]:
    """Sentences by score, best first: idf of the matched question terms over a BM25-style
    length norm (long legal sentences otherwise win by matching generic terms)."""
    sentences = _candidates(refs)
    if not sentences:
        return []
    query = set(analyze(question))
    df = {term: sum(term in s.terms for s in sentences) for term in query}
    idf = {t: math.log(1 + len(sentences) / n) for t, n in df.items() if n}
    avg_terms = sum(len(s.terms) for s in sentences) / len(sentences) or 1.0
    rank = {ref.number: i for i, ref in enumerate(refs)}

    def score(s: _Sentence) -> float:
        norm = 1 - LENGTH_B + LENGTH_B * len(s.terms) / avg_terms
        return sum(idf.get(t, 0.0) for t in s.terms & query) / norm

    return sorted(
        ((score(s), s) for s in sentences),
        key=lambda pair: (-pair[0], rank[pair[1].ref.number], pair[1].order),
    )


def extractive_answer(question: str, refs: Sequence[Reference], max_sentences: int = 4) -> str:
    """The most relevant sentences of ``refs``, each followed by its ``[N]``."""
    if max_sentences < 1:
        raise ValueError(f"max_sentences must be >= 1, got {max_sentences}")
    if not refs:
        return f"{NO_INFO} {_topic(question)} en las tesis recuperadas."
    scored = rank_sentences(question, refs)
    floor = RELATIVE_FLOOR * scored[0][0] if scored else 0.0
    chosen = [s for score, s in scored[:max_sentences] if score > 0 and score >= floor]
    if chosen:
        lines = [f"- «{_shorten(s.text)}» {_source(s.ref)}" for s in chosen]
        intro = f"{HEADER}: frases de las tesis recuperadas que mejor coinciden con la pregunta."
    else:
        lines = [f"- {neutralize(ref.rubro)} {_source(ref)}" for ref in refs[:max_sentences]]
        intro = (
            f"{HEADER}: ninguna frase de las tesis recuperadas coincide con los términos de la "
            "pregunta; estos son sus rubros."
        )
    cited = {s.ref.number for s in chosen} or {ref.number for ref in refs[:max_sentences]}
    notes = _warnings([ref for ref in refs if ref.number in cited])
    return "\n\n".join([intro, "\n".join(lines), *(["\n".join(notes)] if notes else [])])


def transcription(refs: Sequence[Reference]) -> str:
    """The fragments verbatim, per reference, for full-text requests without an LLM."""
    if not refs:
        return f"{NO_INFO} esos documentos en las tesis recuperadas."
    parts = [
        f"{HEADER}: transcripción literal de los fragmentos recuperados (puede no ser el texto "
        "íntegro de cada tesis)."
    ]
    for ref in refs:
        body = neutralize("\n".join(f.text for f in ref.fragments))
        source = f"({ref.epoca}, {ref.anio}, registro {ref.registro})"
        title = f"{ref.marker} {neutralize(ref.rubro)} {source}"
        parts.append(f"{title}\n{body}")
    notes = _warnings(refs)
    return "\n\n".join([*parts, *(["\n".join(notes)] if notes else [])])

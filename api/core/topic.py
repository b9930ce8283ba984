"""What a temporal question is about, once its ordering words and filler are set aside.

"Show me Jakub's very first repository on GitHub" has no topic: every word is an ordering
trigger, a document noun, filler, the platform or the owner's name. "el primer criterio sobre la
suspensión" has one: ``suspen``. Only a topic narrows the date-sorted pool.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from api.core.acronyms import with_names
from api.core.intent.named_filters import without_years
from api.core.intent.temporal import COURT_VERBS
from api.core.language import ENGLISH_FUNCTION_WORDS
from api.core.text import fold, lemmas

# Nouns that name the kind of document rather than a topic: "the first repository", "el
# criterio más reciente". A question made only of these has no topic: every document counts.
DOCUMENT_NOUNS = frozenset(
    lemmas(
        "criterio criterios tesis jurisprudencia jurisprudencias precedente precedentes "
        "resolución sentencia documento documentos cuál cuáles fue fueron "
        "emitido emitida publicado publicada dictado dictada sobre tema corte "
        "repo repos project projects proyecto proyectos "
        "which what was were is are there ever document documents record records "
        "created made ruling rulings decision decisions holding holdings judgment judgments "
        "criterion criteria precedent case cases court courts supreme mexican "
        "thesis theses rule rules ruled corpus colección semanario acervo "
        # words naming which date (api.core.date_fields), not what the record is about
        "commit commits push pushed update updated actualizado actualizados actualizó "
        "touched touch last"
    )
)
# What a generic corpus's records are (a news or blog archive's): document nouns there, and
# law's words in a store of tesis ("notas de crédito", "la nota de remisión", "los artículos
# transitorios"). An "artículo" with a number after it is an article of a law anywhere.
RECORD_NOUNS = frozenset(
    lemmas("noticia noticias nota notas news story stories post posts entrada entradas")
)
_RECORD_ARTICLES = re.compile(r"\b(?:articulos?|articles?)\b(?!\s+\d)")  # on folded text
# Words that ask, point or intensify, and the platform a corpus lives on: never a topic.
FILLER = frozenset(
    lemmas(
        "show tell give list find know see want please let me about regarding thing things "
        "getting gets out "  # "getting out on bail": the asker's phrasing, not the subject
        "very really exactly ever one ones his her him he she they their it its did do does "
        "has have had got get hold holds make create publish published start started began "
        "begin when where who whom whose how much many long without push pushed commit "
        "dime muéstrame muestra muestrame enséñame ensename dame di quiero saber ver favor "
        "porfa por muy realmente exactamente nunca jamás respecto acerca uno una "
        "creó creo hizo publicó publico subió subio empezó empezo comenzó comenzo "
        "cuándo cuando dónde quién qué cómo cuánto lleva tenía tiene tienen hay existen existe "
        "fue es era "
        "algún alguna algunos algunas any some all todo toda todos todas hubo sostiene sostuvo "
        "algo alguien nadie nada "
        "sostenido sostenida hablar habla hablan hablado talk talking said say says "
        "dice dicen decir dijo dijeron debe deben debía antes después "
        "hasn haven didn doesn isn wasn weren aren gone been "
        "oye oiga mira hey oigan "  # calling out, not a subject (not "perdón": del ofendido)
        "vigente vigentes "  # the criterion in force, asked for: "el criterio vigente más reciente"
        "github gitlab bitbucket sourceforge codeberg platform plataforma account "
        "profile perfil user usuario owner dueño"
    )
) | frozenset(lemmas(" ".join(ENGLISH_FUNCTION_WORDS)))  # "the first ruling against an ..."
# "Time" that measures a wait ("cuánto tiempo lleva", "más tiempo sin"), unlike the subject
# "tiempo extraordinario" (overtime).
_HOW_LONG = re.compile(
    r"\b(?:cuanto|mas|menos|mucho|poco)\s+tiempo\b|\bsin (?:cambios|tocar(?:se|lo)?)\b"
)  # on folded text: also what the wait is without ("sin cambios"), a date, not a topic
# Document nouns and filler whose stem is also a legal word's ("position" and "positiva":
# "positi"; "repositorio" and "reposición"; "author" and "authority"): taken out as whole words.
_WHOLE_DOCUMENT_NOUNS = re.compile(
    r"\b(?:positions?|repositor(?:y|ies|io|ios)|authors?|autor(?:es)?)\b"  # on folded text
    r"|\bposturas?\b(?!\s+legal)"  # "la postura más nueva", not an auction's "postura legal"
    # "el registro más reciente", not "el registro de sindicatos" or "el registro sindical"
    r"|\bregistros?\b(?!\s+(?:de|del|sindical(?:es)?|marcario|civil|publico|agrario|laboral"
    r"|sindicatos?|marcas?)\b)"
)
# Words around the topic that only point at it: a relative clause ("la tesis más nueva que
# hable de...", "la más antigua que tienen"), "en materia de" before it, an idiom ("la última
# palabra de la Corte"), a decade it is compared with ("que lo de los años ochenta").
_POINTING = re.compile(
    r"\bque\s+(?:se\s+)?(?:hablen?|traten?|versen?|refieran?|aborden?|mencionen?|toquen?|"
    r"tengan?|tienen?|tenemos|hay|haya|existan?|exista)\b"
    r"|\ben\s+(?:la\s+)?materias?\s+de\b|\bultima\s+palabra\b|\ben\s+torno\s+al?\b"
    r"|\bcase\s+law\b"
    # the crime named is the subject: "el delito de fraude" is "fraude", "the crime of fraud"
    r"|\bdelitos?\s+de\b|\b(?:crimes?|offen[cs]es?)\s+of\b"
    # asking for the topic, not a subject: "la legitimación para pedir amparo"
    r"|\bpara\s+(?:pedir|solicitar|promover|interponer|tramitar|presentar)\b"
    r"|\b(?:los\s+)?anos\s+(?:veinte|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa)\b"
)  # on folded text
# A court speaking ("la primera vez que la Corte se pronunció sobre...", "when the court first
# held that..."): whole words, as stems these are topics too ("determinación", "trato",
# "address" of a domicile).
_COURT_SPOKE = re.compile(
    rf"\bse (?:{COURT_VERBS})\b|"
    # without "se": "trató" is also a noun ("trato digno")
    rf"\b(?:{'|'.join(v for v in COURT_VERBS.split('|') if not v.startswith('trat'))})\b|"
    r"\bque\s+trat(?:o|aron)\b|"  # "la primera vez que trató el recurso de queja"
    r"\b(?:held|ruled|decided|addressed|dealt with|weighed in)\b"
)  # on folded text
# Who said it, asked of the courts ("lo más nuevo que han dicho los jueces sobre...", "desde
# cuándo dicen los tribunales que..."): the speaker, not the subject ("el juez de distrito").
_SPEAKERS = (
    r"(?:los|las|el|la)\s+(?:jueces|juezas|juez|jueza|tribunales|magistrados|ministros)"
    r"(?:\s+(?:colegiados|federales|de\s+distrito|de\s+circuito|del\s+trabajo))?"
)
_SAYING = (
    r"(?:han|ha|hayan|haya)\s+(?:dicho|resuelto|decidido|sostenido|establecido|determinado)"
    r"|dicen|dijeron|dijo|resuelven|deciden|sostienen|opinan|piensan|consideran"
)
_SPEAKER_SAID = re.compile(
    rf"\b(?:{_SAYING})\s+{_SPEAKERS}\b|\b{_SPEAKERS}\s+(?:{_SAYING})\b"
)  # on folded text
# What the asker must do, not the subject: "tener que agotar los recursos", "hay que pagar"
_MUST = re.compile(r"\b(?:tener|tengo|tiene|tienes|tienen|tenemos|hay)\s+que\b")
# The country every tesis is of ("the latest ruling on strikes in Mexico", "Mexican courts"),
# not a state's name ("el Código Penal del Estado de México").
_COUNTRY = re.compile(r"\b(?:in|en)\s+mexico\b|\bmexican(?:o|a|os|as)?\b")  # on folded text
_NAME = r"([A-ZÁÉÍÓÚÑ][a-záéíóúñ]+)"
# How a question names an owner rather than a subject: "Jakub's", "el repo más reciente de
# Jakub" (a possessor closes the phrase, unlike "el repositorio de Rust más reciente"), "the
# latest repo Jakub has made".
_OWNER_PATTERNS = (
    re.compile(rf"\b{_NAME}'s\b"),  # a name's: "Jakub's", not "the defendant's right"
    # (not a place: "el Código Penal del Estado de México", "la Ciudad de México")
    re.compile(
        rf"(?<!Estado )(?<!estado )(?<!Ciudad )(?<!ciudad )\b(?:de|by|from|of)\s+{_NAME}\s*(?:[,.?!;:]|$)"
    ),
    re.compile(
        rf"\b{_NAME}\s+(?:has|had|did|made|created|built|started|wrote|published|pushed|"
        r"released|uploaded|creó|hizo|empezó|comenzó|publicó|subió)\b"
    ),
    re.compile(rf"\b(?:creó|hizo|empezó|comenzó|publicó|subió)\s+{_NAME}"),
    # the subject of a question's auxiliary: "What did Jakub publish last?"
    re.compile(rf"\b(?:did|does|has|have|had|will|would|can|could)\s+{_NAME}\b"),
)
_CAPITALIZED = re.compile(r"\b[A-ZÁÉÍÓÚÑ][a-záéíóúñ]+\b")
_SENTENCE_OPENERS = frozenset(".?!¿¡:;")


def topic_terms(question: str, triggers: Sequence[str], records: bool = False) -> list[str]:
    """Content terms of ``question`` without its temporal triggers, document nouns, filler
    and owners' names ("Jakub's"). Repeated terms are kept once, in order. A trigger is taken
    out where it stands, not by its stem: "el criterio más antiguo sobre la prima de
    antigüedad" keeps "antigüedad". An acronym stands for its name ("la CFE": "comisi",
    "federa", "electr"), which is not an owner's name for ending the question. ``records``:
    the corpus is a generic one's (no tesis), whose own nouns ("la primera nota", "the first
    article") are document nouns too."""
    names = {
        t
        for pattern in _OWNER_PATTERNS
        for m in pattern.finditer(question)
        for t in lemmas(m.group(1))
    }
    skip = DOCUMENT_NOUNS | FILLER | names | (RECORD_NOUNS if records else frozenset())
    asked = fold(with_names(question))
    patterns = (
        _HOW_LONG,
        _WHOLE_DOCUMENT_NOUNS,
        _COURT_SPOKE,
        _SPEAKER_SAID,
        _MUST,
        _COUNTRY,
        _POINTING,
    )
    for pattern in (*patterns, _RECORD_ARTICLES) if records else patterns:
        asked = pattern.sub(" ", asked)
    for trigger in triggers:
        # "SCJN" as a filter: its name too ("lo más reciente de la SCJN sobre arrendamiento")
        for said in dict.fromkeys((trigger, with_names(trigger))):
            words = r"\s+".join(map(re.escape, fold(said).split()))
            asked, found = re.subn(rf"\b{words}\b", " ", asked)
            if not found:  # written apart from how the detector reported it: drop its terms
                skip = skip | set(lemmas(said))
    # a year dates the answer, it is no subject (an article's number is)
    terms = (t for t in lemmas(without_years(asked)) if t not in skip)
    return list(dict.fromkeys(terms))


def without_pointing(question: str) -> str:
    """``question`` folded, less the words that only point at its topic ("the crime of fraud"
    is "fraud"): what its glossary readings are read from."""
    return _POINTING.sub(" ", fold(question))


def name_candidates(question: str) -> set[str]:
    """Terms of capitalized words inside a sentence ("Jakub", "Rust"): a name unless the
    corpus shows it as a topic (the caller checks how many documents contain it)."""
    found: set[str] = set()
    for match in _CAPITALIZED.finditer(question):
        head = question[: match.start()].rstrip()
        if head and head[-1] not in _SENTENCE_OPENERS:
            found.update(lemmas(match.group(0)))
    return found


# How far apart a topic's terms may stand in a document and still name it (``lemmas``, so
# stopwords do not count): "suspensión del acto reclamado" names ("suspen", "acto",
# "reclam"); a tesis with "tiempo" in one sentence and "extraordinario" in another does not
# name "tiempo extraordinario".
TOPIC_SLACK = 3


def names_topic(text: str, terms: Sequence[str]) -> bool:
    """Whether ``text`` names every term (``lemmas``: singular, folded stems), all of them within
    ``len(terms) + TOPIC_SLACK`` consecutive words."""
    if not terms:
        return True
    wanted = set(terms)
    tokens = _terms_of(text)
    if not wanted <= set(tokens):
        return False
    width = len(wanted) + TOPIC_SLACK
    last_seen: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token in wanted:
            last_seen[token] = i
            if len(last_seen) == len(wanted) and i - min(last_seen.values()) < width:
                return True
    return False


def heads_topic(rubro: str, terms: Sequence[str]) -> bool:
    """Whether ``rubro`` opens with the first of two or more ``terms`` and holds them all: its
    heading is the topic's head and the rest qualify it, however far ("SUSPENSIÓN PROVISIONAL.
    SON INSUFICIENTES… PARA TENER POR EXISTENTE EL ACTO RECLAMADO" is on "la suspensión del
    acto reclamado", whose terms stand too far apart for ``names_topic``)."""
    if len(terms) < 2:
        return False
    said = _terms_of(rubro)
    return bool(said) and said[0] == terms[0] and set(terms) <= set(said)


@functools.lru_cache(maxsize=8192)
def _terms_of(text: str) -> tuple[str, ...]:
    """``lemmas`` of a document's opening, kept: a date order reads the same openings for
    each reading of its topic, and the next question about the subject reads them again."""
    return tuple(lemmas(text))


def topic_words(question: str, topic: Sequence[str]) -> list[str]:
    """The words of ``question`` that make its ``topic``, in order, each once ("teletrabajo")."""
    wanted = set(topic)
    found = (w for w in _WORDS.findall(question) if set(lemmas(w)) & wanted)
    return list(dict.fromkeys(found))


_WORDS = re.compile(r"[\w-]+")

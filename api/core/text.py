"""Text analysis for lexical matching in Spanish: accent folding, stopwords, prefix stemming."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

_WORD = re.compile(r"\w+", re.UNICODE)

STOPWORDS = frozenset(
    """
    a al ante bajo cabe con contra de del desde durante e el en entre hacia hasta la las le
    les lo los mas me mediante mi no nos o os para pero por que se segun si sin so sobre su
    sus tal te tras u un una uno unos unas y ya es son ser fue han ha he hay esta este esto
    estos estas ese esa eso esos esas cual cuales cuando como donde quien quienes cuyo cuya
    dicho dicha dichos dichas otro otra otros otras asi tambien muy ni sino aun the of and
    or in on to for is are what which was were be been do did does has have had my your our
    their his her its i we you they me us them this that these those mi mis tu tus nuestro
    nuestra nuestros nuestras
    """.split()  # noqa: SIM905
)

# A question's own scaffolding that the index keeps but a lexical query should not ask for:
# Snowball's Spanish stop list (snowballstem.org), less what STOPWORDS already has: pronouns,
# quantifiers and every form of estar, haber, ser and tener; and the asking verbs ("¿puedo...?",
# "quiero", "¿qué hago?", "¿qué pasa si...?"). A litigant writes "tengo",
# "está", "fue", "haya"; a tesis rarely does, so BM25 gives these words a high idf and rewards
# passages for them. Applied to Spanish questions only ("era" is an English word too).
QUESTION_STOPWORDS = (
    frozenset(
        """
    porque todo todos ellos antes algunos yo tanto mucho nada muchos poco ella estar algunas
    algo nosotros tu ti el ellas nosotras vosotros vosotras mio mia mios mias tuyo tuya tuyos
    tuyas suyo suya suyos suyas vuestro vuestra vuestros vuestras
    estoy estas esta estamos estais estan este estes estemos esteis esten estare estaras
    estara estaremos estareis estaran estaria estarias estariamos estariais estarian estaba
    estabas estabamos estabais estaban estuve estuviste estuvo estuvimos estuvisteis
    estuvieron estuviera estuvieras estuvieramos estuvierais estuvieran estuviese estuvieses
    estuviesemos estuvieseis estuviesen estando estado estada estados estadas estad
    he has ha hemos habeis han haya hayas hayamos hayais hayan habre habras habra habremos
    habreis habran habria habrias habriamos habriais habrian habia habias habiamos habiais
    habian hube hubiste hubo hubimos hubisteis hubieron hubiera hubieras hubieramos
    hubierais hubieran hubiese hubieses hubiesemos hubieseis hubiesen habiendo habido habida
    habidos habidas
    soy eres es somos sois son sea seas seamos seais sean sere seras sera seremos sereis
    seran seria serias seriamos seriais serian era eras eramos erais eran fui fuiste fue
    fuimos fuisteis fueron fuera fueras fueramos fuerais fueran fuese fueses fuesemos
    fueseis fuesen siendo sido
    tengo tienes tiene tenemos teneis tienen tenga tengas tengamos tengais tengan tendre
    tendras tendra tendremos tendreis tendran tendria tendrias tendriamos tendriais tendrian
    tenia tenias teniamos teniais tenian tuve tuviste tuvo tuvimos tuvisteis tuvieron tuviera
    tuvieras tuvieramos tuvierais tuvieran tuviese tuvieses tuviesemos tuvieseis tuviesen
    teniendo tenido tenida tenidos tenidas tened
    puedo puedes puede podemos pueden pueda puedas podamos puedan podria podrias podriamos
    podrian podre podras podra podremos podran pude pudo pudieron pudiera pudieran
    quiero quieres quiere queremos quieren hago hace hacemos hacen hacer pasa pasaria
    quisiera quisieramos saber necesito necesitamos gustaria
    """.split()  # noqa: SIM905
    )
    - STOPWORDS
)

_NOT_ASKED = STOPWORDS | QUESTION_STOPWORDS

# Truncating words to their first six letters is a strong, dependency-free stemmer for Spanish
# (improcedencia/improcedente -> "improc", sobreseimiento/sobresee -> "sobres").
STEM_LENGTH = 6


def fold(text: str) -> str:
    """Lowercase and strip accents (ñ becomes n)."""
    decomposed = unicodedata.normalize("NFD", text.lower().translate(_ORDINAL_INDICATORS))
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


_ORDINAL_INDICATORS = str.maketrans({"ª": "a", "º": "o"})  # "2ª Sala", "10ª Época", "1º"


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    return fold(char)


@functools.lru_cache(maxsize=1024)  # each detector of a search folds the same question
def fold_with_map(text: str) -> tuple[str, tuple[int, ...]]:
    """``fold(text)`` and, for each of its characters, the index of its source character."""
    out: list[str] = []
    source: list[int] = []
    for i, char in enumerate(text):
        folded = _fold_char(char)  # a question's characters repeat: each folded once
        out.append(folded)
        source.extend([i] * len(folded))
    return "".join(out), tuple(source)


def words(text: str) -> list[str]:
    """Folded word tokens, stopwords included."""
    return _WORD.findall(fold(text))


def analyze(text: str) -> list[str]:
    """Folded, stopword-free, prefix-stemmed terms: what BM25 indexes and queries."""
    return [w[:STEM_LENGTH] for w in _content_words(text)]


def lemmas(text: str) -> list[str]:
    """``analyze`` with each word made singular first (``singular``): how a date-sorted
    question's topic is compared with what a document says it is about, so "los actos
    reclamados" names the tesis on "ACTO RECLAMADO". BM25 keeps ``analyze``: singular forms in
    the index cost a question of the evaluation's dev split (current@1 83.8 -> 82.5)."""
    return [_lemma_stem(singular(w)) for w in _content_words(text)]


def _lemma_stem(word: str) -> str:
    """``word``'s first ``STEM_LENGTH`` letters, or one more where those are a stopword: "contra"
    is the stem of contrato, contrario, contradicción and contraloría, which a topic tells
    apart ("contrat", "contrar", "contrad", "contral")."""
    stem = word[:STEM_LENGTH]
    return word[: STEM_LENGTH + 1] if stem in STOPWORDS else stem


def _content_words(text: str) -> Iterator[str]:
    """``words`` less stopwords and single letters."""
    return (w for w in words(text) if w not in STOPWORDS and len(w) > 1)


def singular(word: str) -> str:
    """A folded Spanish word without its plural ending, so a short word's plural stems like
    its singular: actos -> acto, ordenes -> orden, leyes -> ley, jueces -> juez. Words of six
    letters or more lose nothing that truncation keeps (pruebas, prueba -> "prueba")."""
    if word in _SINGULAR_ES:
        return word
    if len(word) >= 5 and word.endswith("es") and word[-3] in _PLURAL_ES:
        stem = word[:-2]
        return stem[:-1] + "z" if stem.endswith("c") else stem
    if len(word) >= 4 and word.endswith("s") and word[-2] in "aeiou":
        return word[:-1]
    return word


def indexed_forms(lemma: str) -> list[str]:
    """The stems ``analyze`` may have indexed for a word of this ``lemmas`` term: itself and
    its plurals' (costa: costas; orden: ordene; juez: jueces), for BM25 to find them all;
    each written as a query word that ``analyze`` reads back as that stem (``as_query_word``)."""
    plurals = [lemma + "s", lemma + "es"] + ([lemma[:-1] + "ces"] if lemma.endswith("z") else [])
    stems = dict.fromkeys(form[:STEM_LENGTH] for form in (lemma, *plurals))
    return [as_query_word(stem) for stem in stems]


def as_query_word(stem: str) -> str:
    """``stem`` as a word a BM25 query keeps: a stem that is also a stopword ("contra", the
    stem of "contrato" and "contrario") gets a letter past the stem length, which ``analyze``
    cuts off again; as it was, the query dropped it and no tesis named "contratos"."""
    if stem in STOPWORDS and len(stem) == STEM_LENGTH:
        return stem + "x"
    return stem


_PLURAL_ES = frozenset("rlndjcy")  # consonants before a plural "-es": actor-es, ley-es, juec-es
# Singular words ending like such a plural once their accent is folded ("interés")
_SINGULAR_ES = frozenset("interes ingles frances japones holandes".split())  # noqa: SIM905


def without_question_words(text: str) -> str:
    """``text``'s words less stopwords and ``QUESTION_STOPWORDS``, space-separated: a Spanish
    question's lexical query, as either store's BM25 then reads it (Weaviate's tokenizer
    knows no Spanish stopwords)."""
    return " ".join(w for w in _WORD.findall(text) if fold(w) not in _NOT_ASKED)


# How a complete tesis text ends: a sentence mark, a closing bracket or quote.
_TEXT_ENDINGS = (".", "…", ")", "]", '"', "»", "”", "!", "?", ":", ";")


def ends_mid_sentence(text: str) -> bool:
    """True when ``text`` stops without closing its last sentence (cut in its source)."""
    stripped = text.rstrip()
    return bool(stripped) and not stripped.endswith(_TEXT_ENDINGS)


def unencodable_at(text: str) -> int | None:
    """Index of the first character UTF-8 cannot encode (a lone surrogate, JSON ``"\\ud800"``),
    or None when all of ``text`` can be stored and sent."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None

"""Which language a question is in, from its function words (pure, no model).

The corpus is Spanish; an English question matches almost none of its terms, so lexical
retrieval needs a translation (``api.core.glossary``) and the vector side more weight. Function
words are the most reliable cheap signal: every sentence has them, and the two lists share none.
"""

from __future__ import annotations

from typing import Literal

from api.core.text import words

Language = Literal["es", "en", "mixed", "unknown"]

ENGLISH_FUNCTION_WORDS = frozenset(
    """
    the an of and or as in on at to for from by with without about into over under after before
    is are was were be been being do does did has have had can could should would will shall
    may might must not yes what which who whom whose when where why how that this these
    those it its there their they them he she his her we our you your i my if then than
    any some all each every only also still yet against between during through upon whether
    """.split()  # noqa: SIM905
)
ENGLISH_WORDS = ENGLISH_FUNCTION_WORDS | frozenset(
    ["court", "courts", "judge", "ruling", "rulings", "law", "laws", "right", "rights"]
)
SPANISH_WORDS = frozenset(
    """
    el la los las un una unos unas de del al y o u en con sin por para sobre entre desde hasta
    que se es son fue fueron ser estar esta este esto estos estas ese esa eso cual cuales cuando
    donde como quien quienes cuyo su sus mi mis tu tus le les lo nos ya tambien pero sino porque
    debe deben puede pueden procede hay ha han tiene tienen juez
    tribunal ley derecho derechos
    """.split()  # noqa: SIM905
)
# One language owns a question when it has at least this share of its function words.
DOMINANT_SHARE = 0.75


def detect_language(text: str) -> Language:
    """``es``, ``en``, ``mixed`` (both languages' function words) or ``unknown`` (neither)."""
    tokens = words(text)
    english = sum(1 for w in tokens if w in ENGLISH_WORDS)
    spanish = sum(1 for w in tokens if w in SPANISH_WORDS)
    if english + spanish == 0:
        return "unknown"
    share = english / (english + spanish)
    if share >= DOMINANT_SHARE:
        return "en"
    if share <= 1 - DOMINANT_SHARE:
        return "es"
    return "mixed"

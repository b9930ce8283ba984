"""Citation markers in answers: which numbers are cited, which are phantoms, and their removal.

Recognized markers: ``[1]``, adjacent ``[1][2]``, lists ``[1, 2]`` / ``[1; 2]`` / ``[1 y 2]``,
ranges ``[1-3]`` / ``[1–3]`` and the prefixed forms ``[Referencia 2]`` / ``[Ref. 2]``. A marker
longer than ``MAX_MARKER_CHARS`` is plain text. Number 0 and numbers above ``n_refs`` are phantoms.

Example::

    check_citations("A [1][2]. B [7].", 3)
    # CitationCheck(cited=(1, 2, 7), valid=(1, 2), phantom=(7,), uncited=(3,), coverage=0.666…)
    strip_phantoms("A [1][2]. B [7].", 3)  # 'A [1][2]. B.'

For streams, ``PhantomFilter`` holds back a trailing partial marker (and the spaces and
markers just before it) so a phantom is never emitted; the pieces it returns join up to
exactly ``strip_phantoms`` of the whole text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_MARKER_CHARS = 64
# A range wider than this is read as its two ends, not expanded ([1-2014] is not 2014 cites).
MAX_RANGE = 50

# Markers never span lines (so a stream can hold back an unfinished one until its line ends).
_PREFIX = r"(?:ref(?:erencias?)?\.?[ \t]*)?"
_ITEM = r"\d{1,4}(?:[ \t]*[-–][ \t]*\d{1,4})?"
_SEP = r"(?:[ \t]*[,;][ \t]*|[ \t]+y[ \t]+)"
MARKER = re.compile(
    rf"\[[ \t]*{_PREFIX}({_ITEM}(?:{_SEP}{_PREFIX}{_ITEM})*)[ \t]*\]", re.IGNORECASE
)
_NUMBER_OR_RANGE = re.compile(r"(\d+)(?:[ \t]*[-–][ \t]*(\d+))?")
_CLOSING = set(".,;:!?)]»”\"'")


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """Numbers cited in an answer. ``coverage`` = valid cited / references (0.0 if none)."""

    cited: tuple[int, ...]
    valid: tuple[int, ...]
    phantom: tuple[int, ...]
    uncited: tuple[int, ...]
    coverage: float


def _numbers(body: str) -> list[int]:
    numbers: list[int] = []
    for match in _NUMBER_OR_RANGE.finditer(body):
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if first <= last <= first + MAX_RANGE:
            numbers.extend(range(first, last + 1))
        else:
            numbers.extend((first, last))
    return numbers


def markers(text: str) -> list[tuple[int, int, list[int]]]:
    """``(start, end, numbers)`` of every citation marker, in text order."""
    return [
        (m.start(), m.end(), _numbers(m.group(1)))
        for m in MARKER.finditer(text)
        if m.end() - m.start() <= MAX_MARKER_CHARS
    ]


def neutralize(text: str) -> str:
    """Quoted source text with its bracketed numbers in parentheses, so none reads as a cite."""
    return MARKER.sub(lambda m: f"({m.group(0)[1:-1]})", text)


def check_citations(text: str, n_refs: int) -> CitationCheck:
    cited = sorted({n for _, _, numbers in markers(text) for n in numbers})
    valid = [n for n in cited if 1 <= n <= n_refs]
    valid_set = set(valid)
    return CitationCheck(
        cited=tuple(cited),
        valid=tuple(valid),
        phantom=tuple(n for n in cited if n not in valid_set),
        uncited=tuple(n for n in range(1, n_refs + 1) if n not in valid_set),
        coverage=len(valid) / n_refs if n_refs > 0 else 0.0,
    )


def _rewrite(numbers: list[int], n_refs: int) -> str | None:
    """The marker for the valid numbers, or None when none is valid."""
    kept = list(dict.fromkeys(n for n in numbers if 1 <= n <= n_refs))
    return "[" + ", ".join(map(str, kept)) + "]" if kept else None


def strip_phantoms(text: str, n_refs: int) -> str:
    """Remove phantom numbers; a marker left empty disappears with the space that preceded it.

    Markers with only valid numbers are kept verbatim; mixed ones are rewritten as ``[1, 2]``.
    Text elsewhere is untouched, and removing a marker never leaves a double space.
    """
    out: list[str] = []
    position = 0
    for start, end, numbers in markers(text):
        out.append(text[position:start])
        position = end
        if all(1 <= n <= n_refs for n in numbers):
            out.append(text[start:end])
            continue
        replacement = _rewrite(numbers, n_refs)
        if replacement is not None:
            out.append(replacement)
            continue
        position = _drop_gap(out, text, end)
    out.append(text[position:])
    return "".join(out)


def _drop_gap(out: list[str], text: str, end: int) -> int:
    """Tidy the spaces around a removed marker; return where copying resumes."""
    following = text[end] if end < len(text) else ""
    if following == "[":  # another marker follows: keep the space before this one
        return end
    before = "".join(out)
    trimmed = before.rstrip(" \t")
    had_space = len(trimmed) < len(before)
    if had_space and (following in ("", "\n", " ", "\t") or following in _CLOSING):
        out[:] = [trimmed]
        return end
    if not had_space and following in (" ", "\t") and (not trimmed or trimmed[-1] in "\n(«“"):
        while end < len(text) and text[end] in " \t":  # marker opened a line: drop its gap
            end += 1
    return end


def _safe_end(text: str) -> int:
    """Where the held-back tail starts: a partial marker, and trailing spaces and markers."""
    end = len(text)
    bracket = text.rfind("[")
    tail = text[bracket:]
    if bracket >= 0 and "]" not in tail and "\n" not in tail and len(tail) < MAX_MARKER_CHARS:
        end = bracket
    while True:
        end = len(text[:end].rstrip(" \t"))
        if end and text[end - 1] == "]":
            start = text.rfind("[", 0, end)
            if (
                start >= 0
                and end - start <= MAX_MARKER_CHARS
                and MARKER.fullmatch(text, start, end)
            ):
                end = start
                continue
        return end


class PhantomFilter:
    """Strips phantom markers from a text that arrives in pieces, never emitting one.

    Example::

        f = PhantomFilter(n_refs=2)
        f.feed("Procede [1") + f.feed("][9] si") + f.finish()  # 'Procede [1] si'
    """

    def __init__(self, n_refs: int) -> None:
        self.n_refs = n_refs
        self.raw = ""
        self.shown = ""

    def feed(self, piece: str) -> str:
        """The newly safe text (possibly '')."""
        self.raw += piece
        return self._advance(strip_phantoms(self.raw[: _safe_end(self.raw)], self.n_refs))

    def finish(self) -> str:
        """Whatever was held back, cleaned: call once at the end of the stream."""
        return self._advance(strip_phantoms(self.raw, self.n_refs))

    def _advance(self, shown: str) -> str:
        if not shown.startswith(self.shown):  # cannot happen by construction; never retract
            raise AssertionError("PhantomFilter output is not append-only")
        delta, self.shown = shown[len(self.shown) :], shown
        return delta

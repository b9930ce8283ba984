"""Deterministic chunking of rubro + texto into passages with exact character and line spans."""

from __future__ import annotations

import re
from collections.abc import Callable

from api.core.models import Chunk, Tesis

_TOKEN = re.compile(r"\w+|[^\w\s]", re.UNICODE)
# A sentence ends at . ; : ? ! followed by whitespace, or at a newline.
_BREAK = re.compile(r"(?<=[.;:?!])\s+|\n+")

DEFAULT_MAX_TOKENS = 160
# A last chunk shorter than this (typically the court's name) is folded into the one before:
# embedded with the rubro in front, it would mirror the rubro and outrank real text.
MIN_TAIL_TOKENS = 20


def count_tokens(text: str) -> int:
    """Word and punctuation count: a stable, model-independent proxy for subword tokens.

    On these Spanish texts e5's tokenizer yields ~1.4 subwords per counted token, so the
    default 160 stays well inside the model's 512-token window.
    """
    return len(_TOKEN.findall(text))


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BREAK.finditer(text):
        if match.start() > start:
            spans.append((start, match.start()))
        start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    trimmed = [(s, s + len(text[s:e].rstrip())) for s, e in spans]
    return [(s, e) for s, e in trimmed if e > s]


def _split_long(text: str, start: int, end: int, max_tokens: int) -> list[tuple[int, int]]:
    """Cut one over-long sentence at word boundaries."""
    words = [(m.start() + start, m.end() + start) for m in re.finditer(r"\S+", text[start:end])]
    pieces: list[tuple[int, int]] = []
    piece_start, count = words[0][0], 0
    for i, (w_start, w_end) in enumerate(words):
        tokens = count_tokens(text[w_start:w_end])
        if count and count + tokens > max_tokens:
            pieces.append((piece_start, words[i - 1][1]))
            piece_start, count = w_start, 0
        count += tokens
    pieces.append((piece_start, words[-1][1]))
    return pieces


def chunk_text(
    registro: int,
    text: str,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    counter: Callable[[str], int] = count_tokens,
) -> list[Chunk]:
    """Pack whole sentences into chunks of at most ``max_tokens``; spans index into ``text``."""
    if max_tokens < 8:
        raise ValueError(f"max_tokens must be >= 8, got {max_tokens}")
    units: list[tuple[int, int]] = []
    for start, end in _sentence_spans(text):
        if counter(text[start:end]) > max_tokens:
            units.extend(_split_long(text, start, end, max_tokens))
        else:
            units.append((start, end))

    groups: list[tuple[int, int]] = []
    group_start, group_end, group_tokens = -1, -1, 0
    for start, end in units:
        tokens = counter(text[start:end])
        if group_start >= 0 and group_tokens + tokens > max_tokens:
            groups.append((group_start, group_end))
            group_start = -1
        if group_start < 0:
            group_start, group_tokens = start, 0
        group_end, group_tokens = end, group_tokens + tokens
    if group_start >= 0:
        groups.append((group_start, group_end))
    if len(groups) > 1 and counter(text[groups[-1][0] : groups[-1][1]]) < MIN_TAIL_TOKENS:
        tail = groups.pop()
        groups[-1] = (groups[-1][0], tail[1])

    return [
        Chunk(
            registro=registro,
            index=i,
            text=text[start:end],
            start_char=start,
            end_char=end,
            start_line=text.count("\n", 0, start) + 1,
            end_line=text.count("\n", 0, end) + 1,
            tokens=counter(text[start:end]),
        )
        for i, (start, end) in enumerate(groups)
    ]


def chunk_tesis(tesis: Tesis, max_tokens: int = DEFAULT_MAX_TOKENS) -> list[Chunk]:
    return chunk_text(tesis.registro, tesis.full_text, max_tokens)


def embedding_text(tesis_rubro: str, chunk: Chunk) -> str:
    """What the embedder sees: later chunks carry the rubro so they keep their topic."""
    return chunk.text if chunk.index == 0 else f"{tesis_rubro}\n{chunk.text}"

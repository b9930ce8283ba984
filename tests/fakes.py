"""Test doubles shared by every suite: a scripted LLM, a tiny embedder, and a hit builder.

Example::

    llm = ScriptedLLM(["La suspensión procede [1].", LLMTimeout("lento")])
    llm.complete(messages)  # 'La suspensión procede [1].'; llm.calls[0] is ``messages``
    llm.complete(messages)  # raises LLMTimeout
    hit = make_hit(2006225, 0, "Texto del fragmento.", anio=2014, tipo="Jurisprudencia")
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator, Sequence
from datetime import date

import numpy as np

from api.core.epocas import epoca_for_date
from api.core.models import VIGENTE, Chunk, Hit, Passage, ScoreBreakdown, TesisTipo, Validity
from api.core.text import analyze
from api.embeddings.base import TextKind, Vectors, normalize_rows
from api.errors import LLMTimeout
from api.llm.base import Message

# One scripted reply: a text, an exception to raise, or (for ``stream``) explicit pieces where
# an exception raises mid-stream.
Reply = str | BaseException | list[str | BaseException]


class ScriptedLLM:
    """Implements ``api.llm.base.LLM`` with fixed replies, popped in order.

    ``delay`` seconds are slept per call; when a call's ``timeout`` is shorter, it sleeps the
    timeout and raises ``LLMTimeout`` instead. ``stream`` yields a text reply in pieces of
    ``chunk_size`` characters. Running out of replies is a test bug (AssertionError).
    """

    def __init__(self, replies: Sequence[Reply], delay: float = 0.0, chunk_size: int = 4) -> None:
        self.replies: list[Reply] = list(replies)
        self.delay = delay
        self.chunk_size = chunk_size
        self.calls: list[list[Message]] = []
        self.timeouts: list[float | None] = []

    @property
    def model_id(self) -> str:
        return "scripted"

    def _next(
        self, messages: list[Message], timeout: float | None
    ) -> str | list[str | BaseException]:
        self.calls.append([dict(m) for m in messages])
        self.timeouts.append(timeout)
        if not self.replies:
            raise AssertionError("ScriptedLLM ran out of replies")
        reply = self.replies.pop(0)
        if timeout is not None and self.delay > timeout:
            time.sleep(timeout)
            raise LLMTimeout(f"scripted delay {self.delay} s exceeds timeout {timeout} s")
        if self.delay:
            time.sleep(self.delay)
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def complete(self, messages: list[Message], timeout: float | None = None) -> str:
        reply = self._next(messages, timeout)
        if isinstance(reply, list):
            return "".join(p for p in reply if isinstance(p, str))
        return reply

    def stream(self, messages: list[Message], timeout: float | None = None) -> Iterator[str]:
        reply = self._next(messages, timeout)
        pieces = reply if isinstance(reply, list) else _pieces(reply, self.chunk_size)
        for piece in pieces:
            if isinstance(piece, BaseException):
                raise piece
            yield piece

    @property
    def last_messages(self) -> list[Message]:
        return self.calls[-1]


def _pieces(text: str, size: int) -> list[str | BaseException]:
    return [text[i : i + size] for i in range(0, len(text), size)]


class FakeEmbedder:
    """Deterministic hashed bag of words, L2-normalized; implements Embedder.

    Terms are accent-folded, stopword-free and prefix-stemmed (``api.core.text.analyze``), one
    bucket each, so cosines are >= 0 and grow with shared terms (plus hash collisions). A text
    with no terms embeds as the zero vector. ``kind`` is ignored; ``calls`` counts batches.
    """

    def __init__(self, dim: int = 32) -> None:
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        self._dim = dim
        self.calls = 0

    @property
    def model_id(self) -> str:
        return f"fake/bow-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        self.calls += 1
        vectors = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in analyze(text):
                digest = hashlib.blake2b(term.encode(), digest_size=8).digest()
                vectors[row, int.from_bytes(digest, "big") % self._dim] += 1.0
        return normalize_rows(vectors)


# Words of the Mexican profile a generic (non-legal) prompt must not contain.
LEGAL_WORDS = (
    "época",
    "tipo",
    "vigencia",
    "scjn",
    "tesis",
    "jurisprudencia",
    "semanario",
    "registro",
    "materia",
    "suprema corte",
    "aislada",
)


def assert_no_legal_words(*texts: str) -> None:
    for text in texts:
        for word in LEGAL_WORDS:
            assert word not in text.lower(), word


def make_hit(
    registro: int,
    chunk_index: int = 0,
    text: str = "Texto del fragmento de la tesis.",
    *,
    anio: int = 2015,
    epoca: str | None = None,
    tipo: TesisTipo = "Jurisprudencia",
    similarity: float = 0.8,
    final_score: float | None = None,
    start_line: int | None = None,
    end_line: int | None = None,
    start_char: int | None = None,
    rubro: str | None = None,
    materias: tuple[str, ...] = ("Común",),
    clave: str = "",
    status: Validity = VIGENTE,
    rank: int = 0,
    tokens: int | None = None,
) -> Hit:
    """A ranked chunk hit built from the core records, with sensible defaults.

    ``epoca`` defaults to the one in force in mid-``anio``; lines default to two per chunk
    index (chunk 0 on line 1), characters to 1,000 per chunk index.
    """
    first_line = start_line if start_line is not None else 1 + 2 * chunk_index
    first_char = start_char if start_char is not None else 1000 * chunk_index
    chunk = Chunk(
        registro=registro,
        index=chunk_index,
        text=text,
        start_char=first_char,
        end_char=first_char + len(text),
        start_line=first_line,
        end_line=end_line if end_line is not None else first_line + text.count("\n"),
        tokens=tokens if tokens is not None else len(text.split()),
    )
    passage = Passage(
        chunk=chunk,
        rubro=rubro or f"RUBRO DE LA TESIS {registro}.",
        epoca=epoca or epoca_for_date(date(anio, 7, 1)) or "",
        anio=anio,
        tipo=tipo,
        materias=materias,
        clave=clave,
    )
    final = similarity if final_score is None else final_score
    score = ScoreBreakdown(
        similarity=similarity,
        relevance=similarity,
        recency_factor=1.0,
        epoca_factor=1.0,
        final_score=final,
        recency_weight=0.0,
        profile="default",
    )
    return Hit(passage, score, rank=rank, rank_without_recency=rank, status=status)


def three_tesis_hits() -> list[Hit]:
    """10 ranked chunk hits of 3 tesis, interleaved: registro 300 first, then 100, then 200."""
    layout = [
        (300, 2),
        (100, 0),
        (300, 0),
        (200, 1),
        (100, 3),
        (300, 1),
        (200, 0),
        (100, 1),
        (200, 2),
        (100, 2),
    ]
    return [
        make_hit(
            reg, idx, f"Fragmento {idx} de la tesis {reg}.", similarity=0.9 - i / 20, rank=i + 1
        )
        for i, (reg, idx) in enumerate(layout)
    ]

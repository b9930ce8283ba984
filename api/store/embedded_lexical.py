"""In-memory BM25 over the FTS5 table's text: FTS5's own ``bm25()``, without per-row SQL.

FTS5 stays the source of truth (it is what ``upsert`` writes). At 100k+ chunks an OR query of
~20 stems matches most rows and FTS5 calls ``bm25()`` once per matching row through SQL, which
costs ~1.5 us per row plus the joins. Here the same postings live in numpy arrays (term-major
CSR), and a query adds up its terms' postings into one score per row (``np.add.at``).

The scores are FTS5's, computed the same way in double precision:
``sum_i idf_i * f_i (k1 + 1) / (f_i + k1 (1 - b + b D / avgdl))`` with ``f_i`` the
column-weighted count of term ``i`` in the row, ``D`` the row's tokens in all columns, and
``idf_i = log((N - n_i + 0.5) / (n_i + 0.5))`` clamped to 1e-6 (``fts5_aux.c``).

A posting's saturation (everything but the idf) depends only on its count and its row's
length, so few distinct values occur (1,729 over the 50M postings of the 1M-chunk bench store):
each posting keeps a 2-byte code into a table of those doubles, not the double itself (6 bytes a
posting with its row instead of 12; the scores are unchanged to the last bit).
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from api.store.embedded_index import top_positions

K1, B = 1.2, 0.75  # FTS5's constants
MIN_IDF = 1e-6
# unicode61 (FTS5's default tokenizer) splits on everything but letters and digits.
_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """Tokens of already analyzed (folded, lowercased) text, as unicode61 splits them."""
    if text.isascii() and "_" not in text:
        return text.split()
    return _TOKEN.findall(text)


def fts_totals(averages: bytes) -> tuple[int, ...]:
    """(rows, tokens of column 0, ...) from FTS5's averages record (``_data`` row 1): SQLite
    varints, 7 bits a byte, high bit = more, a 9th byte carries 8 bits."""
    values: list[int] = []
    i = 0
    while i < len(averages):
        value = 0
        for k in range(9):
            byte = averages[i]
            i += 1
            if k == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        values.append(value)
    return tuple(values)


@dataclass(slots=True)
class LexicalIndex:
    """Postings of every row, positions aligned with the ``VectorIndex`` rows."""

    rowids: npt.NDArray[np.int64]  # FTS5 rowids (chunk ids), ascending
    vocab: dict[str, int]
    starts: npt.NDArray[np.int64]  # postings of term t: [starts[t], starts[t + 1])
    docs: npt.NDArray[np.int32]  # row positions, ascending within a term
    # per posting, a code into ``saturation_values``: f (k1 + 1) / (f + k1 (1 - b + b D /
    # avgdl)), all but the idf (uint16, or uint32 when there are more than 65,536 values)
    saturation_codes: npt.NDArray[np.unsignedinteger[Any]]
    saturation_values: npt.NDArray[np.float64]  # ascending, distinct
    column_tokens: tuple[int, ...]  # tokens per column over all rows (checked against FTS5)

    @classmethod
    def build(
        cls, rows: Iterable[Sequence[Any]], n_rows: int, weights: Sequence[float]
    ) -> LexicalIndex:
        """``rows``: (rowid, column text, ...) by ascending rowid; ``weights`` per column."""
        vocab = _Vocabulary()
        builder = _Postings(n_rows, weights)
        rowids = np.empty(n_rows, np.int64)
        cache: dict[int, tuple[str, list[int]]] = {}  # per column: rubros repeat in a tesis
        count = 0
        for rowid, *columns in rows:
            if count == n_rows:
                raise ValueError(f"more than the {n_rows} rows announced")
            rowids[count] = rowid
            count += 1
            for c, text in enumerate(columns):
                seen = cache.get(c)
                if seen is not None and seen[0] == text:
                    ids = seen[1]
                else:
                    ids = list(map(vocab.__getitem__, tokens(text or "")))
                    cache[c] = (text, ids)
                builder.add(ids)
        if count != n_rows:
            raise ValueError(f"{count} rows, {n_rows} announced")
        docs, terms, freqs = builder.finish()
        order = _stable_order(terms, len(vocab))
        starts = np.zeros(len(vocab) + 1, np.int64)
        np.cumsum(np.bincount(terms, minlength=len(vocab)), out=starts[1:])
        lengths = builder.lengths
        avgdl = lengths.sum() / n_rows if n_rows else 1.0
        norm = K1 * (1 - B + B * lengths / avgdl)
        docs, freq = docs[order], freqs[order].astype(np.float64)
        del order, freqs, terms
        saturation = (freq * (K1 + 1.0)) / (freq + norm[docs])  # FTS5's operation order
        del freq
        values, codes = np.unique(saturation, return_inverse=True)
        del saturation
        code_type = np.uint16 if len(values) <= 1 << 16 else np.uint32
        return cls(
            rowids=rowids,
            vocab=dict(vocab),
            starts=starts,
            docs=docs,
            saturation_codes=codes.reshape(-1).astype(code_type),
            saturation_values=values,
            column_tokens=tuple(int(n) for n in builder.column_tokens),
        )

    @property
    def n_rows(self) -> int:
        return len(self.rowids)

    def nbytes(self) -> int:
        return (
            self.starts.nbytes
            + self.docs.nbytes
            + self.saturation_codes.nbytes
            + self.saturation_values.nbytes
        )

    def search(
        self,
        terms: Sequence[str],
        mask: npt.NDArray[np.bool_] | None,
        limit: int,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """(positions, BM25 scores > 0) best first, ties by position; ``terms`` as FTS5 got
        them (one phrase each, in query order), ``mask`` the rows the filters keep."""
        found = [self.vocab[t] for t in terms if t in self.vocab]
        if not found or self.n_rows == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        # every query term's postings and weights, written once into intp/float64 arrays
        # (int32 documents would be converted again inside the scatter-add below)
        spans = [(int(self.starts[t]), int(self.starts[t + 1])) for t in found]
        total = sum(hi - lo for lo, hi in spans)
        docs = np.empty(total, np.intp)
        weights = np.empty(total, np.float64)
        at = 0
        for lo, hi in spans:
            idf = math.log((self.n_rows - (hi - lo) + 0.5) / ((hi - lo) + 0.5))
            end = at + hi - lo
            docs[at:end] = self.docs[lo:hi]
            # idf x each distinct value, then gathered: the same products as per posting
            # (the codes are in range by construction: "clip" skips the bounds check)
            weighted = (idf if idf > 0.0 else MIN_IDF) * self.saturation_values
            np.take(weighted, self.saturation_codes[lo:hi], out=weights[at:end], mode="clip")
            at = end
        # bincount's sums in the same order, into a reused zeroed array: bincount allocates a
        # fresh one (8 MB at 1M rows) and page-faults it in, 6.0 against 4.4 ms a search
        scores = _SCORES.take(self.n_rows)
        try:
            np.add.at(scores, docs, weights)
            if mask is not None:
                scores[~mask] = 0.0
            hits = top_positions(scores, limit, positive=True)
            return hits, scores[hits]
        finally:
            _SCORES.give(scores)


class _ScoreArrays:
    """Zeroed float64 arrays lent to searches: one per search running at once (searches run
    outside the store lock), kept for the next ones."""

    def __init__(self) -> None:
        self._free: list[npt.NDArray[np.float64]] = []
        self._lock = threading.Lock()

    def take(self, n_rows: int) -> npt.NDArray[np.float64]:
        with self._lock:
            scores = self._free.pop() if self._free else None
        if scores is None or len(scores) != n_rows:
            return np.zeros(n_rows, np.float64)
        scores.fill(0.0)
        return scores

    def give(self, scores: npt.NDArray[np.float64]) -> None:
        with self._lock:
            self._free.append(scores)


_SCORES = _ScoreArrays()


class _Vocabulary(dict[str, int]):
    """Term -> id, numbering new terms as they come."""

    def __missing__(self, term: str) -> int:
        self[term] = len(self)
        return len(self) - 1


class _Postings:
    """Accumulates (row, term) -> weighted count in bounded batches of numpy work."""

    BATCH_TOKENS = 1 << 23  # its arrays exceed glibc's mmap threshold: freed to the OS

    def __init__(self, n_rows: int, weights: Sequence[float]) -> None:
        self.weights = np.asarray(weights, np.float64)
        self.lengths = np.zeros(n_rows, np.int64)
        self.column_tokens = np.zeros(len(weights), np.int64)
        self._ids: list[int] = []
        self._segments: list[int] = []  # tokens per (row, column), row-major
        self._next_row = 0  # first row of the pending batch
        self._parts: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]] = []

    def add(self, ids: list[int]) -> None:
        """The next column's term ids (columns of a row in order, rows in position order)."""
        self._ids.extend(ids)
        self._segments.append(len(ids))
        if len(self._ids) >= self.BATCH_TOKENS and len(self._segments) % len(self.weights) == 0:
            self._flush()

    def _flush(self) -> None:
        if not self._segments:
            return
        segments = np.asarray(self._segments, np.int64).reshape(-1, len(self.weights))
        n = len(segments)
        rows = np.arange(self._next_row, self._next_row + n, dtype=np.int64)
        per_row = segments.sum(axis=1)
        self.lengths[self._next_row : self._next_row + n] = per_row
        self.column_tokens += segments.sum(axis=0)
        keys = (np.repeat(rows, per_row) << 32) | np.asarray(self._ids, np.int64)
        weights = np.repeat(np.tile(self.weights, n), segments.ravel())
        if len(keys):
            # Sum the weights of equal keys. A stable sort is a timsort here, fast on these
            # row-major keys (np.unique's quicksort is ~3x slower).
            order = np.argsort(keys, kind="stable")
            keys, weights = keys[order], weights[order]
            first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
            counts = np.add.reduceat(weights, first).astype(np.float32)
            self._parts.append((keys[first], counts))
        self._ids, self._segments = [], []
        self._next_row += n

    def finish(
        self,
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """(rows, terms, weighted counts), row-major."""
        self._flush()
        if not self._parts:
            return np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, np.float32)
        unique = np.concatenate([p[0] for p in self._parts])
        freqs = np.concatenate([p[1] for p in self._parts])
        self._parts = []
        return (unique >> 32).astype(np.int32), unique & 0xFFFFFFFF, freqs


def _stable_order(terms: npt.NDArray[np.int64], n_terms: int) -> npt.NDArray[np.int64]:
    """Term-major order keeping rows ascending: LSD radix on 16-bit digits (numpy's stable
    sort is a radix sort for 16-bit keys, far faster than a 64-bit timsort here)."""
    order = np.argsort((terms & 0xFFFF).astype(np.uint16), kind="stable")
    if n_terms > 0xFFFF:
        high = (terms[order] >> 16).astype(np.uint16)
        order = order[np.argsort(high, kind="stable")]
    return order

"""The embedded store's search columns (vector matrix, BM25 postings), kept current.

Rebuilt from SQLite when another process commits (``PRAGMA data_version``) or after our own
writes (``changed``); mapped from the files saved beside a large store instead when they match
its state (``embedded_files``). Large stores rebuild in a thread while the previous columns
keep serving, so a write from another process never stalls a search.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import numpy as np

from api.errors import StoreError
from api.store import embedded_ann, embedded_files
from api.store.base import LEXICAL_WEIGHTS
from api.store.embedded_ann import AnnIndex
from api.store.embedded_db import STATE_SQL
from api.store.embedded_files import State
from api.store.embedded_index import VectorIndex
from api.store.embedded_lexical import LexicalIndex, fts_totals

Built = tuple[VectorIndex, LexicalIndex | None, State]


class ColumnCache:
    """The columns for one store file; see the module docstring for the thresholds."""

    def __init__(
        self,
        path: Path | None,
        dim: int,
        ann_min_chunks: int | None,
        ann_shortlist: int,
        persist_min_chunks: int,
        background_min_chunks: int,
    ) -> None:
        self.path = path
        self.dim = dim
        self.ann_min_chunks = ann_min_chunks
        self.ann_shortlist = ann_shortlist
        self.persist_min_chunks = persist_min_chunks
        self.background_min_chunks = background_min_chunks
        self.index: VectorIndex | None = None
        self.lexical: LexicalIndex | None = None
        self._data_version = -1
        self._state: State | None = None  # the state the columns were built for
        self._dirty = True  # our own commit: data_version does not change for it
        self._building: threading.Thread | None = None
        self._built: Built | None = None  # finished by the background thread
        self.rebuilds = 0  # columns built from SQLite (not mapped from saved files)

    def changed(self) -> None:
        """Our own connection committed chunk changes."""
        self._dirty = True

    def current(self, db: sqlite3.Connection) -> VectorIndex:
        """The columns for the data committed in ``db`` (call under the store's lock)."""
        version = db.execute("PRAGMA data_version").fetchone()[0]
        if self._built is not None:
            self._install(self._built)
            self._built = None
        if self.index is not None and version == self._data_version and not self._dirty:
            return self.index
        state: State = tuple(db.execute(STATE_SQL).fetchone())
        self._data_version, self._dirty = version, False
        if self.index is not None and state == self._state:
            return self.index  # validity notes or another table changed
        saved = self._saved(state)
        if saved is not None:
            self._install(saved)
        elif self.index is not None and len(self.index) >= self.background_min_chunks:
            self._rebuild_in_background()
        else:
            self.index = None  # drop the old matrix before building the new one
            self._install(self._build(db))
        assert self.index is not None
        return self.index

    def _install(self, built: Built) -> None:
        index, lexical, state = built
        if lexical is not None and not np.array_equal(lexical.rowids, index.rowids):
            lexical = None  # not aligned: lexical search falls back to SQL
        self.index, self.lexical, self._state = index, lexical, state

    def _saved(self, state: State) -> Built | None:
        """The columns saved for ``state`` beside the file, memory-mapped; None if absent."""
        if self.path is None or state[1] < self.persist_min_chunks:
            return None
        found = embedded_files.load(embedded_files.index_dir(self.path), state)
        if found is None:
            return None
        index, lexical, ann = found
        if self._wants_ann(len(index)) and ann is None:
            return None  # saved without the ANN index it should have
        index.ann = ann if self._wants_ann(len(index)) else None
        index.shortlist = self.ann_shortlist
        return index, lexical, state

    def _wants_ann(self, rows: int) -> bool:
        return (
            self.ann_min_chunks is not None
            and rows >= self.ann_min_chunks
            and embedded_ann.available()
        )

    def _build(self, db: sqlite3.Connection) -> Built:
        """Columns from one snapshot of ``db``; saved beside the file for large stores."""
        snapshot = not db.in_transaction  # one snapshot for vectors and postings
        if snapshot:
            db.execute("BEGIN")
        try:
            state: State = tuple(db.execute(STATE_SQL).fetchone())
            lexical = _load_lexical(db)  # first: its build peak is transient
            index = _load_index(db, self.dim)
        finally:
            if snapshot:
                db.execute("COMMIT")
        self.rebuilds += 1
        ann = AnnIndex.build(index.vectors) if self._wants_ann(len(index)) else None
        index.ann, index.shortlist = ann, self.ann_shortlist
        if self.path is not None and state[1] >= self.persist_min_chunks:
            directory = embedded_files.index_dir(self.path)
            try:
                embedded_files.save(directory, state, index, lexical, ann)
            except OSError:
                return index, lexical, state  # unsaved: served from memory
            del index, lexical
            saved = self._saved(state)  # the mapped copy: pages shared, heap freed
            assert saved is not None
            return saved
        return index, lexical, state

    def _rebuild_in_background(self) -> None:
        if self._building is not None and self._building.is_alive():
            return  # its result is installed, then a newer state starts the next build
        assert self.path is not None

        def run() -> None:
            db = sqlite3.connect(str(self.path), timeout=30)
            try:
                self._built = self._build(db)
            except (sqlite3.Error, StoreError):
                pass  # the next search after a commit tries again
            finally:
                db.close()
                self._dirty = True  # check the state again: more may have been written

        self._building = threading.Thread(target=run, name="store-rebuild", daemon=True)
        self._building.start()

    def wait_rebuilt(self, timeout: float | None = None) -> None:
        """Block until a background rebuild (if any) has finished (tests, benchmarks)."""
        building = self._building
        if building is not None:
            building.join(timeout)


def _load_index(db: sqlite3.Connection, dim: int) -> VectorIndex:
    """Vectors streamed into one preallocated matrix (no joined copy of every blob)."""
    (n,) = db.execute("SELECT COUNT(*) FROM chunk").fetchone()
    if not n:
        return VectorIndex.empty(dim)
    vectors = np.empty((n, dim), dtype=np.float32)
    flat = vectors.reshape(-1).view(np.uint8).data
    width = dim * 4
    columns: tuple[list[Any], ...] = ([], [], [], [], [], [], [], [])
    cursor = db.cursor()
    cursor.row_factory = None
    cursor.execute(
        "SELECT c.vector, c.id, c.registro, t.anio, t.epoca, t.tipo, t.materia_mask, "
        "t.instancia, t.organo FROM chunk c JOIN tesis t ON t.registro = c.registro ORDER BY c.id"
    )
    count = 0
    for row in cursor:
        if count == n:
            break  # rows committed after the count belong to the next snapshot
        if len(row[0]) != width:
            raise StoreError(f"chunk {row[1]}: vector does not have dimension {dim}")
        flat[count * width : (count + 1) * width] = row[0]
        for column, value in zip(columns, row[1:], strict=True):
            column.append(value)
        count += 1
    rowids, registro, anio, epocas, tipos, materias, instancias, organos = columns
    return VectorIndex.build(
        rowids, vectors[:count], registro, anio, epocas, tipos, materias, instancias, organos
    )


def _load_lexical(db: sqlite3.Connection) -> LexicalIndex | None:
    """BM25 postings of the FTS5 rows; None (SQL fallback) if they disagree with FTS5."""
    found = db.execute("SELECT block FROM chunk_fts_data WHERE id = 1").fetchone()
    # rows, then tokens per column; a new table's record is absent or empty
    expected = (fts_totals(found[0]) if found else ()) or (0,) * (1 + len(LEXICAL_WEIGHTS))
    cursor = db.cursor()
    cursor.row_factory = None
    cursor.execute("SELECT rowid, rubro, body FROM chunk_fts ORDER BY rowid")
    try:
        lexical = LexicalIndex.build(cursor, expected[0], LEXICAL_WEIGHTS)
    except ValueError:  # row count differs from FTS5's own
        return None
    return lexical if expected == (len(lexical.rowids), *lexical.column_tokens) else None

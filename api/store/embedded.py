"""The default store: SQLite (records, FTS5 for BM25) plus an exact numpy scan for vectors.

No server. One SQLite file under the data directory is the source of truth; the vector matrix
and the BM25 postings (``LexicalIndex``, FTS5's scores without per-row SQL) are rebuilt from it
when another process commits (``PRAGMA data_version``) or after our own writes. Each ``upsert``
is one transaction, so a killed ingest leaves no half-written tesis.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from api.core.models import Candidate, Chunk, Filters, Passage, Tesis, Validity
from api.core.text import analyze
from api.embeddings.base import Vectors
from api.errors import StoreError
from api.store import embedded_ann, embedded_files
from api.store.base import GroupBy, SortOrder, TesisEntry, UpsertResult
from api.store.embedded_ann import AnnIndex
from api.store.embedded_files import State
from api.store.embedded_index import VectorIndex, materia_mask
from api.store.embedded_lexical import LexicalIndex, fts_totals, tokens

_Built = tuple[VectorIndex, LexicalIndex | None, State]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tesis (
    registro INTEGER PRIMARY KEY, rubro TEXT NOT NULL, texto TEXT NOT NULL, epoca TEXT NOT NULL,
    anio INTEGER NOT NULL, fecha TEXT, sort_date TEXT NOT NULL, tipo TEXT NOT NULL,
    materias TEXT NOT NULL, materia_mask INTEGER NOT NULL, instancia TEXT NOT NULL,
    organo TEXT NOT NULL, clave TEXT NOT NULL, precedentes TEXT NOT NULL,
    partial INTEGER NOT NULL, fingerprint TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS tesis_sort ON tesis (sort_date, registro);
CREATE TABLE IF NOT EXISTS chunk (
    id INTEGER PRIMARY KEY, registro INTEGER NOT NULL REFERENCES tesis (registro),
    idx INTEGER NOT NULL, text TEXT NOT NULL, start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
    tokens INTEGER NOT NULL, vector BLOB NOT NULL, UNIQUE (registro, idx)
);
CREATE VIRTUAL TABLE IF NOT EXISTS chunk_fts USING fts5 (rubro, body);
CREATE TABLE IF NOT EXISTS validity (
    registro INTEGER PRIMARY KEY, estado TEXT NOT NULL, parcial INTEGER NOT NULL,
    por_registro INTEGER, por_clave TEXT, desde TEXT
);
CREATE TABLE IF NOT EXISTS store_state (
    id INTEGER PRIMARY KEY CHECK (id = 0), generation INTEGER NOT NULL
);
INSERT OR IGNORE INTO store_state VALUES (0, 0);
"""
_BUMP = "UPDATE store_state SET generation = generation + 1"  # in every chunk-writing commit
_STATE_SQL = (
    "SELECT (SELECT generation FROM store_state), COUNT(*), COALESCE(MAX(id), 0) FROM chunk"
)

_TESIS_COLUMNS = (
    "registro, rubro, texto, epoca, anio, fecha, tipo, materias, instancia, organo, clave, "
    "precedentes, partial, extra"
)
_PASSAGE_SQL = (
    "SELECT c.id, c.registro, c.idx, c.text, c.start_char, c.end_char, c.start_line, "
    "c.end_line, c.tokens, t.rubro, t.epoca, t.anio, t.tipo, t.materias, t.instancia, "
    "t.clave, t.fecha, t.partial FROM chunk c JOIN tesis t ON t.registro = c.registro"
)
FTS_WEIGHTS = (2.0, 1.0)  # bm25() weights of the rubro and body columns
_GROUP_COLUMNS: dict[str, str] = {
    "anio": "anio",
    "epoca": "epoca",
    "tipo": "tipo",
    "instancia": "instancia",
}


def _fts_terms(text: str) -> list[str]:
    """One FTS5 phrase per distinct analyzed term, in query order."""
    return sorted(set(analyze(text)))


def _where(filters: Filters, alias: str = "t") -> tuple[str, list[Any]]:
    """SQL conditions on the tesis table for ``filters``."""
    clauses: list[str] = []
    params: list[Any] = []
    if filters.anio_min is not None:
        clauses.append(f"{alias}.anio >= ?")
        params.append(filters.anio_min)
    if filters.anio_max is not None:
        clauses.append(f"{alias}.anio <= ?")
        params.append(filters.anio_max)
    if filters.materias:
        clauses.append(f"({alias}.materia_mask & ?) != 0")
        params.append(materia_mask(filters.materias))
    if filters.tipo is not None:
        clauses.append(f"{alias}.tipo = ?")
        params.append(filters.tipo)
    if filters.epocas:
        clauses.append(f"{alias}.epoca IN ({','.join('?' * len(filters.epocas))})")
        params.extend(filters.epocas)
    if filters.instancia is not None:
        clauses.append(f"{alias}.instancia = ?")
        params.append(filters.instancia)
    if filters.registros:
        clauses.append(f"{alias}.registro IN ({','.join('?' * len(filters.registros))})")
        params.extend(filters.registros)
    return (" AND ".join(clauses) or "1=1"), params


def _to_tesis(row: sqlite3.Row) -> Tesis:
    return Tesis(
        registro=row["registro"],
        rubro=row["rubro"],
        texto=row["texto"],
        epoca=row["epoca"],
        anio=row["anio"],
        tipo=row["tipo"],
        materias=tuple(json.loads(row["materias"])),
        instancia=row["instancia"],
        organo=row["organo"],
        clave=row["clave"],
        precedentes=row["precedentes"],
        fecha=date.fromisoformat(row["fecha"]) if row["fecha"] else None,
        partial=bool(row["partial"]),
        **_extra_from_json(row["extra"]),
    )


def _extra_to_json(t: Tesis) -> str:
    """A generic record's extra dates, their roles and its own fields, as stored."""
    if not (t.dates or t.extra):
        return "{}"
    return json.dumps(
        {
            "dates": {n: d.isoformat() for n, d in t.dates},
            "roles": dict(t.date_roles),
            "fields": [[k, v] for k, v in t.extra],
        },
        ensure_ascii=False,
    )


def _extra_from_json(text: str | None) -> dict[str, Any]:
    data = json.loads(text or "{}")
    if not data:
        return {}
    return {
        "dates": tuple((n, date.fromisoformat(d)) for n, d in data.get("dates", {}).items()),
        "date_roles": tuple(data.get("roles", {}).items()),
        "extra": tuple((k, v) for k, v in data.get("fields", [])),
    }


def _to_passage(row: sqlite3.Row) -> Passage:
    return Passage(
        chunk=Chunk(
            registro=row["registro"],
            index=row["idx"],
            text=row["text"],
            start_char=row["start_char"],
            end_char=row["end_char"],
            start_line=row["start_line"],
            end_line=row["end_line"],
            tokens=row["tokens"],
        ),
        rubro=row["rubro"],
        epoca=row["epoca"],
        anio=row["anio"],
        tipo=row["tipo"],
        materias=tuple(json.loads(row["materias"])),
        instancia=row["instancia"],
        clave=row["clave"],
        fecha=date.fromisoformat(row["fecha"]) if row["fecha"] else None,
        partial=bool(row["partial"]),
    )


def _identity(path: Path | None) -> tuple[int, int] | None:
    if path is None:
        return None
    found = os.stat(path)
    return found.st_dev, found.st_ino


def _explain(exc: sqlite3.Error) -> str:
    """SQLite's message, with what to do for the failures an operator can fix."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "disk is full" in text:
        return f"{text} (the disk is full: free space, then retry)"
    if code == sqlite3.SQLITE_READONLY or "readonly" in text:
        return f"{text} (the store file or its directory is read-only)"
    return text


class EmbeddedStore:
    """Single-machine store. ``path=None`` keeps everything in memory (tests).

    >>> store = EmbeddedStore(None, dim=384)
    >>> store.count()
    (0, 0)
    """

    def __init__(
        self,
        path: Path | None,
        dim: int = 384,
        *,
        ann_min_chunks: int | None = None,
        ann_shortlist: int = 3000,
        persist_min_chunks: int = 10_000,
        background_min_chunks: int = 50_000,
    ) -> None:
        """``ann_min_chunks``: from this many chunks on, vector top-k searches use the ANN
        shortlist (None: always exact). ``persist_min_chunks``: from this many, the built
        columns are saved beside the file and memory-mapped (``embedded_files``).
        ``background_min_chunks``: from this many, a rebuild after a write runs in a thread
        while the previous columns keep serving."""
        self.path = path
        self.dim = dim
        self.ann_min_chunks = ann_min_chunks
        self.ann_shortlist = ann_shortlist
        self.persist_min_chunks = persist_min_chunks
        self.background_min_chunks = background_min_chunks
        self._lock = threading.RLock()
        try:
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(path) if path else ":memory:", check_same_thread=False, timeout=30
            )
            self._db.row_factory = sqlite3.Row
            if path is not None:
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(tesis)")}
            if "extra" not in columns:  # a store written before extra fields existed
                self._db.execute("ALTER TABLE tesis ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'")
            self._identity = _identity(path)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(
                f"cannot open the embedded store at {path}: {exc}. Check that the directory "
                "exists and is writable, or set VIGENCIA_DATA_DIR."
            ) from exc
        self._index: VectorIndex | None = None
        self._lexical: LexicalIndex | None = None
        self._data_version = -1
        self._state: State | None = None  # the state the columns were built for
        self._dirty = True  # our own commit: data_version does not change for it
        self._building: threading.Thread | None = None
        self._built: _Built | None = None  # finished by the background thread
        self.rebuilds = 0  # columns built from SQLite (not mapped from saved files)
        self.write_failure: str | None = None  # the latest write's error, until one succeeds

    def file_problem(self) -> str | None:
        """Why the file under us is not the one we opened (deleted or replaced), or None.

        SQLite keeps writing into an unlinked file, so without this check a deleted store
        would go on answering ``stored: N`` into a file nobody will ever open again.
        """
        if self.path is None:
            return None
        try:
            now = _identity(self.path)
        except FileNotFoundError:
            return f"the store file {self.path} was deleted while open; restart to recreate it"
        except OSError as exc:
            return f"the store file {self.path} cannot be read: {exc.strerror}"
        if now != self._identity:
            return f"the store file {self.path} was replaced while open; restart to reopen it"
        return None

    @contextmanager
    def _guard(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise StoreError(f"embedded store failed to {action}: {_explain(exc)}") from exc

    @contextmanager
    def _write(self, action: str) -> Iterator[sqlite3.Connection]:
        """``_guard`` for writes: refuses when the file is gone and remembers a failure."""
        with self._lock:
            problem = self.file_problem()
            if problem is not None:
                self.write_failure = problem
                raise StoreError(f"embedded store cannot {action}: {problem}")
            try:
                with self._guard(action), self._db:
                    yield self._db
            except StoreError as exc:
                self.write_failure = str(exc)
                raise
            self.write_failure = None

    # -- writes ---------------------------------------------------------------------------
    def upsert(self, entries: Sequence[TesisEntry]) -> UpsertResult:
        chunks = 0
        with self._write("upsert"):
            for entry in entries:
                if len(entry.chunks) != len(entry.vectors):
                    raise StoreError(
                        f"registro {entry.tesis.registro}: {len(entry.chunks)} chunks but "
                        f"{len(entry.vectors)} vectors"
                    )
                self._delete_one(entry.tesis.registro)
                self._insert_one(entry)
                chunks += len(entry.chunks)
            self._db.execute(_BUMP)
            self._dirty = True
        return UpsertResult(written=len(entries), chunks=chunks)

    def _insert_one(self, entry: TesisEntry) -> None:
        t = entry.tesis
        self._db.execute(
            "INSERT INTO tesis VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                t.registro,
                t.rubro,
                t.texto,
                t.epoca,
                t.anio,
                t.fecha.isoformat() if t.fecha else None,
                (t.fecha or date(t.anio, 7, 1)).isoformat(),
                t.tipo,
                json.dumps(list(t.materias), ensure_ascii=False),
                materia_mask(t.materias),
                t.instancia,
                t.organo,
                t.clave,
                t.precedentes,
                int(t.partial),
                entry.fingerprint,
                _extra_to_json(t),
            ),
        )
        rubro_terms = " ".join(analyze(t.rubro))
        for chunk, vector in zip(entry.chunks, entry.vectors, strict=True):
            cursor = self._db.execute(
                "INSERT INTO chunk (registro, idx, text, start_char, end_char, start_line, "
                "end_line, tokens, vector) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    t.registro,
                    chunk.index,
                    chunk.text,
                    chunk.start_char,
                    chunk.end_char,
                    chunk.start_line,
                    chunk.end_line,
                    chunk.tokens,
                    np.asarray(vector, dtype=np.float32).tobytes(),
                ),
            )
            self._db.execute(
                "INSERT INTO chunk_fts (rowid, rubro, body) VALUES (?,?,?)",
                (cursor.lastrowid, rubro_terms, " ".join(analyze(chunk.text))),
            )

    def _delete_one(self, registro: int) -> bool:
        self._db.execute(
            "DELETE FROM chunk_fts WHERE rowid IN (SELECT id FROM chunk WHERE registro = ?)",
            (registro,),
        )
        self._db.execute("DELETE FROM chunk WHERE registro = ?", (registro,))
        return self._db.execute("DELETE FROM tesis WHERE registro = ?", (registro,)).rowcount > 0

    def delete(self, registros: Sequence[int]) -> int:
        with self._write("delete"):
            removed = sum(self._delete_one(r) for r in registros)
            self._db.execute(_BUMP)
            self._dirty = True
        return removed

    def upsert_validity(self, notes: Mapping[int, Validity]) -> int:
        with self._write("store validity notes"):
            self._db.executemany(
                "INSERT OR REPLACE INTO validity VALUES (?,?,?,?,?,?)",
                [
                    (
                        r,
                        v.estado,
                        int(v.parcial),
                        v.por_registro,
                        v.por_clave,
                        v.desde.isoformat() if v.desde else None,
                    )
                    for r, v in notes.items()
                ],
            )
        return len(notes)

    # -- reads ----------------------------------------------------------------------------
    def _current_index(self) -> VectorIndex:
        """The columns for the committed data; rebuilt (or mapped from saved files) when a
        commit changed the chunks. Large stores rebuild in a thread and serve the previous
        columns meanwhile, so a write from another process never stalls a search."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if self._built is not None:
            self._install(self._built)
            self._built = None
        if self._index is not None and version == self._data_version and not self._dirty:
            return self._index
        state: State = tuple(self._db.execute(_STATE_SQL).fetchone())
        self._data_version, self._dirty = version, False
        if self._index is not None and state == self._state:
            return self._index  # validity notes or another table changed
        saved = self._saved(state)
        if saved is not None:
            self._install(saved)
        elif self._index is not None and len(self._index) >= self.background_min_chunks:
            self._rebuild_in_background()
        else:
            self._index = None  # drop the old matrix before building the new one
            self._install(self._build(self._db))
        assert self._index is not None
        return self._index

    def _install(self, built: _Built) -> None:
        index, lexical, state = built
        if lexical is not None and not np.array_equal(lexical.rowids, index.rowids):
            lexical = None  # not aligned: lexical search falls back to SQL
        self._index, self._lexical, self._state = index, lexical, state

    def _saved(self, state: State) -> _Built | None:
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

    def _build(self, db: sqlite3.Connection) -> _Built:
        """Columns from one snapshot of ``db``; saved beside the file for large stores."""
        snapshot = not db.in_transaction  # one snapshot for vectors and postings
        if snapshot:
            db.execute("BEGIN")
        try:
            state: State = tuple(db.execute(_STATE_SQL).fetchone())
            lexical = self._load_lexical(db)  # first: its build peak is transient
            index = self._load_index(db)
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

    def _load_index(self, db: sqlite3.Connection) -> VectorIndex:
        """Vectors streamed into one preallocated matrix (no joined copy of every blob)."""
        (n,) = db.execute("SELECT COUNT(*) FROM chunk").fetchone()
        if not n:
            return VectorIndex.empty(self.dim)
        vectors = np.empty((n, self.dim), dtype=np.float32)
        flat = vectors.reshape(-1).view(np.uint8).data
        width = self.dim * 4
        columns: tuple[list[Any], ...] = ([], [], [], [], [], [], [])
        cursor = db.cursor()
        cursor.row_factory = None
        cursor.execute(
            "SELECT c.vector, c.id, c.registro, t.anio, t.epoca, t.tipo, t.materia_mask, "
            "t.instancia FROM chunk c JOIN tesis t ON t.registro = c.registro ORDER BY c.id"
        )
        count = 0
        for row in cursor:
            if count == n:
                break  # rows committed after the count belong to the next snapshot
            if len(row[0]) != width:
                raise StoreError(f"chunk {row[1]}: vector does not have dimension {self.dim}")
            flat[count * width : (count + 1) * width] = row[0]
            for column, value in zip(columns, row[1:], strict=True):
                column.append(value)
            count += 1
        rowids, registro, anio, epocas, tipos, materias, instancias = columns
        return VectorIndex.build(
            rowids, vectors[:count], registro, anio, epocas, tipos, materias, instancias
        )

    def _load_lexical(self, db: sqlite3.Connection) -> LexicalIndex | None:
        """BM25 postings of the FTS5 rows; None (SQL fallback) if they disagree with FTS5."""
        found = db.execute("SELECT block FROM chunk_fts_data WHERE id = 1").fetchone()
        # rows, then tokens per column; a new table's record is absent or empty
        expected = (fts_totals(found[0]) if found else ()) or (0,) * (1 + len(FTS_WEIGHTS))
        cursor = db.cursor()
        cursor.row_factory = None
        cursor.execute("SELECT rowid, rubro, body FROM chunk_fts ORDER BY rowid")
        try:
            lexical = LexicalIndex.build(cursor, expected[0], FTS_WEIGHTS)
        except ValueError:  # row count differs from FTS5's own
            return None
        return lexical if expected == (len(lexical.rowids), *lexical.column_tokens) else None

    def _passages(self, rowids: Sequence[int]) -> dict[int, Passage]:
        found: dict[int, Passage] = {}
        for i in range(0, len(rowids), 900):
            part = [int(r) for r in rowids[i : i + 900]]
            sql = f"{_PASSAGE_SQL} WHERE c.id IN ({','.join('?' * len(part))})"
            found.update({row["id"]: _to_passage(row) for row in self._db.execute(sql, part)})
        return found

    def vector_search(
        self,
        vector: Vectors,
        filters: Filters,
        limit: int | None,
        min_similarity: float | None = None,
    ) -> list[Candidate]:
        with self._guard("search vectors"):
            rowids, scores = self._current_index().search(vector, filters, limit, min_similarity)
            passages = self._passages(rowids.tolist())
        return [  # a row deleted since the columns were built has no passage: skipped
            Candidate(passages[r], float(s))
            for r, s in zip(rowids.tolist(), scores.tolist(), strict=True)
            if r in passages
        ]

    def lexical_search(
        self, text: str, vector: Vectors, filters: Filters, limit: int
    ) -> list[Candidate]:
        terms = _fts_terms(text)
        if not terms:
            return []
        query = np.asarray(vector, dtype=np.float32)
        with self._guard("search text"):
            index = self._current_index()
            lexical = self._lexical
            if lexical is None or any(tokens(t) != [t] for t in terms):
                found = self._lexical_sql(terms, filters, limit)  # FTS5 decides
                wanted = np.asarray([r for r, _ in found], np.int64)
                positions = np.searchsorted(index.rowids, wanted)
                inside = positions < len(index)
                known = inside.copy()  # rows newer than the columns (a rebuild is running)
                known[inside] = index.rowids[positions[inside]] == wanted[inside]
                positions = positions[known]
                scores = [s for (_, s), k in zip(found, known.tolist(), strict=True) if k]
            else:
                positions, bm25 = lexical.search(terms, index.mask(filters), limit)
                scores = bm25.tolist()
            rowids = index.rowids[positions].tolist()
            passages = self._passages(rowids)
            cosines = [float(index.vectors[p] @ query) for p in positions.tolist()]
        return [
            Candidate(passages[r], cosine, lexical=score)
            for r, cosine, score in zip(rowids, cosines, scores, strict=True)
            if r in passages
        ]

    def _lexical_sql(self, terms: Sequence[str], filters: Filters, limit: int) -> list[Any]:
        """(rowid, BM25 score) best first, straight from FTS5."""
        where, params = _where(filters)
        sql = (
            "SELECT f.rowid AS id, bm25(chunk_fts, ?, ?) AS score FROM chunk_fts f "
            "JOIN chunk c ON c.id = f.rowid JOIN tesis t ON t.registro = c.registro "
            f"WHERE chunk_fts MATCH ? AND {where} ORDER BY score LIMIT ?"
        )
        query = " OR ".join(f'"{t}"' for t in terms)
        rows = self._db.execute(sql, [*FTS_WEIGHTS, query, *params, limit]).fetchall()
        return [(row["id"], -float(row["score"])) for row in rows]  # bm25() is negated

    def get_tesis(self, registros: Sequence[int]) -> dict[int, Tesis]:
        if not registros:
            return {}
        marks = ",".join("?" * len(registros))
        with self._guard("read tesis"):
            rows = self._db.execute(
                f"SELECT {_TESIS_COLUMNS} FROM tesis WHERE registro IN ({marks})", list(registros)
            ).fetchall()
        return {row["registro"]: _to_tesis(row) for row in rows}

    def get_chunks(self, registro: int) -> list[Chunk]:
        with self._guard("read chunks"):
            rows = self._db.execute(
                f"{_PASSAGE_SQL} WHERE c.registro = ? ORDER BY c.idx", (registro,)
            ).fetchall()
        return [_to_passage(row).chunk for row in rows]

    def fingerprints(self, registros: Sequence[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        with self._guard("read fingerprints"):
            for i in range(0, len(registros), 900):
                part = list(registros[i : i + 900])
                rows = self._db.execute(
                    "SELECT registro, fingerprint FROM tesis WHERE registro IN "
                    f"({','.join('?' * len(part))})",
                    part,
                )
                found.update({row["registro"]: row["fingerprint"] for row in rows})
        return found

    def list_tesis(
        self,
        filters: Filters,
        order: SortOrder,
        limit: int,
        offset: int = 0,
        date_field: str | None = None,
    ) -> list[Tesis]:
        where, params = _where(filters)
        direction = "ASC" if order == "ASC" else "DESC"
        with self._guard("list tesis"):
            if date_field is None:
                rows = self._db.execute(
                    f"SELECT {_TESIS_COLUMNS} FROM tesis t WHERE {where} "
                    f"ORDER BY sort_date {direction}, registro {direction} LIMIT ? OFFSET ?",
                    [*params, limit, offset],
                ).fetchall()
            else:  # by an extra date; records without it come last
                path = "$.dates." + json.dumps(date_field)
                rows = self._db.execute(
                    f"SELECT {_TESIS_COLUMNS} FROM tesis t WHERE {where} "
                    "ORDER BY json_extract(extra, ?) IS NULL, "
                    f"json_extract(extra, ?) {direction}, registro {direction} LIMIT ? OFFSET ?",
                    [*params, path, path, limit, offset],
                ).fetchall()
        return [_to_tesis(row) for row in rows]

    def date_fields(self) -> dict[str, str]:
        """The extra date fields stored records carry, with their roles."""
        with self._guard("date fields"):
            rows = self._db.execute(
                "SELECT DISTINCT r.key, r.value FROM tesis t, json_each(t.extra, '$.roles') r "
                "WHERE t.extra != '{}'"
            ).fetchall()
        return {row[0]: row[1] for row in rows}

    def count_by(self, group_by: GroupBy, filters: Filters) -> dict[str, int]:
        where, params = _where(filters)
        if group_by == "materias":
            sql = (
                "SELECT m.value AS key, COUNT(*) AS n FROM tesis t, json_each(t.materias) m "
                f"WHERE {where} GROUP BY m.value"
            )
        else:
            sql = f"SELECT t.{_GROUP_COLUMNS[group_by]} AS key, COUNT(*) AS n FROM tesis t "
            sql += f"WHERE {where} GROUP BY key"
        with self._guard("count"):
            rows = self._db.execute(sql, params).fetchall()
        return {str(row["key"]): row["n"] for row in rows}

    def count(self) -> tuple[int, int]:
        with self._guard("count"):
            tesis = self._db.execute("SELECT COUNT(*) FROM tesis").fetchone()[0]
            chunks = self._db.execute("SELECT COUNT(*) FROM chunk").fetchone()[0]
        return tesis, chunks

    def get_validity(self, registros: Sequence[int]) -> dict[int, Validity]:
        if not registros:
            return {}
        marks = ",".join("?" * len(registros))
        with self._guard("read validity notes"):
            rows = self._db.execute(
                f"SELECT * FROM validity WHERE registro IN ({marks})", list(registros)
            ).fetchall()
        return {
            row["registro"]: Validity(
                estado=row["estado"],
                parcial=bool(row["parcial"]),
                por_registro=row["por_registro"],
                por_clave=row["por_clave"],
                desde=date.fromisoformat(row["desde"]) if row["desde"] else None,
            )
            for row in rows
        }

    def health(self) -> dict[str, str]:
        """Degraded, naming the cause, when the file is gone or replaced, when the latest write
        failed (read-only, disk full...) or when the database cannot be read."""
        problem = self.file_problem()
        if problem is not None:
            return {"status": "degraded", "store": "embedded", "detail": problem}
        try:
            tesis, chunks = self.count()
        except StoreError as exc:
            return {"status": "degraded", "store": "embedded", "detail": str(exc)}
        if self.write_failure is not None:
            return {
                "status": "degraded",
                "store": "embedded",
                "detail": f"the latest write failed: {self.write_failure}",
            }
        return {"status": "ok", "store": "embedded", "detail": f"{tesis} tesis, {chunks} chunks"}

    def close(self) -> None:
        with self._lock:
            self._db.close()

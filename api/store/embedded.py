"""The default store: SQLite (records, FTS5 for BM25) plus an exact numpy scan for vectors.

No server. One SQLite file under the data directory is the source of truth (``embedded_db``);
the vector matrix and the BM25 postings (``LexicalIndex``, FTS5's scores without per-row SQL)
are built from it and kept current by ``embedded_columns``. Each ``upsert`` is one transaction,
so a killed ingest leaves no half-written tesis.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from api.core.cited import clave_key, clave_needle
from api.core.models import Candidate, Chunk, Filters, Passage, Tesis, Validity
from api.embeddings.base import Vectors
from api.errors import StoreError
from api.store.base import (
    LEXICAL_WEIGHTS,
    GroupBy,
    ListQuery,
    TesisEntry,
    UpsertResult,
    VectorQuery,
    indexed_terms,
    query_terms,
)
from api.store.embedded_columns import ColumnCache
from api.store.embedded_db import BUMP, DEFAULT_CACHE_MB, StoreFile
from api.store.embedded_index import VectorIndex
from api.store.embedded_lexical import LexicalIndex, tokens
from api.store.embedded_rows import (
    PASSAGE_SQL,
    TESIS_COLUMNS,
    chunk_values,
    tesis_values,
    to_passage,
    to_tesis,
    to_validity,
    validity_values,
    where,
)

_GROUP_COLUMNS: dict[str, str] = {
    "anio": "anio",
    "epoca": "epoca",
    "tipo": "tipo",
    "instancia": "instancia",
    "organo": "organo",
}
_PART = 900  # keys per IN (...) list, under SQLite's bound-variable limit


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
        cache_mb: int = DEFAULT_CACHE_MB,
    ) -> None:
        """``ann_min_chunks``: from this many chunks on, vector top-k searches use the ANN
        shortlist (None: always exact). ``persist_min_chunks``: from this many, the built
        columns are saved beside the file and memory-mapped (``embedded_files``).
        ``background_min_chunks``: from this many, a rebuild after a write runs in a thread
        while the previous columns keep serving. ``cache_mb``: SQLite's page cache."""
        self.path = path
        self.dim = dim
        self._file = StoreFile(path, cache_mb)
        self._columns = ColumnCache(
            path, dim, ann_min_chunks, ann_shortlist, persist_min_chunks, background_min_chunks
        )
        self._date_fields: tuple[int, dict[str, str]] | None = None  # (generation, fields)

    @property
    def _db(self) -> sqlite3.Connection:
        return self._file.db

    @property
    def _lexical(self) -> LexicalIndex | None:
        """The BM25 postings aligned with the columns; None: lexical search asks FTS5."""
        return self._columns.lexical

    @_lexical.setter
    def _lexical(self, lexical: LexicalIndex | None) -> None:
        self._columns.lexical = lexical

    @property
    def rebuilds(self) -> int:
        """Columns built from SQLite (not mapped from saved files)."""
        return self._columns.rebuilds

    @property
    def write_failure(self) -> str | None:
        """The latest write's error, until one succeeds."""
        return self._file.write_failure

    def file_problem(self) -> str | None:
        """Why the file under us is not the one we opened (deleted or replaced), or None.

        SQLite keeps writing into an unlinked file, so without this check a deleted store
        would go on answering ``stored: N`` into a file nobody will ever open again.
        """
        return self._file.problem()

    def wait_rebuilt(self, timeout: float | None = None) -> None:
        """Block until a background rebuild (if any) has finished (tests, benchmarks)."""
        self._columns.wait_rebuilt(timeout)

    def _current_index(self) -> VectorIndex:
        return self._columns.current(self._db)

    # -- writes ---------------------------------------------------------------------------
    def upsert(self, entries: Sequence[TesisEntry]) -> UpsertResult:
        chunks = 0
        with self._file.write("upsert"):
            for entry in entries:
                if len(entry.chunks) != len(entry.vectors):
                    raise StoreError(
                        f"registro {entry.tesis.registro}: {len(entry.chunks)} chunks but "
                        f"{len(entry.vectors)} vectors"
                    )
                self._delete_one(entry.tesis.registro)
                self._insert_one(entry)
                chunks += len(entry.chunks)
            self._db.execute(BUMP)
            self._columns.changed()
        return UpsertResult(written=len(entries), chunks=chunks)

    def _insert_one(self, entry: TesisEntry) -> None:
        t = entry.tesis
        self._db.execute(
            "INSERT INTO tesis VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", tesis_values(entry)
        )
        rubro_terms = indexed_terms(t.rubro)
        for chunk, vector in zip(entry.chunks, entry.vectors, strict=True):
            cursor = self._db.execute(
                "INSERT INTO chunk (registro, idx, text, start_char, end_char, start_line, "
                "end_line, tokens, vector) VALUES (?,?,?,?,?,?,?,?,?)",
                chunk_values(t.registro, chunk, vector),
            )
            self._db.execute(
                "INSERT INTO chunk_fts (rowid, rubro, body) VALUES (?,?,?)",
                (cursor.lastrowid, rubro_terms, indexed_terms(chunk.text)),
            )

    def _delete_one(self, registro: int) -> bool:
        self._db.execute(
            "DELETE FROM chunk_fts WHERE rowid IN (SELECT id FROM chunk WHERE registro = ?)",
            (registro,),
        )
        self._db.execute("DELETE FROM chunk WHERE registro = ?", (registro,))
        return self._db.execute("DELETE FROM tesis WHERE registro = ?", (registro,)).rowcount > 0

    def delete(self, registros: Sequence[int]) -> int:
        with self._file.write("delete"):
            removed = sum(self._delete_one(r) for r in registros)
            self._db.execute(BUMP)
            self._columns.changed()
        return removed

    def upsert_validity(self, notes: Mapping[int, Validity]) -> int:
        with self._file.write("store validity notes"):
            self._db.executemany(
                "INSERT OR REPLACE INTO validity VALUES (?,?,?,?,?,?)",
                [validity_values(r, v) for r, v in notes.items()],
            )
        return len(notes)

    # -- reads ----------------------------------------------------------------------------
    def _rows_by(self, select: str, column: str, keys: Sequence[int]) -> Iterator[sqlite3.Row]:
        """``select`` restricted to ``column IN keys``, in parts of ``_PART`` keys."""
        for i in range(0, len(keys), _PART):
            part = [int(k) for k in keys[i : i + _PART]]
            marks = ",".join("?" * len(part))
            yield from self._db.execute(f"{select} WHERE {column} IN ({marks})", part)

    def _passages(self, rowids: Sequence[int]) -> dict[int, Passage]:
        return {row["id"]: to_passage(row) for row in self._rows_by(PASSAGE_SQL, "c.id", rowids)}

    def vector_search(self, query: VectorQuery) -> list[Candidate]:
        with self._file.guard("search vectors"):
            index = self._current_index()
        # the columns are an immutable snapshot: scanned without the lock, so a concurrent
        # search (or the other retriever of this one) is not held up by this scan
        rowids, scores = index.search(query)
        with self._file.guard("search vectors"):
            passages = self._passages(rowids.tolist())
        return [  # a row deleted since the columns were built has no passage: skipped
            Candidate(passages[r], float(s))
            for r, s in zip(rowids.tolist(), scores.tolist(), strict=True)
            if r in passages
        ]

    def lexical_search(
        self, text: str, vector: Vectors, filters: Filters, limit: int
    ) -> list[Candidate]:
        terms = query_terms(text)  # one FTS5 phrase each
        if not terms:
            return []
        query = np.asarray(vector, dtype=np.float32)
        with self._file.guard("search text"):
            index = self._current_index()
            lexical = self._lexical
            by_sql = lexical is None or any(tokens(t) != [t] for t in terms)
            found = self._lexical_sql(terms, filters, limit) if by_sql else []  # FTS5 decides
        if lexical is not None and not by_sql:
            # the postings, like the columns, are a snapshot: read without the lock
            positions, bm25 = lexical.search(terms, index.mask(filters), limit)
            scores = bm25.tolist()
        else:
            wanted = np.asarray([r for r, _ in found], np.int64)
            positions = np.searchsorted(index.rowids, wanted)
            inside = positions < len(index)
            known = inside.copy()  # rows newer than the columns (a rebuild is running)
            known[inside] = index.rowids[positions[inside]] == wanted[inside]
            positions = positions[known]
            scores = [s for (_, s), k in zip(found, known.tolist(), strict=True) if k]
        rowids = index.rowids[positions].tolist()
        cosines = [float(index.vectors[p] @ query) for p in positions.tolist()]
        with self._file.guard("search text"):
            passages = self._passages(rowids)
        return [
            Candidate(passages[r], cosine, lexical=score)
            for r, cosine, score in zip(rowids, cosines, scores, strict=True)
            if r in passages
        ]

    def _lexical_sql(self, terms: Sequence[str], filters: Filters, limit: int) -> list[Any]:
        """(rowid, BM25 score) best first, straight from FTS5."""
        conditions, params = where(filters)
        sql = (
            "SELECT f.rowid AS id, bm25(chunk_fts, ?, ?) AS score FROM chunk_fts f "
            "JOIN chunk c ON c.id = f.rowid JOIN tesis t ON t.registro = c.registro "
            f"WHERE chunk_fts MATCH ? AND {conditions} ORDER BY score LIMIT ?"
        )
        query = " OR ".join(f'"{t}"' for t in terms)
        rows = self._db.execute(sql, [*LEXICAL_WEIGHTS, query, *params, limit]).fetchall()
        return [(row["id"], -float(row["score"])) for row in rows]  # bm25() is negated

    def get_tesis(self, registros: Sequence[int]) -> dict[int, Tesis]:
        with self._file.guard("read tesis"):
            rows = self._rows_by(f"SELECT {TESIS_COLUMNS} FROM tesis", "registro", registros)
            return {row["registro"]: to_tesis(row) for row in rows}

    def find_claves(self, claves: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        with self._file.guard("read claves"):
            for clave in claves:
                key, needle = clave_key(clave), clave_needle(clave)
                rows = self._db.execute(
                    "SELECT registro, clave FROM tesis WHERE clave LIKE ?", (f"%{needle}%",)
                )
                match = next((r["registro"] for r in rows if clave_key(r["clave"]) == key), None)
                if match is not None:
                    found[clave] = match
        return found

    def get_chunks(self, registro: int) -> list[Chunk]:
        with self._file.guard("read chunks"):
            rows = self._db.execute(
                f"{PASSAGE_SQL} WHERE c.registro = ? ORDER BY c.idx", (registro,)
            ).fetchall()
        return [to_passage(row).chunk for row in rows]

    def fingerprints(self, registros: Sequence[int]) -> dict[int, str]:
        with self._file.guard("read fingerprints"):
            rows = self._rows_by("SELECT registro, fingerprint FROM tesis", "registro", registros)
            return {row["registro"]: row["fingerprint"] for row in rows}

    def get_validity(self, registros: Sequence[int]) -> dict[int, Validity]:
        with self._file.guard("read validity notes"):
            rows = self._rows_by("SELECT * FROM validity", "registro", registros)
            return {row["registro"]: to_validity(row) for row in rows}

    def list_tesis(self, query: ListQuery) -> list[Tesis]:
        conditions, params = where(query.filters)
        direction = "ASC" if query.order == "ASC" else "DESC"
        select = f"SELECT {TESIS_COLUMNS} FROM tesis t WHERE {conditions} ORDER BY"
        page = [query.limit, query.offset]
        with self._file.guard("list tesis"):
            if query.date_field is None:
                rows = self._db.execute(
                    f"{select} sort_date {direction}, registro {direction} LIMIT ? OFFSET ?",
                    [*params, *page],
                ).fetchall()
            else:  # by an extra date; records without it come last
                path = "$.dates." + json.dumps(query.date_field)
                rows = self._db.execute(
                    f"{select} json_extract(extra, ?) IS NULL, "
                    f"json_extract(extra, ?) {direction}, registro {direction} LIMIT ? OFFSET ?",
                    [*params, path, path, *page],
                ).fetchall()
        return [to_tesis(row) for row in rows]

    def date_fields(self) -> dict[str, str]:
        """The extra date fields stored records carry, with their roles. Read once per write
        generation: the query reads every record (1.1 s at 560k tesis)."""
        with self._file.guard("date fields"):
            generation = self._db.execute("SELECT generation FROM store_state").fetchone()[0]
            known = self._date_fields
            if known is not None and known[0] == generation:
                return dict(known[1])
            rows = self._db.execute(
                "SELECT DISTINCT r.key, r.value FROM tesis t, json_each(t.extra, '$.roles') r "
                "WHERE t.extra != '{}'"
            ).fetchall()
        fields = {row[0]: row[1] for row in rows}
        self._date_fields = (generation, fields)
        return dict(fields)

    def count_by(self, group_by: GroupBy, filters: Filters) -> dict[str, int]:
        conditions, params = where(filters)
        if group_by == "materias":
            sql = (
                "SELECT m.value AS key, COUNT(*) AS n FROM tesis t, json_each(t.materias) m "
                f"WHERE {conditions} GROUP BY m.value"
            )
        else:
            sql = f"SELECT t.{_GROUP_COLUMNS[group_by]} AS key, COUNT(*) AS n FROM tesis t "
            sql += f"WHERE {conditions} GROUP BY key"
        with self._file.guard("count"):
            rows = self._db.execute(sql, params).fetchall()
        return {str(row["key"]): row["n"] for row in rows}

    def count(self) -> tuple[int, int]:
        with self._file.guard("count"):
            tesis = self._db.execute("SELECT COUNT(*) FROM tesis").fetchone()[0]
            chunks = self._db.execute("SELECT COUNT(*) FROM chunk").fetchone()[0]
        return tesis, chunks

    def generation(self) -> int:
        """The file's write generation, bumped in every commit that writes or deletes tesis,
        by this process or another."""
        with self._file.guard("generation"):
            return int(self._db.execute("SELECT generation FROM store_state").fetchone()[0])

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
        self._file.close()

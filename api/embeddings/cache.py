"""Embedding cache: a read-only shipped layer (npz) and a writable SQLite layer.

Keys hash model id, text kind and text, so unchanged text is never embedded twice and a model
change never reuses stale vectors.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from api.embeddings.base import Embedder, TextKind, Vectors
from api.errors import EmbedderError

_log = logging.getLogger("vigencia.embeddings")


def cache_key(model_id: str, kind: TextKind, text: str) -> str:
    return hashlib.sha256(f"{model_id}\x00{kind}\x00{text}".encode()).hexdigest()[:32]


class EmbeddingCache:
    """Shipped vectors plus a SQLite layer. Question vectors (``kind`` "query": anonymous
    traffic makes them) are bounded: at most ``max_queries`` kept, none older than
    ``query_retention_days`` (0 = no bound); passage vectors are bounded by the corpus."""

    def __init__(
        self,
        writable: Path | None,
        shipped: Iterable[Path] = (),
        max_queries: int = 0,
        query_retention_days: int = 0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.max_queries = max_queries
        self.query_retention_days = query_retention_days
        self.clock = clock
        self._puts = 0
        self._shipped: dict[str, np.ndarray] = {}
        for path in shipped:
            if path.exists():
                with np.load(path) as data:
                    for key, vector in zip(data["keys"], data["vectors"], strict=True):
                        self._shipped[str(key)] = vector
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if writable is not None:
            try:
                self._db = self._open(writable)
            except (sqlite3.Error, OSError) as exc:
                raise EmbedderError(
                    f"cannot open the embedding cache at {writable}: {exc}. Check that the "
                    "directory exists and is writable, or set VIGENCIA_DATA_DIR."
                ) from exc
        self.write_failures = 0

    @staticmethod
    def _open(writable: Path) -> sqlite3.Connection:
        writable.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(writable, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        # A cache may lose its last entries on power loss, never its consistency: no fsync
        # per commit (it cost a first-sight question 4-11 ms on a busy disk).
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(
            "CREATE TABLE IF NOT EXISTS embedding (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"
        )
        columns = {row[1] for row in db.execute("PRAGMA table_info(embedding)")}
        if "kind" not in columns:  # caches written before the bound: rows stay unbounded
            with db:
                db.execute("ALTER TABLE embedding ADD COLUMN kind TEXT")
                db.execute("ALTER TABLE embedding ADD COLUMN added REAL")
        db.execute("CREATE INDEX IF NOT EXISTS embedding_added ON embedding (kind, added)")
        return db

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        found = {k: self._shipped[k] for k in keys if k in self._shipped}
        missing = [k for k in keys if k not in found]
        if missing and self._db is not None:
            try:
                self._read(missing, found)
            except sqlite3.Error as exc:  # a cache that cannot be read is a miss, not a failure
                _log.warning("embedding cache read failed: %s", exc)
        return found

    def _read(self, missing: list[str], found: dict[str, np.ndarray]) -> None:
        assert self._db is not None
        with self._lock:
            for i in range(0, len(missing), 500):
                part = missing[i : i + 500]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT key, vector FROM embedding WHERE key IN ({marks})", part
                ).fetchall()
                for key, blob in rows:
                    found[key] = np.frombuffer(blob, dtype=np.float32)

    def put_many(self, items: dict[str, np.ndarray], kind: TextKind | None = None) -> None:
        """Store vectors; a failure (disk full, read-only, file deleted) is logged and counted,
        never raised: the vectors were computed, only the cache misses them."""
        if self._db is None or not items:
            return
        try:
            self._put(items, kind)
        except sqlite3.Error as exc:
            self.write_failures += 1
            _log.warning("embedding cache write failed: %s", exc)

    def _put(self, items: dict[str, np.ndarray], kind: TextKind | None) -> None:
        assert self._db is not None
        now = self.clock()
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO embedding (key, vector, kind, added) VALUES (?, ?, ?, ?)",
                [
                    (k, np.asarray(v, dtype=np.float32).tobytes(), kind, now)
                    for k, v in items.items()
                ],
            )
            self._puts += 1
            bound = self.max_queries
            # every put when small, else every tenth of the bound: stays under ~1.1 x bound
            due = not bound or bound < 100 or self._puts % max(1, bound // 10) == 0
            if kind == "query" and (bound or self.query_retention_days) and due:
                self._prune_queries(now)

    def _prune_queries(self, now: float) -> None:
        if self.query_retention_days:
            cutoff = now - self.query_retention_days * 86400
            self._db_or_fail().execute(
                "DELETE FROM embedding WHERE kind = 'query' AND added < ?", (cutoff,)
            )
        if self.max_queries:
            self._db_or_fail().execute(
                "DELETE FROM embedding WHERE kind = 'query' AND key NOT IN (SELECT key FROM "
                "embedding WHERE kind = 'query' ORDER BY added DESC, rowid DESC LIMIT ?)",
                (self.max_queries,),
            )

    def _db_or_fail(self) -> sqlite3.Connection:
        assert self._db is not None
        return self._db

    def query_count(self) -> int:
        """Question vectors in the writable layer."""
        if self._db is None:
            return 0
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM embedding WHERE kind = 'query'")
            return int(row.fetchone()[0])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()


class CachedEmbedder:
    """Wraps an embedder; ``misses`` counts texts that really went to the model."""

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        self.inner = inner
        self.cache = cache
        self.misses = 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        keys = [cache_key(self.model_id, kind, t) for t in texts]
        found = self.cache.get_many(keys)
        todo = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in found}.items())
        if todo:
            fresh = self.inner.embed([t for _, t in todo], kind)
            new = {k: fresh[i] for i, (k, _) in enumerate(todo)}
            self.cache.put_many(new, kind)
            found.update(new)
            self.misses += len(todo)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([found[k] for k in keys]).astype(np.float32, copy=False)


def write_shipped(path: Path, items: dict[str, np.ndarray]) -> None:
    """Write a read-only cache layer (sorted keys, so the file is reproducible)."""
    keys = sorted(items)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, keys=np.array(keys), vectors=np.vstack([items[k] for k in keys]))

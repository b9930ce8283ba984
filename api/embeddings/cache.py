"""Embedding cache: a read-only shipped layer (npz) and a writable SQLite layer.

Keys hash model id, text kind and text, so unchanged text is never embedded twice and a model
change never reuses stale vectors.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from api.embeddings.base import Embedder, TextKind, Vectors


def cache_key(model_id: str, kind: TextKind, text: str) -> str:
    return hashlib.sha256(f"{model_id}\x00{kind}\x00{text}".encode()).hexdigest()[:32]


class EmbeddingCache:
    def __init__(self, writable: Path | None, shipped: Iterable[Path] = ()) -> None:
        self._shipped: dict[str, np.ndarray] = {}
        for path in shipped:
            if path.exists():
                with np.load(path) as data:
                    for key, vector in zip(data["keys"], data["vectors"], strict=True):
                        self._shipped[str(key)] = vector
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if writable is not None:
            writable.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(writable, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            # A cache may lose its last entries on power loss, never its consistency: no fsync
            # per commit (it cost a first-sight question 4-11 ms on a busy disk).
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS embedding (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"
            )

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        found = {k: self._shipped[k] for k in keys if k in self._shipped}
        missing = [k for k in keys if k not in found]
        if missing and self._db is not None:
            with self._lock:
                for i in range(0, len(missing), 500):
                    part = missing[i : i + 500]
                    marks = ",".join("?" * len(part))
                    rows = self._db.execute(
                        f"SELECT key, vector FROM embedding WHERE key IN ({marks})", part
                    ).fetchall()
                    for key, blob in rows:
                        found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, items: dict[str, np.ndarray]) -> None:
        if self._db is None or not items:
            return
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO embedding (key, vector) VALUES (?, ?)",
                [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()],
            )

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
            self.cache.put_many(new)
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

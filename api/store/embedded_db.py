"""The embedded store's SQLite file: its schema, opening it, and noticing when it goes bad.

Every call runs under one lock; a failure is re-raised as ``StoreError`` with what an operator
can do about it. Writes refuse when the file under us was deleted or replaced (SQLite would go
on writing into an unlinked file) and remember their latest failure for ``health``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from api.core.circuits import circuit_of
from api.errors import StoreError

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
BUMP = "UPDATE store_state SET generation = generation + 1"  # in every chunk-writing commit
STATE_SQL = "SELECT (SELECT generation FROM store_state), COUNT(*), COALESCE(MAX(id), 0) FROM chunk"


def identity(path: Path | None) -> tuple[int, int] | None:
    if path is None:
        return None
    found = os.stat(path)
    return found.st_dev, found.st_ino


def explain(exc: sqlite3.Error) -> str:
    """SQLite's message, with what to do for the failures an operator can fix."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "disk is full" in text:
        return f"{text} (the disk is full: free space, then retry)"
    if code == sqlite3.SQLITE_READONLY or "readonly" in text:
        return f"{text} (the store file or its directory is read-only)"
    return text


# SQLite's page cache per connection. Its default (2 MB) cannot hold the interior B-tree
# pages of a large store, so every passage read walked them again: at 1M chunks a question
# never seen before took 88 ms against 36 ms with 64 MB (measured here).
DEFAULT_CACHE_MB = 64


def _open(path: Path | None, cache_mb: int = DEFAULT_CACHE_MB) -> sqlite3.Connection:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path) if path else ":memory:", check_same_thread=False, timeout=30)
    db.row_factory = sqlite3.Row
    # the circuit filter reads the organo's words ("... DEL SEXTO CIRCUITO.")
    db.create_function("circuit_of", 1, circuit_of, deterministic=True)
    db.execute(f"PRAGMA cache_size=-{int(cache_mb) * 1024}")  # negative: KiB
    if path is not None:
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA foreign_keys=ON")
    db.executescript(SCHEMA)
    columns = {row[1] for row in db.execute("PRAGMA table_info(tesis)")}
    if "extra" not in columns:  # a store written before extra fields existed
        db.execute("ALTER TABLE tesis ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'")
    return db


class StoreFile:
    """One SQLite connection (``path=None``: in memory), guarded by a lock."""

    def __init__(self, path: Path | None, cache_mb: int = DEFAULT_CACHE_MB) -> None:
        self.path = path
        self.lock = threading.RLock()
        try:
            self.db = _open(path, cache_mb)
            self._identity = identity(path)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(
                f"cannot open the embedded store at {path}: {exc}. Check that the directory "
                "exists and is writable, or set VIGENCIA_DATA_DIR."
            ) from exc
        self.write_failure: str | None = None  # the latest write's error, until one succeeds

    def problem(self) -> str | None:
        """Why the file under us is not the one we opened (deleted or replaced), or None."""
        if self.path is None:
            return None
        try:
            now = identity(self.path)
        except FileNotFoundError:
            return f"the store file {self.path} was deleted while open; restart to recreate it"
        except OSError as exc:
            return f"the store file {self.path} cannot be read: {exc.strerror}"
        if now != self._identity:
            return f"the store file {self.path} was replaced while open; restart to reopen it"
        return None

    @contextmanager
    def guard(self, action: str) -> Iterator[sqlite3.Connection]:
        with self.lock:
            try:
                yield self.db
            except sqlite3.Error as exc:
                raise StoreError(f"embedded store failed to {action}: {explain(exc)}") from exc

    @contextmanager
    def write(self, action: str) -> Iterator[sqlite3.Connection]:
        """``guard`` for one transaction: refuses when the file is gone, remembers a failure."""
        with self.lock:
            problem = self.problem()
            if problem is not None:
                self.write_failure = problem
                raise StoreError(f"embedded store cannot {action}: {problem}")
            try:
                with self.guard(action), self.db:
                    yield self.db
            except StoreError as exc:
                self.write_failure = str(exc)
                raise
            self.write_failure = None

    def close(self) -> None:
        with self.lock:
            self.db.close()

"""The embedded (SQLite) search log: the contract, durability and failures."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest

from api.errors import LogError
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.services.factory import BACKENDS, build_search_log, log_path
from api.settings import Settings
from tests.monitoring.builders import log_entry, logged_hit
from tests.monitoring.log_contract import LogContract, fill


class TestEmbeddedInMemory(LogContract):
    @pytest.fixture
    def log(self) -> Iterator[EmbeddedSearchLog]:
        log = EmbeddedSearchLog(None)
        yield log
        log.close()


class TestEmbeddedOnDisk(LogContract):
    @pytest.fixture
    def log(self, tmp_path: Path) -> Iterator[EmbeddedSearchLog]:
        log = EmbeddedSearchLog(tmp_path / "var" / "search_log.sqlite")
        yield log
        log.close()


def test_entries_survive_a_restart_in_their_own_wal_file(tmp_path: Path) -> None:
    path = tmp_path / "search_log.sqlite"
    log = EmbeddedSearchLog(path)
    fill(log, 2)
    log.close()
    reopened = EmbeddedSearchLog(path)
    assert [e.id for e in reopened.recent(5)] == ["id-0", "id-1"]
    journal = reopened._open().execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "wal"
    reopened.close()


def test_build_search_log_puts_the_embedded_log_beside_the_store(tmp_path: Path) -> None:
    log = build_search_log(Settings(data_dir=tmp_path))
    assert isinstance(log, EmbeddedSearchLog)
    assert log.path == log_path(tmp_path) == tmp_path / "search_log.sqlite"
    assert not log.path.exists()  # nothing is opened before the first call


def test_an_unwritable_path_fails_calls_not_construction(tmp_path: Path) -> None:
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("a file where the data directory should be")
    log = EmbeddedSearchLog(blocker / "search_log.sqlite")
    with pytest.raises(LogError, match="cannot open the search log"):
        log.append(log_entry([logged_hit(1, 2020)]))
    health = log.health()
    assert health["status"] == "degraded" and health["log"] == "embedded"


def test_a_read_only_database_raises_log_error(tmp_path: Path) -> None:
    log = EmbeddedSearchLog(tmp_path / "search_log.sqlite")
    fill(log, 1)
    log._open().execute("PRAGMA query_only = ON")  # the storage turned read-only
    with pytest.raises(LogError, match="failed to append") as info:
        log.append(log_entry([logged_hit(1, 2020)], log_id="new"))
    assert isinstance(info.value.__cause__, sqlite3.Error)
    assert [e.id for e in log.recent(5)] == ["id-0"]  # reads still work
    log.close()


def test_a_corrupt_row_is_skipped(tmp_path: Path) -> None:
    log = EmbeddedSearchLog(tmp_path / "search_log.sqlite")
    fill(log, 2)
    with log._open() as db:
        db.execute("UPDATE search_log SET data = '{not json' WHERE id = 'id-1'")
    assert [e.id for e in log.recent(5)] == ["id-0"]
    log.close()


def test_every_store_kind_declares_its_search_log() -> None:
    kinds = set(get_args(Settings.model_fields["store"].annotation))
    assert kinds == set(BACKENDS)
    assert all(callable(b.store) and callable(b.log) for b in BACKENDS.values())


def test_the_weaviate_store_gets_the_weaviate_log(tmp_path: Path) -> None:
    from api.monitoring.weaviate_log import WeaviateSearchLog

    settings = Settings(store="weaviate", weaviate_url="http://localhost:8080", data_dir=tmp_path)
    log = build_search_log(settings)
    assert isinstance(log, WeaviateSearchLog)
    assert log.prefix == settings.weaviate_collection_prefix

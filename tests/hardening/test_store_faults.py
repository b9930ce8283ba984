"""The embedded store notices when its file is gone, full or unwritable, and says so.

Techniques (tests run as root, so permission bits block nothing):
- deleted: the real file is unlinked under an open store (SQLite would keep writing into it);
- full disk: ``PRAGMA max_page_count`` caps the real database, so SQLite itself fails with
  SQLITE_FULL ("database or disk is full"), the error a full disk gives;
- unwritable directory: ``/proc/self`` (the kernel refuses new files there, root included) and
  a path below a regular file (``NotADirectoryError``);
- lost after a restart: the store file deleted while stopped, the ingest report still there.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

from api.app import create_app
from api.cli.main import main
from api.embeddings.cache import EmbeddingCache
from api.errors import StartupError, StoreError
from api.ingest.pipeline import ingest_records, write_report
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.monitoring.recorder import Recorder
from api.preflight import check_data_dir
from api.services.container import Services
from api.services.factory import store_path
from api.settings import Settings
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder
from tests.hardening.test_faults import DIM, MASKED, post
from tests.ingest.test_ingest import good

INGEST = """mutation I($records: [JSON!]!) { ingestTesis(records: $records) { __typename
  ... on IngestResult { stored } ... on ServiceError { service message } } }"""


def on_disk(tmp_path: Path) -> tuple[Services, EmbeddedStore]:
    settings = Settings(data_dir=tmp_path, search_log_enabled=False)
    store = EmbeddedStore(store_path(settings), dim=DIM)
    ingest_records([good(1), good(2)], "t", store, FakeEmbedder(DIM))
    return Services.build(settings, store=store, embedder=FakeEmbedder(DIM)), store


def test_deleted_file_fails_writes_and_degrades_health(tmp_path: Path) -> None:
    services, store = on_disk(tmp_path)
    with TestClient(create_app(services=services)) as client:
        assert client.get("/health").status_code == 200
        os.remove(store_path(services.settings))
        result = post(client, INGEST, records=[good(3)])["data"]["ingestTesis"]
        health = client.get("/health")
    assert result["__typename"] == "ServiceError" and result["service"] == "store"
    assert "deleted" in result["message"] and str(tmp_path) not in result["message"]
    assert health.status_code == 503
    body = health.json()
    assert body["status"] == "degraded" and "deleted" in body["store"]["detail"]
    assert str(tmp_path) not in health.text  # /health is public: no paths
    with pytest.raises(StoreError, match="deleted"):
        store.delete([1])


def test_full_disk_is_a_clear_store_error_and_degraded_health(tmp_path: Path) -> None:
    services, store = on_disk(tmp_path)
    store._db.execute("PRAGMA max_page_count = 1")  # the file cannot grow: SQLITE_FULL
    big = [good(10 + i, texto="Texto largo del criterio. " * 2000) for i in range(3)]
    with TestClient(create_app(services=services)) as client:
        result = post(client, INGEST, records=big)["data"]["ingestTesis"]
        health = client.get("/health")
    assert result["__typename"] == "ServiceError" and result["message"] != MASKED
    assert "disk is full" in result["message"]
    assert health.status_code == 503 and "disk is full" in health.json()["store"]["detail"]
    store._db.execute("PRAGMA max_page_count = 1073741823")  # space again: the next write heals
    assert ingest_records([good(20)], "t", store, FakeEmbedder(DIM)).stored == 1
    assert store.health()["status"] == "ok"


def test_store_emptied_while_stopped_is_reported_after_restart(tmp_path: Path) -> None:
    services, store = on_disk(tmp_path)
    report = ingest_records([good(3)], "t", store, FakeEmbedder(DIM))
    write_report(report, tmp_path / "ingest_reports")
    store.close()
    os.remove(store_path(services.settings))
    restarted = Services.build(services.settings, embedder=FakeEmbedder(DIM))
    with TestClient(create_app(services=restarted)) as client:
        health = client.get("/health")
    restarted.close()
    assert health.status_code == 503
    assert "store is empty, but the last ingest" in health.json()["store"]["detail"]


@pytest.mark.parametrize("directory", ["/proc/self", "/proc/vigencia/var", "FILE/var"])
def test_unwritable_data_dir_refuses_start_up_naming_it(
    tmp_path: Path, directory: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "FILE").write_text("not a directory")
    data_dir = Path(directory.replace("FILE", str(tmp_path / "FILE")))
    settings = Settings(data_dir=data_dir)
    with pytest.raises(StartupError, match=str(data_dir)):
        check_data_dir(settings)
    with pytest.raises(StartupError, match="VIGENCIA_DATA_DIR"):
        Services.build(settings)
    assert main(["search", "amparo"], settings) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(data_dir) in err and "Traceback" not in err


def test_store_open_failure_names_the_path(tmp_path: Path) -> None:
    target = tmp_path / "store.sqlite"
    target.mkdir()  # a directory where the file should be
    with pytest.raises(StoreError, match=str(target)):
        EmbeddedStore(target, dim=DIM)


# -- retention by size -------------------------------------------------------------------------


def test_search_log_is_bounded_by_entries(tmp_path: Path, bundled: Services) -> None:
    log = EmbeddedSearchLog(tmp_path / "log.sqlite")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    moments = iter(start + timedelta(seconds=i) for i in range(1000))
    recorder = Recorder(log, retention_days=0, clock=lambda: next(moments), max_entries=10)
    result = bundled.search.search(_request("suspensión provisional"))
    for i in range(35):
        recorder.record_search(f"pregunta {i}", {}, result)
    kept = log.recent(limit=200)
    assert len(kept) <= 11  # pruned every tenth of the bound: at most one over
    assert kept[0].question == "pregunta 34"
    recorder.prune()
    assert [e.question for e in log.recent(limit=200)] == [
        f"pregunta {i}" for i in range(34, 24, -1)
    ]
    log.close()


def _request(question: str) -> object:
    from api.services.search import SearchRequest

    return SearchRequest(query=question, top_k=3)


def test_embedding_cache_bounds_question_vectors_only(tmp_path: Path) -> None:
    now = [1_000_000.0]
    cache = EmbeddingCache(
        tmp_path / "cache.sqlite", max_queries=5, query_retention_days=1, clock=lambda: now[0]
    )
    vector = np.ones(4, dtype=np.float32)
    cache.put_many({f"p{i}": vector for i in range(20)}, "passage")
    for i in range(12):
        now[0] += 1
        cache.put_many({f"q{i}": vector}, "query")
    assert cache.query_count() == 5
    assert set(cache.get_many([f"q{i}" for i in range(12)])) == {f"q{i}" for i in range(7, 12)}
    assert len(cache.get_many([f"p{i}" for i in range(20)])) == 20  # passages untouched
    now[0] += 2 * 86400  # two days later every question vector is past its retention
    cache.put_many({"fresh": vector}, "query")
    assert cache.query_count() == 1
    cache.close()


def test_embedding_cache_write_failure_does_not_fail_the_embedding(tmp_path: Path) -> None:
    from api.embeddings.cache import CachedEmbedder

    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    assert cache._db is not None
    cache._db.execute("PRAGMA max_page_count = 1")
    embedder = CachedEmbedder(FakeEmbedder(DIM), cache)
    texts = [f"amparo número {i}" for i in range(300)]  # ~40 KB of vectors: more pages
    vectors = embedder.embed(texts, "passage")
    assert vectors.shape == (300, DIM) and cache.write_failures == 1

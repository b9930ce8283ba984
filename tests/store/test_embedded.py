from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import pytest

from api.core.intent import MATERIAS as CANONICAL_MATERIAS
from api.core.models import Filters
from api.errors import StoreError
from api.ingest.records import MATERIAS
from api.store.base import TesisEntry, VectorQuery
from api.store.embedded import EmbeddedStore
from api.store.embedded_index import MATERIA_BITS
from tests.store.contract import DIM, StoreContract, entry, unit


class TestEmbeddedContract(StoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path):
        store = EmbeddedStore(tmp_path / "store.sqlite", dim=DIM)
        yield store
        store.close()


def test_in_memory_store_works_without_a_file() -> None:
    store = EmbeddedStore(None, dim=DIM)
    store.upsert([entry(1, 1980, [unit(1, 0, 0, 0)])])
    assert store.count() == (1, 1)


def test_second_process_sees_writes_of_the_first(tmp_path: Path) -> None:
    reader = EmbeddedStore(tmp_path / "s.sqlite", dim=DIM)
    assert reader.vector_search(VectorQuery(unit(1, 0, 0, 0), Filters(), 5)) == []
    writer = EmbeddedStore(tmp_path / "s.sqlite", dim=DIM)
    writer.upsert([entry(1, 1980, [unit(1, 0, 0, 0)])])
    assert [
        h.passage.registro
        for h in reader.vector_search(VectorQuery(unit(1, 0, 0, 0), Filters(), 5))
    ] == [1]


def test_the_page_cache_size_is_the_one_configured(tmp_path: Path) -> None:
    from api.services.factory import build_store
    from api.settings import Settings

    small = EmbeddedStore(tmp_path / "a.sqlite", cache_mb=8)
    assert small._db.execute("PRAGMA cache_size").fetchone()[0] == -8 * 1024
    configured = build_store(Settings(data_dir=tmp_path / "var", store_cache_mb=24), 384)
    assert configured._db.execute("PRAGMA cache_size").fetchone()[0] == -24 * 1024  # type: ignore[attr-defined]
    small.close(), configured.close()


def test_unopenable_path_raises_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot open"):
        EmbeddedStore(blocker / "sub" / "store.sqlite", dim=DIM)


def test_closed_store_reports_degraded_health(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "s.sqlite", dim=DIM)
    store.close()
    assert store.health()["status"] == "degraded"


def test_materia_bits_cover_the_canonical_materias() -> None:
    """The mask's bit layout is stored: every materia ingest accepts has its own bit."""
    accepted = set(MATERIAS.values())
    assert set(MATERIA_BITS) == accepted == set(CANONICAL_MATERIAS)
    assert sorted(MATERIA_BITS.values()) == [1 << i for i in range(len(MATERIA_BITS))]


def test_large_registro_lists_are_read_in_parts() -> None:
    store = EmbeddedStore(None, dim=DIM)
    store.upsert([entry(r, 1990, [unit(1, 0, 0, 0)]) for r in (1, 2500)])
    wanted = list(range(1, 3000))
    assert set(store.get_tesis(wanted)) == set(store.fingerprints(wanted)) == {1, 2500}
    assert store.get_tesis([]) == {} and store.get_validity([]) == {}


def dated(registro: int, field: str, role: str) -> TesisEntry:
    """An entry whose record carries one extra date field with ``role``."""
    plain = entry(registro, 2020, [unit(1, 0, 0, 0)])
    tesis = dataclasses.replace(
        plain.tesis, dates=((field, date(2021, 1, 1)),), date_roles=((field, role),)
    )
    return dataclasses.replace(plain, tesis=tesis)


def test_date_fields_follow_writes_of_this_and_other_processes(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    server, writer = EmbeddedStore(path, dim=DIM), EmbeddedStore(path, dim=DIM)
    server.upsert([dated(1, "pushed_at", "updated")])
    assert server.date_fields() == {"pushed_at": "updated"}
    assert server.date_fields() == {"pushed_at": "updated"}  # read once, not changed
    writer.upsert([dated(2, "released_at", "published")])
    assert server.date_fields() == {"pushed_at": "updated", "released_at": "published"}
    server.delete([1])
    assert server.date_fields() == {"released_at": "published"}
    server.close()
    writer.close()

"""The embedded store's large-store paths, forced on small data: saved memory-mapped columns,
rebuilds in the background, and the ANN shortlist re-scored exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from api.core.models import Filters
from api.store.base import VectorQuery
from api.store.embedded import EmbeddedStore
from api.store.embedded_files import index_dir
from tests.store.contract import entry

DIM = 32


def corpus(n: int, seed: int = 7) -> list:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return [
        entry(1000 + i, 1950 + i % 70, [vectors[i]], texts=[f"amparo tesis numero {i} plazo"])
        for i in range(n)
    ]


def ids(hits: list) -> list[tuple[int, int]]:
    return [(h.passage.registro, h.passage.chunk.index) for h in hits]


def test_columns_are_saved_and_mapped_on_the_next_open(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    first = EmbeddedStore(path, dim=DIM, persist_min_chunks=1)
    first.upsert(corpus(50))
    query = corpus(1, seed=9)[0].vectors[0]
    expected = ids(first.vector_search(VectorQuery(query, Filters(), 5)))
    lexical = ids(first.lexical_search("amparo plazo", query, Filters(), 5))
    assert first.rebuilds == 1 and (index_dir(path) / "meta.json").exists()
    first.close()
    second = EmbeddedStore(path, dim=DIM, persist_min_chunks=1)
    assert ids(second.vector_search(VectorQuery(query, Filters(), 5))) == expected
    assert ids(second.lexical_search("amparo plazo", query, Filters(), 5)) == lexical
    assert second.rebuilds == 0  # mapped, not rebuilt
    assert not second._current_index().vectors.flags.writeable  # a read-only map of the file


def test_mapped_columns_are_read_ahead_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import threading

    from api.store import embedded_files

    advised: list[tuple[str, int]] = []
    done = threading.Event()

    def advise(fd: int, offset: int, length: int, advice: int) -> None:
        advised.append((os.readlink(f"/proc/self/fd/{fd}"), advice))
        if len(advised) == len(list(index_dir(path).glob("*.npy"))):
            done.set()

    path = tmp_path / "s.sqlite"
    first = EmbeddedStore(path, dim=DIM, persist_min_chunks=1)
    first.upsert(corpus(20))
    first.close()
    monkeypatch.setattr(embedded_files.os, "posix_fadvise", advise, raising=False)
    second = EmbeddedStore(path, dim=DIM, persist_min_chunks=1)
    second.vector_search(VectorQuery(corpus(1, seed=9)[0].vectors[0], Filters(), 5))
    assert done.wait(10), advised
    assert {Path(p).name for p, _ in advised} == {p.name for p in index_dir(path).glob("*.npy")}
    assert {a for _, a in advised} == {os.POSIX_FADV_WILLNEED}
    assert "vectors.npy" in {Path(p).name for p, _ in advised}
    second.close()


def test_without_fadvise_the_columns_are_read_on_demand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api.store import embedded_files

    monkeypatch.delattr(embedded_files.os, "posix_fadvise", raising=False)
    assert embedded_files.prefetch([tmp_path / "x.npy"]) is None


def test_saved_columns_of_an_older_state_are_not_used(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    reader = EmbeddedStore(path, dim=DIM, persist_min_chunks=1)
    reader.upsert(corpus(20))
    query = corpus(1, seed=9)[0].vectors[0]
    reader.vector_search(VectorQuery(query, Filters(), 5))
    writer = EmbeddedStore(path, dim=DIM, persist_min_chunks=1)
    writer.delete([1000 + i for i in range(10)])
    hits = reader.vector_search(VectorQuery(query, Filters(), 20))
    assert {h.passage.registro for h in hits} == {1000 + i for i in range(10, 20)}
    assert reader.rebuilds == 2


def test_validity_notes_do_not_rebuild_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    reader = EmbeddedStore(path, dim=DIM)
    reader.upsert(corpus(5))
    query = corpus(1, seed=9)[0].vectors[0]
    reader.vector_search(VectorQuery(query, Filters(), 5))
    EmbeddedStore(path, dim=DIM).upsert_validity({})
    reader.vector_search(VectorQuery(query, Filters(), 5))
    assert reader.rebuilds == 1


def test_another_process_writing_does_not_stall_a_large_store(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    reader = EmbeddedStore(path, dim=DIM, background_min_chunks=1)
    reader.upsert(corpus(20))
    query = corpus(1, seed=9)[0].vectors[0]
    assert len(reader.vector_search(VectorQuery(query, Filters(), 50))) == 20
    writer = EmbeddedStore(path, dim=DIM)
    writer.delete([1000 + i for i in range(10)])
    writer.upsert([entry(5000, 2020, [query], texts=["criterio novedoso"])])
    served = reader.vector_search(
        VectorQuery(query, Filters(), 50)
    )  # the previous columns, minus deleted
    assert {h.passage.registro for h in served} == {1000 + i for i in range(10, 20)}
    reader.wait_rebuilt(timeout=60)
    fresh = reader.vector_search(VectorQuery(query, Filters(), 50))
    assert fresh[0].passage.registro == 5000
    assert {h.passage.registro for h in fresh} == {5000} | {1000 + i for i in range(10, 20)}
    lexical = reader.lexical_search("novedoso", query, Filters(), 5)
    assert [h.passage.registro for h in lexical] == [5000]


@pytest.mark.parametrize(
    ("filters", "approximate"),
    [(Filters(), True), (Filters(anio_min=1980), True), (Filters(anio_min=2015), False)],
)
def test_ann_shortlist_returns_the_exact_top_k(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filters: Filters, approximate: bool
) -> None:
    from api.store import embedded_index

    # 1,500 rows: the ANN path for every row or the 840 from 1980 on; the 105 from 2015 on
    # are fewer than the rows an exact scan is kept for
    monkeypatch.setattr(embedded_index, "EXACT_MAX_ROWS", 300)
    ann = EmbeddedStore(tmp_path / "a.sqlite", dim=DIM, ann_min_chunks=1, ann_shortlist=400)
    exact = EmbeddedStore(tmp_path / "e.sqlite", dim=DIM)
    data = corpus(1500)
    ann.upsert(data)
    exact.upsert(data)
    index = ann._current_index()
    assert index.ann is not None
    asked: list[int] = []
    shortlist = index.ann.candidates
    monkeypatch.setattr(index.ann, "candidates", lambda q, k: asked.append(k) or shortlist(q, k))
    for query in (e.vectors[0] for e in corpus(10, seed=11)):
        got = ann.vector_search(VectorQuery(query, filters, 10))
        want = exact.vector_search(VectorQuery(query, filters, 10))
        assert ids(got) == ids(want)
        assert [h.similarity for h in got] == pytest.approx([h.similarity for h in want])
    assert bool(asked) is approximate
    if filters.anio_min == 1980:  # the shortlist is widened by the share the filter keeps
        kept = sum(1950 + i % 70 >= 1980 for i in range(1500))
        assert set(asked) == {int(400 / (kept / 1500))}

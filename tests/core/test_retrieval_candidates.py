"""A hybrid search's two retrievers run at the same time and merge as if run in turn."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from api.core.fusion import merge_candidates
from api.core.models import Candidate, Filters
from api.services.search.config import SearchConfig
from api.services.search.retrieval import Retrieval
from api.store.base import VectorQuery
from tests.fakes import make_hit

PAUSE_S = 0.3


def _candidate(registro: int, similarity: float, lexical: float = 0.0) -> Candidate:
    return Candidate(make_hit(registro).passage, similarity, lexical)


class SlowStore:
    """Each retriever takes PAUSE_S and records the thread it ran on."""

    def __init__(self, vector_error: Exception | None = None) -> None:
        self.threads: dict[str, str] = {}
        self.vector_error = vector_error

    def vector_search(self, query: VectorQuery) -> list[Candidate]:
        self.threads["vector"] = threading.current_thread().name
        time.sleep(PAUSE_S)
        if self.vector_error:
            raise self.vector_error
        return [_candidate(1, 0.9), _candidate(2, 0.8)]

    def lexical_search(
        self, query: str, vector: object, filters: Filters, limit: int
    ) -> list[Candidate]:
        self.threads["lexical"] = threading.current_thread().name
        time.sleep(PAUSE_S)
        return [_candidate(2, 0.7, 5.0), _candidate(3, 0.6, 3.0)]


def test_both_retrievers_run_at_once_and_merge_in_order() -> None:
    store = SlowStore()
    retrieval = Retrieval(store, SearchConfig())  # type: ignore[arg-type]
    vector = np.ones(4, np.float32)
    started = time.perf_counter()
    found, reference = retrieval.candidates("amparo", vector, Filters(), 50, "hybrid")
    elapsed = time.perf_counter() - started
    assert elapsed < 1.6 * PAUSE_S  # in turn they would take 2 x PAUSE_S
    assert store.threads["vector"] != store.threads["lexical"]
    expected = merge_candidates(
        store.vector_search(VectorQuery(vector, Filters(), 50)),
        store.lexical_search("amparo", vector, Filters(), 50),
    )
    assert found == expected  # vector list first, as before: chunk 2 keeps both scores
    assert reference == expected  # each retriever's first 50: all of them here
    assert [(c.passage.registro, c.similarity, c.lexical) for c in found] == [
        (1, 0.9, 0.0),
        (2, 0.8, 5.0),
        (3, 0.6, 3.0),
    ]


def test_a_failing_vector_retriever_fails_the_search() -> None:
    store = SlowStore(vector_error=RuntimeError("store down"))
    retrieval = Retrieval(store, SearchConfig())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="store down"):
        retrieval.candidates("amparo", np.ones(4, np.float32), Filters(), 50, "hybrid")


@pytest.mark.parametrize("mode", ["vector", "lexical"])
def test_a_single_retriever_mode_asks_only_that_retriever(mode: str) -> None:
    store = SlowStore()
    retrieval = Retrieval(store, SearchConfig())  # type: ignore[arg-type]
    retrieval.candidates("amparo", np.ones(4, np.float32), Filters(), 50, mode)  # type: ignore[arg-type]
    assert set(store.threads) == {mode}


def test_the_reference_set_is_each_retrievers_first_candidates() -> None:
    store = SlowStore()
    retrieval = Retrieval(store, SearchConfig())  # type: ignore[arg-type]
    found, reference = retrieval.candidates(
        "amparo", np.ones(4, np.float32), Filters(), 50, "hybrid", reference=1
    )
    assert len(found) == 3
    # the vector search's best (1) and BM25's best (2, with its own cosine: the vector side's
    # second, 0.8, is past the reference)
    assert [(c.passage.registro, c.similarity, c.lexical) for c in reference] == [
        (1, 0.9, 0.0),
        (2, 0.7, 5.0),
    ]

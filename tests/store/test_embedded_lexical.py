"""The in-memory BM25 must return exactly what FTS5's bm25() returns: same chunks, same order,
same scores, under every filter. FTS5 itself (the SQL path) is the oracle."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from api.core.models import Candidate, Filters
from api.services.container import Services
from api.settings import PROJECT_ROOT
from api.store.embedded import EmbeddedStore
from api.store.embedded_index import top_positions
from api.store.embedded_lexical import fts_totals, tokens
from tests.store.contract import DIM, entry, unit

QUESTIONS = [
    json.loads(line)["query"]
    for line in (PROJECT_ROOT / "data" / "eval" / "queries.jsonl").read_text().splitlines()
]
FILTERS = [
    Filters(),
    Filters(anio_min=2000),
    Filters(anio_max=1985, materias=("Laboral",)),
    Filters(tipo="Jurisprudencia"),
    Filters(epocas=("Novena Época", "Décima Época")),
]


def fts5_oracle(
    store: EmbeddedStore, text: str, vector: np.ndarray, filters: Filters
) -> list[Candidate]:
    lexical, store._lexical = store._lexical, None  # force the FTS5 SQL path
    try:
        return store.lexical_search(text, vector, filters, 100)
    finally:
        store._lexical = lexical


@pytest.mark.parametrize("filters", FILTERS, ids=str)
def test_bundled_corpus_matches_fts5_exactly(bundled: Services, filters: Filters) -> None:
    store = bundled.store
    assert isinstance(store, EmbeddedStore)
    vector = np.full(store.dim, store.dim**-0.5, dtype=np.float32)
    for text in QUESTIONS:
        ours = store.lexical_search(text, vector, filters, 100)
        assert store._lexical is not None
        expected = fts5_oracle(store, text, vector, filters)
        assert [(c.passage.chunk.chunk_id, c.lexical, c.similarity) for c in ours] == [
            (c.passage.chunk.chunk_id, c.lexical, c.similarity) for c in expected
        ]


def test_terms_fts5_would_split_go_to_fts5() -> None:
    store = EmbeddedStore(None, dim=DIM)
    store.upsert([entry(1, 1980, [unit(1, 0, 0, 0)], texts=["laudo del art 5"])])
    query = unit(1, 0, 0, 0)
    assert store.lexical_search("laudo", query, Filters(), 5)
    assert tokens("art_5") == ["art", "5"]  # unicode61 splits on "_"; analyze() keeps it
    hits = store.lexical_search("art_5 laudo", query, Filters(), 5)
    assert hits == fts5_oracle(store, "art_5 laudo", query, Filters())
    store.close()


def test_fts_totals_reads_multibyte_varints() -> None:
    assert fts_totals(bytes([0x03, 0x81, 0x00, 0x82, 0x80, 0x01])) == (3, 128, 32769)


@pytest.mark.parametrize("positive", [False, True])
@pytest.mark.parametrize("n", [50, 20_000, 100_000])
def test_top_positions_equals_a_full_sort(n: int, positive: bool) -> None:
    rng = np.random.default_rng(n)
    scores = np.round(rng.standard_normal(n), 2)  # rounding makes many ties
    for limit in (1, 10, 100, n + 5):
        kept = np.flatnonzero(scores > 0) if positive else np.arange(n)
        expected = kept[np.lexsort((kept, -scores[kept]))][:limit]
        assert top_positions(scores, limit, positive).tolist() == expected.tolist()


def test_concurrent_searches_get_the_scores_of_sequential_ones(bundled: Services) -> None:
    """Searches run outside the store lock and share reused score arrays: each must still get
    its own scores."""
    store = bundled.store
    assert isinstance(store, EmbeddedStore)
    vector = np.full(store.dim, store.dim**-0.5, dtype=np.float32)
    questions = QUESTIONS[:24]

    def ranked(text: str) -> list[tuple[str, float]]:
        return [
            (c.passage.chunk.chunk_id, c.lexical)
            for c in store.lexical_search(text, vector, Filters(), 50)
        ]

    sequential = [ranked(q) for q in questions]
    with ThreadPoolExecutor(4) as pool:
        concurrent = list(pool.map(ranked, questions * 3))
    assert concurrent == sequential * 3

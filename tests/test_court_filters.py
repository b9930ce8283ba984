"""Court filters against the store's names, read once per write generation, and refused over a
corpus that names no courts (a generic one's)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from api.core.models import Filters
from api.errors import InvalidRequest
from api.ingest.generic import GenericFields
from api.ingest.pipeline import ingest
from api.services.container import Services
from api.services.court_filters import stored_courts
from api.services.search import SearchRequest
from api.settings import Settings
from api.store.base import GroupBy, VectorStore
from api.store.embedded import EmbeddedStore
from tests.conftest import run_query
from tests.store.contract import DIM, entry, unit

REPOS = Path(__file__).parent / "fixtures" / "repos.jsonl"


class CountingStore:
    """A store that counts its ``count_by`` calls (the GROUP BY the names come from)."""

    def __init__(self, inner: VectorStore) -> None:
        self.inner, self.grouped = inner, 0

    def count_by(self, group_by: GroupBy, filters: Filters) -> dict[str, int]:
        self.grouped += 1
        return self.inner.count_by(group_by, filters)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


@pytest.fixture
def courts() -> Iterator[EmbeddedStore]:
    store = EmbeddedStore(None, dim=DIM)
    store.upsert([entry(1, 1990, [unit(1, 0, 0, 0)], organo="Segunda Sala")])
    yield store
    store.close()


def test_court_names_are_read_once_per_write(courts: EmbeddedStore) -> None:
    store = CountingStore(courts)
    asked = Filters(organo="segunda sala")
    for _ in range(3):
        assert stored_courts(store, asked).organo == "Segunda Sala"  # type: ignore[arg-type]
    assert store.grouped == 1
    courts.upsert([entry(2, 1995, [unit(0, 1, 0, 0)], organo="Tercera Sala")])
    # an ingest: the new court is known at once, and read once
    for _ in range(2):
        assert stored_courts(store, Filters(organo="tercera sala")).organo == "Tercera Sala"  # type: ignore[arg-type]
    assert store.grouped == 2


def test_another_process_s_write_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    served, loader = EmbeddedStore(path, dim=DIM), EmbeddedStore(path, dim=DIM)
    try:
        loader.upsert([entry(1, 1990, [unit(1, 0, 0, 0)], organo="Segunda Sala")])
        assert stored_courts(served, Filters(organo="segunda sala")).organo == "Segunda Sala"
        loader.upsert([entry(1, 1990, [unit(1, 0, 0, 0)], organo="Primera Sala")])  # a reload
        assert stored_courts(served, Filters(organo="primera sala")).organo == "Primera Sala"
        with pytest.raises(InvalidRequest, match="is no organo of this corpus: Primera Sala"):
            stored_courts(served, Filters(organo="Segunda Sala"))
    finally:
        served.close()
        loader.close()


def test_an_empty_store_accepts_any_court() -> None:
    store = EmbeddedStore(None, dim=DIM)
    asked = Filters(instancia="Pleno", organo="Segunda Sala")
    assert stored_courts(store, asked) == asked


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("repos"), search_log_enabled=False)
    store = EmbeddedStore(None)
    services = Services.build(settings, store=store)
    report = ingest(
        [REPOS], store, services.embedder, today=date(2026, 1, 1), generic=GenericFields()
    )
    assert report.stored == 5
    yield services
    services.close()


@pytest.mark.parametrize("field", ["instancia", "organo"])
def test_a_court_over_a_corpus_without_courts_is_refused(repos: Services, field: str) -> None:
    # a generic corpus's records name no court: the filter found nothing, silently
    request = SearchRequest(query="web app", filters=Filters(**{field: "Segunda Sala"}))
    with pytest.raises(InvalidRequest, match="no record of this corpus has an") as refused:
        repos.search.search(request)
    assert refused.value.field == field


def test_graphql_says_a_corpus_without_courts_has_none(repos: Services) -> None:
    query = """query S($input: SearchInput!) { search(input: $input) {
      ... on SearchPayload { hits { registro } } ... on InputError { field message } } }"""
    variables = {"query": "web app", "filters": {"instancia": "Pleno"}}
    refused = run_query(repos, query, input=variables)["search"]
    assert refused["field"] == "instancia"
    assert "no record of this corpus has an instancia" in refused["message"]

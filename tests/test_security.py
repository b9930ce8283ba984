"""API key on mutations (and optionally reads), CORS, introspection switch, mutation bounds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from api.app import create_app
from api.services.container import Services

INGEST = """mutation I($records: [JSON!]!) { ingestTesis(records: $records) {
  __typename ... on IngestResult { read stored rejected { line field reason } }
  ... on InputError { field message } } }"""
RECORD = {
    "registro": 999001,
    "rubro": "PRUEBA. RUBRO.",
    "texto": "Texto de prueba sobre amparo.",
    "epoca": "Undécima Época",
    "anio": 2024,
    "tipo": "Aislada",
    "materias": ["Común"],
}


def client_for(services: Services, **settings: object) -> TestClient:
    configured = services.settings.model_copy(update=settings)
    injected = Services(
        configured,
        services.store,
        services.embedder,
        services.search,
        services.chat,
        services.judge,
        services.llm,
    )
    return TestClient(create_app(services=injected))


@pytest.fixture
def keyed(bundled: Services) -> Iterator[TestClient]:
    with client_for(bundled, api_key="s3cret") as client:
        yield client


def test_mutation_without_key_is_refused(keyed: TestClient, bundled: Services) -> None:
    response = keyed.post("/graphql", json={"query": INGEST, "variables": {"records": [RECORD]}})
    body = response.json()
    assert body["data"] is None
    assert "API key" in body["errors"][0]["message"]
    assert bundled.store.get_tesis([999001]) == {}


@pytest.mark.parametrize("headers", [{"authorization": "Bearer s3cret"}, {"x-api-key": "s3cret"}])
def test_mutation_with_key_ingests_and_reports_rejections(
    keyed: TestClient, bundled: Services, headers: dict[str, str]
) -> None:
    bad = RECORD | {"registro": "12a"}
    response = keyed.post(
        "/graphql", json={"query": INGEST, "variables": {"records": [RECORD, bad]}}, headers=headers
    )
    result = response.json()["data"]["ingestTesis"]
    assert (result["read"], result["stored"] in (0, 1)) == (2, True)
    assert result["rejected"] == [
        {"line": 2, "field": "registro", "reason": "not a positive integer: '12a'"}
    ]
    assert 999001 in bundled.store.get_tesis([999001])
    delete = keyed.post(
        "/graphql",
        json={
            "query": "mutation { deleteTesis(registros: [999001]) { ... on DeleteResult { deleted } } }"
        },
        headers=headers,
    )
    assert delete.json()["data"]["deleteTesis"] == {"deleted": 1}


def test_reads_stay_open_unless_configured(keyed: TestClient, bundled: Services) -> None:
    query = {"query": "{ tesis(registro: 2006225) { registro } }"}
    assert keyed.post("/graphql", json=query).json()["data"]["tesis"] == {"registro": 2006225}
    with client_for(bundled, api_key="k", read_requires_key=True) as locked:
        assert locked.post("/graphql", json=query).status_code == 401
        ok = locked.post("/graphql", json=query, headers={"x-api-key": "k"})
        assert ok.json()["data"]["tesis"]["registro"] == 2006225
        assert locked.get("/health").status_code == 200


def test_cors_allows_configured_origins_only(bundled: Services) -> None:
    with client_for(bundled, cors_origins=["https://app.example"]) as client:
        preflight = {"access-control-request-method": "POST"}
        allowed = client.options("/graphql", headers={"origin": "https://app.example", **preflight})
        denied = client.options("/graphql", headers={"origin": "https://evil.example", **preflight})
    assert allowed.headers.get("access-control-allow-origin") == "https://app.example"
    assert "access-control-allow-origin" not in denied.headers


def test_introspection_can_be_disabled(bundled: Services) -> None:
    query = {"query": "{ __schema { queryType { name } } }"}
    with client_for(bundled) as open_client:
        assert open_client.post("/graphql", json=query).json()["data"]["__schema"]
    with client_for(bundled, graphql_introspection=False) as closed:
        body = closed.post("/graphql", json=query).json()
    assert body.get("data") is None and "introspection" in body["errors"][0]["message"].lower()


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            "{ a1: tesis(registro: 1) { registro } "
            + " ".join(f"a{i}: tesis(registro: {i}) {{ registro }}" for i in range(2, 20))
            + " }",
            "aliases",
        ),
        (
            '{ search(input: {query: "x"}) { ... on SearchPayload { discarded { hit { chunk { text } } } } } }',
            None,
        ),
    ],
)
def test_query_limits(bundled: Services, query: str, message: str | None) -> None:
    with client_for(bundled) as client:
        body = client.post("/graphql", json={"query": query}).json()
    if message:
        assert message in body["errors"][0]["message"].lower()
    else:
        assert "errors" not in body


def test_oversized_ingest_is_bounded(keyed: TestClient) -> None:
    records = [RECORD] * 1001
    body = keyed.post(
        "/graphql",
        json={"query": INGEST, "variables": {"records": records}},
        headers={"x-api-key": "s3cret"},
    ).json()
    assert body["data"]["ingestTesis"]["__typename"] == "InputError"


def test_demo_says_how_to_set_a_key() -> None:
    from api.cli.serve import key_advice
    from api.settings import Settings

    assert "export VIGENCIA_API_KEY=" in key_advice(Settings())
    assert "NOT set" not in key_advice(Settings(api_key="k"))


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("failed for url 'http://user:pass@host/v1/embeddings'", "user:pass"),
        ("Authorization: Bearer abc.def-123", "abc.def-123"),
        ('{"api_key": "s3cr3t-value"}', "s3cr3t-value"),
        ("upstream said: invalid key sk-live-0123456789", "sk-live-0123456789"),
        ("cannot open /srv/data/vigencia.sqlite", "/srv/data"),
        ("see https://internal.example/v1", "internal.example"),
    ],
)
def test_redact_hides_credentials_urls_and_paths(text: str, hidden: str) -> None:
    from api.core.redact import redact

    assert hidden not in redact(text, hide_locations=True)

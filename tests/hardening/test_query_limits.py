"""Round two of the outside attack, through the ASGI app: one request must not stall the server.

Fragment bombs and aliased expensive fields are refused before validation runs (the measure is
linear: a 60-fragment bomb naming 2**60 fields is refused, which an expanding walk could never
do); a request past its time budget is answered; bodies, rates, scalar bodies and malformed
WebSocket messages are client errors logged as one line; the search log and monitoring need the
key; secrets from upstream errors never reach the client.

Timings are not asserted here (see docs/SECURITY.md for the measured figures).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from graphql import parse
from starlette.testclient import TestClient

from api.app import create_app
from api.embeddings.base import TextKind, Vectors
from api.errors import EmbedderError, LLMError
from api.graphql.cost import Limits, measure
from api.guards import TokenBuckets
from api.services.container import Services
from api.settings import Settings
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder, ScriptedLLM
from tests.hardening.test_faults import DIM, MASKED, SEARCH, post, small_store
from tests.ingest.test_ingest import good

INGEST = """mutation I($records: [JSON!]!) { ingestTesis(records: $records) {
  ... on IngestResult { read stored rejected { line registro field reason } } } }"""
SECRET_URL = "http://user:hunter2@embed.internal:8080/v1/embeddings"
UPSTREAM_KEY = "sk-live-0123456789abcdef"


def bomb(levels: int, leaf: str = "corpusStats { __typename }") -> str:
    """``levels`` fragments, each spreading the previous one twice: 2**levels leaves."""
    frags = [f"fragment F0 on Query {{ {leaf} }}"]
    frags += [f"fragment F{i} on Query {{ ...F{i - 1} ...F{i - 1} }}" for i in range(1, levels + 1)]
    return f"query {{ ...F{levels} }}\n" + "\n".join(frags)


def app_for(tmp_path: Path, store: Any = None, **settings: Any) -> Services:
    configured = Settings(data_dir=tmp_path, search_log_enabled=False).model_copy(update=settings)
    return Services.build(configured, store=store or small_store(), embedder=FakeEmbedder(DIM))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(services=app_for(tmp_path)), raise_server_exceptions=False) as c:
        yield c


def error_of(body: dict[str, Any]) -> dict[str, Any]:
    assert body.get("data") is None, body
    first: dict[str, Any] = body["errors"][0]
    return first


# -- validation cost -------------------------------------------------------------------------


@pytest.mark.parametrize("levels", [24, 60])
def test_fragment_bomb_is_refused_before_validation(client: TestClient, levels: int) -> None:
    error = error_of(post(client, bomb(levels)))
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    assert error["extensions"]["selections"] == 2 ** (levels + 1)  # corpusStats + __typename
    assert "fields after expanding fragments" in error["message"]


def test_health_answers_while_a_bomb_is_refused(tmp_path: Path) -> None:
    """Both requests in flight on one event loop: both are answered."""
    app = create_app(services=app_for(tmp_path))

    async def both() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await asyncio.gather(
                http.post("/graphql", json={"query": bomb(40)}), http.get("/health")
            )

    with TestClient(app):  # runs the lifespan
        bombed, health = asyncio.run(both())
    assert bombed.json()["errors"][0]["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    assert health.status_code == 200 and health.json()["status"] == "ok"


def test_subscription_bomb_is_an_error_message_not_a_crashed_task(client: TestClient) -> None:
    leaf = 'chatStream(input: {question: "x"}) { __typename }'
    query = (
        bomb(30, leaf).replace("on Query", "on Subscription").replace("query {", "subscription {")
    )
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_text(json.dumps({"type": "connection_init"}))
        assert ws.receive_json()["type"] == "connection_ack"
        ws.send_text(json.dumps({"type": "subscribe", "id": "1", "payload": {"query": query}}))
        reply = ws.receive_json()
    assert reply["type"] == "error"
    assert reply["payload"][0]["extensions"]["code"] == "QUERY_TOO_COMPLEX"


def test_fragment_cycle_is_refused_not_followed(client: TestClient) -> None:
    query = "query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }"
    error = error_of(post(client, query))
    assert "cycle" in error["message"] or "spread itself" in error["message"]


def test_several_operations_need_an_operation_name(client: TestClient) -> None:
    """The first operation had run, a mutation as readily as a query."""
    document = (
        "mutation B { deleteTesis(registros: [424242]) { __typename } } "
        "query A { corpusStats { __typename } }"
    )
    error = error_of(post(client, document))
    assert error["extensions"]["field"] == "operationName" and "2 operations" in error["message"]
    named = client.post("/graphql", json={"query": document, "operationName": "A"}).json()
    assert named["data"]["corpusStats"]["__typename"] == "CorpusStatsType"


@pytest.mark.parametrize(
    ("query", "variables", "cost"),
    [
        ("{ monitoring(windowHours: 8760) { __typename } }", {}, 365),
        ("{ searchLog(limit: 200) { id } }", {}, 200),
        ('{ search(input: {query: "x", topK: 100}) { __typename } }', {}, 110),
        (
            'query Q($k: Int!) { search(input: {query: "x", topK: $k}) { __typename } }',
            {"k": 50},
            60,
        ),
        (
            "query Q($i: SearchInput!) { search(input: $i) { __typename } }",
            {"i": {"query": "x", "topK": 30}},
            40,
        ),
        ("query Q($h: Int! = 48) { alerts(windowHours: $h) { code } }", {}, 2),
        (
            '{ a: search(input: {query: "x"}) { __typename } b: search(input: {query: "y"}) '
            "{ __typename } }",
            {},
            40,
        ),
    ],
)
def test_cost_charges_expensive_fields(query: str, variables: dict[str, Any], cost: int) -> None:
    assert measure(parse(query), variables, None).cost == cost


def test_aliases_of_long_monitoring_windows_are_refused(client: TestClient) -> None:
    """The attack: 15 aliases of monitoring(windowHours: 8760), 73-80 s each before."""
    fields = " ".join(f"m{i}: monitoring(windowHours: 8760) {{ __typename }}" for i in range(15))
    error = error_of(post(client, f"{{ {fields} }}"))
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    assert error["extensions"]["cost"] == 15 * 365
    assert "maximum query cost of 1000" in error["message"]


def test_cost_limit_is_configurable_and_normal_queries_pass(tmp_path: Path) -> None:
    one = "{ monitoring(windowHours: 8760) { __typename } }"
    with TestClient(create_app(services=app_for(tmp_path))) as default:
        assert "errors" not in post(default, one)
        assert "errors" not in post(default, SEARCH, q="suspensión provisional")
    with TestClient(create_app(services=app_for(tmp_path, max_query_cost=100))) as strict:
        assert error_of(post(strict, one))["extensions"]["cost"] == 365


def test_introspection_query_fits_the_limits() -> None:
    from graphql import get_introspection_query

    found = measure(parse(get_introspection_query()), None, None)
    limits = Limits()
    assert found.selections <= limits.selections and found.depth <= limits.depth


def test_field_suggestions_follow_introspection(tmp_path: Path) -> None:
    typo = "{ corpusStatz { total } }"
    with TestClient(create_app(services=app_for(tmp_path))) as open_api:
        assert "Did you mean" in error_of(post(open_api, typo))["message"]
    enum = "query D($g: GroupBy!) { distribution(groupBy: $g) { key } }"
    closed = app_for(tmp_path, graphql_introspection=False)
    with TestClient(create_app(services=closed)) as closed_api:
        message = error_of(post(closed_api, typo))["message"]
        coerced = error_of(post(closed_api, enum, g="ANIOO"))["message"]
    assert "corpusStatz" in message and "Did you mean" not in message
    assert "ANIOO" in coerced and "Did you mean" not in coerced  # variables too


# -- time budget -----------------------------------------------------------------------------


class BlockedEmbedder(FakeEmbedder):
    """Blocks every embedding until ``release`` is set: a question that never finishes."""

    def __init__(self) -> None:
        super().__init__(DIM)
        self.release = threading.Event()
        self.entered = threading.Event()

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        self.entered.set()
        self.release.wait(timeout=30)
        return super().embed(texts, kind)


def test_request_past_its_time_budget_is_answered(tmp_path: Path) -> None:
    embedder = BlockedEmbedder()
    settings = Settings(data_dir=tmp_path, search_log_enabled=False, request_timeout=0.2)
    services = Services.build(settings, store=small_store(), embedder=embedder)
    try:
        with TestClient(create_app(services=services)) as client:
            body = post(client, SEARCH, q="una pregunta que nunca termina")
            assert embedder.entered.is_set()
            assert error_of(body)["extensions"]["code"] == "TIMEOUT"
            assert "time budget of 0.2 s" in body["errors"][0]["message"]
            assert client.get("/health").status_code == 200
    finally:
        embedder.release.set()


# -- body size, rate limit, malformed bodies and messages --------------------------------------


def test_body_over_the_limit_is_413(tmp_path: Path) -> None:
    services = app_for(tmp_path, max_body_bytes=1000)
    big = json.dumps({"query": "{ corpusStats { __typename } }", "pad": "x" * 2000})
    with TestClient(create_app(services=services)) as client:
        declared = client.post(
            "/graphql", content=big, headers={"content-type": "application/json"}
        )
        streamed = client.post(
            "/graphql",
            content=iter([big[:600].encode(), big[600:].encode()]),  # chunked: no length
            headers={"content-type": "application/json"},
        )
        small = client.post("/graphql", json={"query": "{ corpusStats { __typename } }"})
    assert declared.status_code == 413 and streamed.status_code == 413
    assert "VIGENCIA_MAX_BODY_BYTES" in declared.json()["errors"][0]["message"]
    assert declared.json()["errors"][0]["extensions"] == {"code": "TOO_LARGE"}
    assert small.status_code == 200


def test_token_buckets_refill_at_the_configured_rate() -> None:
    now = [0.0]
    buckets = TokenBuckets(per_minute=60, burst=2, clock=lambda: now[0])
    assert [buckets.take("a"), buckets.take("a")] == [0.0, 0.0]
    assert buckets.take("a") == pytest.approx(1.0)  # one token a second
    assert buckets.take("b") == 0.0  # per client
    now[0] = 1.0
    assert buckets.take("a") == 0.0


def test_rate_limit_answers_429_with_retry_after(tmp_path: Path) -> None:
    services = app_for(
        tmp_path, rate_limit_per_minute=60, rate_limit_burst=3, rate_limit_exempt_loopback=False
    )
    query = {"query": "{ corpusStats { __typename } }"}
    with TestClient(create_app(services=services)) as client:
        codes = [client.post("/graphql", json=query).status_code for _ in range(5)]
        refused = client.post("/graphql", json=query)
        health = client.get("/health")
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.json()["errors"][0]["extensions"] == {"code": "RATE_LIMITED"}
    assert health.status_code == 200  # /health is not rate-limited
    loopback = app_for(tmp_path, rate_limit_per_minute=60, rate_limit_burst=1)
    with TestClient(create_app(services=loopback)) as local:  # exempt by default
        assert {local.post("/graphql", json=query).status_code for _ in range(4)} == {200}


@pytest.mark.parametrize("body", ["null", "42", "true", '"x"', "1.5", "{not json", "[{}]"])
def test_unreadable_and_scalar_json_bodies_are_400_in_json(client: TestClient, body: str) -> None:
    """Refused before execution, and said in JSON like every other refusal (it was plain
    text: a JSON client had nothing to parse)."""
    response = client.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"


def test_a_mutation_over_get_is_refused_in_json(client: TestClient) -> None:
    response = client.get("/graphql", params={"query": "mutation { __typename }"})
    assert response.status_code in (400, 405)
    assert response.json()["errors"][0]["message"]


@pytest.mark.parametrize(
    "message",
    [
        "null",
        "42",
        "[]",
        '"x"',
        '{"type": 5}',
        '{"type": "subscribe"}',
        '{"type": "subscribe", "id": "1", "payload": 5}',
        '{"type": "subscribe", "id": "1", "payload": {"query": 5}}',
        '{"type": "subscribe", "id": {}, "payload": {"query": "{ __typename }"}}',
        '{"type": "subscribe", "id": "1", "payload": {"query": "{ __typename }", "variables": 3}}',
        '{"type": "connection_init", "payload": 5}',
    ],
)
def test_malformed_websocket_messages_close_with_4400(client: TestClient, message: str) -> None:
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_text(json.dumps({"type": "connection_init"}))
        assert ws.receive_json()["type"] == "connection_ack"
        ws.send_text(message)
        closed = ws.receive()
    assert closed["type"] == "websocket.close" and closed["code"] == 4400
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_text(json.dumps({"type": "connection_init"}))
        assert ws.receive_json()["type"] == "connection_ack"  # the server is fine


@pytest.mark.parametrize(
    "query",
    ["{ nope }", bomb(24), "{ search(input: {query: 5}) { __typename } }", "{ searchLog { id } }"],
)
def test_one_log_line_per_rejected_request(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, query: str
) -> None:
    services = app_for(tmp_path, api_key="k")
    with TestClient(create_app(services=services)) as client:
        caplog.clear()
        with caplog.at_level(logging.INFO):
            body = client.post("/graphql", json={"query": query}).json()
    assert body["errors"]
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].exc_info is None and "Traceback" not in lines[0].getMessage()


# -- privacy ---------------------------------------------------------------------------------

PRIVATE = {
    "searchLog": "{ searchLog(limit: 5) { question feedback { comment } } }",
    "monitoring": "{ monitoring { __typename } }",
    "alerts": "{ alerts { code examples } }",
}


@pytest.mark.parametrize("field", list(PRIVATE))
def test_log_reads_need_the_key_when_one_is_set(tmp_path: Path, field: str) -> None:
    settings = Settings(data_dir=tmp_path, api_key="k")
    services = Services.build(settings, store=small_store(), embedder=FakeEmbedder(DIM))
    with TestClient(create_app(services=services)) as client:
        post(client, SEARCH, q="suspensión provisional del acto reclamado")
        anonymous = post(client, PRIVATE[field])
        keyed = client.post(
            "/graphql", json={"query": PRIVATE[field]}, headers={"x-api-key": "k"}
        ).json()
    assert anonymous["data"] is None and "API key" in anonymous["errors"][0]["message"]
    assert "errors" not in keyed and keyed["data"][field] is not None
    services.close()


# -- secrets ---------------------------------------------------------------------------------


class LeakyEmbedder(FakeEmbedder):
    """Fails like an OpenAI-compatible endpoint whose URL carries credentials."""

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        raise EmbedderError(
            f"embeddings endpoint failed: Client error '401' for url '{SECRET_URL}' "
            f'body {{"error": "bad key {UPSTREAM_KEY}"}} at /srv/vigencia/api/embed.py'
        )


def assert_no_secret(text: str) -> None:
    for leaked in ("hunter2", "user:", UPSTREAM_KEY, "embed.internal", "/srv/vigencia", ".py"):
        assert leaked not in text, text


def test_embedder_error_reaches_the_client_without_secrets(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    services = Services.build(
        Settings(data_dir=tmp_path, search_log_enabled=False),
        store=small_store(),
        embedder=LeakyEmbedder(DIM),
    )
    with TestClient(create_app(services=services)) as client, caplog.at_level(logging.INFO):
        body = post(client, SEARCH, q="suspensión provisional")
    result = body["data"]["search"]
    assert result["__typename"] == "ServiceError" and result["service"] == "embedder"
    assert_no_secret(json.dumps(body))
    assert "401" in result["message"]  # still says what happened
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "hunter2" not in logged and UPSTREAM_KEY not in logged  # redacted in the log too


CHAT = """query C($q: String!) { chat(input: {question: $q}) { __typename
  ... on ChatPayload { mode llmError answer } } }"""
JUDGE = """query J($q: String!) { judge(input: {query: $q}) { __typename
  ... on JudgePayload { judge error } } }"""


@pytest.mark.parametrize(
    "reply",
    [
        LLMError(f'chat endpoint answered HTTP 401: {{"error": "invalid key {UPSTREAM_KEY}"}}'),
        f"Here is your key: {UPSTREAM_KEY} and no JSON at all",
    ],
)
def test_upstream_bodies_never_reach_the_client(tmp_path: Path, reply: Any) -> None:
    llm = ScriptedLLM([reply, reply])
    services = Services.build(
        Settings(data_dir=tmp_path, search_log_enabled=False),
        store=small_store(),
        embedder=FakeEmbedder(DIM),
        llm=llm,
    )
    with TestClient(create_app(services=services)) as client:
        chat = post(client, CHAT, q="¿Cuándo procede la suspensión provisional?")
        judge = post(client, JUDGE, q="suspensión provisional")
    assert judge["data"]["judge"]["error"] in (
        "error del modelo",
        "la respuesta del modelo no es JSON válido",
    )
    assert_no_secret(json.dumps(judge))
    if isinstance(reply, LLMError):  # a reply the model really sent is its answer, not an error
        assert chat["data"]["chat"]["llmError"] == "error del modelo"
        assert_no_secret(json.dumps(chat))
    assert MASKED not in json.dumps([chat, judge])


# -- question length -------------------------------------------------------------------------


@pytest.mark.parametrize("question", ["😀" * 1500, "!?" * 800, "¿" * 400 + "amparo"])
def test_long_token_questions_are_refused_before_embedding(tmp_path: Path, question: str) -> None:
    embedder = FakeEmbedder(DIM)
    services = Services.build(
        Settings(data_dir=tmp_path, search_log_enabled=False),
        store=small_store(),
        embedder=embedder,
    )
    calls = embedder.calls
    with TestClient(create_app(services=services)) as client:
        result = post(client, SEARCH, q=question)["data"]["search"]
    assert result == {"__typename": "InputError", "field": "query", "message": result["message"]}
    assert "tokens, at most 256" in result["message"]
    assert embedder.calls == calls


def test_lone_surrogate_in_a_search_variable_is_a_client_error(client: TestClient) -> None:
    body = (
        '{"query": "query S($q: String!) { search(input: {query: $q}) { __typename } }", '
        '"variables": {"q": "amparo \\ud800"}}'
    )
    response = client.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200
    error = error_of(response.json())
    assert error["message"].startswith("$q: not valid Unicode")


def test_one_bad_record_in_an_ingest_batch_is_rejected_alone(tmp_path: Path) -> None:
    services = app_for(tmp_path, store=EmbeddedStore(None, dim=DIM), api_key="k")
    records = [good(801), good(802, organo="Pleno @@"), good(803)]
    body = json.dumps({"query": INGEST, "variables": {"records": records}}).replace("@@", "\\ud800")
    with TestClient(create_app(services=services)) as client:
        response = client.post(
            "/graphql", content=body, headers={"content-type": "application/json", "x-api-key": "k"}
        )
    result = response.json()["data"]["ingestTesis"]
    assert (result["read"], result["stored"]) == (3, 2)
    assert result["rejected"] == [
        {
            "line": 2,
            "registro": "802",
            "field": "organo",
            "reason": "not valid Unicode (a lone surrogate)",
        }
    ]


def test_a_subscription_over_http_is_refused_with_the_way_to_ask(client: TestClient) -> None:
    """It ran as a query and failed as an unexpected error."""
    document = 'subscription { chatStream(input: {question: "despido"}) { __typename } }'
    error = error_of(post(client, document))
    assert "WebSocket" in error["message"] and error["extensions"]["code"] == "BAD_USER_INPUT"

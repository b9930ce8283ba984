"""The client: documents valid against schema.graphql, URL/key from the environment, errors."""

from __future__ import annotations

import socket

import httpx
import pytest

from dashboard import client
from dashboard.queries import SEARCH_RESPONSE
from dashboard.selection import INTROSPECTION, Schema, operation, prune_input, render, sel
from tests.dashboard import canned
from tests.dashboard.conftest import API_URL
from tests.dashboard.fake_api import FakeApi

CALLS = {
    "search": lambda: client.search({"query": "pensión", "topK": 3, "filters": {"materias": ["Civil"]}}),
    "tesis": lambda: client.tesis(246545),
    "chat": lambda: client.chat({"question": "¿pensión?", "maxReferences": 3}),
    "chatStream": lambda: list(client.chat_stream({"question": "¿pensión?"})),
    "timeline": lambda: client.timeline({"order": "ASC", "limit": 5, "offset": 0}),
    "earliest": lambda: client.extreme("earliest", "pensión", None, 5),
    "latest": lambda: client.extreme("latest", None, {"epocas": ["Décima Época"]}, 5),
    "distribution": lambda: client.distribution("EPOCA"),
    "compareRankings": lambda: client.compare_rankings(
        {"query": "pensión", "topK": 5, "a": {"recencyWeight": 0.0}, "b": {"recencyWeight": 0.5}}
    ),
    "monitoring": lambda: client.monitoring(24),
    "searchLog": lambda: client.search_log(10),
    "feedback": lambda: client.feedback("log-1", 246545, True, "bien"),
    "corpusStats": lambda: client.corpus_stats(),
}  # fmt: skip


def test_every_document_is_valid_against_the_sdl(monkeypatch) -> None:
    """Each call the API offers validates and executes; the others raise ApiNotAvailable."""
    fake = FakeApi(canned.root())
    monkeypatch.setattr(httpx, "post", fake.post)
    monkeypatch.setattr(client, "_subscribe", fake.subscribe)
    roots = (fake.schema.query_type, fake.schema.mutation_type, fake.schema.subscription_type)
    offered = {n for t in roots if t for n in t.fields}
    for root, call in CALLS.items():
        if root in offered:
            assert call() is not None, root
        else:
            with pytest.raises(client.ApiNotAvailable):
                call()
    assert fake.errors == []


def test_search_payload_is_unwrapped(api: FakeApi) -> None:
    payload = client.search({"query": "pensión"})
    assert [h["registro"] for h in payload["hits"]] == [t[0] for t in canned.TESIS]
    assert payload["intent"]["materia"] == "Civil"
    assert payload["hits"][2]["status"]["porRegistro"] == 2006225


def test_unknown_input_fields_are_not_sent(api: FakeApi) -> None:
    client.search({"query": "pensión", "notAField": 1, "filters": {"materias": None, "x": 2}})
    (sent,) = api.called("search")
    assert sent["input"] == {"query": "pensión", "filters": {}}


def test_input_error_and_service_error(monkeypatch, api: FakeApi) -> None:
    api.root["search"] = lambda *a, **k: {"__typename": "InputError", "field": "topK",
                                         "message": "1..50"}  # fmt: skip
    with pytest.raises(client.ApiInputError) as exc:
        client.search({"query": "x"})
    assert (exc.value.field, exc.value.message) == ("topK", "1..50")
    api.root["search"] = lambda *a, **k: {"__typename": "ServiceError", "service": "store",
                                         "message": "down"}  # fmt: skip
    client.clear_cache()
    with pytest.raises(client.ApiServiceError):
        client.search({"query": "y"})


def test_results_are_cached(api: FakeApi) -> None:
    client.search({"query": "pensión"})
    client.search({"query": "pensión"})
    assert len(api.called("search")) == 1
    client.chat({"question": "q"})
    client.chat({"question": "q"})
    assert len(api.called("chat")) == 2  # never cached


def test_url_and_key_come_from_the_environment(monkeypatch) -> None:
    assert client.api_url({}) == client.DEFAULT_API_URL
    assert client.api_url({"VIGENCIA_API_URL": "http://h:1/graphql"}) == "http://h:1/graphql"
    seen: list[dict[str, str]] = []
    fake = FakeApi(canned.root())

    def post(url: str, **kwargs):
        seen.append(kwargs.get("headers") or {})
        return fake.post(url, **kwargs)

    monkeypatch.setattr(httpx, "post", post)
    monkeypatch.setenv("VIGENCIA_API_KEY", "s3cret")
    client.search({"query": "x"})
    assert seen and all(h == {"X-API-Key": "s3cret"} for h in seen)


def test_refused_connection_names_the_url(monkeypatch) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/graphql"
    monkeypatch.setenv("VIGENCIA_API_URL", url)
    with pytest.raises(client.ApiUnreachable) as exc:
        client.capabilities()
    assert exc.value.url == url and "ConnectError" in exc.value.message


def test_non_graphql_answer_is_unreachable(monkeypatch) -> None:
    def bad_gateway(url: str, **_):
        return httpx.Response(
            502, text="<html>Bad Gateway</html>", request=httpx.Request("POST", url)
        )

    monkeypatch.setattr(httpx, "post", bad_gateway)
    with pytest.raises(client.ApiUnreachable, match="HTTP 502") as exc:
        client.capabilities()
    assert exc.value.url == API_URL


def test_missing_root_field_without_introspection_is_not_available(monkeypatch) -> None:
    def no_introspection(url: str, *, json, **_):
        if "__schema" in json["query"]:
            body = {"data": None, "errors": [{"message": "GraphQL introspection is not allowed"}]}
        else:
            body = {
                "data": None,
                "errors": [{"message": "Cannot query field 'corpusStats' on type 'Query'."}],
            }
        return httpx.Response(200, json=body, request=httpx.Request("POST", url))

    monkeypatch.setattr(httpx, "post", no_introspection)
    assert client.capabilities() is None
    with pytest.raises(client.ApiNotAvailable) as exc:
        client.corpus_stats()
    assert exc.value.feature == "corpusStats"


def test_without_introspection_documents_are_sent_as_written() -> None:
    fake = FakeApi(canned.root())
    document, variables = operation(None, "search", SEARCH_RESPONSE, {"input": {"query": "x"}},
                                    {"input": "SearchInput!"})  # fmt: skip
    response = fake.post(API_URL, json={"query": document, "variables": variables})
    assert fake.errors == [] and response.json()["data"]["search"]["hits"]


def test_render_trims_to_the_schema() -> None:
    fake = FakeApi(canned.root())
    schema = Schema.from_introspection(
        fake.post(API_URL, json={"query": INTROSPECTION}).json()["data"]
    )
    spec = sel("registro nope", status=sel("vigente gone"), missing=sel("x"))
    assert render(spec, "SearchHit", schema) == "registro status { vigente }"
    body = render(sel("message", hits=sel("registro")), "SearchResponse", schema)
    assert body.startswith("__typename ... on SearchPayload { hits { registro } }")
    assert "... on InputError { message }" in body
    assert prune_input({"query": "q", "bogus": 1, "filters": {"anioMin": 1990, "zzz": 1}},
                       "SearchInput", schema) == {"query": "q", "filters": {"anioMin": 1990}}  # fmt: skip


def test_stream_events_in_order(api: FakeApi) -> None:
    events = list(client.chat_stream({"question": "¿pensión?"}))
    kinds = [e["__typename"] for e in events]
    assert kinds == ["ChatReferences", "ChatDelta", "ChatDelta", "ChatDone"]
    assert "".join(e["text"] for e in events[1:3]) == canned.CHAT["answer"]
    assert events[-1]["citationCheck"]["coverage"] == 0.67


def test_stream_against_a_closed_port_is_unreachable(monkeypatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/graphql"
    with pytest.raises(client.ApiUnreachable) as exc:
        list(client._subscribe(url, "subscription { x }", {}))
    assert exc.value.url == url

"""The client: static documents valid against schema.graphql, sent without introspection;
URL and key from the environment; errors as ApiError."""

from __future__ import annotations

import socket

import httpx
import pytest
from graphql import build_schema, parse, validate
from graphql.language import Lexer, Source, TokenKind
from streamlit.testing.v1 import AppTest

from api.graphql.schema import MAX_TOKENS
from dashboard import client, queries
from tests.dashboard import canned
from tests.dashboard.conftest import API_URL
from tests.dashboard.fake_api import SCHEMA_FILE, FakeApi

CALLS = {
    "search": lambda: client.search(
        {"query": "pensión", "topK": 3, "filters": {"materias": ["Civil"]}}
    ),
    "tesis": lambda: client.tesis(246545),
    "chat": lambda: client.chat({"question": "¿pensión?", "maxReferences": 3}),
    "chatStream": lambda: list(client.chat_stream({"question": "¿pensión?"})),
    "timeline": lambda: client.timeline({"order": "ASC", "limit": 5, "offset": 0}),
    "earliest": lambda: client.extreme("earliest", "pensión", None, 5),
    "latest": lambda: client.extreme("latest", None, {"epocas": ["Décima Época"]}, 5),
    "monitoring": lambda: client.monitoring(24),
    "searchLog": lambda: client.search_log(10),
    "feedback": lambda: client.feedback("log-1", 246545, True, "bien"),
    "corpusStats": lambda: client.corpus_stats(),
    "feedbackSummary": lambda: client.feedback_summary(168),
}


@pytest.mark.parametrize("root", sorted(queries.ALL))
def test_each_document_is_valid_against_schema_graphql(root: str) -> None:
    schema = build_schema(SCHEMA_FILE.read_text(encoding="utf-8"))
    document = parse(queries.ALL[root])
    assert validate(schema, document) == []
    selected = [
        d.selection_set.selections[0].name.value
        for d in document.definitions  # type: ignore[attr-defined]
        if d.kind == "operation_definition"
    ]
    assert selected == [root]


@pytest.mark.parametrize("root", sorted(queries.ALL))
def test_each_document_fits_the_api_token_limit(root: str) -> None:
    lexer, tokens = Lexer(Source(queries.ALL[root])), 0
    while lexer.advance().kind != TokenKind.EOF:
        tokens += 1
    assert tokens < MAX_TOKENS


def test_chat_is_a_query_and_the_stream_a_subscription() -> None:
    assert queries.CHAT.lstrip().startswith("query Chat(")
    assert queries.CHAT_STREAM.lstrip().startswith("subscription ChatStream(")
    assert queries.FEEDBACK.lstrip().startswith("mutation Feedback(")


def test_every_call_runs_without_introspection(monkeypatch) -> None:
    """Each client call executes against the SDL; nothing asks for ``__schema``."""
    fake = FakeApi(canned.root())
    monkeypatch.setattr(httpx, "post", fake.post)
    monkeypatch.setattr(client, "_subscribe", fake.subscribe)
    for root, call in CALLS.items():
        assert call() is not None, root
    assert fake.errors == []
    assert sorted({f for fields, _ in fake.calls for f in fields}) == sorted(CALLS)


def test_none_values_are_not_sent(api: FakeApi) -> None:
    client.search({"query": "pensión", "recencyWeight": None, "filters": {"materias": None}})
    (sent,) = api.called("search")
    assert sent["input"] == {"query": "pensión", "filters": {}}


def test_search_payload_is_unwrapped(api: FakeApi) -> None:
    payload = client.search({"query": "pensión"})
    assert [h["registro"] for h in payload["hits"][:3]] == [t[0] for t in canned.TESIS]
    assert payload["intent"]["materia"] == "Civil"
    assert payload["withoutRecency"][0]["registro"] == 246545


def test_input_error_and_service_error(api: FakeApi) -> None:
    api.root["search"] = lambda *a, **k: {
        "__typename": "InputError",
        "field": "topK",
        "message": "60 is outside 1..50",
    }
    with pytest.raises(client.ApiInputError) as exc:
        client.search({"query": "x"})
    assert (exc.value.field, exc.value.message) == ("topK", "60 is outside 1..50")
    api.root["search"] = lambda *a, **k: {
        "__typename": "ServiceError",
        "service": "store",
        "message": "down",
    }
    client.clear_cache()
    with pytest.raises(client.ApiServiceError):
        client.search({"query": "y"})


def test_searches_are_never_remembered(api: FakeApi) -> None:
    """Two analysts asking the same within 60 s had shared one logged search (and logId)."""
    for call in ("search", "chat", "earliest"):
        CALLS[call]()
        CALLS[call]()
        assert len(api.called(call)) == 2, call


def _session() -> None:  # an AppTest script: one browser session
    import streamlit as st

    from dashboard import client

    client.corpus_stats()
    client.corpus_stats()
    client.feedback_summary(168)
    if st.session_state.get("act"):
        client.feedback("log-1", 246545, True)
        client.feedback_summary(168)
        client.corpus_stats()


def test_reads_are_remembered_per_session_and_activity_forgotten(api: FakeApi) -> None:
    one = AppTest.from_function(_session)
    one.run()
    assert len(api.called("corpusStats")) == 1 and len(api.called("feedbackSummary")) == 1
    one.session_state["act"] = True
    one.run()
    assert len(api.called("corpusStats")) == 1  # remembered across reruns
    assert len(api.called("feedbackSummary")) == 2  # a verdict changes it: asked again
    AppTest.from_function(_session).run()  # another session (a reload, a new tab)
    assert len(api.called("corpusStats")) == 2


def test_url_and_key_come_from_the_environment(monkeypatch) -> None:
    assert client.api_url({}) == client.DEFAULT_API_URL
    assert client.api_url({"VIGENCIA_API_URL": "http://h:1/graphql"}) == "http://h:1/graphql"
    seen: list[dict[str, str]] = []
    fake = FakeApi(canned.root())

    def post(url, **kwargs):
        seen.append(kwargs.get("headers") or {})
        return fake.post(url, **kwargs)

    monkeypatch.setattr(httpx, "post", post)
    monkeypatch.setenv("VIGENCIA_API_KEY", "s3cret")
    client.corpus_stats()
    assert seen and all(h == {"X-API-Key": "s3cret"} for h in seen)


def test_refused_connection_names_the_url(monkeypatch) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/graphql"
    monkeypatch.setenv("VIGENCIA_API_URL", url)
    with pytest.raises(client.ApiUnreachable) as exc:
        client.corpus_stats()
    assert exc.value.url == url and "ConnectError" in exc.value.message


def test_non_graphql_answer_is_unreachable(monkeypatch) -> None:
    def bad_gateway(url: str, **_):
        return httpx.Response(
            502, text="<html>Bad Gateway</html>", request=httpx.Request("POST", url)
        )

    monkeypatch.setattr(httpx, "post", bad_gateway)
    with pytest.raises(client.ApiUnreachable, match="HTTP 502") as exc:
        client.corpus_stats()
    assert exc.value.url == API_URL


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


def _answering(monkeypatch, status: int, body: dict, headers: dict | None = None) -> None:
    def post(url: str, **_):
        request = httpx.Request("POST", url)
        return httpx.Response(status, json=body, headers=headers or {}, request=request)

    monkeypatch.setattr(httpx, "post", post)


def _coded(message: str, **extensions) -> dict:
    return {"errors": [{"message": message, "extensions": extensions}]}


def _failed(message: str, **extensions) -> dict:
    return {"data": None, **_coded(message, **extensions)}


REFUSALS = [  # (HTTP status, body, Retry-After, code expected)
    (503, _coded("The service is busy: retry in 1 s.", code="OVERLOADED"), "1", "OVERLOADED"),
    (429, _coded("Too many requests: retry after 7 s.", code="RATE_LIMITED"), "7", "RATE_LIMITED"),
    (200, _failed("Request took longer than its time budget.", code="TIMEOUT"), None, "TIMEOUT"),
    (
        200,
        _failed("Query refused: cost 1100.", code="QUERY_TOO_COMPLEX"),
        None,
        "QUERY_TOO_COMPLEX",
    ),
    (413, _coded("Payload too large: body over 1 MiB.", code="TOO_LARGE"), None, "TOO_LARGE"),
    (401, {"errors": [{"message": "API key required"}]}, None, "UNAUTHENTICATED"),
    (200, _failed("Cannot query field 'x' on type 'SearchPayload'."), None, "SCHEMA_MISMATCH"),
    (200, _failed("Unexpected error."), None, None),
]


@pytest.mark.parametrize(("status", "body", "retry", "code"), REFUSALS)
def test_refusals_keep_their_code(monkeypatch, status, body, retry, code) -> None:
    """Every error-only answer had become one ApiResponseError, shown as a version problem."""
    _answering(monkeypatch, status, body, {"retry-after": retry} if retry else None)
    with pytest.raises(client.ApiResponseError) as exc:
        client.search({"query": "pensión"})
    assert (exc.value.code, exc.value.retry_after) == (code, int(retry) if retry else None)


def test_coded_input_and_service_errors_become_their_kinds(monkeypatch) -> None:
    _answering(
        monkeypatch,
        200,
        _coded("limit: 500 is outside 1..200", code="BAD_USER_INPUT", field="limit"),
    )
    with pytest.raises(client.ApiInputError) as exc:
        client.search_log(500)
    assert (exc.value.field, exc.value.message) == ("limit", "500 is outside 1..200")
    _answering(
        monkeypatch,
        200,
        _coded("log unavailable: disk full", code="SERVICE_UNAVAILABLE", service="log"),
    )
    with pytest.raises(client.ApiServiceError) as failed:
        client.search_log(5)
    assert failed.value.service == "log"


def test_a_refused_mutation_is_an_error_not_an_empty_answer(monkeypatch) -> None:
    """A permission error leaves ``{"feedback": null}`` beside its error."""
    message = "This operation needs the API key (Authorization: Bearer <key> or X-API-Key)."
    _answering(monkeypatch, 200, {"data": {"feedback": None}, "errors": [{"message": message}]})
    with pytest.raises(client.ApiResponseError) as exc:
        client.feedback("log-1", 1, True)
    assert exc.value.code == "UNAUTHENTICATED"

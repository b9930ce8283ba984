from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from api.errors import LLMError, LLMTimeout, llm_failure
from api.llm.openai_chat import OpenAIChat
from api.llm.openai_http import OpenAIEndpoint

MESSAGES = [{"role": "system", "content": "Eres útil."}, {"role": "user", "content": "Hola"}]
Handler = Callable[[httpx.Request], httpx.Response]


def chat(
    handler: Handler, api_key: str | None = None, timeout: float = 30.0, **kwargs: Any
) -> OpenAIChat:
    transport = httpx.MockTransport(handler)
    endpoint = OpenAIEndpoint("http://llm.test/v1/", "modelo-x", api_key, timeout, transport)
    return OpenAIChat(endpoint, **kwargs)


def reply(content: object) -> httpx.Response:
    return httpx.Response(
        200, json={"choices": [{"message": {"role": "assistant", "content": content}}]}
    )


def sse(*events: str) -> httpx.Response:
    body = "".join(f"{e}\n\n" for e in events)
    return httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})


def test_complete_posts_the_openai_payload() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return reply("Respuesta [1].")

    llm = chat(handler, api_key="sk-test", temperature=0.2, max_tokens=50)
    assert llm.complete(MESSAGES) == "Respuesta [1]."
    assert llm.model_id == "openai/modelo-x"

    (request,) = seen
    assert str(request.url) == "http://llm.test/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert json.loads(request.content) == {
        "model": "modelo-x",
        "messages": MESSAGES,
        "temperature": 0.2,
        "stream": False,
        "max_tokens": 50,
    }


def test_no_api_key_no_authorization_header() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert "authorization" not in request.headers
        return reply("ok")

    assert chat(handler).complete(MESSAGES) == "ok"


def test_null_content_is_an_empty_reply() -> None:
    assert chat(lambda r: reply(None)).complete(MESSAGES) == ""


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(500, text="boom"),
        httpx.Response(401, json={"error": {"message": "bad key"}}),
        httpx.Response(200, text="no es json"),
        httpx.Response(200, json={"choices": []}),
        httpx.Response(200, json={"unexpected": True}),
        httpx.Response(200, json=["lista"]),
        reply({"no": "texto"}),
    ],
)
def test_bad_replies_raise_llm_error(response: httpx.Response) -> None:
    with pytest.raises(LLMError) as info:
        chat(lambda r: response).complete(MESSAGES)
    assert not isinstance(info.value, LLMTimeout)


def test_http_error_message_carries_status_and_body() -> None:
    with pytest.raises(LLMError, match="HTTP 503: overloaded"):
        chat(lambda r: httpx.Response(503, text="overloaded")).complete(MESSAGES)


@pytest.mark.parametrize(
    ("response", "told"),
    [
        (httpx.Response(500, text="secret-echo"), "error del modelo: HTTP 500"),
        (httpx.Response(200, text="no es json"), "error del modelo: respuesta mal formada"),
    ],
)
def test_a_client_is_told_the_kind_of_failure_never_the_body(
    response: httpx.Response, told: str
) -> None:
    """Both had read only "error del modelo"."""
    with pytest.raises(LLMError) as info:
        chat(lambda r: response).complete(MESSAGES)
    assert llm_failure(info.value) == told


def test_timeout_raises_llm_timeout_and_uses_the_call_timeout() -> None:
    timeouts: list[object] = []

    def handler(request: httpx.Request) -> httpx.Response:
        timeouts.append(request.extensions["timeout"])
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(LLMTimeout, match="timed out after 2 s"):
        chat(handler).complete(MESSAGES, timeout=2)
    assert timeouts == [{"connect": 2, "read": 2, "write": 2, "pool": 2}]


def test_connection_error_raises_llm_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(LLMError, match="chat endpoint failed"):
        chat(handler).complete(MESSAGES)


def test_invalid_timeout_is_refused() -> None:
    with pytest.raises(ValueError, match="timeout must be > 0 seconds, got 0"):
        chat(lambda r: reply("x"), timeout=0)


def delta(text: str | None) -> str:
    return "data: " + json.dumps({"choices": [{"delta": {"content": text}, "index": 0}]})


def test_stream_yields_sse_deltas_until_done() -> None:
    bodies: list[dict[str, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return sse(
            ": keep-alive comment",
            'data: {"choices": [{"delta": {"role": "assistant"}, "index": 0}]}',
            delta("La suspensión "),
            delta(None),
            delta("procede [1]."),
            "data: [DONE]",
            delta("after done is ignored"),
        )

    assert list(chat(handler).stream(MESSAGES)) == ["La suspensión ", "procede [1]."]
    assert bodies[0]["stream"] is True


def test_stream_without_done_ends_at_eof() -> None:
    assert list(chat(lambda r: sse(delta("a"), delta("b"))).stream(MESSAGES)) == ["a", "b"]


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (sse("data: {not json"), "malformed stream event"),
        (sse('data: {"error": {"message": "overloaded"}}'), "error in stream"),
        (sse('data: ["lista"]'), "malformed stream event"),
        (httpx.Response(500, text="fallo"), "HTTP 500: fallo"),
    ],
)
def test_stream_errors_raise_llm_error(response: httpx.Response, message: str) -> None:
    with pytest.raises(LLMError, match=message):
        list(chat(lambda r: response).stream(MESSAGES))


def test_stream_timeout_raises_llm_timeout() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(LLMTimeout):
        list(chat(handler).stream(MESSAGES, timeout=1))


def test_stream_total_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([0.0, 0.5, 5.0])
    monkeypatch.setattr("api.llm.openai_chat.time.monotonic", lambda: next(clock))
    stream = chat(lambda r: sse(delta("a"), delta("b"), delta("c"))).stream(MESSAGES, timeout=1)

    assert next(stream) == "a"
    with pytest.raises(LLMTimeout, match="exceeded 1 s"):
        next(stream)

from __future__ import annotations

import httpx

from api.llm.openai_http import openai_client


def test_client_sends_the_key_as_bearer_and_drops_the_trailing_slash() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={})

    transport = httpx.MockTransport(handler)
    openai_client("http://llm.test/v1/", "sk-1", 5.0, transport).post("/models")
    openai_client("http://llm.test/v1", None, 5.0, transport).post("/models")
    assert [str(r.url) for r in seen] == ["http://llm.test/v1/models"] * 2
    assert seen[0].headers["authorization"] == "Bearer sk-1"
    assert "authorization" not in seen[1].headers

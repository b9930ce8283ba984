"""Any OpenAI-compatible ``/chat/completions`` endpoint (OpenAI, Ollama, vLLM, llama.cpp server).

Example::

    llm = OpenAIChat(OpenAIEndpoint("http://localhost:11434/v1", "qwen2.5:7b-instruct"))
    llm.complete([{"role": "user", "content": "Hola"}], timeout=10)
    for piece in llm.stream(messages):  # SSE: 'data: {...}' lines, then 'data: [DONE]'
        print(piece, end="")
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx

from api.errors import LLMError, LLMTimeout
from api.llm.base import Message
from api.llm.openai_http import OpenAIEndpoint

_ERROR_EXCERPT = 300
# What a client is told of a failure (the message, with the endpoint's words, is logged only).
UNREACHABLE = "sin conexión con el modelo"
MALFORMED = "respuesta mal formada"


class OpenAIChat:
    def __init__(
        self, endpoint: OpenAIEndpoint, temperature: float = 0.0, max_tokens: int | None = None
    ) -> None:
        if endpoint.timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {endpoint.timeout}")
        self._client = endpoint.client()
        self._model = endpoint.model
        self._timeout = endpoint.timeout
        self._temperature = temperature
        self._max_tokens = max_tokens

    @property
    def model_id(self) -> str:
        return f"openai/{self._model}"

    def close(self) -> None:
        self._client.close()

    def _payload(self, messages: list[Message], stream: bool) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self._model,
            "messages": messages,
            "temperature": self._temperature,
            "stream": stream,
        }
        if self._max_tokens is not None:
            payload["max_tokens"] = self._max_tokens
        return payload

    def complete(self, messages: list[Message], timeout: float | None = None) -> str:
        limit = timeout or self._timeout
        try:
            response = self._client.post(
                "/chat/completions", json=self._payload(messages, False), timeout=limit
            )
            _raise_for_status(response)
            content = response.json()["choices"][0]["message"].get("content")
        except httpx.TimeoutException as exc:
            raise LLMTimeout(f"chat endpoint timed out after {limit:g} s") from exc
        except httpx.HTTPError as exc:
            raise LLMError(f"chat endpoint failed: {exc}", UNREACHABLE) from exc
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
            raise LLMError(f"malformed chat reply: {exc!r}", MALFORMED) from exc
        if content is not None and not isinstance(content, str):
            raise LLMError(f"malformed chat reply: content is {type(content).__name__}", MALFORMED)
        return content or ""

    def stream(self, messages: list[Message], timeout: float | None = None) -> Iterator[str]:
        limit = timeout or self._timeout
        deadline = time.monotonic() + limit
        try:
            with self._client.stream(
                "POST", "/chat/completions", json=self._payload(messages, True), timeout=limit
            ) as response:
                if response.status_code >= 400:
                    response.read()
                    _raise_for_status(response)
                for line in response.iter_lines():
                    if time.monotonic() > deadline:
                        raise LLMTimeout(f"chat stream exceeded {limit:g} s")
                    piece = _sse_piece(line)
                    if piece is None:
                        return
                    if piece:
                        yield piece
        except httpx.TimeoutException as exc:
            raise LLMTimeout(f"chat endpoint timed out after {limit:g} s") from exc
        except httpx.HTTPError as exc:
            raise LLMError(f"chat endpoint failed: {exc}", UNREACHABLE) from exc


def _raise_for_status(response: httpx.Response) -> None:
    if response.status_code >= 400:
        body = response.text[:_ERROR_EXCERPT]
        raise LLMError(
            f"chat endpoint answered HTTP {response.status_code}: {body}",
            f"HTTP {response.status_code}",
        )


def _sse_piece(line: str) -> str | None:
    """Text carried by one SSE line: '' for lines without text, None at ``[DONE]``."""
    if not line.startswith("data:"):
        return ""  # blank keep-alives, ': comments', 'event:' and 'id:' lines
    data = line[len("data:") :].strip()
    if data == "[DONE]":
        return None
    try:
        event = json.loads(data)
    except ValueError as exc:
        raise LLMError(f"malformed stream event: {data[:_ERROR_EXCERPT]!r}", MALFORMED) from exc
    if not isinstance(event, dict):
        raise LLMError(f"malformed stream event: {data[:_ERROR_EXCERPT]!r}", MALFORMED)
    if "error" in event:
        raise LLMError(f"chat endpoint error in stream: {event['error']}", "error en el flujo")
    try:
        choices = event.get("choices") or []
        content = choices[0].get("delta", {}).get("content") if choices else None
    except (AttributeError, TypeError) as exc:
        raise LLMError(f"malformed stream event: {data[:_ERROR_EXCERPT]!r}", MALFORMED) from exc
    return content if isinstance(content, str) else ""

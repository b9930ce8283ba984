"""Where an OpenAI-compatible endpoint is (chat completions and embeddings) and its client."""

from __future__ import annotations

from dataclasses import dataclass

import httpx


@dataclass(frozen=True, slots=True)
class OpenAIEndpoint:
    """An OpenAI-compatible server, the model asked for there, and how to reach it.

    ``transport`` replaces the network (tests)."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 30.0
    transport: httpx.BaseTransport | None = None

    def client(self) -> httpx.Client:
        return openai_client(self.base_url, self.api_key, self.timeout, self.transport)


def openai_client(
    base_url: str, api_key: str | None, timeout: float, transport: httpx.BaseTransport | None
) -> httpx.Client:
    """A client for ``base_url`` (trailing slash dropped), sending the key as a bearer token."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return httpx.Client(
        base_url=base_url.rstrip("/"), headers=headers, timeout=timeout, transport=transport
    )

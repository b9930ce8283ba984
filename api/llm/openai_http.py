"""The HTTP client for any OpenAI-compatible endpoint (chat completions and embeddings)."""

from __future__ import annotations

import httpx


def openai_client(
    base_url: str, api_key: str | None, timeout: float, transport: httpx.BaseTransport | None
) -> httpx.Client:
    """A client for ``base_url`` (trailing slash dropped), sending the key as a bearer token."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return httpx.Client(
        base_url=base_url.rstrip("/"), headers=headers, timeout=timeout, transport=transport
    )

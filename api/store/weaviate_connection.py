"""One way to reach Weaviate from a URL, shared by the store and the search log."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import weaviate
from weaviate.classes.init import Auth

# Collection names are GraphQL class names.
PREFIX_PATTERN = re.compile(r"[A-Z][A-Za-z0-9_]*")


def check_target(url: str, prefix: str) -> None:
    """Raise ValueError naming the parameter when the URL or collection prefix is unusable."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"url must be http(s)://host[:port], got {url!r}")
    if not PREFIX_PATTERN.fullmatch(prefix):
        raise ValueError(
            f"prefix must match {PREFIX_PATTERN.pattern} (a class name), got {prefix!r}"
        )


def connect(url: str, grpc_port: int, api_key: str | None) -> weaviate.WeaviateClient:
    """Connect over REST (the URL) and gRPC (same host, ``grpc_port``).

    ``skip_init_checks``: no PyPI version lookup from servers; /v1/meta is still checked.
    """
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    host = parts.hostname or "localhost"
    return weaviate.connect_to_custom(
        http_host=host,
        http_port=parts.port or (443 if secure else 80),
        http_secure=secure,
        grpc_host=host,
        grpc_port=grpc_port,
        grpc_secure=secure,
        auth_credentials=Auth.api_key(api_key) if api_key else None,
        skip_init_checks=True,
    )

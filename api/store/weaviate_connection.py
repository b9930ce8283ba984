"""One way to reach Weaviate from a URL, shared by the store and the search log: connecting,
creating the collections, and re-raising vendor failures as our own errors."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import grpc
import httpx
import weaviate
from weaviate.classes.config import Property
from weaviate.classes.init import Auth
from weaviate.collections import Collection
from weaviate.collections.classes.config import _InvertedIndexConfigCreate
from weaviate.collections.classes.config_vectors import _VectorConfigCreate
from weaviate.exceptions import WeaviateBaseError

# Collection names are GraphQL class names.
PREFIX_PATTERN = re.compile(r"[A-Z][A-Za-z0-9_]*")
VENDOR_ERRORS = (WeaviateBaseError, grpc.RpcError, httpx.HTTPError, OSError)


@contextmanager
def vendor_errors(error: type[Exception], what: str) -> Iterator[None]:
    """Re-raise client, gRPC and HTTP failures as ``error("<what> failed: ...")``."""
    try:
        yield
    except VENDOR_ERRORS as exc:
        raise error(f"{what} failed: {exc}") from exc


@dataclass(frozen=True, slots=True)
class CollectionSpec:
    """Arguments of ``client.collections.create`` for one collection."""

    name: str
    properties: tuple[Property, ...]
    vector_config: _VectorConfigCreate
    inverted_index: _InvertedIndexConfigCreate | None = None


def create_missing(client: weaviate.WeaviateClient, specs: Iterable[CollectionSpec]) -> None:
    """Create the collections that do not exist yet (another process may be creating them)."""
    for spec in specs:
        if client.collections.exists(spec.name):
            continue
        try:
            client.collections.create(
                spec.name,
                properties=list(spec.properties),
                vector_config=spec.vector_config,
                inverted_index_config=spec.inverted_index,
            )
        except WeaviateBaseError:
            if not client.collections.exists(spec.name):  # not a concurrent creation
                raise


def check_target(url: str, prefix: str) -> None:
    """Raise ValueError naming the parameter when the URL or collection prefix is unusable."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"url must be http(s)://host[:port], got {url!r}")
    if not PREFIX_PATTERN.fullmatch(prefix):
        raise ValueError(
            f"prefix must match {PREFIX_PATTERN.pattern} (a class name), got {prefix!r}"
        )


@dataclass(frozen=True, slots=True)
class WeaviateTarget:
    """A Weaviate server (REST at ``url``, gRPC on the same host at ``grpc_port``), the prefix
    of our collections there, and ``max_results``: the most objects one read returns (the
    server's QUERY_MAXIMUM_RESULTS). Raises ValueError naming an unusable argument."""

    url: str
    grpc_port: int = 50051
    api_key: str | None = field(default=None, repr=False)
    prefix: str = "Vigencia"
    max_results: int = 10_000

    def __post_init__(self) -> None:
        check_target(self.url, self.prefix)
        if self.max_results < 1:
            raise ValueError(f"max_results must be >= 1, got {self.max_results}")


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


class WeaviateResource:
    """Collections on one Weaviate server, connected lazily and shared by every call.

    Connects to its ``WeaviateTarget`` on first use (under a lock), creates the collections
    the subclass declares, and reconnects after ``close()``. Subclasses say how vendor failures are re-raised
    (``_errors``), which collections they own and how ``health`` names them.
    """

    health_key = "store"

    def __init__(self, target: WeaviateTarget) -> None:
        self.url = target.url
        self.grpc_port = target.grpc_port
        self.prefix = target.prefix
        self.max_results = target.max_results
        self._api_key = target.api_key
        self._client: weaviate.WeaviateClient | None = None
        self._lock = threading.Lock()

    def _errors(self, action: str) -> AbstractContextManager[None]:
        """Re-raise client, gRPC and HTTP failures as the subclass' own error."""
        raise NotImplementedError

    def _ensure_collections(self, client: weaviate.WeaviateClient) -> None:
        raise NotImplementedError

    def collection_names(self) -> list[str]:
        raise NotImplementedError

    def _connect(self) -> weaviate.WeaviateClient:
        return connect(self.url, self.grpc_port, self._api_key)

    def _ready_client(self) -> weaviate.WeaviateClient:
        with self._lock:
            if self._client is None:
                with self._errors(f"connection to {self.url}"):
                    client = self._connect()
                    try:
                        self._ensure_collections(client)
                    except BaseException:
                        client.close()
                        raise
                self._client = client
            return self._client

    def _collection(self, suffix: str) -> Collection[Any, Any]:
        return self._ready_client().collections.use(f"{self.prefix}{suffix}")

    def health(self) -> dict[str, str]:
        """``{"status": "ok" | "degraded", <health_key>: "weaviate", "detail": ...}``; never
        raises."""
        key = self.health_key
        try:
            ready = self._ready_client().is_ready()
        except Exception as exc:  # health must report, not raise
            return {"status": "degraded", key: "weaviate", "detail": str(exc)}
        if not ready:
            return {"status": "degraded", key: "weaviate", "detail": f"{self.url} not ready"}
        return {"status": "ok", key: "weaviate", "detail": f"{self.url} ready"}

    def drop_collections(self) -> None:
        """Delete the collections and everything in them (tests, resets)."""
        client = self._ready_client()
        with self._errors("collection drop"):
            client.collections.delete(self.collection_names())
        self.close()  # the next call recreates them

    def close(self) -> None:
        """Close the client; a later call reconnects."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            with self._errors("close"):
                client.close()

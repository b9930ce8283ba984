"""What the live-Weaviate tests share: the server from ``VIGENCIA_WEAVIATE_URL`` (skipped when
unset) and a target with a fresh collection prefix per test."""

from __future__ import annotations

import os
import uuid

import pytest

from api.store.weaviate_connection import WeaviateTarget

URL = os.environ.get("VIGENCIA_WEAVIATE_URL")

LIVE_ONLY = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not URL, reason="VIGENCIA_WEAVIATE_URL not set: no Weaviate server to test against"
    ),
]


def live_target() -> WeaviateTarget:
    """The live server, under a collection prefix no other test uses."""
    assert URL is not None
    return WeaviateTarget(
        URL,
        grpc_port=int(os.environ.get("VIGENCIA_WEAVIATE_GRPC_PORT", "50051")),
        api_key=os.environ.get("VIGENCIA_WEAVIATE_API_KEY") or None,
        prefix=f"Test{uuid.uuid4().hex[:12]}",
    )

"""The store contract against a real Weaviate server (``VIGENCIA_WEAVIATE_URL``, e.g. the one
in compose.yaml). Each test gets its own collection prefix and drops its collections after."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from api.store.weaviate_connection import WeaviateTarget
from api.store.weaviate_store import WeaviateStore
from tests.store.contract import DIM, StoreContract

URL = os.environ.get("VIGENCIA_WEAVIATE_URL")

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not URL, reason="VIGENCIA_WEAVIATE_URL not set: no Weaviate server to test against"
    ),
]


class TestWeaviateContract(StoreContract):
    @pytest.fixture
    def store(self) -> Iterator[WeaviateStore]:
        assert URL is not None
        target = WeaviateTarget(
            URL,
            grpc_port=int(os.environ.get("VIGENCIA_WEAVIATE_GRPC_PORT", "50051")),
            api_key=os.environ.get("VIGENCIA_WEAVIATE_API_KEY") or None,
            prefix=f"Test{uuid.uuid4().hex[:12]}",
        )
        store = WeaviateStore(target, dim=DIM)
        yield store
        store.drop_collections()
        store.close()

"""The search-log contract against a real Weaviate server (``VIGENCIA_WEAVIATE_URL``). Each test
gets its own collection prefix and drops its collections after."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from api.monitoring.weaviate_log import WeaviateSearchLog
from api.store.weaviate_connection import WeaviateTarget
from tests.monitoring.log_contract import LogContract

URL = os.environ.get("VIGENCIA_WEAVIATE_URL")

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not URL, reason="VIGENCIA_WEAVIATE_URL not set: no Weaviate server to test against"
    ),
]


class TestWeaviateLogContract(LogContract):
    @pytest.fixture
    def log(self) -> Iterator[WeaviateSearchLog]:
        assert URL is not None
        target = WeaviateTarget(
            URL,
            grpc_port=int(os.environ.get("VIGENCIA_WEAVIATE_GRPC_PORT", "50051")),
            api_key=os.environ.get("VIGENCIA_WEAVIATE_API_KEY") or None,
            prefix=f"Test{uuid.uuid4().hex[:12]}",
        )
        log = WeaviateSearchLog(target)
        yield log
        log.drop_collections()
        log.close()

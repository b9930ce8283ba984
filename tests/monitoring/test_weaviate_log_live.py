"""The search-log contract against a real Weaviate server (``VIGENCIA_WEAVIATE_URL``). Each test
gets its own collection prefix and drops its collections after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api.monitoring.weaviate_log import WeaviateSearchLog
from tests.monitoring.log_contract import LogContract
from tests.store.weaviate_live import LIVE_ONLY, live_target

pytestmark = LIVE_ONLY


class TestWeaviateLogContract(LogContract):
    @pytest.fixture
    def log(self) -> Iterator[WeaviateSearchLog]:
        target = live_target()
        log = WeaviateSearchLog(target)
        yield log
        log.drop_collections()
        log.close()

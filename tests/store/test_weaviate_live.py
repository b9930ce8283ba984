"""The store contract against a real Weaviate server (``VIGENCIA_WEAVIATE_URL``, e.g. the one
in compose.yaml). Each test gets its own collection prefix and drops its collections after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api.store.weaviate_store import WeaviateStore
from tests.store.contract import DIM, StoreContract
from tests.store.weaviate_live import LIVE_ONLY, live_target

pytestmark = LIVE_ONLY


class TestWeaviateContract(StoreContract):
    @pytest.fixture
    def store(self) -> Iterator[WeaviateStore]:
        target = live_target()
        store = WeaviateStore(target, dim=DIM)
        yield store
        store.drop_collections()
        store.close()

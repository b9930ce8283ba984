"""Light loopback load: a real uvicorn server, concurrent GraphQL searches, zero errors.

The full run (50 clients x 40 searches, latency figures) is part of ``make bench``; here only
correctness under concurrency is asserted, never timing.
"""

from __future__ import annotations

import pytest

from api.app import create_app
from api.services.container import Services
from benchmarks.load import run_load
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

"""Time a fragment bomb and /health sent together to a real uvicorn server on loopback.

    .venv/bin/python scripts/measure_bomb.py

Serves a 12-tesis in-memory store (the hardening tests' fixture) on 127.0.0.1:18931, then sends
30 pairs (bomb, /health) at once for a 24- and a 60-fragment doubling bomb, and 15 aliases of
``monitoring(windowHours: 8760)``. Every bomb must be refused with QUERY_TOO_COMPLEX and every
/health must answer 200; prints p50 and max of each, in ms. Figures: docs/SECURITY.md.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import httpx
import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.app import create_app
from tests.hardening.test_query_limits import app_for, bomb

PORT = 18931
T = TypeVar("T")


async def timed(request: Awaitable[T]) -> tuple[float, T]:
    started = time.perf_counter()
    response = await request
    return (time.perf_counter() - started) * 1000, response


async def measure() -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{PORT}", timeout=60) as client:
        for levels in (24, 60):
            query = {"query": bomb(levels)}
            await client.post("/graphql", json=query)
            bombs, healths = [], []
            for _ in range(30):
                (tb, refused), (th, health) = await asyncio.gather(
                    timed(client.post("/graphql", json=query)), timed(client.get("/health"))
                )
                assert refused.json()["errors"][0]["extensions"]["code"] == "QUERY_TOO_COMPLEX"
                assert health.status_code == 200
                bombs.append(tb)
                healths.append(th)
            print(
                f"{levels}-fragment bomb: p50 {statistics.median(bombs):.1f} ms, max "
                f"{max(bombs):.1f} ms; /health beside it: p50 {statistics.median(healths):.1f} "
                f"ms, max {max(healths):.1f} ms"
            )
        fields = " ".join(
            f"m{i}: monitoring(windowHours: 8760) {{ __typename }}" for i in range(15)
        )
        took, refused = await timed(client.post("/graphql", json={"query": f"{{ {fields} }}"}))
        assert refused.json()["errors"][0]["extensions"]["code"] == "QUERY_TOO_COMPLEX"
        print(f"15 x monitoring(windowHours: 8760): refused in {took:.1f} ms")


def main() -> None:
    logging.getLogger("vigencia").setLevel(logging.ERROR)
    app = create_app(services=app_for(Path(tempfile.mkdtemp())))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=PORT, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    try:
        asyncio.run(measure())
    finally:
        server.should_exit = True


if __name__ == "__main__":
    main()

"""Serve an ASGI app with uvicorn on loopback only: in a thread (tests) or in a child process
(benchmarks, so the load generator does not share the server's GIL)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn
from starlette.types import ASGIApp

LOOPBACK = "127.0.0.1"


def loopback_socket() -> socket.socket:
    """A listening-ready socket on 127.0.0.1 with a free port chosen by the kernel."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((LOOPBACK, 0))
    return sock


def server_config(app: ASGIApp) -> uvicorn.Config:
    return uvicorn.Config(
        app, host=LOOPBACK, log_level="warning", access_log=False, ws="none", lifespan="on"
    )


@contextmanager
def serve_in_thread(app: ASGIApp, start_timeout_s: float = 30.0) -> Iterator[str]:
    """Yield the base URL of ``app`` served by uvicorn in a daemon thread; stops on exit."""
    sock = loopback_socket()
    server = uvicorn.Server(server_config(app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://{LOOPBACK}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def serve_bundled_in_process(
    data_dir: Path,
    env: Mapping[str, str] | None = None,
    start_timeout_s: float = 120.0,
    workers: int = 1,
) -> Iterator[str]:
    """Run ``python -m benchmarks.serve`` (bundled corpus, production services) as a child
    process with ``env`` added to ours; yield its base URL once /health answers; terminate it
    on exit."""
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.serve", str(data_dir), str(workers)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline().strip()  # "PORT <n>" once the socket is bound
        if not line.startswith("PORT "):
            raise RuntimeError(f"benchmark server failed to start: {line!r}")
        url = f"http://{LOOPBACK}:{int(line.split()[1])}"
        deadline = time.monotonic() + start_timeout_s
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if child.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("benchmark server never became healthy")
            time.sleep(0.2)
        yield url
    finally:
        child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()

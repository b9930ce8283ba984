"""The API and the dashboard as real processes on loopback, for the browser test and screenshots.

Both run from the project's virtual environment with a clean ``VIGENCIA_*`` environment (no LLM,
no API key), the bundled corpus ingested into a temporary data directory.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"


@dataclass(frozen=True)
class Stack:
    api_url: str  # the GraphQL endpoint
    dashboard_url: str


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIGENCIA_")}
    env.update(extra)
    return env


def _wait(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"{proc.args!r} exited {proc.returncode}:\n{log.read_text()[-3000:]}"
            )
        try:
            if httpx.get(url, timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"{url} not ready after {timeout:.0f}s:\n{log.read_text()[-3000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def _run(args: list[str], env: Mapping[str, str]) -> None:
    subprocess.run(args, cwd=ROOT, env=dict(env), check=True, capture_output=True, timeout=300)


@contextmanager
def running_stack(
    workdir: Path, notes: bool = False, api_env: Mapping[str, str] | None = None
) -> Iterator[Stack]:
    """Ingest the bundled corpus into ``workdir``, start the API (``api_env`` added to its
    environment) and the dashboard; stop both."""
    data_dir = workdir / "var"
    env = clean_env(VIGENCIA_DATA_DIR=str(data_dir), VIGENCIA_HOST=HOST, **(api_env or {}))
    _run([str(BIN / "vigencia"), "ingest", "--quiet", str(ROOT / "data" / "tesis.jsonl")], env)
    if notes:
        _run(
            [str(BIN / "vigencia"), "import-notes", str(ROOT / "data" / "vigencia_notas.json")], env
        )
    api_port, dash_port = free_port(), free_port()
    api_url = f"http://{HOST}:{api_port}/graphql"
    procs: list[subprocess.Popen[bytes]] = []
    try:
        api_log = workdir / "api.log"
        with api_log.open("wb") as out:
            procs.append(
                subprocess.Popen(
                    [str(BIN / "vigencia"), "serve", "--host", HOST, "--port", str(api_port)],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
        _wait(f"http://{HOST}:{api_port}/health", procs[0], api_log)
        dash_log = workdir / "dashboard.log"
        dash_env = clean_env(VIGENCIA_API_URL=api_url)
        with dash_log.open("wb") as out:
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "streamlit",
                        "run",
                        str(ROOT / "dashboard" / "app.py"),
                        "--server.headless",
                        "true",
                        "--server.address",
                        HOST,
                        "--server.port",
                        str(dash_port),
                        "--server.fileWatcherType",
                        "none",
                        "--browser.gatherUsageStats",
                        "false",
                        "--client.toolbarMode",
                        "minimal",
                    ],
                    cwd=ROOT,
                    env=dash_env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
        _wait(f"http://{HOST}:{dash_port}/_stcore/health", procs[1], dash_log)
        yield Stack(api_url=api_url, dashboard_url=f"http://{HOST}:{dash_port}")
    finally:
        for proc in reversed(procs):
            _stop(proc)


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

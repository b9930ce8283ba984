"""Bounded loopback load: C concurrent clients x R searches over GraphQL, then stop.

Only 127.0.0.1 / localhost is accepted as a target. Every request either succeeds (HTTP 200, no
GraphQL errors, a ``SearchPayload``) or is counted as an error with its reason; an overall
timeout cancels what is left and counts it too, so a run always ends.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
SEARCH = """
query Search($input: SearchInput!) {
  search(input: $input) {
    __typename
    ... on SearchPayload {
      candidates recencyWeight profile mode
      timings { embedMs retrieveMs scoreMs }
      hits {
        registro rubro epoca anio tipo materias similarity relevance recencyFactor
        epocaFactor finalScore rank rankWithoutRecency
        chunk { index startChar endChar text }
      }
    }
    ... on InputError { field message }
    ... on ServiceError { service message }
  }
}
"""


def search_body(question: str, top_k: int = 10) -> dict[str, Any]:
    return {"query": SEARCH, "variables": {"input": {"query": question, "topK": top_k}}}


def search_error(response: httpx.Response) -> str | None:
    """Why a search response is not a success; None when it is."""
    if response.status_code != 200:
        return f"HTTP {response.status_code}"
    body = response.json()
    if body.get("errors"):
        return f"GraphQL error: {body['errors'][0].get('message')}"
    payload = (body.get("data") or {}).get("search") or {}
    if payload.get("__typename") != "SearchPayload":
        return f"{payload.get('__typename')}: {payload.get('message')}"
    return None


def server_time_ms(response: httpx.Response) -> float | None:
    """The server's own time for a response (``Server-Timing``: queue + app), if it said."""
    header = response.headers.get("server-timing")
    if not header:
        return None
    return sum(float(part.split(";dur=")[1]) for part in header.split(",") if ";dur=" in part)


@contextmanager
def ahead_of_the_server(boost: int = 10) -> Iterator[bool]:
    """Run this process (the load generator) at a higher priority than the server it measures
    on the same cores: a starved client adds its own delays to every latency it records.
    Yields whether the priority could be raised (it needs the right to); restores it after."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, before - boost)
    except PermissionError:
        yield False
        return
    try:
        yield True
    finally:
        os.setpriority(os.PRIO_PROCESS, 0, before)


def require_loopback(url: str) -> None:
    host = urlsplit(url).hostname
    if host not in LOOPBACK_HOSTS:
        raise ValueError(f"load tests only target loopback, not {host!r}")


def hostile_questions(count: int, length: int = 2000) -> list[str]:
    """Distinct ``length``-character emoji and punctuation questions (each embedded afresh)."""
    pattern = "😀¡!¿?…«»—🙃§¶"
    return [(f"{i} " + pattern * (length // len(pattern) + 1))[:length] for i in range(count)]


@dataclass
class LoadResult:
    clients: int
    per_client: int
    latencies_ms: list[float] = field(default_factory=list)  # normal questions
    errors: list[str] = field(default_factory=list)
    wall_s: float = 0.0
    hostile_clients: int = 0
    hostile_ms: list[float] = field(default_factory=list)  # every hostile request, answered
    # or refused (a refusal is the server protecting itself, not a failure of the run)
    all_ms: list[float] = field(default_factory=list)  # every request that got a response
    server_ms: list[float] = field(default_factory=list)  # of those, the server's own time
    client_ahead: bool = False  # the load generator ran at a higher priority than the server
    shed: int = 0  # normal searches refused at once by load shedding (503 OVERLOADED)

    @property
    def requests(self) -> int:
        return self.clients * self.per_client

    @property
    def throughput(self) -> float:
        """Successful searches per second over the whole run."""
        return len(self.latencies_ms) / self.wall_s if self.wall_s else 0.0


async def _client(
    client: httpx.AsyncClient,
    questions: Sequence[str],
    start: int,
    count: int,
    result: LoadResult,
    hostile: bool = False,
) -> None:
    for i in range(count):
        question = questions[(start + i) % len(questions)]
        started = time.perf_counter()
        response: httpx.Response | None = None
        try:
            response = await client.post("/graphql", json=search_body(question))
            error = search_error(response)
        except (httpx.HTTPError, ValueError) as exc:
            error = f"{type(exc).__name__}: {exc}"
        elapsed_ms = (time.perf_counter() - started) * 1000
        if response is not None:  # every response is timed, answered, refused or shed
            result.all_ms.append(elapsed_ms)
            inside = server_time_ms(response)
            if inside is not None:
                result.server_ms.append(inside)
        if hostile:
            result.hostile_ms.append(elapsed_ms)
        elif error is None:
            result.latencies_ms.append(elapsed_ms)
        elif response is not None and response.status_code == 503:
            result.shed += 1
        else:
            result.errors.append(error)


def run_load(
    base_url: str,
    questions: Sequence[str],
    clients: int,
    per_client: int,
    timeout_s: float = 300.0,
    hostile_every: int = 0,
) -> LoadResult:
    """``clients`` tasks, each sending ``per_client`` searches back to back; with
    ``hostile_every`` = k, every k-th client sends 2,000-character emoji questions instead."""
    require_loopback(base_url)
    hostile = [c for c in range(clients) if hostile_every and c % hostile_every == 0]
    result = LoadResult(clients, per_client, hostile_clients=len(hostile))
    bad = hostile_questions(len(hostile) * per_client)
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def send_all() -> None:
        async with httpx.AsyncClient(base_url=base_url, timeout=timeout_s, limits=limits) as client:
            tasks = [
                asyncio.ensure_future(
                    _client(client, bad, c * per_client, per_client, result, hostile=True)
                    if c in hostile
                    else _client(client, questions, c * per_client, per_client, result)
                )
                for c in range(clients)
            ]
            _, pending = await asyncio.wait(tasks, timeout=timeout_s)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)

    started = time.perf_counter()
    with ahead_of_the_server() as result.client_ahead:
        asyncio.run(send_all())
    result.wall_s = time.perf_counter() - started
    answered = len(result.latencies_ms) + len(result.errors) + len(result.hostile_ms) + result.shed
    missing = result.requests - answered
    result.errors.extend([f"not finished within {timeout_s:.0f} s"] * missing)
    return result

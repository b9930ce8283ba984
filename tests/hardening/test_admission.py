"""Load shedding: a bounded number of /graphql requests run, the rest wait a bounded time."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from api.admission import AdmissionMiddleware

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def gated_app(release: asyncio.Event, max_running: int, max_wait_s: float) -> AdmissionMiddleware:
    async def graphql(request: Request) -> JSONResponse:
        await release.wait()
        return JSONResponse({"data": {"ok": True}})

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    routes = [Route("/graphql", graphql, methods=["GET", "POST"]), Route("/health", health)]
    app = Starlette(routes=routes)
    return AdmissionMiddleware(app, max_running=max_running, max_wait_s=max_wait_s)


def server_timing(response: httpx.Response) -> dict[str, float]:
    parts = (p.split(";dur=") for p in response.headers["server-timing"].split(", "))
    return {name: float(ms) for name, ms in parts}


def client(app: AdmissionMiddleware) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


async def test_a_request_without_a_slot_is_refused_after_the_wait() -> None:
    release = asyncio.Event()
    async with client(gated_app(release, max_running=1, max_wait_s=0.2)) as http:
        running = asyncio.create_task(http.post("/graphql", json={}))
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        refused = await http.post("/graphql", json={})
        waited = time.perf_counter() - started
        health = await http.get("/health")  # not gated, even while full
        release.set()
        answered = await running
        after = await http.post("/graphql", json={})  # the slot came back
    assert refused.status_code == 503
    queue = server_timing(refused)["queue"]
    assert 150 <= queue < 2000 and server_timing(answered)["app"] >= 0
    assert refused.headers["retry-after"] == "1"
    assert refused.json()["errors"][0]["extensions"]["code"] == "OVERLOADED"
    assert 0.15 <= waited < 2.0
    assert health.status_code == 200
    assert answered.status_code == 200 and after.status_code == 200


async def test_a_waiting_request_runs_when_a_slot_frees_in_time() -> None:
    release = asyncio.Event()
    async with client(gated_app(release, max_running=1, max_wait_s=5.0)) as http:
        first = asyncio.create_task(http.post("/graphql", json={}))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(http.post("/graphql", json={}))
        await asyncio.sleep(0.05)
        release.set()
        responses = await asyncio.gather(first, second)
    assert [r.status_code for r in responses] == [200, 200]


@pytest.mark.parametrize("max_running", [0, 3])
async def test_no_refusal_within_capacity_or_with_the_gate_off(max_running: int) -> None:
    release = asyncio.Event()
    async with client(gated_app(release, max_running=max_running, max_wait_s=0.1)) as http:
        tasks = [asyncio.create_task(http.post("/graphql", json={})) for _ in range(3)]
        await asyncio.sleep(0.3)  # past the wait: nobody was left waiting
        release.set()
        responses = await asyncio.gather(*tasks)
    assert [r.status_code for r in responses] == [200, 200, 200]


async def test_a_get_with_an_operation_is_gated_and_the_graphiql_page_is_not() -> None:
    """GETs had passed freely: a flood of GET searches slowed every other request."""
    release = asyncio.Event()
    async with client(gated_app(release, max_running=1, max_wait_s=0.1)) as http:
        running = asyncio.create_task(http.post("/graphql", json={}))
        await asyncio.sleep(0.05)
        refused = await http.get("/graphql", params={"query": "{ corpusStats { total } }"})
        page = asyncio.create_task(http.get("/graphql"))  # GraphiQL: waits for no slot
        await asyncio.sleep(0.2)
        assert not page.done()  # it reached the app (which waits on the event), not the gate
        release.set()
        await asyncio.gather(running, page)
    assert refused.status_code == 503
    assert page.result().status_code == 200


async def test_an_encoded_query_key_is_gated_too() -> None:
    """ "?%71uery=" is read as "query" by the GraphQL view: it had passed the gate."""
    release = asyncio.Event()
    async with client(gated_app(release, max_running=1, max_wait_s=0.1)) as http:
        running = asyncio.create_task(http.post("/graphql", json={}))
        await asyncio.sleep(0.05)
        refused = await http.get("/graphql?%71uery=%7B__typename%7D")
        release.set()
        await running
    assert refused.status_code == 503

"""Faults at the edges, seen through the ASGI app: store outage and recovery, LLM failures and
garbage, embedder failure, and an unexpected exception inside a resolver.

Every test builds its own small corpus (12 tesis, ``FakeEmbedder``) in an in-memory store and
serves it with ``create_app(services=...)``; the doubles below wrap or replace one dependency.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from api.app import create_app
from api.core.models import Candidate, Chunk, Filters, Tesis, Validity
from api.embeddings.base import TextKind, Vectors
from api.errors import EmbedderError, LLMError, LLMTimeout, StoreError
from api.graphql.context import Context
from api.graphql.schema import schema
from api.ingest.pipeline import ingest_records
from api.llm.base import LLM
from api.services.container import Services
from api.settings import Settings
from api.store.base import (
    GroupBy,
    ListQuery,
    TesisEntry,
    UpsertResult,
    VectorQuery,
    VectorStore,
)
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder, Reply, ScriptedLLM
from tests.ingest.test_ingest import good

DIM = 32
MASKED = "Unexpected error."
OUTAGE = "weaviate unreachable: connection refused (test double)"
QUESTION = "¿Cuándo procede la suspensión provisional en el amparo?"


def unreachable(action: str) -> Exception:
    return StoreError(f"{OUTAGE} while trying to {action}")


class FlakyStore:
    """A real store behind a switch: while ``down``, every call raises ``failure(action)``.

    ``calls`` records each method called (while up or down), so a test can say the store
    was never touched. ``health`` reports degraded while down, as every backend must.
    """

    def __init__(
        self, inner: VectorStore, failure: Callable[[str], Exception] = unreachable
    ) -> None:
        self.inner = inner
        self.failure = failure
        self.down = False
        self.calls: list[str] = []

    def _enter(self, action: str) -> None:
        self.calls.append(action)
        if self.down:
            raise self.failure(action)

    def upsert(self, entries: Sequence[TesisEntry]) -> UpsertResult:
        self._enter("upsert")
        return self.inner.upsert(entries)

    def fingerprints(self, registros: Sequence[int]) -> dict[int, str]:
        self._enter("fingerprints")
        return self.inner.fingerprints(registros)

    def vector_search(self, query: VectorQuery) -> list[Candidate]:
        self._enter("vector_search")
        return self.inner.vector_search(query)

    def lexical_search(
        self, text: str, vector: Vectors, filters: Filters, limit: int
    ) -> list[Candidate]:
        self._enter("lexical_search")
        return self.inner.lexical_search(text, vector, filters, limit)

    def get_tesis(self, registros: Sequence[int]) -> dict[int, Tesis]:
        self._enter("get_tesis")
        return self.inner.get_tesis(registros)

    def get_chunks(self, registro: int) -> list[Chunk]:
        self._enter("get_chunks")
        return self.inner.get_chunks(registro)

    def find_claves(self, claves: Sequence[str]) -> dict[str, int]:
        self._enter("find_claves")
        return self.inner.find_claves(claves)

    def list_tesis(self, query: ListQuery) -> list[Tesis]:
        self._enter("list_tesis")
        return self.inner.list_tesis(query)

    def date_fields(self) -> dict[str, str]:
        self._enter("date_fields")
        return self.inner.date_fields()

    def count_by(self, group_by: GroupBy, filters: Filters) -> dict[str, int]:
        self._enter("count_by")
        return self.inner.count_by(group_by, filters)

    def count(self) -> tuple[int, int]:
        self._enter("count")
        return self.inner.count()

    def generation(self) -> int:
        self._enter("generation")
        return self.inner.generation()

    def delete(self, registros: Sequence[int]) -> int:
        self._enter("delete")
        return self.inner.delete(registros)

    def upsert_validity(self, notes: Mapping[int, Validity]) -> int:
        self._enter("upsert_validity")
        return self.inner.upsert_validity(notes)

    def get_validity(self, registros: Sequence[int]) -> dict[int, Validity]:
        self._enter("get_validity")
        return self.inner.get_validity(registros)

    def health(self) -> dict[str, str]:
        if self.down:
            return {"status": "degraded", "store": "flaky", "detail": str(self.failure("ping"))}
        return self.inner.health()

    def close(self) -> None:
        self.inner.close()


class FailingEmbedder:
    """Implements ``Embedder``; every call raises ``EmbedderError``."""

    calls = 0

    @property
    def model_id(self) -> str:
        return f"fake/bow-{DIM}"  # the corpus' model: fingerprints match, as in production

    @property
    def dim(self) -> int:
        return DIM

    def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        self.calls += 1
        raise EmbedderError("embedding endpoint answered HTTP 503 (test double)")


def small_store() -> EmbeddedStore:
    store = EmbeddedStore(None, dim=DIM)
    topics = ["suspensión provisional", "interés legítimo", "amparo indirecto", "plazo"]
    records = [
        good(
            5000 + i,
            rubro=f"{topics[i % 4].upper()}. CRITERIO {i}.",
            texto=f"La {topics[i % 4]} en el juicio de amparo procede cuando se acredita el "
            f"supuesto {i}. Debe analizarse la apariencia del buen derecho.",
            anio=2011 + i,
        )
        for i in range(12)
    ]
    report = ingest_records(records, "faults", store, FakeEmbedder(DIM))
    assert (report.stored, report.rejected) == (12, [])
    return store


def services_for(
    tmp_path: Path,
    store: VectorStore,
    embedder: Any = None,
    llm: LLM | None = None,
) -> Services:
    settings = Settings(data_dir=tmp_path)
    return Services.build(settings, store=store, embedder=embedder or FakeEmbedder(DIM), llm=llm)


@pytest.fixture
def flaky(tmp_path: Path) -> FlakyStore:
    return FlakyStore(small_store())


def serve(services: Services) -> TestClient:
    return TestClient(create_app(services=services), raise_server_exceptions=False)


def post(client: TestClient, query: str, **variables: Any) -> dict[str, Any]:
    """POST a GraphQL document; a 500 or a non-JSON body fails the test."""
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    return body


SEARCH = """query S($q: String!) { search(input: {query: $q}) {
  __typename ... on SearchPayload { hits { registro } }
  ... on ServiceError { service message } ... on InputError { field message } } }"""
SEARCH_LITERAL = SEARCH.replace("query S($q: String!)", "").replace("$q", '"suspensión"')


# -- (a) store unreachable ---------------------------------------------------------------------


def test_store_outage_is_a_clear_error_and_health_recovers_without_restart(
    flaky: FlakyStore, tmp_path: Path
) -> None:
    with serve(services_for(tmp_path, flaky)) as client:
        assert client.get("/health").json()["status"] == "ok"
        flaky.down = True
        result = post(client, SEARCH, q=QUESTION)
        assert "errors" not in result
        failed = result["data"]["search"]
        assert failed["__typename"] == "ServiceError" and failed["service"] == "store"
        assert failed["message"].startswith(OUTAGE)
        health = client.get("/health")
        assert health.status_code == 503
        assert health.json()["status"] == "degraded"
        assert OUTAGE in health.json()["store"]["detail"]

        flaky.down = False  # the store is back; the same app, never restarted
        result = post(client, SEARCH, q=QUESTION)
        assert result["data"]["search"]["__typename"] == "SearchPayload"
        assert result["data"]["search"]["hits"]
        health = client.get("/health")
        assert (health.status_code, health.json()["status"]) == (200, "ok")


UNION_FIELDS = {
    "timeline": "{ timeline(input: {}) { __typename ... on ServiceError { service message } } }",
    "earliest": "{ earliest { __typename ... on ServiceError { service message } } }",
    "latest with a question": '{ latest(query: "amparo") { __typename '
    "... on ServiceError { service message } } }",
    "chat": '{ chat(input: {question: "amparo"}) { __typename '
    "... on ServiceError { service message } } }",
    "judge": '{ judge(input: {query: "amparo"}) { __typename '
    "... on ServiceError { service message } } }",
    "ingestTesis": 'mutation { ingestTesis(records: [{registro: 7001, rubro: "R.", texto: "T.", '
    "anio: 2015}]) { __typename ... on ServiceError { service message } } }",
    "deleteTesis": "mutation { deleteTesis(registros: [5001]) { __typename "
    "... on ServiceError { service message } } }",
    "importNotes": "mutation { importNotes(notes: {tesis: {}}) { __typename "
    "... on ServiceError { service message } } }",
}


@pytest.mark.parametrize("field", list(UNION_FIELDS))
def test_store_outage_is_a_typed_service_error_everywhere(
    flaky: FlakyStore, tmp_path: Path, field: str
) -> None:
    with serve(services_for(tmp_path, flaky)) as client:
        flaky.down = True
        result = post(client, UNION_FIELDS[field])
    assert "errors" not in result
    (payload,) = result["data"].values()
    assert payload["__typename"] == "ServiceError"
    assert payload["service"] == "store" and payload["message"].startswith(OUTAGE)


@pytest.mark.parametrize(
    "query", ["{ tesis(registro: 5001) { registro } }", "{ distribution(groupBy: YEAR) { key } }"]
)
def test_store_outage_on_plain_fields_says_so_instead_of_masking(
    flaky: FlakyStore, tmp_path: Path, query: str
) -> None:
    """Fields without an error union still name the store failure (not 'Unexpected error.')."""
    with serve(services_for(tmp_path, flaky)) as client:
        flaky.down = True
        failed = post(client, query)
        flaky.down = False
        recovered = post(client, query)
    (error,) = failed["errors"]
    assert OUTAGE in error["message"] and "Unexpected error" not in error["message"]
    if "distribution" in query:  # list fields carry a code a client can switch on
        assert error["extensions"]["code"] == "SERVICE_UNAVAILABLE"
    assert "errors" not in recovered and all(recovered["data"].values())


# -- (b) LLM errors, timeouts and garbage --------------------------------------------------------

CHAT = """query C($q: String!) { chat(input: {question: $q}) {
  __typename ... on ChatPayload { answer mode ragUsed llmError phantomRemoved
    references { number registro } citationCheck { cited valid phantom } } } }"""

LLM_FAULTS: dict[str, tuple[Reply, str]] = {
    "error": (LLMError("HTTP 502 from the chat endpoint"), "error del modelo"),
    "timeout": (LLMTimeout("timed out after 0.5 s"), "tiempo agotado"),
    "empty": ("", "respuesta vacía"),
    "blank": (" \n\t ", "respuesta vacía"),
    "punctuation": ("???", "respuesta inservible"),
    "phantom markers only": ("[7] [9]", "respuesta inservible"),
    "text citing only phantoms": ("La suspensión procede según [7] y [9].", "fantasma"),
}


def assert_extractive_fallback(chat: dict[str, Any], error: str) -> None:
    assert chat["__typename"] == "ChatPayload"
    assert (chat["mode"], chat["ragUsed"]) == ("EXTRACTIVE", False)
    assert chat["llmError"] and error in chat["llmError"]
    assert chat["answer"].startswith("Respuesta extractiva")
    numbers = [r["number"] for r in chat["references"]]
    assert numbers and set(chat["citationCheck"]["cited"]) <= set(numbers)
    assert chat["citationCheck"]["phantom"] == [] and chat["phantomRemoved"] == []


@pytest.mark.parametrize("fault", list(LLM_FAULTS))
def test_llm_faults_fall_back_to_a_flagged_extractive_answer(
    flaky: FlakyStore, tmp_path: Path, fault: str
) -> None:
    reply, error = LLM_FAULTS[fault]
    llm = ScriptedLLM([reply])
    with serve(services_for(tmp_path, flaky, llm=llm)) as client:
        result = post(client, CHAT, q=QUESTION)
    assert "errors" not in result
    assert_extractive_fallback(result["data"]["chat"], error)
    assert len(llm.calls) == 1


def test_a_usable_llm_reply_is_still_rag(flaky: FlakyStore, tmp_path: Path) -> None:
    """The control: the fallback above is caused by the fault, not by the setup."""
    llm = ScriptedLLM(["La suspensión procede si se acredita el supuesto [1], salvo [9]."])
    with serve(services_for(tmp_path, flaky, llm=llm)) as client:
        chat = post(client, CHAT, q=QUESTION)["data"]["chat"]
    assert (chat["mode"], chat["ragUsed"], chat["llmError"]) == ("RAG", True, None)
    assert chat["phantomRemoved"] == [9] and "[9]" not in chat["answer"]


STREAM = """subscription S($q: String!) { chatStream(input: {question: $q}) {
  __typename ... on ChatDelta { text }
  ... on ChatDone { mode ragUsed llmError citationCheck { phantom } } } }"""

STREAM_FAULTS = [f for f in LLM_FAULTS if f != "text citing only phantoms"]


@pytest.mark.parametrize("fault", STREAM_FAULTS)
def test_llm_faults_in_the_stream_fall_back_to_extractive(
    flaky: FlakyStore, tmp_path: Path, fault: str
) -> None:
    reply, error = LLM_FAULTS[fault]
    services = services_for(tmp_path, flaky, llm=ScriptedLLM([reply]))

    async def events() -> list[dict[str, Any]]:
        stream = await schema.subscribe(  # as over the WebSocket
            STREAM,
            variable_values={"q": QUESTION},
            context_value=Context.of(services, websocket=True),
        )
        found = []
        async for result in stream:  # type: ignore[union-attr]
            assert result.errors is None, result.errors
            found.append(result.data["chatStream"])
        return found

    received = asyncio.run(events())
    done = received[-1]
    assert done["__typename"] == "ChatDone"
    assert (done["mode"], done["ragUsed"]) == ("EXTRACTIVE", False)
    assert error in done["llmError"] and done["citationCheck"]["phantom"] == []
    text = "".join(e["text"] for e in received if e["__typename"] == "ChatDelta")
    assert text.startswith("Respuesta extractiva")


# -- (c) embedder failure ---------------------------------------------------------------------

EMBEDDING_FIELDS = {
    "search": SEARCH_LITERAL,
    "latest with a question": UNION_FIELDS["latest with a question"],
    "chat": UNION_FIELDS["chat"],
    "judge": UNION_FIELDS["judge"],
    "ingestTesis": UNION_FIELDS["ingestTesis"],
}


@pytest.mark.parametrize("field", list(EMBEDDING_FIELDS))
def test_embedder_failure_is_a_clear_error_and_leaves_the_store_untouched(
    flaky: FlakyStore, tmp_path: Path, field: str
) -> None:
    embedder = FailingEmbedder()
    before = flaky.inner.count()
    with serve(services_for(tmp_path, flaky, embedder=embedder)) as client:
        flaky.calls.clear()
        result = post(client, EMBEDDING_FIELDS[field])
    assert "errors" not in result
    (payload,) = result["data"].values()
    assert payload["__typename"] == "ServiceError"
    assert payload["service"] == "embedder"
    assert payload["message"] == "embedding endpoint answered HTTP 503 (test double)"
    assert embedder.calls >= 1
    assert not {"upsert", "delete", "upsert_validity"} & set(flaky.calls)
    if field != "ingestTesis":  # ingest reads fingerprints before it embeds
        assert flaky.calls == []
    assert flaky.inner.count() == before


# -- (d) an unexpected exception inside a resolver ----------------------------------------------

SECRET = "/srv/vigencia/secret.sqlite"
LEAKS = (SECRET, "Traceback", "RuntimeError", 'File "', "sqlite3", "line ")


@pytest.mark.parametrize(
    "query",
    [
        SEARCH_LITERAL,
        "{ timeline(input: {}) { __typename } }",
        "{ tesis(registro: 5001) { registro rubro } }",
        "{ distribution(groupBy: EPOCA) { key count } }",
        '{ chat(input: {question: "amparo"}) { __typename } }',
        'mutation { ingestTesis(records: [{registro: 7001, rubro: "R.", texto: "T.", anio: 2015}]) '
        "{ __typename } }",
    ],
)
def test_unexpected_exception_is_masked_with_status_200(tmp_path: Path, query: str) -> None:
    def crash(action: str) -> Exception:
        return RuntimeError(f"internal failure in {action} at {SECRET}")

    store = FlakyStore(small_store(), failure=crash)
    store.down = True
    with serve(services_for(tmp_path, store)) as client:
        response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200
    body = response.json()
    assert [e["message"] for e in body["errors"]] == [MASKED]
    assert "data" in body
    for leak in LEAKS:
        assert leak not in response.text


def test_the_app_stays_up_after_an_unexpected_exception(tmp_path: Path) -> None:
    store = FlakyStore(small_store(), failure=lambda action: RuntimeError(SECRET))
    with serve(services_for(tmp_path, store)) as client:
        store.down = True
        assert post(client, SEARCH, q="amparo")["errors"][0]["message"] == MASKED
        store.down = False
        assert post(client, SEARCH, q="amparo")["data"]["search"]["hits"]

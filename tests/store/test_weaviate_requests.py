"""What ``WeaviateStore`` sends to Weaviate and how it maps the replies, checked offline against
recording mocks of the REST and gRPC APIs (``conftest_weaviate``). Not a test of Weaviate."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import date
from typing import Any

import grpc
import pytest
from pytest_httpserver import HTTPServer
from weaviate.exceptions import WeaviateBaseError
from weaviate.proto.v1 import aggregate_pb2, base_pb2, batch_pb2
from weaviate.util import generate_uuid5

from api.core.models import Filters, Tesis, Validity
from api.core.text import analyze
from api.errors import StoreError
from api.store.base import ListQuery, VectorQuery
from api.store.weaviate_connection import WeaviateTarget
from api.store.weaviate_schema import _to_passage, _to_tesis, chunk_object, tesis_object
from api.store.weaviate_store import GENERATION_TICK_S, WeaviateStore
from tests.store.conftest_weaviate import (
    RecordingWeaviate,
    floats,
    leaves,
    posted_schemas,
    search_reply,
    serve_rest,
)
from tests.store.contract import DIM, entry, unit


def make_store(httpserver: HTTPServer, grpc_mock: RecordingWeaviate) -> WeaviateStore:
    url = httpserver.url_for("").rstrip("/")
    return WeaviateStore(WeaviateTarget(url, grpc_port=grpc_mock.port, prefix="Test"), dim=DIM)


@pytest.fixture
def store(httpserver: HTTPServer, grpc_mock: RecordingWeaviate) -> Iterator[WeaviateStore]:
    serve_rest(httpserver)
    store = make_store(httpserver, grpc_mock)
    yield store
    store.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- construction and schema


def test_constructing_does_not_connect(
    httpserver: HTTPServer, grpc_mock: RecordingWeaviate
) -> None:
    store = make_store(httpserver, grpc_mock)
    assert httpserver.log == [] and grpc_mock.calls == []
    store.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"url": "localhost:8080"}, "url"),
        ({"url": "http://x", "prefix": "bad-prefix"}, "prefix"),
        ({"url": "http://x", "max_results": 0}, "max_results"),
        ({"url": "http://x", "dim": 0}, "dim"),
    ],
)
def test_invalid_arguments_name_the_parameter(kwargs: dict[str, Any], message: str) -> None:
    dim = kwargs.pop("dim", DIM)
    with pytest.raises(ValueError, match=message):
        WeaviateStore(WeaviateTarget(**kwargs), dim=dim)


def test_first_call_creates_the_three_collections(store: WeaviateStore, httpserver) -> None:
    store.count()
    schemas = {schema["class"]: schema for schema in posted_schemas(httpserver)}
    assert list(schemas) == ["TestChunk", "TestTesis", "TestValidity"]
    for schema in schemas.values():
        assert schema["vectorConfig"]["default"]["vectorizer"] == {"none": {}}
    assert schemas["TestChunk"]["vectorConfig"]["default"]["vectorIndexConfig"] == {
        "distance": "cosine"
    }
    for name in ("TestTesis", "TestValidity"):
        assert schemas[name]["vectorConfig"]["default"]["vectorIndexConfig"] == {"skip": True}
    chunk = {p["name"]: p for p in schemas["TestChunk"]["properties"]}
    types = {name: p["dataType"][0] for name, p in chunk.items()}
    assert types == {
        "registro": "int",
        "chunkIndex": "int",
        "text": "text",
        "rubro": "text",
        "startChar": "int",
        "endChar": "int",
        "startLine": "int",
        "endLine": "int",
        "tokens": "int",
        "epoca": "text",
        "anio": "int",
        "fecha": "date",
        "tipo": "text",
        "materias": "text[]",
        "instancia": "text",
        "organo": "text",
        "clave": "text",
        "partial": "boolean",
        "rubroTerms": "text",
        "textTerms": "text",
    }
    assert {n for n, p in chunk.items() if p.get("tokenization") == "field"} == {
        "epoca",
        "tipo",
        "materias",
        "instancia",
        "organo",
    }
    # BM25 reads our analyzed terms, whole, with no English stopword preset on top
    assert {n for n, p in chunk.items() if p.get("tokenization") == "whitespace"} == {
        "rubroTerms",
        "textTerms",
    }
    assert schemas["TestChunk"]["invertedIndexConfig"]["stopwords"]["preset"] == "none"
    tesis = {p["name"]: p["dataType"][0] for p in schemas["TestTesis"]["properties"]}
    assert tesis["texto"] == "text" and tesis["partial"] == "boolean"
    assert tesis["fingerprint"] == "text" and tesis["sortDate"] == "date"
    validity = {p["name"]: p["dataType"][0] for p in schemas["TestValidity"]["properties"]}
    assert validity == {
        "registro": "int",
        "estado": "text",
        "parcial": "boolean",
        "porRegistro": "int",
        "porClave": "text",
        "desde": "date",
    }


def test_a_chunk_collection_from_an_earlier_version_is_refused_with_the_fix(
    httpserver, grpc_mock
) -> None:
    # created before BM25 read analyzed terms: searching it would silently find nothing
    serve_rest(httpserver, existing=True, existing_properties=("text", "rubro"))
    store = make_store(httpserver, grpc_mock)
    with pytest.raises(StoreError, match="TestChunk has no rubroTerms or textTerms") as error:
        store.count()
    assert "delete the collections (TestChunk, TestTesis, TestValidity)" in str(error.value)
    assert posted_schemas(httpserver) == [] and grpc_mock.calls == []
    store.close()


def test_existing_collections_are_not_recreated(httpserver, grpc_mock) -> None:
    serve_rest(httpserver, existing=True)
    store = make_store(httpserver, grpc_mock)
    store.count()
    store.count()
    assert posted_schemas(httpserver) == []
    assert sum(r.path == "/v1/meta" for r, _ in httpserver.log) == 1  # one lazy connection
    store.close()


# --- searches


def test_vector_search_sends_vector_limit_and_filters(store, grpc_mock) -> None:
    grpc_mock.replies["Search"] = search_reply(
        {
            "registro": 7,
            "chunkIndex": 1,
            "text": "t",
            "rubro": "R",
            "epoca": "Décima Época",
            "anio": 2015,
            "tipo": "Jurisprudencia",
            "materias": ["Penal", "Común"],
            "fecha": "2015-03-06T00:00:00Z",
            "_distance": 0.25,
        },
    )
    filters = Filters(materias=("Penal",), anio_min=2000, anio_max=2020, tipo="Jurisprudencia")
    hits = store.vector_search(VectorQuery(unit(1, 0, 0, 0), filters, 7))

    request = grpc_mock.requests("Search")[-1]
    assert request.collection == "TestChunk" and request.limit == 7
    assert floats(request.near_vector.vectors[0].vector_bytes) == [1.0, 0.0, 0.0, 0.0]
    assert request.metadata.distance
    assert leaves(request.filters) == {
        ("materias", "CONTAINS_ANY"): ["Penal"],
        ("anio", "GREATER_THAN_EQUAL"): 2000,
        ("anio", "LESS_THAN_EQUAL"): 2020,
        ("tipo", "EQUAL"): "Jurisprudencia",
    }
    [hit] = hits
    assert hit.similarity == pytest.approx(0.75) and hit.lexical == 0.0
    assert (hit.passage.registro, hit.passage.chunk.index, hit.passage.anio) == (7, 1, 2015)
    assert hit.passage.materias == ("Penal", "Común")
    assert hit.passage.fecha == date(2015, 3, 6)


def test_unlimited_vector_search_is_bounded_and_thresholded(store, grpc_mock) -> None:
    store.vector_search(
        VectorQuery(unit(0, 1, 0, 0), Filters(epocas=("A", "B"), registros=(1, 2)), None, 0.8)
    )
    request = grpc_mock.requests("Search")[-1]
    assert request.limit == store.max_results
    assert request.near_vector.distance == pytest.approx(0.2)
    assert leaves(request.filters) == {
        ("epoca", "CONTAINS_ANY"): ["A", "B"],
        ("registro", "CONTAINS_ANY"): [1, 2],
    }


def test_bm25_request_and_client_side_cosine(store, grpc_mock) -> None:
    grpc_mock.replies["Search"] = search_reply(
        {"registro": 3, "text": "laudo", "_score": 2.5, "_vector": unit(1, 1, 0, 0).tolist()}
    )
    [hit] = store.lexical_search("Suspensión del laudo de la Junta", unit(1, 0, 0, 0), Filters(), 5)
    request = grpc_mock.requests("Search")[-1]
    # the query's analyzed terms (folded, no stopwords, stems), once each, as the chunks'
    # terms were indexed; the rubro weighs twice, as in the embedded store
    assert request.bm25_search.query == " ".join(sorted(set(analyze("suspension laudo junta"))))
    assert list(request.bm25_search.properties) == ["rubroTerms^2", "textTerms"]
    assert request.limit == 5 and request.metadata.score and request.metadata.vector
    returned = set(request.properties.non_ref_properties)
    assert "text" in returned and not returned & {"rubroTerms", "textTerms"}
    assert not request.HasField("filters")
    assert hit.lexical == 2.5
    assert hit.similarity == pytest.approx(float(unit(1, 1, 0, 0) @ unit(1, 0, 0, 0)))


def test_a_query_with_no_searchable_term_sends_nothing(store, grpc_mock) -> None:
    assert store.lexical_search("de la ¿?", unit(1, 0, 0, 0), Filters(), 5) == []
    assert grpc_mock.requests("Search") == []


def test_chunks_are_written_with_the_terms_bm25_reads() -> None:
    written = entry(7, 1977, [unit(1, 0, 0, 0)], rubro="SUSPENSIÓN. PROCEDE", texts=["La ley"])
    props = chunk_object(written.tesis, written.chunks[0], written.vectors[0]).properties
    assert props["rubroTerms"] == " ".join(analyze("SUSPENSIÓN. PROCEDE")) == "suspen proced"
    assert props["textTerms"] == " ".join(analyze(written.chunks[0].text))
    assert props["text"] == written.chunks[0].text  # the text itself, as written


def test_list_tesis_sorts_by_date_then_registro(store, grpc_mock) -> None:
    store.list_tesis(
        ListQuery(Filters(instancia="Pleno", organo="Segunda Sala"), "DESC", 10, offset=20)
    )
    request = grpc_mock.requests("Search")[-1]
    assert request.collection == "TestTesis" and (request.limit, request.offset) == (10, 20)
    assert [(list(s.path), s.ascending) for s in request.sort_by] == [
        (["sortDate"], False),
        (["registro"], False),
    ]
    assert leaves(request.filters) == {
        ("instancia", "EQUAL"): "Pleno",
        ("organo", "EQUAL"): "Segunda Sala",
    }


def test_a_circuit_is_matched_in_the_organo_s_words(store, grpc_mock) -> None:
    store.list_tesis(ListQuery(Filters(circuito=17), "DESC", 10))
    request = grpc_mock.requests("Search")[-1]
    assert request.filters.operator == base_pb2.Filters.OPERATOR_OR
    patterns = {leaf.value_text for leaf in request.filters.filters}
    assert {leaf.target.property for leaf in request.filters.filters} == {"organo"}
    assert {leaf.operator for leaf in request.filters.filters} == {base_pb2.Filters.OPERATOR_LIKE}
    assert {"*DEL DÉCIMO SÉPTIMO CIRCUITO*", "*del Decimo Septimo Circuito*"} <= patterns
    assert "*DEL DÉCIMO SEPTIMO CIRCUITO*" in patterns  # accents as the SJF mixes them
    assert len(patterns) == 8


def test_count_by_groups_on_the_tesis_collection(store, grpc_mock) -> None:
    group = aggregate_pb2.AggregateReply.Group
    grouped = aggregate_pb2.AggregateReply.Grouped(
        groups=[
            group(objects_count=2, grouped_by=group.GroupedBy(path=["materias"], text="Común")),
            group(objects_count=1, grouped_by=group.GroupedBy(path=["materias"], text="Penal")),
        ]
    )
    grpc_mock.replies["Aggregate"] = lambda r, c: aggregate_pb2.AggregateReply(
        grouped_results=grouped
    )
    assert store.count_by("materias", Filters(anio_min=2000)) == {"Común": 2, "Penal": 1}
    request = grpc_mock.requests("Aggregate")[-1]
    assert request.collection == "TestTesis" and request.group_by.property == "materias"
    assert leaves(request.filters) == {("anio", "GREATER_THAN_EQUAL"): 2000}


def test_count_aggregates_both_collections(store, grpc_mock) -> None:
    totals = {"TestTesis": 4, "TestChunk": 9}
    grpc_mock.replies["Aggregate"] = lambda r, c: aggregate_pb2.AggregateReply(
        single_result=aggregate_pb2.AggregateReply.Single(objects_count=totals[r.collection])
    )
    assert store.count() == (4, 9)


def test_fingerprints_fetch_tesis_by_registro(store, grpc_mock) -> None:
    grpc_mock.replies["Search"] = search_reply({"registro": 2, "fingerprint": "abc"})
    assert store.fingerprints([2, 1, 2]) == {2: "abc"}
    request = grpc_mock.requests("Search")[-1]
    assert request.collection == "TestTesis" and request.limit == 2
    assert leaves(request.filters) == {("registro", "CONTAINS_ANY"): [1, 2]}


def test_find_claves_asks_for_the_clave_s_words_and_compares_keys(store, grpc_mock) -> None:
    grpc_mock.replies["Search"] = search_reply(
        {"registro": 2, "clave": "2a./J. 164/2022 (11a.)"},  # shares the words 2a, j, 2022
        {"registro": 1, "clave": "2a./J. 64/2022 (11a.)"},
    )
    assert store.find_claves(["2a/j 64/2022 (11a.)"]) == {"2a/j 64/2022 (11a.)": 1}
    request = grpc_mock.requests("Search")[-1]
    assert request.collection == "TestTesis"
    assert leaves(request.filters) == {("clave", "EQUAL"): "2a/j 64/2022"}  # without its época


# --- writes


def test_wrong_dimensions_raise_before_any_request(store, grpc_mock) -> None:
    bad = entry(1, 2000, [unit(1, 0, 0, 0)], texts=["uno", "dos"])
    with pytest.raises(StoreError, match="vectors shape"):
        store.upsert([bad])
    with pytest.raises(StoreError, match="dimensions"):
        store.vector_search(VectorQuery(unit(1, 0, 0), Filters(), 3))
    assert grpc_mock.calls == []


def test_upsert_replaces_chunks_and_collects_per_object_errors(store, grpc_mock) -> None:
    def batch(request: Any, context: Any) -> batch_pb2.BatchObjectsReply:
        # the third object (registro 200's only chunk) is rejected
        errors = [batch_pb2.BatchObjectsReply.BatchError(index=2, error="bad vector")]
        is_chunks = request.objects[0].collection == "TestChunk"
        return batch_pb2.BatchObjectsReply(errors=errors if is_chunks else [])

    grpc_mock.replies["BatchObjects"] = batch
    corpus = [
        entry(100, 1975, [unit(1, 0, 0, 0), unit(1, 1, 0, 0)]),
        entry(200, 1980, [unit(0, 1, 0, 0)], fingerprint="v7"),
    ]
    result = store.upsert(corpus)

    assert (result.written, result.chunks) == (1, 2)
    [error] = result.errors
    assert "registro 200" in error and "bad vector" in error
    calls = [
        (name, r.objects[0].collection if name == "BatchObjects" else r.collection)
        for name, r in grpc_mock.calls
    ]
    assert calls == [
        ("BatchDelete", "TestChunk"),  # old chunks first: a tesis may now have fewer
        ("BatchObjects", "TestChunk"),
        ("BatchObjects", "TestTesis"),
        ("BatchDelete", "TestChunk"),  # then the failed tesis is removed entirely
        ("BatchDelete", "TestTesis"),
    ]
    first_delete, chunks, tesis, *cleanup = (r for _, r in grpc_mock.calls)
    assert leaves(first_delete.filters) == {("registro", "CONTAINS_ANY"): [100, 200]}
    assert [o.uuid for o in chunks.objects] == [
        generate_uuid5("100:0"),
        generate_uuid5("100:1"),
        generate_uuid5("200:0"),
    ]
    assert floats(chunks.objects[1].vector_bytes) == pytest.approx(unit(1, 1, 0, 0).tolist())
    props = chunks.objects[1].properties
    assert props.non_ref_properties["registro"] == 100
    assert props.non_ref_properties["chunkIndex"] == 1
    assert [list(a.values) for a in props.text_array_properties] == [["Común"]]
    assert [o.uuid for o in tesis.objects] == [generate_uuid5("100")]
    assert tesis.objects[0].properties.non_ref_properties["fingerprint"] == "v1"
    assert all(leaves(r.filters) == {("registro", "CONTAINS_ANY"): [200]} for r in cleanup)


def test_generation_counts_this_process_s_writes_and_the_clock(store, monkeypatch) -> None:
    # Weaviate keeps no write counter: another process's writes are seen within a tick
    now = [1000.0]
    monkeypatch.setattr("api.store.weaviate_store.monotonic", lambda: now[0])
    seen = [store.generation()]
    assert store.generation() == seen[0]  # no server call, no change
    store.upsert([entry(1, 2000, [unit(1, 0, 0, 0)])])
    seen.append(store.generation())
    store.delete([1])
    seen.append(store.generation())
    now[0] += GENERATION_TICK_S
    seen.append(store.generation())
    assert seen == sorted(set(seen))


def test_a_batch_where_everything_fails_is_reported_not_raised(store, grpc_mock) -> None:
    grpc_mock.replies["BatchObjects"] = lambda r, c: batch_pb2.BatchObjectsReply(
        errors=[
            batch_pb2.BatchObjectsReply.BatchError(index=i, error="disk full")
            for i in range(len(r.objects))
        ]
    )
    result = store.upsert([entry(1, 2000, [unit(1, 0, 0, 0)])])
    assert (result.written, result.chunks) == (0, 0)
    assert len(result.errors) == 1 and "disk full" in result.errors[0]


def test_validity_notes_use_the_registro_uuid(store, grpc_mock) -> None:
    note = Validity("superada", False, 2006225, "P./J. 21/2014 (10a.)", date(2014, 4, 28))
    assert store.upsert_validity({160584: note}) == 1
    [obj] = grpc_mock.requests("BatchObjects")[-1].objects
    assert obj.collection == "TestValidity" and obj.uuid == generate_uuid5("160584")
    fields = obj.properties.non_ref_properties
    assert fields["estado"] == "superada" and fields["porRegistro"] == 2006225
    assert fields["desde"].startswith("2014-04-28T00:00:00")

    grpc_mock.replies["Search"] = search_reply(
        {
            "registro": 160584,
            "estado": "superada",
            "parcial": False,
            "porRegistro": 2006225,
            "porClave": "P./J. 21/2014 (10a.)",
            "desde": "2014-04-28T00:00:00Z",
        }
    )
    assert store.get_validity([160584, 1]) == {160584: note}


# --- errors and health


def test_grpc_failure_becomes_store_error(store, grpc_mock) -> None:
    def fail(request: Any, context: grpc.ServicerContext) -> Any:
        context.abort(grpc.StatusCode.INTERNAL, "shard is read-only")

    grpc_mock.replies["Search"] = fail
    with pytest.raises(StoreError, match=r"vector search failed.*read-only") as info:
        store.vector_search(VectorQuery(unit(1, 0, 0, 0), Filters(), 3))
    assert isinstance(info.value.__cause__, WeaviateBaseError)


def test_schema_rejection_becomes_store_error(httpserver, grpc_mock) -> None:
    serve_rest(httpserver, schema_status=422)
    store = make_store(httpserver, grpc_mock)
    with pytest.raises(StoreError, match=r"connection to .* failed"):
        store.count()
    assert grpc_mock.calls == []


def test_unreachable_server_becomes_store_error_and_degraded_health() -> None:
    store = WeaviateStore(WeaviateTarget(f"http://127.0.0.1:{free_port()}", free_port()), DIM)
    with pytest.raises(StoreError) as info:
        store.get_tesis([1])
    assert isinstance(info.value.__cause__, WeaviateBaseError)
    health = store.health()
    assert health["status"] == "degraded" and health["store"] == "weaviate"


def test_drop_collections_deletes_all_three(store, httpserver, monkeypatch) -> None:
    monkeypatch.setattr("api.store.weaviate_store.monotonic", lambda: 1000.0)  # no tick
    before = store.generation()
    store.drop_collections()
    assert store.generation() == before + 1  # a write: cached court names are read again
    deleted = [r.path for r, _ in httpserver.log if r.method == "DELETE"]
    assert deleted == ["/v1/schema/TestChunk", "/v1/schema/TestTesis", "/v1/schema/TestValidity"]


def test_health_ok_when_ready(store) -> None:
    assert store.health() == {"status": "ok", "store": "weaviate", "detail": f"{store.url} ready"}


# --- edge mapping


def test_mapping_roundtrips_and_tolerates_missing_properties() -> None:
    corpus_entry = entry(300, 2015, [unit(0, 0, 1, 0)], fecha=date(2015, 3, 6))
    tesis, chunk = corpus_entry.tesis, corpus_entry.chunks[0]
    stored = chunk_object(tesis, chunk, corpus_entry.vectors[0]).properties
    assert _to_passage(stored).chunk == chunk
    assert _to_tesis(tesis_object(tesis, "v1").properties) == tesis
    assert _to_tesis({"registro": 5, "materias": None}) == Tesis(
        registro=5,
        rubro="",
        texto="",
        epoca="",
        anio=0,
        tipo="",  # type: ignore[arg-type]
    )

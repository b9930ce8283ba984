"""What ``WeaviateSearchLog`` sends to Weaviate and how it maps the replies, offline against
the recording REST/gRPC mocks of the store tests (``tests.store.conftest_weaviate``)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import grpc
import pytest
from pytest_httpserver import HTTPServer
from weaviate.exceptions import WeaviateBaseError
from weaviate.proto.v1 import batch_delete_pb2, batch_pb2

from api.core.monitoring import Feedback, entry_to_dict
from api.errors import LogError, UnknownEntry
from api.monitoring.weaviate_log import WeaviateSearchLog, entry_uuid, feedback_uuid
from api.store.weaviate_connection import WeaviateTarget
from tests.monitoring.builders import NOW, log_entry, logged_hit
from tests.store.conftest_weaviate import (
    RecordingWeaviate,
    leaves,
    posted_schemas,
    search_reply,
    serve_rest,
)


def make_log(httpserver: HTTPServer, grpc_mock: RecordingWeaviate) -> WeaviateSearchLog:
    url = httpserver.url_for("").rstrip("/")
    return WeaviateSearchLog(WeaviateTarget(url, grpc_port=grpc_mock.port, prefix="Test"))


@pytest.fixture
def log(httpserver: HTTPServer, grpc_mock: RecordingWeaviate) -> Iterator[WeaviateSearchLog]:
    serve_rest(httpserver)
    log = make_log(httpserver, grpc_mock)
    yield log
    log.close()


def stored(entry: Any) -> dict[str, Any]:
    """An entry as a search reply returns it."""
    return {"entryId": entry.id, "payload": json.dumps(entry_to_dict(entry))}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_constructing_does_not_connect(httpserver, grpc_mock) -> None:
    log = make_log(httpserver, grpc_mock)
    assert httpserver.log == [] and grpc_mock.calls == []
    log.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"url": "localhost:8080"}, "url"), ({"url": "http://x", "prefix": "bad-prefix"}, "prefix")],
)
def test_invalid_arguments_name_the_parameter(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WeaviateSearchLog(WeaviateTarget(**kwargs))


def test_first_call_creates_two_collections_without_vectors(log, httpserver) -> None:
    log.recent(5)
    schemas = {s["class"]: s for s in posted_schemas(httpserver)}
    assert list(schemas) == ["TestSearchLog", "TestFeedback"]
    for schema in schemas.values():
        assert schema["vectorConfig"]["default"]["vectorizer"] == {"none": {}}
        assert schema["vectorConfig"]["default"]["vectorIndexConfig"] == {"skip": True}
    entry = {p["name"]: p for p in schemas["TestSearchLog"]["properties"]}
    assert entry["timestamp"]["dataType"] == ["date"]
    assert entry["payload"]["indexFilterable"] is False
    assert entry["payload"]["indexSearchable"] is False
    feedback = {p["name"]: p["dataType"][0] for p in schemas["TestFeedback"]["properties"]}
    assert feedback == {
        "logId": "text",
        "registro": "int",
        "useful": "boolean",
        "comment": "text",
        "timestamp": "date",
        "entryTimestamp": "date",
    }


def test_append_writes_one_object_under_the_entry_uuid(log, grpc_mock) -> None:
    entry = log_entry([logged_hit(1, 2021)], log_id="abc", materia="Laboral")
    assert log.append(entry) == "abc"
    [obj] = grpc_mock.requests("BatchObjects")[-1].objects
    assert obj.collection == "TestSearchLog" and obj.uuid == entry_uuid("abc")
    fields = obj.properties.non_ref_properties
    assert fields["entryId"] == "abc" and fields["materia"] == "Laboral"
    assert fields["timestamp"].startswith("2025-06-01T12:00:00")
    assert json.loads(fields["payload"])["hits"][0]["registro"] == 1
    assert not obj.vector_bytes


def test_a_rejected_object_raises_log_error(log, grpc_mock) -> None:
    grpc_mock.replies["BatchObjects"] = lambda r, c: batch_pb2.BatchObjectsReply(
        errors=[batch_pb2.BatchObjectsReply.BatchError(index=0, error="read-only shard")]
    )
    with pytest.raises(LogError, match="read-only shard"):
        log.append(log_entry([logged_hit(1, 2021)]))


def test_recent_sorts_by_time_filters_and_maps_payload_and_feedback(log, grpc_mock) -> None:
    entry = log_entry([logged_hit(1, 2021)], log_id="abc")

    def search(request: Any, context: Any) -> Any:
        if request.collection == "TestSearchLog":
            return search_reply(stored(entry))(request, context)
        return search_reply(
            {
                "logId": "abc",
                "registro": 1,
                "useful": True,
                "comment": "bien",
                "timestamp": "2025-06-01T12:05:00Z",
            }
        )(request, context)

    grpc_mock.replies["Search"] = search
    [found] = log.recent(5, 10, NOW - timedelta(hours=24))
    assert found.id == "abc" and found.hits == entry.hits
    assert [(f.registro, f.useful, f.comment) for f in found.feedback] == [(1, True, "bien")]

    entries_request, feedback_request = grpc_mock.requests("Search")
    assert (entries_request.limit, entries_request.offset) == (5, 10)
    assert [(list(s.path), s.ascending) for s in entries_request.sort_by] == [
        (["timestamp"], False)
    ]
    assert list(leaves(entries_request.filters)) == [("timestamp", "GREATER_THAN_EQUAL")]
    assert feedback_request.collection == "TestFeedback"
    assert leaves(feedback_request.filters) == {("logId", "CONTAINS_ANY"): ["abc"]}


def test_feedback_needs_the_entry_and_copies_its_timestamp(log, grpc_mock) -> None:
    with pytest.raises(UnknownEntry):
        log.add_feedback(Feedback("missing", 1, True, None, NOW))
    lookup = grpc_mock.requests("Search")[-1]
    assert lookup.collection == "TestSearchLog" and lookup.limit == 1
    entry = log_entry([logged_hit(7, 2021)], log_id="abc")
    entries, nothing = search_reply(stored(entry)), search_reply()
    grpc_mock.replies["Search"] = lambda r, c: (
        entries(r, c) if r.collection == "TestSearchLog" else nothing(r, c)
    )
    log.add_feedback(Feedback("abc", 7, False, "no aplica", NOW + timedelta(minutes=3)))
    [obj] = grpc_mock.requests("BatchObjects")[-1].objects
    assert obj.collection == "TestFeedback" and obj.uuid == feedback_uuid("abc", 7)
    fields = obj.properties.non_ref_properties
    assert (fields["logId"], fields["registro"], fields["useful"]) == ("abc", 7, False)
    assert fields["entryTimestamp"].startswith("2025-06-01T12:00:00")
    assert fields["timestamp"].startswith("2025-06-01T12:03:00")


def test_prune_is_one_filtered_delete_per_collection(log, grpc_mock) -> None:
    grpc_mock.replies["BatchDelete"] = lambda r, c: batch_delete_pb2.BatchDeleteReply(
        successful=4, matches=4
    )
    assert log.prune(NOW) == 4
    feedback, entries = grpc_mock.requests("BatchDelete")
    assert feedback.collection == "TestFeedback"
    assert list(leaves(feedback.filters)) == [("entryTimestamp", "LESS_THAN")]
    assert entries.collection == "TestSearchLog"
    assert list(leaves(entries.filters)) == [("timestamp", "LESS_THAN")]


def test_grpc_failure_becomes_log_error(log, grpc_mock) -> None:
    def fail(request: Any, context: grpc.ServicerContext) -> Any:
        context.abort(grpc.StatusCode.INTERNAL, "shard down")

    grpc_mock.replies["Search"] = fail
    with pytest.raises(LogError, match="shard down") as info:
        log.recent(5)
    assert isinstance(info.value.__cause__, WeaviateBaseError)


def test_unreachable_server_is_a_log_error_and_degraded_health() -> None:
    log = WeaviateSearchLog(WeaviateTarget(f"http://127.0.0.1:{free_port()}", free_port()))
    with pytest.raises(LogError):
        log.append(log_entry([logged_hit(1, 2021)]))
    health = log.health()
    assert health["status"] == "degraded" and health["log"] == "weaviate"


def test_health_ok_when_ready(log) -> None:
    assert log.health()["status"] == "ok"


def test_drop_collections_deletes_both(log, httpserver) -> None:
    log.drop_collections()
    deleted = [r.path for r, _ in httpserver.log if r.method == "DELETE"]
    assert deleted == ["/v1/schema/TestSearchLog", "/v1/schema/TestFeedback"]

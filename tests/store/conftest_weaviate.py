"""In-process stand-ins for Weaviate's REST and gRPC APIs, like weaviate-python-client's own
``mock_tests``: they record what the client sends and answer with canned replies.

They exercise our request building and reply mapping only; they are not Weaviate.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import numpy as np
from google.protobuf.message import Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from pytest_httpserver import HTTPServer
from weaviate.proto.v1 import (
    aggregate_pb2,
    base_pb2,
    batch_delete_pb2,
    batch_pb2,
    properties_pb2,
    search_get_pb2,
    weaviate_pb2_grpc,
)
from werkzeug import Request, Response

MOCK_VERSION = "1.34.1"
Handler = Callable[[Any, grpc.ServicerContext], Message]


class RecordingWeaviate(weaviate_pb2_grpc.WeaviateServicer):
    """Records every request; ``replies[method]`` (a callable) overrides the empty default.

    Method names are those of Weaviate's gRPC service.
    """

    def __init__(self) -> None:
        self.port = 0
        self.calls: list[tuple[str, Message]] = []
        self.replies: dict[str, Handler] = {}

    def reset(self) -> None:
        self.calls.clear()
        self.replies.clear()

    def requests(self, method: str) -> list[Any]:
        return [request for name, request in self.calls if name == method]

    def _answer(self, method: str, request: Message, context: Any, default: Message) -> Any:
        self.calls.append((method, request))
        handler = self.replies.get(method)
        return handler(request, context) if handler else default

    def Search(self, request: Any, context: Any) -> Any:
        return self._answer("Search", request, context, search_get_pb2.SearchReply())

    def BatchObjects(self, request: Any, context: Any) -> Any:
        return self._answer("BatchObjects", request, context, batch_pb2.BatchObjectsReply())

    def BatchDelete(self, request: Any, context: Any) -> Any:
        reply = batch_delete_pb2.BatchDeleteReply()
        return self._answer("BatchDelete", request, context, reply)

    def Aggregate(self, request: Any, context: Any) -> Any:
        reply = aggregate_pb2.AggregateReply(
            single_result=aggregate_pb2.AggregateReply.Single(objects_count=0)
        )
        return self._answer("Aggregate", request, context, reply)


def start_grpc() -> Iterator[RecordingWeaviate]:
    """A gRPC server on a free port: the recording servicer plus a SERVING health check."""
    server = grpc.server(ThreadPoolExecutor(max_workers=4))
    servicer = RecordingWeaviate()
    weaviate_pb2_grpc.add_WeaviateServicer_to_server(servicer, server)
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    servicer.port = server.add_insecure_port("localhost:0")
    server.start()
    try:
        yield servicer
    finally:
        server.stop(None)


# The analyzed-terms properties every Chunk collection of this version has
# (``api.store.weaviate_schema``); an older collection lacks them.
CURRENT_CHUNK_PROPERTIES = ("text", "rubroTerms", "textTerms", "organo")


def serve_rest(
    httpserver: HTTPServer,
    *,
    existing: bool = False,
    schema_status: int = 200,
    existing_properties: tuple[str, ...] = CURRENT_CHUNK_PROPERTIES,
) -> None:
    """/v1/meta, readiness, and the schema endpoints: collections are missing unless
    ``existing`` (then with ``existing_properties``), and those created here are read back."""
    created: dict[str, list[dict[str, Any]]] = {}

    def create(request: Request) -> Response:
        if schema_status == 200:
            posted = json.loads(request.data)
            created[posted["class"]] = posted.get("properties", [])
        return Response(request.data, status=schema_status, content_type="application/json")

    def read(request: Request) -> Response:
        name = request.path.rsplit("/", 1)[-1]
        if name in created:
            properties = created[name]
        elif existing:
            properties = [{"name": n, "dataType": ["text"]} for n in existing_properties]
        else:
            return Response("", status=404)
        # the keys weaviate-client's config parser needs, nothing more
        filled = [{"indexFilterable": True, "indexSearchable": True, **p} for p in properties]
        schema = {"class": name, "vectorizer": "none", "properties": filled}
        return Response(json.dumps(schema), status=200, content_type="application/json")

    httpserver.expect_request("/v1/meta").respond_with_json({"version": MOCK_VERSION})
    httpserver.expect_request("/v1/.well-known/ready").respond_with_data("")
    httpserver.expect_request(re.compile(r"^/v1/schema/\w+$"), method="GET").respond_with_handler(
        read
    )
    httpserver.expect_request("/v1/schema", method="POST").respond_with_handler(create)
    httpserver.expect_request(re.compile(r"^/v1/schema/\w+$"), method="DELETE").respond_with_data(
        ""
    )


def posted_schemas(httpserver: HTTPServer) -> list[dict[str, Any]]:
    return [
        json.loads(request.data)
        for request, _ in httpserver.log
        if request.method == "POST" and request.path == "/v1/schema"
    ]


# --- canned replies and request decoding


def value(item: object) -> properties_pb2.Value:
    """One property as Weaviate's gRPC search reply encodes it."""
    if isinstance(item, bool):
        return properties_pb2.Value(bool_value=item)
    if isinstance(item, int):
        return properties_pb2.Value(int_value=item)
    if isinstance(item, list):
        texts = properties_pb2.TextValues(values=item)
        return properties_pb2.Value(list_value=properties_pb2.ListValue(text_values=texts))
    if isinstance(item, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT.*Z", item):
        return properties_pb2.Value(date_value=item)
    return properties_pb2.Value(text_value=str(item))


def search_reply(*objects: dict[str, Any]) -> Handler:
    """Results with properties; keys ``_distance``, ``_score``, ``_vector`` become metadata."""
    results = []
    for obj in objects:
        props = {k: value(v) for k, v in obj.items() if not k.startswith("_")}
        metadata = search_get_pb2.MetadataResult(id_as_bytes=bytes(16))
        if "_distance" in obj:
            metadata.distance, metadata.distance_present = obj["_distance"], True
        if "_score" in obj:
            metadata.score, metadata.score_present = obj["_score"], True
        if "_vector" in obj:
            metadata.vector_bytes = np.asarray(obj["_vector"], dtype=np.float32).tobytes()
        properties = search_get_pb2.PropertiesResult(
            non_ref_props=properties_pb2.Properties(fields=props)
        )
        results.append(search_get_pb2.SearchResult(properties=properties, metadata=metadata))
    return lambda request, context: search_get_pb2.SearchReply(results=results)


def floats(data: bytes) -> list[float]:
    return np.frombuffer(data, dtype=np.float32).tolist()


def leaves(filters: base_pb2.Filters) -> dict[tuple[str, str], object]:
    """A filter tree flattened to {(property, operator): value}."""
    if filters.operator == base_pb2.Filters.OPERATOR_AND:
        return {k: v for f in filters.filters for k, v in leaves(f).items()}
    operator = base_pb2.Filters.Operator.Name(filters.operator).removeprefix("OPERATOR_")
    kind = filters.WhichOneof("test_value")
    raw = getattr(filters, kind) if kind else None
    return {
        (filters.target.property, operator): list(raw.values) if kind.endswith("array") else raw
    }

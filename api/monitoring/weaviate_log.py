"""The search log on Weaviate: two collections without vectors, a lazy client, wrapped errors.

``{prefix}SearchLog`` holds one object per entry: the columns queries filter and sort on
(timestamp, kind, materia, profile, question) and the whole entry as JSON in ``payload``
(not indexed). ``{prefix}Feedback`` holds one object per (entry, registro), with the entry's
timestamp copied in so that pruning is one filtered delete per collection. Object UUIDs are
derived from the entry id (and registro), so a repeated write replaces, never duplicates.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import weaviate
from weaviate.classes.config import Configure, DataType, Property, Tokenization
from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, Sort
from weaviate.util import generate_uuid5

from api.core.monitoring import Feedback, LogEntry, entry_to_dict
from api.errors import LogError, UnknownEntry
from api.monitoring.log_base import LogBackend, check_page, oldest_first
from api.store.weaviate_connection import (
    CollectionSpec,
    WeaviateResource,
    create_missing,
    vendor_errors,
)

logger = logging.getLogger(__name__)

SEARCH_LOG, FEEDBACK = "SearchLog", "Feedback"
_FIELD = Tokenization.FIELD

LOG_PROPERTIES = (
    Property(name="entryId", data_type=DataType.TEXT, tokenization=_FIELD),
    Property(name="timestamp", data_type=DataType.DATE),
    Property(name="kind", data_type=DataType.TEXT, tokenization=_FIELD),
    Property(name="question", data_type=DataType.TEXT),
    Property(name="materia", data_type=DataType.TEXT, tokenization=_FIELD),
    Property(name="profile", data_type=DataType.TEXT, tokenization=_FIELD),
    Property(
        name="payload", data_type=DataType.TEXT, index_searchable=False, index_filterable=False
    ),
)
FEEDBACK_PROPERTIES = (
    Property(name="logId", data_type=DataType.TEXT, tokenization=_FIELD),
    Property(name="registro", data_type=DataType.INT),
    Property(name="useful", data_type=DataType.BOOL),
    Property(name="comment", data_type=DataType.TEXT, index_searchable=False),
    Property(name="timestamp", data_type=DataType.DATE),
    Property(name="entryTimestamp", data_type=DataType.DATE),
)


def _vendor_errors(action: str) -> AbstractContextManager[None]:
    """Re-raise client, gRPC and HTTP failures as ``LogError``."""
    return vendor_errors(LogError, f"Weaviate search log {action}")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _moment(value: object) -> datetime:
    if isinstance(value, datetime):
        return _aware(value)
    return _aware(datetime.fromisoformat(str(value).replace("Z", "+00:00")))


def entry_uuid(log_id: str) -> str:
    return generate_uuid5(f"log:{log_id}")


def feedback_uuid(log_id: str, registro: int) -> str:
    return generate_uuid5(f"feedback:{log_id}:{registro}")


def log_object(entry: LogEntry) -> DataObject[Any, None]:
    properties = {
        "entryId": entry.id,
        "timestamp": _aware(entry.timestamp),
        "kind": entry.kind,
        "question": entry.question,
        "materia": entry.materia,
        "profile": entry.profile,
        "payload": json.dumps(entry_to_dict(entry), ensure_ascii=False),
    }
    clean = {k: v for k, v in properties.items() if v is not None}
    return DataObject(properties=clean, uuid=entry_uuid(entry.id))


def _to_feedback(props: dict[str, Any]) -> Feedback:
    comment = props.get("comment")
    return Feedback(
        log_id=str(props.get("logId") or ""),
        registro=int(props.get("registro") or 0),
        useful=bool(props.get("useful")),
        comment=None if comment is None else str(comment),
        timestamp=_moment(props.get("timestamp")),
    )


class WeaviateSearchLog(WeaviateResource, LogBackend):
    """``SearchLog`` on a Weaviate server; nothing connects until the first call.

    Usage::

        log = WeaviateSearchLog(WeaviateTarget("http://localhost:8080", grpc_port=50051))
        log.append(entry)
        log.recent(20)
    """

    # --- connection

    health_key = "log"

    def _errors(self, action: str) -> AbstractContextManager[None]:
        return _vendor_errors(action)

    def collection_names(self) -> list[str]:
        return [f"{self.prefix}{SEARCH_LOG}", f"{self.prefix}{FEEDBACK}"]

    def _ensure_collections(self, client: weaviate.WeaviateClient) -> None:
        no_vectors = Configure.Vectors.self_provided(
            vector_index_config=Configure.VectorIndex.none()
        )
        create_missing(
            client,
            [
                CollectionSpec(f"{self.prefix}{SEARCH_LOG}", LOG_PROPERTIES, no_vectors),
                CollectionSpec(f"{self.prefix}{FEEDBACK}", FEEDBACK_PROPERTIES, no_vectors),
            ],
        )

    def _insert(self, suffix: str, obj: DataObject[Any, None], action: str) -> None:
        collection = self._collection(suffix)
        with _vendor_errors(action):
            result = collection.data.insert_many([obj])
        if result.errors:
            raise LogError(f"Weaviate rejected the {action}: {result.errors[0].message}")

    # --- writes

    def append(self, entry: LogEntry) -> str:
        self._insert(SEARCH_LOG, log_object(entry), "log entry")
        return entry.id

    def add_feedback(self, feedback: Feedback) -> Feedback:
        entry = self.get(feedback.log_id)
        if entry is None:
            raise UnknownEntry(feedback.log_id)
        stored = replace(feedback, timestamp=_aware(feedback.timestamp))
        properties = {
            "logId": stored.log_id,
            "registro": stored.registro,
            "useful": stored.useful,
            "comment": stored.comment,
            "timestamp": stored.timestamp,
            "entryTimestamp": _aware(entry.timestamp),
        }
        obj = DataObject(
            properties={k: v for k, v in properties.items() if v is not None},
            uuid=feedback_uuid(stored.log_id, stored.registro),
        )
        self._insert(FEEDBACK, obj, "feedback")
        return stored

    def prune(self, older_than: datetime) -> int:
        cutoff = _aware(older_than)
        feedback, log = self._collection(FEEDBACK), self._collection(SEARCH_LOG)
        with _vendor_errors("prune"):
            feedback.data.delete_many(where=Filter.by_property("entryTimestamp").less_than(cutoff))
            result = log.data.delete_many(where=Filter.by_property("timestamp").less_than(cutoff))
        return int(result.successful)

    # --- reads

    def recent(
        self, limit: int = 20, offset: int = 0, since: datetime | None = None
    ) -> list[LogEntry]:
        check_page(limit, offset)
        where = (
            None
            if since is None
            else Filter.by_property("timestamp").greater_or_equal(_aware(since))
        )
        collection = self._collection(SEARCH_LOG)
        with _vendor_errors("read"):
            result = collection.query.fetch_objects(
                filters=where,
                limit=limit,
                offset=offset,
                sort=Sort.by_property("timestamp", ascending=False),
                return_properties=["entryId", "payload"],
            )
        return self._entries([obj.properties for obj in result.objects])

    def get(self, log_id: str) -> LogEntry | None:
        collection = self._collection(SEARCH_LOG)
        with _vendor_errors("lookup"):
            result = collection.query.fetch_objects(
                filters=Filter.by_id().equal(entry_uuid(log_id)),
                limit=1,
                return_properties=["entryId", "payload"],
            )
        entries = self._entries([obj.properties for obj in result.objects])
        return entries[0] if entries else None

    def _entries(self, objects: Sequence[dict[str, Any]]) -> list[LogEntry]:
        return self._decode(
            [(str(p.get("entryId") or ""), str(p.get("payload") or "")) for p in objects]
        )

    def feedback_for(self, log_ids: Sequence[str] | None = None) -> list[Feedback]:
        if log_ids is not None and not log_ids:
            return []
        where = None
        if log_ids is not None:
            where = Filter.by_property("logId").contains_any(list(dict.fromkeys(log_ids)))
        collection = self._collection(FEEDBACK)
        with _vendor_errors("feedback read"):
            result = collection.query.fetch_objects(filters=where, limit=self.max_results)
        found = []
        for obj in result.objects:
            try:
                found.append(_to_feedback(dict(obj.properties)))
            except (ValueError, TypeError) as exc:  # a corrupt object is skipped
                logger.warning("feedback object %s is unreadable: %s", obj.uuid, exc)
        return oldest_first(found)

    # --- lifecycle

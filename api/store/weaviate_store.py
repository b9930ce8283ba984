"""The Weaviate backend of ``VectorStore``: a lazy v4 client, edge mapping, wrapped errors."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from time import monotonic
from typing import Any

import numpy as np
import weaviate
from weaviate.classes.aggregate import GroupByAggregate
from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, MetadataQuery, Sort
from weaviate.collections import Collection
from weaviate.exceptions import WeaviateInsertManyAllFailedError

from api.core.cited import clave_key, without_epoca
from api.core.models import Candidate, Chunk, Filters, Tesis, Validity
from api.embeddings.base import Vectors
from api.errors import StoreError
from api.store.base import (
    GroupBy,
    ListQuery,
    TesisEntry,
    UpsertResult,
    VectorQuery,
    query_terms,
)
from api.store.weaviate_connection import (
    WeaviateResource,
    WeaviateTarget,
    create_missing,
    vendor_errors,
)
from api.store.weaviate_schema import (
    BM25_PROPERTIES,
    CHUNK,
    CHUNK_RETURNED,
    RUBRO_TERMS,
    TESIS,
    TEXT_TERMS,
    VALIDITY,
    _to_chunk,
    _to_passage,
    _to_tesis,
    _to_validity,
    build_filter,
    chunk_object,
    collection_specs,
    cosine,
    group_keys,
    registros_filter,
    tesis_object,
    validity_object,
)

logger = logging.getLogger(__name__)

_PAGE = 200  # registros per request when fetching or deleting by registro
_INSERT_BATCH = 500  # objects per insert_many call
CLAVE_CANDIDATES = 20  # tesis whose clave has all the words of a cited one (then compared)
GENERATION_TICK_S = 30.0  # how late ``generation`` may see another process's writes


def _vendor_errors(action: str) -> AbstractContextManager[None]:
    """Re-raise client, gRPC and HTTP failures as ``StoreError``."""
    return vendor_errors(StoreError, f"Weaviate {action}")


def _pages(values: Iterable[int]) -> Iterator[list[int]]:
    unique = sorted(set(values))
    for start in range(0, len(unique), _PAGE):
        yield unique[start : start + _PAGE]


class WeaviateStore(WeaviateResource):
    """``VectorStore`` on a Weaviate server (v1.27+), with vectors we compute ourselves.

    Three collections named from ``prefix``: ``{prefix}Chunk`` (vectors, cosine),
    ``{prefix}Tesis`` and ``{prefix}Validity`` (no vectors). Nothing connects until the
    first call; the collections are created then if missing.

    Usage::

        store = WeaviateStore(WeaviateTarget("http://localhost:8080", grpc_port=50051))
        store.upsert(entries)
        hits = store.vector_search(VectorQuery(query_vector, Filters(materias=("Penal",)), 20))
        store.close()
    """

    def __init__(self, target: WeaviateTarget, dim: int = 384) -> None:
        super().__init__(target)  # limit=None searches return at most target.max_results
        if dim < 1:
            raise ValueError(f"dim must be >= 1, got {dim}")
        self.dim = dim
        self._writes = 0  # this process's writes and deletes of tesis
        self._writes_lock = threading.Lock()

    # --- connection

    health_key = "store"

    def _errors(self, action: str) -> AbstractContextManager[None]:
        return _vendor_errors(action)

    def collection_names(self) -> list[str]:
        return [spec.name for spec in collection_specs(self.prefix)]

    def _ensure_collections(self, client: weaviate.WeaviateClient) -> None:
        create_missing(client, collection_specs(self.prefix))
        name = f"{self.prefix}{CHUNK}"
        stored = {p.name for p in client.collections.use(name).config.get(simple=True).properties}
        missing = [p for p in (RUBRO_TERMS, TEXT_TERMS, "organo") if p not in stored]
        if missing:  # created by an earlier version: BM25 or the organo filter would miss
            raise StoreError(
                f"Weaviate collection {name} has no {' or '.join(missing)} (the analyzed terms "
                "BM25 reads, the court filters read): it was created by an earlier version; "
                f"delete the collections ({', '.join(self.collection_names())}) and ingest the "
                "corpus again"
            )

    def _query_vector(self, vector: Vectors) -> Vectors:
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.size != self.dim:
            raise StoreError(f"vector has {query.size} dimensions, the store expects {self.dim}")
        return query

    # --- writes

    def _insert(
        self, collection: Collection[Any, Any], objects: Sequence[DataObject[Any, None]]
    ) -> tuple[list[str], set[int]]:
        """Insert in batches; per-object errors come back (with their registros), not raised."""
        errors: list[str] = []
        failed: set[int] = set()
        for start in range(0, len(objects), _INSERT_BATCH):
            batch = objects[start : start + _INSERT_BATCH]
            try:
                result = collection.data.insert_many(batch)
                messages = {i: err.message for i, err in result.errors.items()}
            except WeaviateInsertManyAllFailedError as exc:
                messages = dict.fromkeys(range(len(batch)), str(exc))
            for i, message in sorted(messages.items()):
                registro = int(batch[i].properties["registro"])
                failed.add(registro)
                errors.append(f"{collection.name} {batch[i].uuid} (registro {registro}): {message}")
        return errors, failed

    def upsert(self, entries: Sequence[TesisEntry]) -> UpsertResult:
        """Replace each tesis and all its chunks. A tesis with any failed object is removed
        entirely, so its fingerprint is absent and the next ingest retries it."""
        for entry in entries:
            if np.shape(entry.vectors) != (len(entry.chunks), self.dim):
                raise StoreError(
                    f"registro {entry.tesis.registro}: vectors shape {np.shape(entry.vectors)}, "
                    f"expected ({len(entry.chunks)}, {self.dim})"
                )
        if not entries:
            return UpsertResult(written=0, chunks=0)
        chunks, tesis = self._collection(CHUNK), self._collection(TESIS)
        registros = {entry.tesis.registro for entry in entries}
        chunk_objects = [
            chunk_object(entry.tesis, chunk, row)
            for entry in entries
            for chunk, row in zip(entry.chunks, entry.vectors, strict=True)
        ]
        with self._written(), _vendor_errors("upsert"):
            for page in _pages(registros):  # a tesis may now have fewer chunks
                chunks.data.delete_many(where=registros_filter(page))
            errors, failed = self._insert(chunks, chunk_objects)
            tesis_objects = [
                tesis_object(entry.tesis, entry.fingerprint)
                for entry in entries
                if entry.tesis.registro not in failed
            ]
            tesis_errors, tesis_failed = self._insert(tesis, tesis_objects)
        failed |= tesis_failed
        if failed:
            self.delete(sorted(failed))
        return UpsertResult(
            written=len(registros - failed),
            chunks=sum(1 for obj in chunk_objects if obj.properties["registro"] not in failed),
            errors=(*errors, *tesis_errors),
        )

    def delete(self, registros: Sequence[int]) -> int:
        """Remove tesis and their chunks (validity notes stay); returns tesis removed."""
        removed = 0
        with self._written(), _vendor_errors("delete"):
            chunks, tesis = self._collection(CHUNK), self._collection(TESIS)
            for page in _pages(registros):
                chunks.data.delete_many(where=registros_filter(page))
                removed += tesis.data.delete_many(where=registros_filter(page)).successful
        return removed

    def upsert_validity(self, notes: Mapping[int, Validity]) -> int:
        """Store (replace) validity notes by registro; any failed note raises ``StoreError``."""
        if not notes:
            return 0
        objects = [validity_object(registro, note) for registro, note in notes.items()]
        with _vendor_errors("validity upsert"):
            errors, _ = self._insert(self._collection(VALIDITY), objects)
        if errors:
            raise StoreError(f"Weaviate rejected {len(errors)} validity notes: {errors[0]}")
        return len(objects)

    # --- reads

    def _fetch_by_registro(
        self, suffix: str, registros: Sequence[int], action: str
    ) -> Iterator[Mapping[str, Any]]:
        collection = self._collection(suffix)
        with _vendor_errors(action):
            for page in _pages(registros):
                result = collection.query.fetch_objects(
                    filters=registros_filter(page), limit=len(page)
                )
                for obj in result.objects:
                    yield obj.properties

    def fingerprints(self, registros: Sequence[int]) -> dict[int, str]:
        """Stored fingerprints of the given registros (absent ones are missing)."""
        found = self._fetch_by_registro(TESIS, registros, "fingerprint lookup")
        return {int(p["registro"]): str(p.get("fingerprint") or "") for p in found}

    def get_tesis(self, registros: Sequence[int]) -> dict[int, Tesis]:
        """Full records by registro."""
        found = self._fetch_by_registro(TESIS, registros, "tesis lookup")
        return {tesis.registro: tesis for tesis in map(_to_tesis, found)}

    def get_validity(self, registros: Sequence[int]) -> dict[int, Validity]:
        """Notes for the given registros; registros without a note are absent."""
        found = self._fetch_by_registro(VALIDITY, registros, "validity lookup")
        return {int(p["registro"]): _to_validity(p) for p in found}

    def find_claves(self, claves: Sequence[str]) -> dict[str, int]:
        """Registros by clave: the clave's words (word tokenization: "2a", "j", "64", "2022")
        find the candidates, its key picks the one it names."""
        collection = self._collection(TESIS)
        found: dict[str, int] = {}
        with _vendor_errors("clave lookup"):
            for clave in claves:
                result = collection.query.fetch_objects(
                    filters=Filter.by_property("clave").equal(without_epoca(clave)),
                    limit=CLAVE_CANDIDATES,
                    return_properties=["registro", "clave"],
                )
                key = clave_key(clave)
                for obj in result.objects:
                    if clave_key(str(obj.properties.get("clave") or "")) == key:
                        found[clave] = int(obj.properties["registro"])
                        break
        return found

    def get_chunks(self, registro: int) -> list[Chunk]:
        """All chunks of one tesis in order."""
        collection = self._collection(CHUNK)
        with _vendor_errors("chunk lookup"):
            result = collection.query.fetch_objects(
                filters=Filter.by_property("registro").equal(registro),
                limit=self.max_results,
                return_properties=CHUNK_RETURNED,
            )
        return sorted((_to_chunk(obj.properties) for obj in result.objects), key=lambda c: c.index)

    def vector_search(self, query: VectorQuery) -> list[Candidate]:
        """Chunks by cosine similarity, best first (``limit=None``: up to ``max_results``)."""
        vector = self._query_vector(query.vector)
        limit, min_similarity = query.limit, query.min_similarity
        if limit is not None and limit <= 0:
            return []
        collection = self._collection(CHUNK)
        with _vendor_errors("vector search"):
            result = collection.query.near_vector(
                near_vector=vector.tolist(),
                limit=self.max_results if limit is None else limit,
                distance=None if min_similarity is None else 1.0 - min_similarity,
                filters=build_filter(query.filters),
                return_properties=CHUNK_RETURNED,
                return_metadata=MetadataQuery(distance=True),
            )
        if limit is None and len(result.objects) >= self.max_results:
            logger.warning("vector search truncated at max_results=%d", self.max_results)
        return [
            Candidate(
                passage=_to_passage(obj.properties),
                similarity=1.0 - (obj.metadata.distance or 0.0),
                lexical=0.0,
            )
            for obj in result.objects
        ]

    def lexical_search(
        self, text: str, vector: Vectors, filters: Filters, limit: int
    ) -> list[Candidate]:
        """Chunks by BM25 over rubro + text; each carries its cosine to ``vector`` too."""
        query = self._query_vector(vector)
        terms = " ".join(query_terms(text))  # as the chunks' terms were indexed
        if limit <= 0 or not terms:
            return []
        collection = self._collection(CHUNK)
        with _vendor_errors("BM25 search"):
            result = collection.query.bm25(
                query=terms,
                query_properties=BM25_PROPERTIES,
                filters=build_filter(filters),
                limit=limit,
                include_vector=True,
                return_properties=CHUNK_RETURNED,
                return_metadata=MetadataQuery(score=True),
            )
        candidates = []
        for obj in result.objects:
            stored = obj.vector.get("default") or next(iter(obj.vector.values()), None)
            candidates.append(
                Candidate(
                    passage=_to_passage(obj.properties),
                    similarity=0.0 if stored is None else cosine(stored, query),
                    lexical=float(obj.metadata.score or 0.0),
                )
            )
        return candidates

    def list_tesis(self, query: ListQuery) -> list[Tesis]:
        """Tesis sorted by publication date (``fecha``, else mid-``anio``), then registro.

        Generic records' extra dates are not stored in Weaviate yet (``date_fields`` is
        empty), so ``date_field`` is never asked for here and is ignored."""
        if query.limit <= 0:
            return []
        ascending = query.order == "ASC"
        collection = self._collection(TESIS)
        with _vendor_errors("tesis listing"):
            result = collection.query.fetch_objects(
                filters=build_filter(query.filters),
                limit=query.limit,
                offset=query.offset,
                sort=Sort.by_property("sortDate", ascending).by_property("registro", ascending),
            )
        return [_to_tesis(obj.properties) for obj in result.objects]

    def date_fields(self) -> dict[str, str]:
        """None: extra dates of generic records are kept by the embedded store only."""
        return {}

    def count_by(self, group_by: GroupBy, filters: Filters) -> dict[str, int]:
        """Number of tesis per value of a property (each materia counted once per tesis)."""
        collection = self._collection(TESIS)
        with _vendor_errors("aggregation"):
            result = collection.aggregate.over_all(
                filters=build_filter(filters),
                group_by=GroupByAggregate(prop=group_by, limit=self.max_results),
                total_count=True,
            )
        counts: dict[str, int] = {}
        for group in result.groups:
            for key in group_keys(group.grouped_by.value):
                counts[key] = counts.get(key, 0) + (group.total_count or 0)
        return dict(sorted(counts.items()))

    def count(self) -> tuple[int, int]:
        """(tesis, chunks) stored."""
        tesis, chunks = self._collection(TESIS), self._collection(CHUNK)
        with _vendor_errors("count"):
            n_tesis = tesis.aggregate.over_all(total_count=True).total_count
            n_chunks = chunks.aggregate.over_all(total_count=True).total_count
        return n_tesis or 0, n_chunks or 0

    def generation(self) -> int:
        """This process's writes, plus one every ``GENERATION_TICK_S``: Weaviate keeps no
        write counter, so another process's writes are seen within that (no server call)."""
        with self._writes_lock:
            return self._writes + int(monotonic() // GENERATION_TICK_S)

    def drop_collections(self) -> None:
        """Delete the collections and everything in them: a write (``generation``)."""
        with self._written():
            super().drop_collections()

    @contextmanager
    def _written(self) -> Iterator[None]:
        """Count a write when it ends, failed or not: some of it may have been stored."""
        try:
            yield
        finally:
            with self._writes_lock:
                self._writes += 1

    # --- lifecycle

"""Weaviate collection definitions and the mapping between our records and its objects.

Everything here is pure: no client, no I/O. ``WeaviateStore`` wires it to a server.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from weaviate.classes.config import (
    Configure,
    DataType,
    Property,
    StopwordsPreset,
    Tokenization,
    VectorDistances,
)
from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, FilterReturn
from weaviate.util import generate_uuid5

from api.core.circuits import circuit_spellings
from api.core.models import Chunk, Filters, Passage, Tesis, TesisTipo, Validity
from api.store.base import LEXICAL_WEIGHTS, TESIS_TEXTS, PassageFields, indexed_terms
from api.store.weaviate_connection import CollectionSpec

CHUNK, TESIS, VALIDITY = "Chunk", "Tesis", "Validity"

# Metadata copied onto every chunk so that searches filter without a join.
_META = (
    Property(name="registro", data_type=DataType.INT),
    Property(name="rubro", data_type=DataType.TEXT),
    Property(name="epoca", data_type=DataType.TEXT, tokenization=Tokenization.FIELD),
    Property(name="anio", data_type=DataType.INT),
    Property(name="fecha", data_type=DataType.DATE),
    Property(name="tipo", data_type=DataType.TEXT, tokenization=Tokenization.FIELD),
    Property(name="materias", data_type=DataType.TEXT_ARRAY, tokenization=Tokenization.FIELD),
    Property(name="instancia", data_type=DataType.TEXT, tokenization=Tokenization.FIELD),
    Property(name="organo", data_type=DataType.TEXT, tokenization=Tokenization.FIELD),
    Property(name="clave", data_type=DataType.TEXT),
    Property(name="partial", data_type=DataType.BOOL),
)

# What BM25 reads: the rubro and the text analyzed as the embedded store's FTS5 reads them
# (``indexed_terms``: accents folded, stopwords out, stems), split on whitespace only.
RUBRO_TERMS, TEXT_TERMS = "rubroTerms", "textTerms"

CHUNK_PROPERTIES = (
    *_META,
    Property(name="chunkIndex", data_type=DataType.INT),
    Property(name="text", data_type=DataType.TEXT),
    Property(name="startChar", data_type=DataType.INT),
    Property(name="endChar", data_type=DataType.INT),
    Property(name="startLine", data_type=DataType.INT),
    Property(name="endLine", data_type=DataType.INT),
    Property(name="tokens", data_type=DataType.INT),
    Property(name=RUBRO_TERMS, data_type=DataType.TEXT, tokenization=Tokenization.WHITESPACE),
    Property(name=TEXT_TERMS, data_type=DataType.TEXT, tokenization=Tokenization.WHITESPACE),
)
# What a search reads back of a chunk: all but the analyzed copies.
CHUNK_RETURNED = [p.name for p in CHUNK_PROPERTIES if p.name not in (RUBRO_TERMS, TEXT_TERMS)]
# BM25's properties, the rubro weighing as in the embedded store ("rubroTerms^2").
BM25_PROPERTIES = [
    name if weight == 1 else f"{name}^{weight:g}"
    for name, weight in zip((RUBRO_TERMS, TEXT_TERMS), LEXICAL_WEIGHTS, strict=True)
]

TESIS_PROPERTIES = (
    *_META,
    Property(name="texto", data_type=DataType.TEXT, index_searchable=False),
    Property(name="precedentes", data_type=DataType.TEXT, index_searchable=False),
    # fecha, or 1 July of anio when unknown: the key list_tesis sorts on (like Passage.sort_date).
    Property(name="sortDate", data_type=DataType.DATE),
    Property(
        name="fingerprint",
        data_type=DataType.TEXT,
        tokenization=Tokenization.FIELD,
        index_searchable=False,
    ),
)

VALIDITY_PROPERTIES = (
    Property(name="registro", data_type=DataType.INT),
    Property(name="estado", data_type=DataType.TEXT, tokenization=Tokenization.FIELD),
    Property(name="parcial", data_type=DataType.BOOL),
    Property(name="porRegistro", data_type=DataType.INT),
    Property(name="porClave", data_type=DataType.TEXT, tokenization=Tokenization.FIELD),
    Property(name="desde", data_type=DataType.DATE),
)


def collection_specs(prefix: str) -> tuple[CollectionSpec, ...]:
    """The three collections: chunks carry our cosine-indexed vectors, the others none."""
    cosine = Configure.VectorIndex.hnsw(distance_metric=VectorDistances.COSINE)
    no_index = Configure.VectorIndex.none()
    return (
        CollectionSpec(
            f"{prefix}{CHUNK}",
            CHUNK_PROPERTIES,
            Configure.Vectors.self_provided(vector_index_config=cosine),
            # the analyzed terms have no stopwords left: no English preset on top
            Configure.inverted_index(stopwords_preset=StopwordsPreset.NONE),
        ),
        CollectionSpec(
            f"{prefix}{TESIS}",
            TESIS_PROPERTIES,
            Configure.Vectors.self_provided(vector_index_config=no_index),
        ),
        CollectionSpec(
            f"{prefix}{VALIDITY}",
            VALIDITY_PROPERTIES,
            Configure.Vectors.self_provided(vector_index_config=no_index),
        ),
    )


def chunk_uuid(registro: int, index: int) -> str:
    return generate_uuid5(f"{registro}:{index}")


def tesis_uuid(registro: int) -> str:
    """Also the UUID of the registro's validity note (they live in different collections)."""
    return generate_uuid5(str(registro))


# --- records -> objects. None and empty lists are left out: Weaviate stores them as absent.


def _timestamp(value: date | None) -> datetime | None:
    return None if value is None else datetime(value.year, value.month, value.day, tzinfo=UTC)


def _compact(props: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in props.items() if v is not None and v != []}


def _meta_properties(tesis: Tesis) -> dict[str, Any]:
    return {
        "registro": tesis.registro,
        "rubro": tesis.rubro,
        "epoca": tesis.epoca,
        "anio": tesis.anio,
        "fecha": _timestamp(tesis.fecha),
        "tipo": tesis.tipo,
        "materias": list(tesis.materias),
        "instancia": tesis.instancia,
        "organo": tesis.organo,
        "clave": tesis.clave,
        "partial": tesis.partial,
    }


def chunk_object(tesis: Tesis, chunk: Chunk, vector: npt.ArrayLike) -> DataObject[Any, None]:
    """A chunk with its tesis metadata, deterministic UUID and our vector."""
    properties = _compact(
        _meta_properties(tesis)
        | {
            "chunkIndex": chunk.index,
            "text": chunk.text,
            "startChar": chunk.start_char,
            "endChar": chunk.end_char,
            "startLine": chunk.start_line,
            "endLine": chunk.end_line,
            "tokens": chunk.tokens,
            RUBRO_TERMS: indexed_terms(tesis.rubro),
            TEXT_TERMS: indexed_terms(chunk.text),
        }
    )
    return DataObject(
        properties=properties,
        uuid=chunk_uuid(tesis.registro, chunk.index),
        vector=np.asarray(vector, dtype=np.float32).tolist(),
    )


def tesis_object(tesis: Tesis, fingerprint: str) -> DataObject[Any, None]:
    properties = _compact(
        _meta_properties(tesis)
        | {
            "texto": tesis.texto,
            "precedentes": tesis.precedentes,
            "sortDate": _timestamp(tesis.fecha or date(tesis.anio, 7, 1)),
            "fingerprint": fingerprint,
        }
    )
    return DataObject(properties=properties, uuid=tesis_uuid(tesis.registro))


def validity_object(registro: int, note: Validity) -> DataObject[Any, None]:
    properties = _compact(
        {
            "registro": registro,
            "estado": note.estado,
            "parcial": note.parcial,
            "porRegistro": note.por_registro,
            "porClave": note.por_clave,
            "desde": _timestamp(note.desde),
        }
    )
    return DataObject(properties=properties, uuid=tesis_uuid(registro))


# --- objects -> records, tolerant of absent (null) properties.


def _date(value: object) -> date | None:
    if isinstance(value, datetime):
        return (value.astimezone(UTC) if value.tzinfo else value).date()
    if isinstance(value, str) and value:
        return date.fromisoformat(value[:10])
    return None


def _int(props: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = props.get(key)
    return default if value is None else int(value)


def _str(props: Mapping[str, Any], key: str) -> str:
    value = props.get(key)
    return "" if value is None else str(value)


def _materias(props: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(str(m) for m in props.get("materias") or ())


def _to_chunk(props: Mapping[str, Any]) -> Chunk:
    return Chunk(
        registro=_int(props, "registro"),
        index=_int(props, "chunkIndex"),
        text=_str(props, "text"),
        start_char=_int(props, "startChar"),
        end_char=_int(props, "endChar"),
        start_line=_int(props, "startLine", 1),
        end_line=_int(props, "endLine", 1),
        tokens=_int(props, "tokens"),
    )


def _meta_fields(props: Mapping[str, Any]) -> PassageFields:
    """The ``_META`` properties a chunk and its tesis both carry."""
    return PassageFields(
        rubro=_str(props, "rubro"),
        epoca=_str(props, "epoca"),
        anio=_int(props, "anio"),
        tipo=cast(TesisTipo, _str(props, "tipo")),
        materias=_materias(props),
        instancia=_str(props, "instancia"),
        clave=_str(props, "clave"),
        fecha=_date(props.get("fecha")),
        partial=bool(props.get("partial") or False),
    )


def _to_passage(props: Mapping[str, Any]) -> Passage:
    return Passage(chunk=_to_chunk(props), **_meta_fields(props))


def _texts(props: Mapping[str, Any]) -> dict[str, Any]:
    """The ``TESIS_TEXTS`` properties ('' when absent), as keyword arguments of ``Tesis``."""
    return {name: _str(props, name) for name in TESIS_TEXTS}


def _to_tesis(props: Mapping[str, Any]) -> Tesis:
    return Tesis(
        registro=_int(props, "registro"),
        **_texts(props),
        **_meta_fields(props),
    )


def _to_validity(props: Mapping[str, Any]) -> Validity:
    por_registro = props.get("porRegistro")
    por_clave = props.get("porClave")
    return Validity(
        estado=_str(props, "estado") or "vigente",
        parcial=bool(props.get("parcial") or False),
        por_registro=None if por_registro is None else int(por_registro),
        por_clave=None if por_clave is None else str(por_clave),
        desde=_date(props.get("desde")),
    )


def cosine(stored: Any, query: npt.NDArray[np.float32]) -> float:
    """Cosine of a stored vector (as the client returns it) to the query."""
    vector = np.asarray(stored, dtype=np.float32).reshape(-1)
    norms = float(np.linalg.norm(vector) * np.linalg.norm(query))
    return float(np.dot(vector, query)) / norms if norms else 0.0


def group_keys(value: object) -> set[str]:
    """Group-by values as dict keys; an array value counts once per element."""
    values = value if isinstance(value, list) else [value]
    keys = set()
    for item in values:
        if isinstance(item, float) and item.is_integer():
            item = int(item)
        if item is not None and item != "":
            keys.add(str(item))
    return keys


# --- filters


def registros_filter(registros: list[int]) -> FilterReturn:
    return Filter.by_property("registro").contains_any(registros)


def build_filter(filters: Filters) -> FilterReturn | None:
    """Our ``Filters`` as one Weaviate filter (None when nothing is restricted).

    Chunks and tesis share the property names, so the same filter serves both collections.
    """
    parts: list[FilterReturn] = []
    if filters.materias:
        parts.append(Filter.by_property("materias").contains_any(list(filters.materias)))
    if filters.tipo is not None:
        parts.append(Filter.by_property("tipo").equal(filters.tipo))
    if len(filters.epocas) == 1:
        parts.append(Filter.by_property("epoca").equal(filters.epocas[0]))
    elif filters.epocas:
        parts.append(Filter.by_property("epoca").contains_any(list(filters.epocas)))
    if filters.anio_min is not None:
        parts.append(Filter.by_property("anio").greater_or_equal(filters.anio_min))
    if filters.anio_max is not None:
        parts.append(Filter.by_property("anio").less_or_equal(filters.anio_max))
    if filters.instancia is not None:
        parts.append(Filter.by_property("instancia").equal(filters.instancia))
    if filters.organo is not None:
        parts.append(Filter.by_property("organo").equal(filters.organo))
    if filters.circuito is not None:  # the organo's text: "... DEL SEXTO CIRCUITO."
        spellings = circuit_spellings(filters.circuito)
        parts.append(
            Filter.any_of([Filter.by_property("organo").like(f"*{s}*") for s in spellings])
        )
    if filters.registros:
        parts.append(registros_filter(list(filters.registros)))
    return Filter.all_of(parts) if parts else None

"""The GraphQL layer's helpers: ``mirror``, ``fields_of``, ``to_record``, the ``TesisFields``
base, and failures raised while preparing a resolver's arguments still answered as union
members."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import strawberry

from api.graphql.mirror import fields_of, mirror, to_record
from api.graphql.references import ReferenceType
from api.graphql.schema import schema
from api.graphql.tesis import TesisFields
from api.graphql.types import SearchHit, TesisRecord, TimelineItem
from api.services.container import Services
from api.services.judging import MAX_JUDGE_CANDIDATES
from tests.conftest import run_query
from tests.graphql.test_chat import JUDGE


@strawberry.type
class _Pair:
    name: str
    tags: list[str]
    size: int


@dataclass
class _Named:
    name: str
    tags: tuple[str, ...]


@dataclass
class _Sized:
    size: int
    name: str


def test_mirror_reads_each_field_from_the_first_source_that_has_it() -> None:
    built = mirror(_Pair, _Named("a", ("x", "y")), _Sized(3, "ignored"))
    assert (built.name, built.tags, built.size) == ("a", ["x", "y"], 3)


def test_mirror_prefers_the_given_fields() -> None:
    built = mirror(_Pair, _Named("a", ()), size=7, tags=["t"])
    assert (built.name, built.tags, built.size) == ("a", ["t"], 7)


def test_fields_of_declares_a_record_s_fields_in_order_tuples_as_lists() -> None:
    assert fields_of(_Named) == {"name": str, "tags": list[str]}
    assert fields_of(_Sized, without=("size",)) == {"name": str}
    assert list(fields_of(_Sized, "name", "size")) == ["size", "name"]  # the record's order


@strawberry.type
class _Declared:
    __annotations__ = fields_of(_Named)
    name: str = strawberry.field(description="Retyped or described in place.")


def test_a_type_declared_by_fields_of_keeps_the_record_s_order() -> None:
    fields = _Declared.__strawberry_definition__.fields  # type: ignore[attr-defined]
    assert [(f.python_name, f.description) for f in fields] == [
        ("name", "Retyped or described in place."),
        ("tags", None),
    ]


class _Color(Enum):
    RED = "red"


@dataclass
class _Request:
    name: str
    color: str | None = None
    size: int = 1


@dataclass
class _Input:
    name: str
    color: _Color
    tags: list[str]


def test_to_record_reads_same_named_fields_as_enum_values_and_keeps_defaults() -> None:
    assert to_record(_Request, _Input("a", _Color.RED, [])) == _Request("a", "red", 1)
    assert to_record(_Request, _Input("a", _Color.RED, []), size=3).size == 3


def _fields(type_name: str) -> list[str]:
    found = schema.get_type_by_name(type_name)
    assert found is not None
    return [f.graphql_name or f.python_name for f in found.fields]  # type: ignore[union-attr]


def test_tesis_fields_keep_each_type_s_field_order() -> None:
    metadata = ["registro", "rubro", "clave", "epoca", "anio", "fecha", "tipo", "materias"]
    assert all(
        issubclass(t, TesisFields) for t in (SearchHit, TimelineItem, ReferenceType, TesisRecord)
    )
    assert _fields("SearchHit")[:9] == [*metadata, "instancia"]
    assert _fields("TimelineItem")[:9] == [*metadata, "instancia"]
    assert _fields("ReferenceType")[:10] == ["number", *metadata, "url"]
    assert _fields("TesisRecord")[:4] == ["registro", "rubro", "texto", "clave"]
    assert schema.get_type_by_name("TesisFields") is None  # a base class only


def test_judge_too_many_candidates_is_an_input_error(bundled: Services) -> None:
    candidates = [{"registro": 1, "chunkIndex": i} for i in range(MAX_JUDGE_CANDIDATES + 1)]
    data = run_query(bundled, JUDGE, input={"query": "x", "candidates": candidates})["judge"]
    assert (data["__typename"], data["field"]) == ("InputError", "candidates")


def test_judge_filters_refused_while_converting_are_an_input_error(bundled: Services) -> None:
    materias = [f"m{i}" for i in range(30)]
    data = run_query(bundled, JUDGE, input={"query": "x", "filters": {"materias": materias}})
    assert (data["judge"]["__typename"], data["judge"]["field"]) == (
        "InputError",
        "filters.materias",
    )


DELETE = """
mutation D($registros: [Int!]!) {
  deleteTesis(registros: $registros) {
    __typename
    ... on DeleteResult { deleted }
    ... on InputError { field message }
  }
}
"""


def test_delete_without_registros_is_an_input_error(bundled: Services) -> None:
    data = run_query(bundled, DELETE, registros=[])["deleteTesis"]
    assert (data["__typename"], data["field"]) == ("InputError", "registros")

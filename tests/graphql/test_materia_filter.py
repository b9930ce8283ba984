"""A materia filter is read in any case and with or without accents; an unknown one is refused
naming the allowed values (a tester's `materias: ["laboral"]` found nothing)."""

from __future__ import annotations

from api.services.container import Services
from tests.conftest import run_query

SEARCH = """query S($input: SearchInput!) { search(input: $input) {
  ... on SearchPayload { hits { registro } intent { materia materiaSource } }
  ... on InputError { field message } } }"""
COUNTS = """query D($filters: FiltersInput) {
  distribution(groupBy: YEAR, filters: $filters) { key count } }"""


def search(services: Services, *materias: str) -> dict[str, object]:
    query = {"query": "despido injustificado", "topK": 3, "filters": {"materias": list(materias)}}
    result: dict[str, object] = run_query(services, SEARCH, input=query)["search"]
    return result


def test_lower_case_and_unaccented_materias_find_their_tesis(bundled: Services) -> None:
    canonical = search(bundled, "Laboral")
    assert canonical["hits"]
    assert search(bundled, "laboral") == canonical
    assert search(bundled, "LABORAL") == canonical
    assert search(bundled, "comun")["hits"] == search(bundled, "Común")["hits"]


def test_an_unknown_materia_is_an_input_error_naming_the_allowed_ones(bundled: Services) -> None:
    refused = search(bundled, "Astrología")
    assert refused["field"] == "materias"
    assert "'Astrología' is not a materia" in str(refused["message"])
    assert "Laboral" in str(refused["message"]) and "Común" in str(refused["message"])


def test_counts_read_the_materia_the_same_way(bundled: Services) -> None:
    canonical = run_query(bundled, COUNTS, filters={"materias": ["Laboral"]})["distribution"]
    assert canonical and run_query(bundled, COUNTS, filters={"materias": ["laboral"]}) == {
        "distribution": canonical
    }

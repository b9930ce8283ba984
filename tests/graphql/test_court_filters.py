"""Épocas, instancias and organos read in any case and spelling, an unknown one refused: a
prober's `organo: "segunda sala"` and `instancia: "Pleno"` found nothing, silently, and an
unknown época read as an empty result."""

from __future__ import annotations

import pytest

from api.services.container import Services
from tests.conftest import run_query

SEARCH = """query S($input: SearchInput!) { search(input: $input) {
  ... on SearchPayload { hits { registro } abstainReason }
  ... on InputError { field message } } }"""
COUNTS = """query D($filters: FiltersInput) {
  distribution(groupBy: ORGANO, filters: $filters) { key count } }"""


def search(services: Services, **filters: object) -> dict[str, object]:
    query = {"query": "amparo", "topK": 3, "filters": filters}
    result: dict[str, object] = run_query(services, SEARCH, input=query)["search"]
    return result


def test_a_court_in_any_case_or_accents_is_the_stored_one(bundled: Services) -> None:
    stored = search(bundled, organo="Segunda Sala")
    assert stored["hits"]
    assert search(bundled, organo="segunda sala") == stored
    court = "Suprema Corte de Justicia de la Nación"
    assert search(bundled, instancia="suprema corte de justicia de la nacion") == search(
        bundled, instancia=court
    )


@pytest.mark.parametrize(
    ("filters", "field", "said"),
    [
        ({"instancia": "Pleno"}, "instancia", "'Pleno' is an organo, not an instancia"),
        ({"organo": "Sala Imaginaria"}, "organo", "'Sala Imaginaria' is no organo of this corpus"),
        ({"epocas": ["Decimotercera Época"]}, "epocas", "is not an época"),
    ],
)
def test_an_unknown_court_or_epoca_is_an_input_error(
    bundled: Services, filters: dict[str, object], field: str, said: str
) -> None:
    refused = search(bundled, **filters)
    assert refused["field"] == field and said in str(refused["message"])


def test_counts_by_organo_read_the_stored_spelling(bundled: Services) -> None:
    counts = run_query(bundled, COUNTS, filters={"organo": "segunda sala"})["distribution"]
    assert counts and [c["key"] for c in counts] == ["Segunda Sala"]

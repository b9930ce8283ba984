from __future__ import annotations

import pytest

from api.services.container import Services
from tests.conftest import run_query

SEARCH = """
query Search($input: SearchInput!) {
  search(input: $input) {
    __typename
    ... on SearchPayload {
      candidates recencyWeight profile mode
      hits {
        registro rubro epoca anio tipo materias similarity relevance recencyFactor epocaFactor
        finalScore rank rankWithoutRecency
        chunk { index startChar endChar startLine endLine tokens text }
      }
    }
    ... on InputError { field message }
    ... on ServiceError { service message }
  }
}
"""
QUESTION = "improcedencia del amparo indirecto por actos de la junta"


def test_search_returns_old_and_recent_tesis_with_full_breakdown(bundled: Services) -> None:
    data = run_query(bundled, SEARCH, input={"query": QUESTION, "topK": 10})["search"]
    assert data["__typename"] == "SearchPayload"
    hits = data["hits"]
    assert 3 <= len(hits) <= 10  # the vigencia rules may discard some (see test_vigencia)
    assert any(h["anio"] >= 2010 for h in hits)
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    for hit in hits:
        assert 0 < hit["similarity"] <= 1
        assert hit["finalScore"] == pytest.approx(
            hit["relevance"]
            * (1 + (hit["recencyFactor"] - 1) * data["recencyWeight"])
            * (1 + (hit["epocaFactor"] - 1) * data["recencyWeight"])
        )
        assert hit["chunk"]["endChar"] > hit["chunk"]["startChar"]


def test_weight_zero_ranks_by_relevance_alone(bundled: Services) -> None:
    hits = run_query(bundled, SEARCH, input={"query": QUESTION, "recencyWeight": 0})["search"][
        "hits"
    ]
    assert [h["rank"] for h in hits] == [h["rankWithoutRecency"] for h in hits]
    relevances = [h["relevance"] for h in hits]
    assert relevances == sorted(relevances, reverse=True)


def test_recency_moves_recent_tesis_up(bundled: Services) -> None:
    def mean_year(weight: float) -> float:
        data = run_query(bundled, SEARCH, input={"query": QUESTION, "recencyWeight": weight})
        years = [h["anio"] for h in data["search"]["hits"]]
        return sum(years) / len(years)

    assert mean_year(1.0) > mean_year(0.0)


def test_filters_restrict_hits(bundled: Services) -> None:
    hits = run_query(
        bundled,
        SEARCH,
        input={"query": QUESTION, "filters": {"anioMax": 1985, "materias": ["Laboral"]}},
    )["search"]["hits"]
    assert hits and all(h["anio"] <= 1985 and "Laboral" in h["materias"] for h in hits)


def test_seed_profile_uses_raw_cosine(bundled: Services) -> None:
    hits = run_query(bundled, SEARCH, input={"query": QUESTION, "profile": "SEED"})["search"][
        "hits"
    ]
    assert all(h["relevance"] == h["similarity"] for h in hits)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"topK": 0}, "topK"),
        ({"topK": 101}, "topK"),
        ({"recencyWeight": 1.5}, "recencyWeight"),
        ({"alpha": -0.1}, "alpha"),
        ({"query": "   "}, "query"),
        ({"filters": {"anioMin": 2020, "anioMax": 1990}}, "anioMin"),
        ({"filters": {"anioMin": 3020}}, "anioMin"),
        ({"query": "despido\u0000injustificado"}, "query"),  # had been logged as it came
        ({"filters": {"materias": ["x" * 1000]}}, "filters"),
        ({"filters": {"organo": "Pleno\u0000"}}, "filters"),
    ],
)
def test_bad_arguments_return_a_typed_error(bundled: Services, extra: dict, field: str) -> None:
    data = run_query(bundled, SEARCH, input={"query": QUESTION} | extra)["search"]
    assert data["__typename"] == "InputError"
    assert data["field"] == field
    assert data["message"]


TESIS = """
query T($registro: Int!) {
  tesis(registro: $registro) {
    registro rubro texto epoca anio tipo materias partial url
    chunks { index startLine endLine }
    status { vigente estado porRegistro }
  }
}
"""


def test_tesis_by_registro(bundled: Services) -> None:
    tesis = run_query(bundled, TESIS, registro=2006225)["tesis"]
    assert tesis["rubro"].startswith("JURISPRUDENCIA EMITIDA POR LA CORTE INTERAMERICANA")
    assert (tesis["epoca"], tesis["anio"], tesis["tipo"]) == (
        "Décima Época",
        2014,
        "Jurisprudencia",
    )
    assert tesis["url"] == "https://sjf2.scjn.gob.mx/detalle/tesis/2006225"
    assert tesis["chunks"][0]["index"] == 0
    assert run_query(bundled, TESIS, registro=1)["tesis"] is None

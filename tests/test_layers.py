"""The import graph keeps its layers: nothing imports a layer above its own (README,
"Architecture and extending"), the core stays pure and the dashboard is an API client only."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What each part of ``api`` may import besides itself, lowest first.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "errors": set(),
    "setting_fields": {"core"},
    "ranking_settings": {"core", "setting_fields"},
    "settings": {"core", "ranking_settings", "setting_fields"},
    "preflight": {"errors", "settings"},
    "llm": {"errors", "core"},
    "embeddings": {"errors", "core", "llm"},
    "store": {"errors", "core", "embeddings"},
    "ingest": {"errors", "core", "embeddings", "store"},
    "judge": {"errors", "core", "embeddings", "llm"},
    "monitoring": {"errors", "core", "store", "settings"},
    "structured_log": {"core"},
}
ADAPTERS = set(ALLOWED)
ALLOWED["services"] = ADAPTERS | {"structured_log"}
ALLOWED["graphql"] = ADAPTERS | {"services"}
ALLOWED["guards"] = set()
ALLOWED["admission"] = {"guards"}
ALLOWED["graphiql"] = set()
ALLOWED["app"] = ALLOWED["graphql"] | {"graphql", "guards", "admission", "graphiql", "api"}
ALLOWED["cli"] = ADAPTERS | {"services", "app"}
# Never imported from inside the package: ``api/__init__.py`` (the version) is open to all.
OPEN = {"api"}


def imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


API_FILES = sorted((ROOT / "api").rglob("*.py"))


@pytest.mark.parametrize("path", API_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_layer_above_its_own(path: Path) -> None:
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    own = part(module)
    if own == "__init__":
        return
    allowed = ALLOWED[own] | {own} | OPEN
    wrong = {m for m in imports(path) if m.split(".")[0] == "api" and part(m) not in allowed}
    assert not wrong, f"{module} ({own}) imports {sorted(wrong)}"


def test_dashboard_talks_to_the_api_only_over_graphql() -> None:
    for path in sorted((ROOT / "dashboard").rglob("*.py")):
        found = [m for m in imports(path) if m.split(".")[0] == "api"]
        assert not found, f"{path.relative_to(ROOT)} imports {found}"

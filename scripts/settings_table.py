"""Regenerate the README's settings table from ``api.settings.Settings`` (paste it into README.md)."""

from __future__ import annotations

from pathlib import Path

from api.settings import PROJECT_ROOT, Settings


def default_text(value: object) -> str:
    if isinstance(value, Path):
        return (
            str(value.relative_to(PROJECT_ROOT))
            if value.is_relative_to(PROJECT_ROOT)
            else str(value)
        )
    return "(none)" if value is None else str(value)


START, END = "<!-- settings:start -->", "<!-- settings:end -->"


def table() -> str:
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for name, field in Settings.model_fields.items():
        rows.append(
            f"| `VIGENCIA_{name.upper()}` | `{default_text(field.default)}` | {field.description} |"
        )
    return "\n".join(rows)


def main() -> None:
    """Rewrite the table between the markers in README.md."""
    readme = PROJECT_ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n{table()}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()

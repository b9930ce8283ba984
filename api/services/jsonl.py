"""Reading the project's JSONL files (labelled questions, short questions, exported feedback)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Each non-blank line of ``path`` with its 1-based number, for errors that name it."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            yield number, line

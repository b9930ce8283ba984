"""Run the evaluation on the shipped query set and write its table into README.md."""

from __future__ import annotations

import subprocess
import sys

from api.settings import PROJECT_ROOT

START, END = "<!-- eval:start -->", "<!-- eval:end -->"


def main() -> None:
    output = subprocess.run(
        [sys.executable, "-m", "api.cli", "eval", "data/eval/queries.jsonl"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    readme = PROJECT_ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n```\n{output.strip()}\n```\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Markdown helpers for the benchmark report: number formats and tables."""

from __future__ import annotations

from benchmarks.stats import MIB


def ms(value: float) -> str:
    if value != value:  # NaN: nothing measured
        return "-"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 1000 else f"{value:,.0f}"


def p50_95(summary: dict[str, float]) -> str:
    return f"{ms(summary['p50'])} / {ms(summary['p95'])}"


def mib(n: float) -> str:
    return f"{n / MIB:,.0f} MiB"


def verdict(ok: bool) -> str:
    return "**met**" if ok else "**missed**"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]

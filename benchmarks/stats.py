"""Latency summaries: every figure in the report is a percentile of measured samples."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypedDict

import numpy as np

MIB = 2**20
GIB = 2**30


class Summary(TypedDict):
    n: int
    p50: float
    p95: float
    p99: float
    max: float
    mean: float


def summarize(samples_ms: Sequence[float]) -> Summary:
    values = np.asarray(samples_ms, dtype=np.float64)
    if len(values) == 0:
        nan = float("nan")
        return Summary(n=0, p50=nan, p95=nan, p99=nan, max=nan, mean=nan)
    return Summary(
        n=len(values),
        p50=float(np.percentile(values, 50)),
        p95=float(np.percentile(values, 95)),
        p99=float(np.percentile(values, 99)),
        max=float(values.max()),
        mean=float(values.mean()),
    )


def time_ms(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000

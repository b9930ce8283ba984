"""Vigencia: recency-aware retrieval for Mexican case law."""

import os

# OpenBLAS's threads spin for about 0.1 s (2^28 cycles) after each call before they sleep. A
# search's vector scan is one BLAS call, so the next question's embedding ran on one core while
# a spinning BLAS thread held the other: 65-75 ms instead of 19 ms per first-sight question,
# back to back over GraphQL on 2 cores. At 2^4 they sleep at once and a scan wakes them (a
# 100k-chunk scan took 5.1 ms either way). OpenBLAS reads this when numpy loads it, so it is
# set here, before any module of ours imports numpy; a deployment's own value wins.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

__version__ = "0.1.0"

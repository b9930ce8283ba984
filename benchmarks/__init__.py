"""`make bench`: latency, memory, ingest and load figures written to docs/BENCHMARKS.md.

Never run by `make test` (except the light load test in tests/test_load.py).
"""

# The benchmark processes run as a server does: `api` sets its environment defaults (OpenBLAS's
# thread timeout) before any benchmark module imports numpy.
import api  # noqa: F401

"""`make bench`: latency, memory, ingest and load figures written to docs/BENCHMARKS.md.

Never run by `make test` (except the light load test in tests/test_load.py).
"""

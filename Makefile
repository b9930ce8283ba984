# Vigencia: `make run` (install, load the bundled corpus, serve API + dashboard), `make test`.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
PYTHON ?= python3

.PHONY: install run test lint format schema eval bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/vigencia demo

test: install
	bash scripts/ensure_chromium.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

schema: install
	$(VENV)/bin/strawberry export-schema api.graphql.schema:schema --output schema.graphql

eval: install
	$(PY) scripts/eval_table.py

bench: install
	$(PY) -m pip install --quiet -e ".[test,bench]"
	$(PY) -m benchmarks.run

clean:
	rm -rf var .pytest_cache .ruff_cache .hypothesis

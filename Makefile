# quantcheck: `make demo` runs the main job end to end, `make test` the whole suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: venv system-deps lint typecheck-tree test test-unit test-integration demo bench quality clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[kafka,postgres,chart,langchain,test]'
	@# An editable install leaves compiling to the first import, which PYTHONDONTWRITEBYTECODE
	@# forbids to write: compile once, as pip does for a wheel, or every command starts slow.
	$(PY) -m compileall -q quantcheck worker schemas tools bench
	@touch $(STAMP)

venv: $(STAMP)

# Java and Maven (local Kafka), the PostgreSQL server, promtool and Chromium.
system-deps:
	deploy/local/system-deps

# mypy reads the package under its installed names: quantcheck/ with worker/ and schemas/
# linked into it, in build/ (ignored by git). Links, so its errors name the real files.
typecheck-tree:
	rm -rf build/typecheck && mkdir -p build/typecheck/quantcheck
	for entry in quantcheck/*; do ln -s "$$PWD/$$entry" build/typecheck/quantcheck/; done
	ln -s "$$PWD/worker" build/typecheck/quantcheck/worker
	ln -s "$$PWD/schemas" build/typecheck/quantcheck/schemas

lint: $(STAMP) typecheck-tree
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m quantcheck.schemas.generate --check
	$(PY) -m tools.lemma_table --check

# Pure logic only: no broker, no database.
test-unit: $(STAMP)
	$(PY) -m pytest -q -m "not integration and not faults and not slow" $(PYTEST_ARGS)

# Everything: lint, unit, integration against a real Kafka broker and PostgreSQL server
# (both started by the tests), and the fault-injection suite.
test: lint system-deps
	$(PY) -m pytest -q $(PYTEST_ARGS)

test-integration: $(STAMP) system-deps
	$(PY) -m pytest -q -m "integration or faults" $(PYTEST_ARGS)

demo: $(STAMP) system-deps
	$(PY) deploy/local/demo.py $(if $(KEEP),--keep,)

# Verdict quality on every development set beside the peer's, and the mutation kill
# rates: bench/results/quality.json and quality.md.
quality: $(STAMP)
	$(PY) -m bench.quality

bench: $(STAMP) system-deps
	$(PY) -m bench.run_all

clean:
	rm -rf $(VENV) build/typecheck .mypy_cache .ruff_cache .pytest_cache .demo

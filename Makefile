# quantcheck: the README's commands. `make demo` runs the main job, `make test` the suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv lint typecheck test test-unit test-integration test-faults demo bench system-deps clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test-unit: $(STAMP)
	$(PY) -m pytest -q -m "not integration and not faults"

test: lint
	$(PY) -m pytest -q

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

# glade: `make run` starts the main job, `make test` runs lint + types + the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: run test lint types unit bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/glade play harmonies --seats you,greedy

lint: $(STAMP)
	$(PY) -m ruff check glade tests benchmarks
	$(PY) -m ruff format --check glade tests benchmarks

types: $(STAMP)
	$(PY) -m mypy

unit: $(STAMP)
	$(PY) -m pytest

test: lint types unit

bench: $(STAMP)
	$(VENV)/bin/glade bench harmonies --players 2 --games 300

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

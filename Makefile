# glade: `make run` starts the main job, `make test` runs lint + types + the whole suite,
# `make test-fast` the tier that needs no browser, PostgreSQL, installs or server processes.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
# pytest-xdist workers for the tests that are safe together (tests/conftest.py says which)
WORKERS ?= auto

.PHONY: run test test-fast lint types unit system bench clean serve browser

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# the install also compiles the RL kernels (setup.py, glade/rl/_kernels.pyx) and the engines'
# modules (MODULES of glade/core/compiled.py, by mypyc) in place: an edited one is compiled again
ENGINE_SOURCES := $(shell $(PYTHON) -c "import runpy; m = runpy.run_path('glade/core/compiled.py'); print(*(n.replace('.', '/') + '.py' for n in m['MODULES']))")
$(STAMP): pyproject.toml setup.py glade/rl/_kernels.pyx glade/core/compiled.py $(ENGINE_SOURCES) | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/glade serve --host 127.0.0.1 --port 8000

lint: $(STAMP) node_modules/.installed
	$(PY) -m ruff check glade tests benchmarks examples
	$(PY) -m ruff format --check glade tests benchmarks examples
	npx --no-install eslint glade/web/js

# the browser client's lint: eslint with its import rules (layers, no cycle), pinned in package-lock.json
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

types: $(STAMP)
	$(PY) -m mypy

# The system packages the tests use, in one step that runs apt-get only when one is missing:
# Debian's chromium and a CJK font (the browser tests; never `playwright install`), caddy (the
# deployment's reverse proxy, whose configuration a test validates) and PostgreSQL (its tests
# run against a real server: tests/server/pg.sh).
system:
	@bash .ci/provision.sh

browser: system

# Every test: those safe together on every core (pytest-xdist), then the browser and install
# tests one at a time. tests/server/pg.sh starts PostgreSQL (idempotently) and prints its URL;
# the tests fail if it is unreachable.
unit: $(STAMP) system
	@GLADE_TEST_PG="$$(bash tests/server/pg.sh start)" || exit 1; export GLADE_TEST_PG; \
	status=0; \
	$(PY) -m pytest -n $(WORKERS) -m "not browser and not install" || status=$$?; \
	$(PY) -m pytest -p no:xdist -m "browser or install" || status=$$?; \
	bash tests/server/pg.sh stop; exit $$status

# engines, bots, RL, arena, terminal and the server on SQLite, in a few minutes
test-fast: $(STAMP)
	$(PY) -m pytest -n $(WORKERS) -m "not browser and not postgres and not install and not slow"

serve: $(STAMP)
	$(PY) -m glade.server

test: lint types unit

bench: $(STAMP)
	$(VENV)/bin/glade bench harmonies --players 2 --games 300

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# glade: `make run` starts the main job, `make test` runs lint + types + the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: run test lint types unit bench clean serve browser

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# the install also compiles the RL kernels (setup.py, glade/rl/_kernels.pyx) in place
$(STAMP): pyproject.toml setup.py glade/rl/_kernels.pyx | $(VENV)/bin/python
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

# The browser tests drive Debian's chromium through Playwright (never `playwright install`); a CJK
# font makes the Korean and Chinese pages readable in their screenshots.
# caddy: the deployment's reverse proxy, whose configuration a server test validates
browser:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list :lang=ko 2>/dev/null | grep -q . || ! command -v caddy >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-zenhei caddy >/dev/null; \
	fi

# The server's storage tests also run against a real PostgreSQL on loopback: tests/server/pg.sh
# installs (apt) and starts it idempotently and prints its URL; the tests fail if it is unreachable.
unit: $(STAMP) browser
	@GLADE_TEST_PG="$$(bash tests/server/pg.sh start)" || exit 1; export GLADE_TEST_PG; \
	status=0; $(PY) -m pytest || status=$$?; bash tests/server/pg.sh stop; exit $$status

serve: $(STAMP)
	$(PY) -m glade.server

test: lint types unit

bench: $(STAMP)
	$(VENV)/bin/glade bench harmonies --players 2 --games 300

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

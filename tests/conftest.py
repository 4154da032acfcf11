"""The test tiers, given by where a test lives and what it uses (a test added to these folders,
or using these fixtures, is tiered without an edit here):

- ``browser``: tests/web (Debian's chromium through Playwright, a live server each);
- ``install``: tests/install (virtual environments, pip, wheels built in the checkout);
- ``postgres``: any test using the test PostgreSQL (the ``pg_url`` or ``cluster_db`` fixtures,
  or a ``postgresql`` parameter of ``db_url``/``any_client``);
- ``slow``: tests that start real server processes (the ``live``, ``live_client``, ``pair``
  fixtures, a ``live`` parameter) or whose file is listed in ``SLOW_FILES`` (measured: each
  takes 20 s or more on the 2-core machine).

``make test-fast`` runs what is none of these; ``make test`` runs everything (browser and
install tests one at a time, the rest on every core with pytest-xdist: each worker has its own
PostgreSQL databases and its own range of ports).
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
TIERS = {
    "browser": "drives Debian's chromium (tests/web)",
    "install": "builds and installs the package in fresh environments (tests/install)",
    "postgres": "needs the test PostgreSQL (GLADE_TEST_PG)",
    "slow": "starts server processes or runs for 20 s or more",
}
FOLDERS = {"web": "browser", "install": "install"}
POSTGRES_FIXTURES = {"pg_url", "cluster_db"}
SLOW_FIXTURES = {"live", "live_client", "pair"}
SLOW_FILES = {
    "server/test_server_restart.py",
    "server/test_server_attacks.py",
    "server/test_server_operations.py",
    "server/test_server_cheap_actions.py",
    "server/test_server_two_processes.py",
    "arena/test_arena_ray.py",
    "rl/test_rl_example.py",
    "rl/test_rl_copies.py",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, what in TIERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")


def tiers_of(item: pytest.Item) -> set[str]:
    """The tiers a collected test belongs to (none: the fast tier)."""
    found: set[str] = set()
    where = Path(str(item.path)).resolve().relative_to(TESTS)
    folder = FOLDERS.get(where.parts[0])
    if folder is not None:
        found.add(folder)
    names = set(getattr(item, "fixturenames", ()))
    params = set()
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        params = {str(v) for v in callspec.params.values()}
    if names & POSTGRES_FIXTURES or "postgresql" in params:
        found.add("postgres")
    if names & SLOW_FIXTURES or "live" in params or where.as_posix() in SLOW_FILES:
        found.add("slow")
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for tier in tiers_of(item):
            item.add_marker(getattr(pytest.mark, tier))

"""How the suite is cut and ordered (hooks imported by tests/conftest.py).

Marks, given at collection from what a test needs, so that a part of the suite can be chosen with ``-m``:

- ``browser``: Chromium (tests/browser);
- ``postgres``: the PostgreSQL server (the ``postgresql`` case of the store's backends);
- ``redis``: the Redis server (the ``redis_url`` fixture, the cases on a Redis backend);
- ``processes``: other processes of its own: servers started and killed, private Redis and PostgreSQL servers,
  ``pg_dump``, a second Python (``PROCESS_FILES``).

``make check`` runs what has none of them; ``make flakes`` runs what has any of them, again and again in random
orders (tests/flakes.py).

Order: test files run longest first (their measured seconds in tests/durations.json, written by
``python -m tests.durations``), so that with each file whole on one worker (``--dist loadfile``) the two workers
end together instead of one waiting for the other's last long file. A file not yet measured runs first. When
pytest-randomly shuffles the order (``make flakes``), its shuffle comes after and stands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
DURATIONS = TESTS / "durations.json"

PROCESS_FILES = frozenset({
    "tests/store/test_crash.py",
    "tests/test_cores.py",
    "tests/test_cli.py",
    "tests/test_cli_exchange.py",
    "tests/lab/test_lab.py",
    "tests/web/test_backup_restore.py",
    "tests/web/test_fault_postgres.py",
    "tests/web/test_fault_redis.py",
    "tests/web/test_open_seat.py",
    "tests/web/test_passwords.py",
    "tests/web/test_server_crash.py",
    "tests/web/test_worker_kill.py",
    "tests/web/test_workers.py",
})
"""Files whose tests start processes of their own (a server, a database server, a second interpreter)."""

MARKS = ("browser", "postgres", "redis", "processes")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Debian's Chromium (tests/browser)")
    config.addinivalue_line("markers", "postgres: needs the PostgreSQL server")
    config.addinivalue_line("markers", "redis: needs the Redis server")
    config.addinivalue_line("markers", "processes: starts processes of its own (servers, database servers)")


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _marks(item: pytest.Item) -> list[str]:
    path = _file(item)
    callspec = getattr(item, "callspec", None)
    values = set(callspec.id.split("-")) if callspec is not None else set()
    fixtures = set(getattr(item, "fixturenames", ()))
    found = []
    if path.startswith("tests/browser/"):
        found.append("browser")
    if "postgresql" in values:
        found.append("postgres")
    if "redis_url" in fixtures or "redis" in values:
        found.append("redis")
    if path in PROCESS_FILES:
        found.append("processes")
    return found


def measured() -> dict[str, float]:
    try:
        data: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return data


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks given before ``-m`` chooses; the order set before pytest-randomly (when on) shuffles it."""
    for item in items:
        for mark in _marks(item):
            item.add_marker(mark)
    seconds = measured()
    unknown = max(seconds.values(), default=0.0) + 1.0
    index = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda item: (-seconds.get(_file(item), unknown), _file(item), index[id(item)]))

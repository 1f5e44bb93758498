"""The server's chance, seeded for a test: what it draws when a command leaves it to chance (a deal without
roles, a first speaker or a lot without a seat) comes from ``random.SystemRandom`` in production
(``sportmafia.web.games``); a test that posts such a command draws from ``random.Random(SERVER_SEED)``
instead, so that the same deal and the same draws come every run and a failure can be run again.

A module whose tests post such commands uses the fixture for all of them::

    from .seeded_draws import seeded_server

    pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""

from __future__ import annotations

import random

import pytest

from sportmafia.web import games

SERVER_SEED = 20260301
"""The seed of the server's draws in a test (any fixed number: a test states the course it needs)."""


@pytest.fixture
def seeded_server(monkeypatch: pytest.MonkeyPatch) -> random.Random:
    """The server's draws for this test from a generator seeded with :data:`SERVER_SEED` (undone after it)."""
    rng = random.Random(SERVER_SEED)
    monkeypatch.setattr(games, "_system_random", rng)
    return rng

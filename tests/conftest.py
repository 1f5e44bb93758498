"""Shared helpers for the engine tests: build games and drive them step by step."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from argon2 import PasswordHasher
from hypothesis import settings

from sportmafia.engine import Advance, DealCards, Game, RuleViolation
from sportmafia.rules import RuleSet, get_ruleset
from sportmafia.web.security import use_password_hasher
from tests.suite import pytest_collection_modifyitems, pytest_configure

__all__ = ["pytest_collection_modifyitems", "pytest_configure"]

# Passwords in this process are hashed and checked with argon2id at its lowest cost (one pass over 1 MiB instead of
# three over 64 MiB): a web test logs in several times, and at the real cost each login took 0.3 s. The checks are
# the same code; the real parameters are what a server uses (tests/web/test_passwords.py), and the servers the
# browser and process tests start run with them.
use_password_hasher(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))

# The property tests draw the same examples in every run (each test's own count, stated in its settings), so
# that the suite fails for a reason and a failure can be run again. To search for new examples on purpose:
# `pytest --hypothesis-profile=explore tests/engine` (or `--hypothesis-seed=N`).
settings.register_profile("suite", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("suite")

CLUB_DECK = ("civilian", "civilian", "don", "mafia", "civilian", "sheriff", "mafia", "civilian", "civilian",
             "civilian")
"""A fixed club deal: Don at 3, mafia at 4 and 7, Sheriff at 6."""


def new_game(preset: str | RuleSet = "club", players: int | None = None,
             roles: Sequence[str] | None = None) -> Game:
    rs = get_ruleset(preset) if isinstance(preset, str) else preset
    n = players or rs.min_players
    game = Game(rs, n)
    if roles is None and rs.name in ("club", "fiim") and n == 10:
        roles = CLUB_DECK
    if roles is not None:
        game.execute(DealCards(roles=tuple(roles)))
    return game


def advance_until(game: Game, step: str, day: int | None = None, seat: int | None = None,
                  limit: int = 500) -> None:
    """Press "Next" until the game reaches ``step`` (and ``day``/``seat`` if given)."""
    for _ in range(limit):
        if game.step == step and (day is None or game.day == day) and (seat is None or game.seat == seat):
            return
        game.execute(Advance(), random.Random(0))
    raise AssertionError(f"never reached {step} day={day} seat={seat}; at {game.step} day {game.day}")


def refused(game: Game, command: object, code: str | None = None, clause: str | None = None) -> RuleViolation:
    """Assert ``command`` is refused and the game is unchanged; return the violation."""
    before = game.snapshot()
    log_len = len(game.log)
    with pytest.raises(RuleViolation) as info:
        game.execute(command, random.Random(0))  # type: ignore[arg-type]
    assert game.snapshot() == before
    assert len(game.log) == log_len
    if code is not None:
        assert info.value.code == code, info.value
    if clause is not None:
        assert info.value.clause == clause, info.value
    assert info.value.message_ru and info.value.message_en
    return info.value

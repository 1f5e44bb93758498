"""Tests of the tournament layer, and helpers that play real engine games for them."""

from __future__ import annotations

import random
from collections.abc import Callable

from sportmafia.bots import PlausibleTable
from sportmafia.engine import Command, Game
from sportmafia.rules import get_ruleset
from sportmafia.tournament import GameResult, from_game

Hook = Callable[[Game], Command | None]


def play(preset: str, players: int, seed: int, hook: Hook | None = None) -> Game:
    """A whole plausible game; ``hook`` may play a command of its own before the table's next one."""
    rng = random.Random(seed)
    game = Game(get_ruleset(preset), players)
    table = PlausibleTable(game, rng)
    for _ in range(5000):
        if game.over:
            break
        cmd = hook(game) if hook else None
        game.execute(cmd if cmd is not None else table.next_command(), rng)
    assert game.over
    return game


def ids(n: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(1, n + 1)]


def result_of(preset: str, players: int, seed: int, hook: Hook | None = None, prefix: str = "p") -> GameResult:
    return from_game(play(preset, players, seed, hook), ids(players, prefix), game_id=f"{preset}-{seed}")

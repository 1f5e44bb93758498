"""Tests of the seasons layer: a game's facts, statistics and ratings over real engine games."""

from __future__ import annotations

import json
from pathlib import Path

from sportmafia.bots import play_plausible, play_random
from sportmafia.engine import Game, replay
from sportmafia.rules import get_ruleset

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def golden(name: str) -> Game:
    """A golden record of tests/golden, replayed by the engine."""
    with open(GOLDEN / f"{name}.json", encoding="utf-8") as f:
        return replay(json.load(f))


def plausible(preset: str, players: int, seed: int) -> Game:
    """A whole plausible game (the same seed plays the same game)."""
    game = play_plausible(get_ruleset(preset), players, seed)
    assert game.over
    return game


def chaotic(preset: str, players: int, seed: int) -> Game:
    """A whole random game: undos, removals, judges' decisions and all (the same seed plays the same game)."""
    game = play_random(get_ruleset(preset), players, seed)
    assert game.over
    return game

"""Reading a game piecewise, as a live server does: folding the log in pieces (``Game.fold_in``) and asking
for the visible events from a seq on (``visible_events(game, viewer, since)``) give what reading it whole
gives."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sportmafia.bots import random_command
from sportmafia.engine import Game, visible_events
from sportmafia.rules import get_ruleset

TABLES = [("club", 10), ("fiim", 10), ("tournament", 13)]
RARE = {"foul": 0.05, "sanction": 0.01, "remove": 0.004, "undo": 0.05}


def _play(table: tuple[str, int], seed: int) -> tuple[Game, random.Random]:
    """A random game of ``table`` (preset, players) played to its end, and a generator seeded alike."""
    preset, n = table
    rng = random.Random(seed)
    game = Game(get_ruleset(preset), n)
    while not game.over:
        game.execute(random_command(game, rng, RARE), rng)
    return game, random.Random(seed)


random_games = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""40 examples of (table, seed) each."""
TABLE_AND_SEED = {"table": st.sampled_from(TABLES), "seed": st.integers(0, 2**32 - 1)}


@random_games
@given(**TABLE_AND_SEED)
def test_events_from_a_seq_are_the_tail_of_the_whole_feed(table: tuple[str, int], seed: int) -> None:
    game, rng = _play(table, seed)
    n = game.n
    for viewer in ("host", "spectator", rng.randint(1, n)):
        whole = visible_events(game, viewer)
        for since in sorted(rng.sample(range(len(game.log) + 1), min(6, len(game.log) + 1))):
            assert visible_events(game, viewer, since) == [e for e in whole if e["seq"] >= since]


@random_games
@given(**TABLE_AND_SEED)
def test_folding_in_pieces_gives_the_game_folded_whole(table: tuple[str, int], seed: int) -> None:
    game, rng = _play(table, seed)
    n = game.n
    cut = 0
    piecewise = Game.from_events(game.rules, n, [])
    while cut < len(game.log):
        step = rng.randint(1, 8)
        piecewise.fold_in(game.log[cut:cut + step])
        cut = min(cut + step, len(game.log))
        assert piecewise.snapshot() == Game.from_events(game.rules, n, game.log[:cut]).snapshot()
        assert piecewise.legal_commands() == Game.from_events(game.rules, n, game.log[:cut]).legal_commands()

"""A seeded random player: a uniform choice among the legal commands, with the host's rare actions
(fouls, removals, sanctions, undo and judge decisions) kept rare so that games look like games."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from ..engine import Command, Game
from ..rules import RuleSet

RARE: dict[str, float] = {
    "foul": 0.02,
    "sanction": 0.005,
    "remove": 0.002,
    "undo": 0.01,
    "award": 0.0005,
    "team_defeat": 0.0005,
    "override": 0.0005,
    "protest": 0.3,
}


def random_command(game: Game, rng: random.Random, rare: dict[str, float] = RARE) -> Command:
    """One legal command for the host, chosen at random (templates get a reason filled in)."""
    cmds = game.legal_commands()
    common = [c for c in cmds if c.type not in rare]
    r = rng.random()
    acc = 0.0
    for kind, p in rare.items():
        acc += p
        if r < acc:
            pool = [c for c in cmds if c.type == kind]
            if pool:
                cmd = rng.choice(pool)
                break
    else:
        cmd = rng.choice(common) if common else rng.choice(cmds)
    if cmd.needs_reason:
        cmd = dataclasses.replace(cmd, reason="judge's decision")  # type: ignore[call-arg]
    return cmd


def play_random(ruleset: RuleSet, players: int, seed: int, names: Sequence[str] | None = None,
                rare: dict[str, float] = RARE, max_commands: int = 20000) -> Game:
    """Play one whole game of random legal commands; the same seed plays the same game."""
    rng = random.Random(seed)
    game = Game(ruleset, players, names)
    for _ in range(max_commands):
        if game.over:
            # after the game: a protest now and then, else stop
            protest_open = any(c.type == "protest" for c in game.legal_commands())
            if protest_open and rng.random() < rare.get("protest", 0):
                voters = tuple(s for s in range(1, players + 1) if rng.random() < 0.6)
                from ..engine import Protest

                game.execute(Protest(rng.choice(("annul", "reverse")), voters))
            break
        game.execute(random_command(game, rng, rare), rng)
    return game

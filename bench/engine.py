"""Engine benchmark: random legal games per preset, and the replay (fold) of their logs.

Prints one JSON line per preset:
{"bench": "engine", "preset": "club", "games_per_s": ..., "events_per_s": ..., "replay_events_per_s": ...}

The player picks a seeded random command among ``legal_commands()``, with the host's rare actions (fouls,
removals, undo, judge decisions) rare, as a bot or a load test would. Run: ``make bench`` or
``python bench/engine.py [--games N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from sportmafia.engine import Game
from sportmafia.rules import get_ruleset

# per command: how often the rare host actions are picked
RARE = {"foul": 0.01, "sanction": 0.002, "remove": 0.0005, "undo": 0.003, "award": 0.0001,
        "team_defeat": 0.0001, "override": 0.0001}
REASON = "bench"


def play(game: Game, rng: random.Random) -> None:
    import dataclasses

    rare = list(RARE.items())
    execute = game.execute
    legal = game.legal_commands
    rare_total = sum(RARE.values())
    choice = rng.choice
    while not game.over:
        r = rng.random()
        cmd = None
        if r < rare_total:
            acc = 0.0
            for kind, p in rare:
                acc += p
                if r < acc:
                    pool = [c for c in legal() if c.type == kind]
                    if pool:
                        cmd = choice(pool)
                    break
        if cmd is None:
            cmd = choice(legal(None, False))
        if cmd.needs_reason:
            cmd = dataclasses.replace(cmd, reason=REASON)  # type: ignore[call-arg]
        execute(cmd, rng)


def run(preset: str, games: int, seed: int) -> dict[str, object]:
    rs = get_ruleset(preset)
    rng = random.Random(seed)
    sizes = list(range(rs.min_players, rs.max_players + 1))
    played: list[Game] = []
    t0 = time.perf_counter()
    for k in range(games):
        g = Game(rs, sizes[k % len(sizes)])
        play(g, rng)
        played.append(g)
    t1 = time.perf_counter()
    events = sum(len(g.log) for g in played)
    logs = [(g.n, g.log) for g in played]
    t2 = time.perf_counter()
    for n, log in logs:
        Game.from_events(rs, n, log)
    t3 = time.perf_counter()
    return {
        "bench": "engine",
        "preset": preset,
        "games": games,
        "players": sizes[0] if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}",
        "games_per_s": round(games / (t1 - t0), 1),
        "events_per_s": round(events / (t1 - t0)),
        "replay_events_per_s": round(events / (t3 - t2)),
        "events_per_game": round(events / games, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", action="append")
    args = parser.parse_args()
    for preset in args.preset or ["club", "fiim", "tournament"]:
        print(json.dumps(run(preset, args.games, args.seed)), flush=True)


if __name__ == "__main__":
    main()

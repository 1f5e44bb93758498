"""Engine benchmark: random legal games per preset, and the replay (fold) of their logs.

Prints one JSON line per preset:
{"bench": "engine", "preset": "club", "games_per_s": ..., "events_per_s": ..., "replay_events_per_s": ...}

The player picks a seeded random command among the step's ``legal_commands()``; fouls, removals,
sanctions, undo, judge decisions and withdrawals are picked rarely (``RARE``), so that games look like
games. Times are CPU seconds of this process (one core). Run: ``make bench`` or
``python bench/engine.py [--games N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from sportmafia.engine import Event, Game
from sportmafia.rules import get_ruleset

# per command: how often the rare actions are picked. Withdrawals are rare at a real table too; picked
# uniformly they would follow half of all nominations.
RARE = {"withdraw": 0.01, "foul": 0.01, "sanction": 0.002, "remove": 0.0005, "undo": 0.003, "award": 0.0001,
        "team_defeat": 0.0001, "override": 0.0001}
REASON = "bench"


def play(game: Game, rng: random.Random) -> None:
    import dataclasses

    rare = list(RARE.items())
    execute = game.execute
    legal = game.legal_commands
    step_commands = game.step_commands
    rare_total = sum(RARE.values())
    withdrawal = game.rules.withdrawal
    choice = rng.choice
    rand = rng.random
    while not game.over:
        r = rand()
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
            cmds = step_commands()
            cmd = cmds[int(rand() * len(cmds))]
            while withdrawal and cmd.type == "withdraw":  # uniform among the others
                cmd = cmds[int(rand() * len(cmds))]
        if cmd.needs_reason:
            cmd = dataclasses.replace(cmd, reason=REASON)  # type: ignore[call-arg]
        execute(cmd, rng)


def run(preset: str, games: int, seed: int) -> dict[str, object]:
    rs = get_ruleset(preset)
    sizes = list(range(rs.min_players, rs.max_players + 1))
    warm = random.Random(seed + 1)  # untimed warm-up: the shared command and step tables fill once
    for k in range(200):
        play(Game(rs, sizes[k % len(sizes)]), warm)
    rng = random.Random(seed)
    logs: list[tuple[int, list[Event]]] = []
    t0 = time.process_time()
    for k in range(games):
        g = Game(rs, sizes[k % len(sizes)])
        play(g, rng)
        logs.append((g.n, g.log))  # kept for the replay below
    t1 = time.process_time()
    events = sum(len(log) for _, log in logs)
    t2 = time.process_time()
    for n, log in logs:
        Game.from_events(rs, n, log)
    t3 = time.process_time()
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

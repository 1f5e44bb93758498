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

from sportmafia.engine import Game
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
    scale = 1.0 / (1.0 - rare_total)
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
            u = (r - rare_total) * scale if r >= rare_total else rand()  # uniform in [0, 1)
            cmd = cmds[int(u * len(cmds))]
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
    play_s = replay_s = 0.0
    events = 0
    clock = time.process_time
    for k in range(games):
        t0 = clock()
        g = Game(rs, sizes[k % len(sizes)])
        play(g, rng)
        t1 = clock()
        Game.from_events(rs, g.n, g.log)  # the replay (fold) of the same log
        t2 = clock()
        play_s += t1 - t0
        replay_s += t2 - t1
        events += len(g.log)
    return {
        "bench": "engine",
        "preset": preset,
        "games": games,
        "players": sizes[0] if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}",
        "games_per_s": round(games / play_s, 1),
        "events_per_s": round(events / play_s),
        "replay_events_per_s": round(events / replay_s),
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

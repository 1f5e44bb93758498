"""Bots benchmark: whole games of one agent at every seat of a ``club`` table (``sportmafia.bots.table``).

Prints one JSON line per agent:
{"bench": "bots", "agent": ..., "games": ..., "games_per_s": ..., "red_win": ..., "ci95": [...],
 "decision_p99_ms": ..., "results": {...},
 "round1_single_votes": {...}, "real_round1_single_votes": {...}, "machine_loop_ms": ...}

``games_per_s``: whole games (the table's host part, every seat's feed and every agent's choices) per CPU
second of this process (one core). ``red_win``: the share of games red won, with its Wilson 95% interval.
``decision_p99_ms``: an agent's answer (``act`` or ``speak``, its feed brought up to date first), p99.
``round1_single_votes``: the first round's single votes (``sportmafia.bots.calibration``) beside the figures of
1,237 real rated games (``real_round1_single_votes``). ``machine_loop_ms``: a fixed pure-Python loop timed after
the games (as bench/online.py's), the machine's speed at that moment: compare figures only at a like one.
Run: ``make bench`` or ``python bench/bots.py [--games N] [--preset club] [--agents random,baseline]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sportmafia.bots import AGENTS, Agent
from sportmafia.bots.calibration import REAL, single_votes
from sportmafia.bots.claims import Claim, Said
from sportmafia.bots.table import play_table
from sportmafia.engine import Command
from sportmafia.rules import get_ruleset
from sportmafia.seasons.stats import wilson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from online import machine_loop_ms  # the benches' one measure of the machine


class Timed(Agent):
    """An agent timed: each answer (its feed brought up to date, then ``act`` or ``speak``) in ``times``."""

    def __init__(self, inner: Agent, times: list[float]) -> None:
        self.inner, self.times, self.pending = inner, times, 0.0

    def start(self, seat: int, rules: Any, players: int, rng: Any) -> None:
        self.inner.start(seat, rules, players, rng)

    def observe(self, entries: Sequence[dict[str, Any]], claims: Sequence[Said]) -> None:
        started = time.perf_counter()
        self.inner.observe(entries, claims)
        self.pending += time.perf_counter() - started

    def _answered(self, started: float) -> None:
        self.times.append(self.pending + time.perf_counter() - started)
        self.pending = 0.0

    def speak(self) -> list[Claim]:
        started = time.perf_counter()
        out = self.inner.speak()
        self._answered(started)
        return out

    def act(self, legal: Sequence[Command]) -> Command | None:
        started = time.perf_counter()
        out = self.inner.act(legal)
        self._answered(started)
        return out


def run(agent: str, preset: str, games: int, seed: int) -> dict[str, Any]:
    rules = get_ruleset(preset)
    n = rules.min_players
    for k in range(5):  # warm-up: the engine's shared tables fill once per process
        play_table(rules, [AGENTS[agent]() for _ in range(n)], seed - 1 - k)
    winners: Counter[str] = Counter()
    results: Counter[str] = Counter()
    cpu = time.process_time()
    for k in range(games):
        played = play_table(rules, [AGENTS[agent]() for _ in range(n)], seed + k)
        winners[str(played.game.winner)] += 1
        results[played.game.result] += 1
    cpu = time.process_time() - cpu
    # the first round's votes, from the same games played again apart (keeping every game above for them made
    # the timed games' garbage collections slower, some 6% of the figure)
    votes = single_votes(play_table(rules, [AGENTS[agent]() for _ in range(n)], seed + k).game for k in range(games))
    times: list[float] = []
    for k in range(max(1, games // 10)):  # the answers' times, apart (timing slows the games above)
        play_table(rules, [Timed(AGENTS[agent](), times) for _ in range(n)], seed + k)
    times.sort()
    lo, hi = wilson(winners["red"], games)
    return {"bench": "bots", "agent": agent, "preset": preset, "players": n, "games": games,
            "games_per_s": round(games / cpu, 1), "red_win": round(winners["red"] / games, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "decision_p99_ms": round(times[int(len(times) * 0.99)] * 1000, 2) if times else None,
            "results": dict(results), "round1_single_votes": votes.figures(),
            "real_round1_single_votes": REAL, "machine_loop_ms": machine_loop_ms()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--preset", default="club")
    parser.add_argument("--agents", default=",".join(sorted(AGENTS)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for agent in args.agents.split(","):
        print(json.dumps(run(agent, args.preset, args.games, args.seed)), flush=True)


if __name__ == "__main__":
    main()

"""Seating benchmark: the generator on real tournament sizes, one JSON line each with the quality figures
(``sportmafia.tournament.seating.quality``, as in tools/seating_quality.py) and the seconds it took.

Targets: pair RMS within 2% of pair_rmse_bound (within 0.05 where the bound is near 0), seat RMS equal to
seat_rmse_floor, under 10 s of CPU each. Also printed: the tighter lower bounds of the module
(``pair_rmse_least``, ``seat_rmse_least``) and whether the figures reach them.

The constrained case (``--only constrained``): 52 players, tables of 13, 8 rounds, 6 clubs of 4-10 players kept
apart as far as possible and 4 fixed hosts who do not host their own clubs: under 10 s, pair RMS within 5% of
the same size unconstrained, seats at their floor, no host's conflict broken.

The strength case (``--only strength``): the same size with ratings, each round's tables within 150 of their
even share and everybody's opponents equally strong (and with the opponents' strength alone, and neither): the
spread and standard deviation of the players' opponents' average rating. The mid-tournament case (``--only mid-tournament``): 36
players, 10 rounds, one leaves and one arrives after round 4: the places that change and the pair spread, mended
with the fewest moves against seated anew.

Run: ``python bench/seating.py [--seed 1] [--only NAME] [--compare [--compare-python PYTHON] [--cap 300]]``.
``--compare`` also runs the public MafSchedule generator (PyPI ``mafia-schedule``, not a dependency of this
project) with the defaults of its command-line driver on the sizes it supports (tables of 10), in a separate
process (``--compare-python``: an interpreter where ``mafia_schedule`` imports; by default this one) with a
time cap, and scores its schedule with the same figures.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from sportmafia.tournament.seating import Seating, generate, quality, regenerate
from sportmafia.tournament.seating.constraints import Constraints, opponent_spread, rating_excess
from sportmafia.tournament.seating.repair import repair

SIZES: list[tuple[str, int, int, tuple[int, int]]] = [
    ("20x10 on 2 tables", 20, 10, (10, 10)),
    ("30x10 on 3 tables", 30, 10, (10, 10)),
    ("16x16 on 1 table", 16, 16, (10, 10)),
    ("28x14 on 2 tables of 10", 28, 14, (10, 10)),
    ("40x9 on 13+13+14", 40, 9, (12, 16)),
    ("52x8 on 4 tables of 13", 52, 8, (13, 13)),
]

# MafSchedule, run the way its driver does by default: opponents 10 runs x 10,000 iterations (no expected
# zero or single pairs), then seats 10 runs x [10,000, 10,000]. Its progress output goes to stderr; the
# last line of stdout is the schedule in the `seat --out` format.
MAFSCHEDULE = r"""
import contextlib, json, random, sys
import mafia_schedule as ms
players, tables, rounds, seed = (int(x) for x in sys.argv[1:5])
attempts = tables * 10 * rounds // players
conf = ms.Configuration(numPlayers=players, numTables=tables, numRounds=rounds,
                        numGames=players * attempts // 10, numAttempts=attempts)
conf.validate()
random.seed(seed)
with contextlib.redirect_stdout(sys.stderr):
    opponents = ms.OptimizeOpponents(verbose=False)
    opponents.expectedZeroPairs = 0
    opponents.expectedSinglePairs = 0
    schedule = opponents.optimize(conf, 10, 10_000)
    schedule.generateSlotsFromGames()
    seats = ms.OptimizeSeats(schedule, verbose=False)
    seats.callbackBetterSchedule = None
    seats.optimize(10, [10_000, 10_000])
games = [{"round": r, "table": t, "seats": list(schedule.games[gid].players)}
         for r, rnd in enumerate(schedule.rounds) for t, gid in enumerate(rnd.gameIds)]
print(json.dumps({"players": players, "games": games}))
"""


def _figures(q: dict[str, Any]) -> dict[str, Any]:
    bound = q["pair_rmse_bound"]
    return {
        "table_sizes": q["table_sizes"], "games_per_player": q["games_per_player"],
        "pair_min": q["pair_min"], "pair_max": q["pair_max"],
        "pair_rmse": round(q["pair_rmse"], 4), "pair_rmse_bound": round(bound, 4),
        "seat_rmse": round(q["seat_rmse"], 4), "seat_rmse_floor": round(q["seat_rmse_floor"], 4),
        "pair_rmse_least": round(q["pair_rmse_least"], 4), "seat_rmse_least": round(q["seat_rmse_least"], 4),
        "pair_ok": q["pair_rmse"] <= (bound + 0.05 if bound < 0.05 else bound * 1.02) + 1e-9,
        "seat_ok": q["seat_rmse"] <= q["seat_rmse_floor"] + 1e-4,
        "pair_least_ok": q["pair_rmse"] <= q["pair_rmse_least"] * 1.02 + 1e-9,
        "seat_least_ok": q["seat_rmse"] <= q["seat_rmse_least"] + 1e-4,
    }


# the constrained case: 52 players at 4 tables of 13 for 8 rounds, 6 clubs of 4-10 players kept apart as far as
# possible, and 4 fixed hosts of the first 4 clubs (a host does not host his own club's players)
CLUBS = [10, 10, 9, 9, 8, 6]


def _club_meetings(seating: Seating, clubs: list[tuple[int, ...]]) -> int:
    club = {p: i for i, members in enumerate(clubs) for p in members}
    return sum(1 for g in seating.games for i, x in enumerate(g.seats) for y in g.seats[i + 1:] if club[x] == club[y])


def constrained(seed: int) -> dict[str, Any]:
    """The constrained case against the same size unconstrained: times, figures, the clubs' meetings, and the
    cost of the constraints in pair spread (``pair_cost_pct``, target within 5%)."""
    clubs, first = [], 0
    for k in CLUBS:
        clubs.append(tuple(range(first, first + k)))
        first += k
    cons = Constraints(groups=tuple(clubs), banned=tuple((p, t, None) for t in range(4) for p in clubs[t]))
    runs = {}
    for name, c in (("unconstrained", None), ("constrained", cons)):
        start = time.process_time()
        seating = generate(52, 8, 13, seed=seed, constraints=c)
        runs[name] = (seating, time.process_time() - start)
    (free, free_cpu), (held, held_cpu) = runs["unconstrained"], runs["constrained"]
    q_free, q_held = quality(free), quality(held)
    banned_broken = sum(1 for g in held.games for p in g.seats if p in clubs[g.table])
    cost = (q_held["pair_rmse"] / q_free["pair_rmse"] - 1) * 100
    return {
        "bench": "seating", "size": "52x8 on 4 tables of 13, 6 clubs apart, 4 fixed hosts", "players": 52,
        "rounds": 8, **_figures(q_held), "cpu_seconds": round(held_cpu, 2), "time_ok": held_cpu < 10,
        "unconstrained_pair_rmse": round(q_free["pair_rmse"], 4), "unconstrained_cpu_seconds": round(free_cpu, 2),
        "pair_cost_pct": round(cost, 2), "pair_cost_ok": cost <= 5,
        "club_meetings": _club_meetings(held, clubs), "unconstrained_club_meetings": _club_meetings(free, clubs),
        "hosts_conflicts_broken": banned_broken,
    }


def strength(seed: int) -> dict[str, Any]:
    """52 players with ratings (1200-2200, spread like a club's), tables of 13, 8 rounds, each round's tables
    within 150 of their even share and everybody's opponents equally strong: the time, the worst table, the
    spread of the opponents' average rating against the unbalanced seating's, and the pair spread's cost."""
    rng = random.Random(seed)
    ratings = tuple(round(rng.gauss(1600, 200), 1) for _ in range(52))
    cons = Constraints(ratings=ratings, tolerance=150.0)
    start = time.process_time()
    held = generate(52, 8, 13, seed=seed, constraints=cons)
    cpu = time.process_time() - start
    start = time.process_time()
    even = generate(52, 8, 13, seed=seed, constraints=Constraints(ratings=ratings))  # opponents' strength only
    even_cpu = time.process_time() - start
    free = generate(52, 8, 13, seed=seed)
    worst = max(max(rating_excess([g.seats for g in held.games if g.round == r], ratings)) for r in range(8))
    q_held, q_free = quality(held), quality(free)

    def opponents(s: Seating) -> tuple[float, float]:
        """The spread (largest minus smallest) and the standard deviation of the players' opponents' average."""
        total, count = [0.0] * 52, [0] * 52
        for g in s.games:
            table = sum(ratings[p] for p in g.seats)
            for p in g.seats:
                total[p] += table - ratings[p]
                count[p] += len(g.seats) - 1
        avg = [total[p] / count[p] for p in range(52)]
        return round(opponent_spread([g.seats for g in s.games], ratings), 1), round(statistics.pstdev(avg), 2)

    return {
        "bench": "seating", "size": "52x8 on 4 tables of 13, tables balanced by rating within 150", "players": 52,
        "rounds": 8, **_figures(q_held), "cpu_seconds": round(cpu, 2), "time_ok": cpu < 10,
        "worst_table_off": round(worst, 1),
        "opponents_spread_sd": opponents(held), "opponents_only_spread_sd": opponents(even),
        "opponents_only_cpu_seconds": round(even_cpu, 2), "unbalanced_opponents_spread_sd": opponents(free),
        "pair_cost_pct": round((q_held["pair_rmse"] / q_free["pair_rmse"] - 1) * 100, 2),
    }


def mid_tournament(seed: int) -> dict[str, Any]:
    """36 players at tables of 10 (6 sit out a round), 10 rounds; after round 4 one withdraws and one arrives:
    the places that change in the remaining rounds and the pair spread, mended with the fewest moves against
    seated anew for the best balance."""
    old = generate(36, 10, 10, seed=seed)
    gone = next(g.seats[0] for g in old.games if g.round == 4)
    line: dict[str, Any] = {"bench": "seating", "size": "36x10 tables of 10, after round 4: 1 leaves, 1 arrives"}
    for name, run in (("fewest", lambda: repair(old, 4, (10, 10), players=37, dropped={gone}, seed=seed)),
                      ("balance", lambda: regenerate(old, 4, dropped={gone}, players=37, seed=seed))):
        start = time.process_time()
        new = run()
        cpu = time.process_time() - start
        before = {(g.round, p): (g.table, i) for g in old.games if g.round >= 4 for i, p in enumerate(g.seats)}
        after = {(g.round, p): (g.table, i) for g in new.games if g.round >= 4 for i, p in enumerate(g.seats)}
        line[f"{name}_places_changed"] = sum(1 for k in set(before) | set(after) if before.get(k) != after.get(k))
        line[f"{name}_pair_rmse"] = round(quality(new)["pair_rmse"], 4)
        line[f"{name}_cpu_seconds"] = round(cpu, 2)
    return line


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compare(name: str, players: int, rounds: int, table: tuple[int, int], seed: int, python: str,
            cap: float) -> dict[str, Any]:
    line: dict[str, Any] = {"bench": "seating", "generator": "mafia-schedule", "size": name, "players": players,
                            "rounds": rounds}
    if table != (10, 10):
        return {**line, "skipped": "MafSchedule seats tables of exactly 10 players only"}
    start, cpu_start = time.perf_counter(), _children_cpu()
    try:
        done = subprocess.run([python, "-c", MAFSCHEDULE, str(players), str(players // 10), str(rounds), str(seed)],
                              capture_output=True, text=True, timeout=cap, check=False)
    except subprocess.TimeoutExpired:
        return {**line, "timed_out": True, "cap_seconds": cap}
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu_start
    if done.returncode != 0:
        return {**line, "error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    doc = json.loads(done.stdout.strip().splitlines()[-1])
    return {**line, **_figures(quality(doc)), "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="")
    parser.add_argument("--compare", action="store_true", help="also run MafSchedule (mafia-schedule)")
    parser.add_argument("--compare-python", default=sys.executable,
                        help="a Python where mafia_schedule imports (default: this one)")
    parser.add_argument("--cap", type=float, default=300.0, help="seconds MafSchedule may take per size")
    args = parser.parse_args()
    if args.compare:
        probe = subprocess.run([args.compare_python, "-c", "import mafia_schedule"], capture_output=True, check=False)
        if probe.returncode != 0:
            print(json.dumps({"bench": "seating", "generator": "mafia-schedule",
                              "skipped": f"mafia_schedule does not import in {args.compare_python}"}), flush=True)
            args.compare = False
    for name, players, rounds, table in SIZES:
        if args.only and args.only not in name:
            continue
        start, cpu_start = time.perf_counter(), time.process_time()
        seating = generate(players, rounds, table, seed=args.seed)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        print(json.dumps({
            "bench": "seating", "size": name, "players": players, "rounds": rounds,
            **_figures(quality(seating)),
            "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2), "time_ok": cpu < 10,
        }), flush=True)
        if args.compare:
            print(json.dumps(compare(name, players, rounds, table, args.seed, args.compare_python, args.cap)),
                  flush=True)
    if not args.only or args.only in "constrained":
        print(json.dumps(constrained(args.seed)), flush=True)
    if not args.only or args.only in "strength":
        print(json.dumps(strength(args.seed)), flush=True)
    if not args.only or args.only in "mid-tournament":
        print(json.dumps(mid_tournament(args.seed)), flush=True)


if __name__ == "__main__":
    main()

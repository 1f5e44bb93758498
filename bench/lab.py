"""Rules lab benchmark: a two-variant lab run (``sportmafia.lab``) of the baseline agent at ``club`` tables, on
one worker process, on every core, and on a local Dask cluster of every core.

Prints one JSON line per figure:
{"bench": "lab", "backend": "processes", "workers": 1, "games": ..., "games_per_s": ..., "scaling": 1.0}
{"bench": "lab", "backend": "processes", "workers": N, "games": ..., "games_per_s": ..., "scaling": ...}
{"bench": "lab", "backend": "dask", "workers": N, "games": ..., "games_per_s": ..., "overhead": ...}
{"bench": "lab", "estimate": true, "cores": 16, "games": 1000000, "hours": ..., ...}

``games_per_s``: whole games per second of wall-clock time, the workers started and warmed up first (a batch
each), the best of ``--repeats`` runs of each configuration taken in turn. ``scaling``: the rate on N workers
over N times the rate on one (1.0 is linear). ``overhead``: how much
longer the Dask cluster takes than plain processes at the same number of workers. ``loadavg_1m``: the machine's
load when the figure was taken (above the number of cores, other processes shared them). The estimate: a million games
(two variants of 500,000) on 16 cores at the best rate of one worker per CPU second of its own (the figure
another machine's load disturbs least) and the scaling measured here (at most 1), an estimate, not a run.
Run: ``make bench`` or ``python bench/lab.py [--games 1600] [--batch 100] [--repeats 2] [--agent baseline] [--no-dask]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from sportmafia.lab import Plan, run
from sportmafia.lab.backends import Backend, Dask, Processes, cores, dask_available

VARIANTS = ("club", "club+lift_two_at_four=false")


def timed(pool: Backend, plan: Plan) -> tuple[float, float]:
    """Games a second of wall-clock time of ``plan`` on ``pool``, and games a CPU second of the workers."""
    start = time.perf_counter()
    summary = run(plan, pool=pool)
    elapsed = time.perf_counter() - start
    games = sum(v["games"] for v in summary["variants"])
    return games / elapsed, games / summary["cpu_s"]


def warm(pool: Backend, plan: Plan) -> Backend:
    """The pool after a warm-up batch on every worker (its processes started, the modules imported)."""
    run(Plan(plan.specs[:1], plan.agent, pool.workers * 2, batch_size=2, seed=10**6), pool=pool)
    return pool


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1600,
                        help="games per variant in one repeat (long enough that the pools' start does not weigh)")
    parser.add_argument("--repeats", type=int, default=2, help="repeats of each configuration, the best kept")
    parser.add_argument("--agent", default="baseline")
    parser.add_argument("--batch", type=int, default=100, help="games in a batch (the lab's own default is 200)")
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args(argv)
    n = cores()
    plan = Plan(VARIANTS, args.agent, args.games, batch_size=args.batch, seed=1)
    games = args.games * len(VARIANTS)
    lines: list[dict[str, Any]] = []

    def emit(line: dict[str, Any]) -> None:
        line["loadavg_1m"] = round(os.getloadavg()[0], 2)  # a busy machine (the others' processes) slows every figure
        lines.append(line)
        print(json.dumps(line), flush=True)

    reason = "--no-dask" if args.no_dask else dask_available()
    pools: dict[str, Backend] = {"1": warm(Processes(1), plan)}
    if n > 1:
        pools[str(n)] = warm(Processes(n), plan)
    if not reason:
        pools["dask"] = warm(Dask("local", n), plan)
    best: dict[str, float] = {}
    cpu_rates: list[float] = []
    try:
        for _ in range(args.repeats):  # interleaved, so that a burst of the others' load hits each one alike
            for name, pool in pools.items():
                rate, cpu_rate = timed(pool, plan)
                best[name] = max(best.get(name, 0.0), rate)
                cpu_rates.append(cpu_rate)
    finally:
        for pool in pools.values():
            pool.close()
    best.setdefault(str(n), best["1"])
    for workers in sorted({1, n}):
        rate = best[str(workers)]
        emit({"bench": "lab", "backend": "processes", "agent": args.agent, "workers": workers,
              "games": games * args.repeats, "games_per_s": round(rate, 1),
              "scaling": round(rate / (workers * best["1"]), 3)})
    if reason:
        emit({"bench": "lab", "backend": "dask", "skipped": reason})
    else:
        emit({"bench": "lab", "backend": "dask", "agent": args.agent, "workers": n, "games": games * args.repeats,
              "games_per_s": round(best["dask"], 1), "overhead": round(best[str(n)] / best["dask"] - 1, 3)})
    per_core = max(cpu_rates)
    scaling = min(1.0, best[str(n)] / (n * best["1"]))
    emit({"bench": "lab", "estimate": True, "cores": 16, "games": 1_000_000, "variants": 2, "agent": args.agent,
          "per_core_games_per_s": round(per_core, 1), "assumed_scaling": round(scaling, 3),
          "hours": round(1_000_000 / (per_core * 16 * scaling) / 3600, 2),
          "hours_at_linear_scaling": round(1_000_000 / (per_core * 16) / 3600, 2),
          "note": "an estimate from the games per CPU second of a worker and the scaling measured here, not a run "
                  "on 16 cores"})
    return lines


if __name__ == "__main__":
    main()

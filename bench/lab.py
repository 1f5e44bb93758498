"""Rules lab benchmark: a two-variant lab run (``sportmafia.lab``) of the baseline agent at ``club`` tables, on
one worker process, on every core, and on a local Dask cluster of every core.

Prints one JSON line per figure:
{"bench": "lab", "backend": "processes", "workers": 1, "games": ..., "games_per_s": ..., "scaling": 1.0}
{"bench": "lab", "backend": "processes", "workers": N, "games": ..., "games_per_s": ..., "scaling": ...}
{"bench": "lab", "backend": "dask", "workers": N, "games": ..., "games_per_s": ..., "overhead": ...}
{"bench": "lab", "estimate": true, "cores": 16, "games": 1000000, "hours": ..., ...}

``games_per_s``: whole games per second of wall-clock time, the workers started and warmed up first (a batch
each). ``scaling``: the rate on N workers over N times the rate on one (1.0 is linear). ``overhead``: how much
longer the Dask cluster takes than plain processes at the same number of workers. ``loadavg_1m``: the machine's
load when the figure was taken (above the number of cores, other processes shared them). The estimate: a million games
(two variants of 500,000) on 16 cores at the per-core rate measured here and the scaling measured here, an
estimate, not a run.
Run: ``make bench`` or ``python bench/lab.py [--games 400] [--agent baseline] [--no-dask]``.
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


def timed(pool: Backend, plan: Plan) -> float:
    """Games a second of ``plan`` on ``pool``, after a warm-up batch on every worker."""
    run(Plan(plan.specs[:1], plan.agent, pool.workers * 2, batch_size=2, seed=10**6), pool=pool)
    start = time.perf_counter()
    summary = run(plan, pool=pool)
    elapsed = time.perf_counter() - start
    games = sum(v["games"] for v in summary["variants"])
    return games / elapsed


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per variant and per configuration")
    parser.add_argument("--agent", default="baseline")
    parser.add_argument("--batch", type=int, default=25)
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

    rates: dict[int, float] = {}
    for workers in sorted({1, n}):
        pool = Processes(workers)
        try:
            rates[workers] = timed(pool, plan)
        finally:
            pool.close()
        emit({"bench": "lab", "backend": "processes", "agent": args.agent, "workers": workers, "games": games,
              "games_per_s": round(rates[workers], 1), "scaling": round(rates[workers] / (workers * rates[1]), 3)})
    reason = dask_available()
    if args.no_dask or reason:
        emit({"bench": "lab", "backend": "dask", "skipped": "--no-dask" if args.no_dask else reason})
    else:
        cluster = Dask("local", n)
        try:
            rate = timed(cluster, plan)
        finally:
            cluster.close()
        emit({"bench": "lab", "backend": "dask", "agent": args.agent, "workers": n, "games": games,
              "games_per_s": round(rate, 1), "overhead": round(rates[n] / rate - 1, 3)})
    per_core = rates[n] / n
    scaling = rates[n] / (n * rates[1])
    rate16 = per_core * 16 * min(1.0, scaling)
    emit({"bench": "lab", "estimate": True, "cores": 16, "games": 1_000_000, "variants": 2, "agent": args.agent,
          "per_core_games_per_s": round(per_core, 1), "assumed_scaling": round(min(1.0, scaling), 3),
          "hours": round(1_000_000 / rate16 / 3600, 2),
          "note": "an estimate from the per-core rate and scaling measured here, not a run on 16 cores"})
    return lines


if __name__ == "__main__":
    main()

"""Seating benchmark: the generator on real tournament sizes, one JSON line each with the quality figures
(``sportmafia.tournament.seating.quality``, as in tools/seating_quality.py) and the seconds it took.

Targets: pair RMS within 2% of pair_rmse_bound (within 0.05 where the bound is near 0), seat RMS equal to
seat_rmse_floor, under 10 s each. Run: ``python bench/seating.py [--seed 1] [--only NAME]``.
"""

from __future__ import annotations

import argparse
import json
import time

from sportmafia.tournament.seating import generate, quality

SIZES: list[tuple[str, int, int, tuple[int, int]]] = [
    ("20x10 on 2 tables", 20, 10, (10, 10)),
    ("30x10 on 3 tables", 30, 10, (10, 10)),
    ("16x16 on 1 table", 16, 16, (10, 10)),
    ("28x14 on 2 tables of 10", 28, 14, (10, 10)),
    ("40x9 on 13+13+14", 40, 9, (12, 16)),
    ("52x8 on 4 tables of 13", 52, 8, (13, 13)),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    for name, players, rounds, table in SIZES:
        if args.only and args.only not in name:
            continue
        start = time.perf_counter()
        seating = generate(players, rounds, table, seed=args.seed)
        seconds = time.perf_counter() - start
        q = quality(seating)
        bound = q["pair_rmse_bound"]
        pair_ok = q["pair_rmse"] <= (bound + 0.05 if bound < 0.05 else bound * 1.02) + 1e-9
        seat_ok = q["seat_rmse"] <= q["seat_rmse_floor"] + 1e-4
        print(json.dumps({
            "bench": "seating", "size": name, "players": players, "rounds": rounds,
            "table_sizes": q["table_sizes"], "games_per_player": q["games_per_player"],
            "pair_min": q["pair_min"], "pair_max": q["pair_max"],
            "pair_rmse": round(q["pair_rmse"], 4), "pair_rmse_bound": round(bound, 4),
            "seat_rmse": round(q["seat_rmse"], 4), "seat_rmse_floor": round(q["seat_rmse_floor"], 4),
            "seconds": round(seconds, 2), "pair_ok": pair_ok, "seat_ok": seat_ok, "time_ok": seconds < 10,
        }), flush=True)


if __name__ == "__main__":
    main()

"""The quality figures of a schedule (:func:`quality`): those of ``tools/seating_quality.py`` and the two
tighter bounds of :mod:`.bounds`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from .bounds import (
    best_counts,
    pair_rmse_bound,
    pair_rmse_bound_mixed,
    pair_sq_least,
    rmse_floor,
    seat_ideal,
    seat_sq_least,
)
from .model import Seating


def quality(seating: Seating | Mapping[str, Any]) -> dict[str, Any]:
    """The balance figures of a schedule and their bounds (as in ``tools/seating_quality.py``, unrounded),
    and two tighter bounds of this module: ``pair_rmse_least`` (the larger of the scorer's bound and
    :func:`pair_sq_least` for these rounds' table sizes) and ``seat_rmse_least`` (:func:`seat_sq_least`:
    the least seat RMS any order of the seats of these games can reach)."""
    doc = seating.to_json() if isinstance(seating, Seating) else seating
    n = int(doc["players"])
    games = [list(g["seats"]) for g in doc["games"]]
    rounds = {g["round"] for g in doc["games"]}
    plays = [0] * n
    for seats in games:
        for p in seats:
            plays[p] += 1
    meet = [[0] * n for _ in range(n)]
    for seats in games:
        for a, b in combinations(seats, 2):
            meet[a][b] += 1
            meet[b][a] += 1
    pairs = [meet[a][b] for a, b in combinations(range(n), 2)]
    sizes = sorted({len(s) for s in games})
    counts = sorted(set(plays))
    gpp = sum(plays) / n
    mean = sum(pairs) / len(pairs)
    pair_rmse = math.sqrt(sum((m - mean) ** 2 for m in pairs) / len(pairs))
    if len(sizes) == 1 and len(counts) == 1:
        bound = pair_rmse_bound(n, len(games), len(rounds), sizes[0], gpp)
    elif len(counts) == 1:
        per_round: dict[Any, list[int]] = {}
        for g in doc["games"]:
            per_round.setdefault(g["round"], []).extend(g["seats"])
        every_round = all(sorted(seated) == list(range(n)) for seated in per_round.values())
        bound = max(rmse_floor(mean), pair_rmse_bound_mixed(n, [len(g) for g in games], len(rounds), every_round,
                                                            counts[0]))
    else:
        bound = rmse_floor(mean)
    kmax = sizes[-1]
    ideal = seat_ideal(n, games, kmax)
    have = [[0] * kmax for _ in range(n)]
    for seats in games:
        for s, p in enumerate(seats):
            have[p][s] += 1
    dev2 = sum((have[p][s] - ideal[p][s]) ** 2 for p in range(n) for s in range(kmax))
    floor2 = 0.0
    for p in range(n):
        best = best_counts(ideal[p])
        floor2 += sum((best[s] - ideal[p][s]) ** 2 for s in range(kmax))
    cells = n * kmax
    by_round: dict[int, list[int]] = {}
    for g in doc["games"]:
        by_round.setdefault(g["round"], []).append(len(g["seats"]))
    least_sq = pair_sq_least(n, list(by_round.values()), counts[0])
    return {
        "players": n,
        "games": len(games),
        "rounds": len(rounds),
        "table_sizes": sizes,
        "games_per_player": [counts[0], counts[-1]],
        "pair_min": min(pairs),
        "pair_max": max(pairs),
        "pair_rmse": pair_rmse,
        "pair_rmse_floor": rmse_floor(mean),
        "pair_rmse_bound": bound,
        "seat_rmse": math.sqrt(dev2 / cells),
        "seat_rmse_floor": math.sqrt(floor2 / cells),
        "pair_rmse_least": max(bound, math.sqrt(max(0.0, least_sq / len(pairs) - mean * mean))),
        "seat_rmse_least": math.sqrt(max(floor2, seat_sq_least(n, games)) / cells),
    }

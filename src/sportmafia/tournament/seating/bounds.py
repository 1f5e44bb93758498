"""Quality bounds: the least a schedule of given sizes can reach, for pair meetings and for seat counts.

- :func:`rmse_floor`, :func:`pair_rmse_bound` and :func:`pair_rmse_bound_mixed`: the bounds of
  ``tools/seating_quality.py`` (the integer floor, and spectral and intersection bounds on ||U U^T||_F).
- :func:`pair_sq_least`: a tighter bound on the sum of squared pair meetings, counting a round in which
  everybody plays as a whole (exact for 40 players at 13 + 13 + 14 for 9 rounds).
- :func:`seat_sq_least`: the least seat deviation any seat order of given games can reach (a min-cost flow).

docs/tournament.md ("Seating") has the arguments.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def rmse_floor(mean: float) -> float:
    """The least RMS deviation from ``mean`` of integers: every value is floor or ceil of the mean."""
    frac = mean - math.floor(mean)
    return math.sqrt(frac * (1 - frac))


def pair_rmse_bound_mixed(players: int, game_sizes: list[int], rounds: int, every_round: bool, games_each: int
                          ) -> float:
    """The spectral bound of :func:`pair_rmse_bound` for tables of different sizes (every player plays
    ``games_each`` games): G = U U^T has trace T = the sum of the sizes and 1^T G 1 = S = the sum of their
    squares, so its largest eigenvalue is at least S / n; the rest of the trace lies on at most rank(U) - 1
    eigenvalues (rank(U) <= games - rounds + 1 when every player plays every round). The least sum of squared
    eigenvalues under these constraints bounds ||G||_F^2, and with it the spread of the pair meetings."""
    n, g = players, games_each
    t = sum(game_sizes)
    s2 = sum(k * k for k in game_sizes)
    rank = min(n, len(game_sizes) - rounds + 1 if every_round else len(game_sizes))
    if rank <= 1:
        return 0.0
    lam1 = max(s2 / n, t / rank)
    sum_lambda2 = lam1 ** 2 + (t - lam1) ** 2 / (rank - 1)
    pairs = n * (n - 1) / 2
    mu = (s2 - t) / 2 / pairs
    sum_m2 = (sum_lambda2 - n * g * g) / 2
    return math.sqrt(max(0.0, sum_m2 / pairs - mu * mu))


def pair_rmse_bound(players: int, games: int, rounds: int, table: int, games_per_player: float) -> float:
    """A lower bound on the RMS deviation of pair meetings of any schedule with these sizes (equal tables,
    equal games per player).

    Meetings are the off-diagonal entries of G = U U^T (U: players x games incidence). Two bounds on
    ||G||_F^2: the spectrum (all-ones eigenvector with eigenvalue g*K, the rest of the trace spread over at
    most rank(U) - 1 eigenvalues; rank(U) <= games - rounds + 1 when everybody plays every round), and
    ||U^T U||_F^2 from game intersections (integers, a game meets the other rounds' games in K*(g-1) seats).
    The integer floor (all meetings within one of the mean) is a third; the largest holds.
    """
    n, k, g = players, table, games_per_player
    mean = g * (k - 1) / (n - 1)
    floor = rmse_floor(mean)
    everyone_plays = abs(games * k - n * rounds) < 1e-9 and n == k * (games // rounds)
    rank = games - rounds + 1 if everyone_plays else games
    rest = min(rank - 1, n - 1)
    if rest <= 0:
        return floor
    pairs = n * (n - 1) / 2
    spectral = (g * k) ** 2 + (n * g - g * k) ** 2 / rest
    intersections = 0.0
    others = games - games / rounds
    if others > 0:
        per_game = k * (g - 1) / others
        frac = per_game - math.floor(per_game)
        intersections = games * (k * k + others * (per_game * per_game + frac * (1 - frac)))
    sum_sq = (max(spectral, intersections) - n * g * g) / 2
    excess = max(0.0, sum_sq - pairs * mean * mean)
    return max(floor, math.sqrt(excess / pairs))


def seat_ideal(players: int, games: Sequence[Sequence[int]], kmax: int) -> list[list[float]]:
    """Every player's ideal count of each seat: the sum over his games of 1 / the game's size (seats 1 to
    ``kmax``; a seat the game does not have gets nothing)."""
    ideal = [[0.0] * kmax for _ in range(players)]
    for seats in games:
        share = 1 / len(seats)
        for p in seats:
            row = ideal[p]
            for s in range(len(seats)):
                row[s] += share
    return ideal


def best_counts(want: Sequence[float]) -> list[int]:
    """Integer counts summing to round(sum(want)) nearest to ``want``: round down, then up where the
    fractions are largest."""
    base = [math.floor(w + 1e-12) for w in want]
    extra = round(sum(want)) - sum(base)
    for s in sorted(range(len(want)), key=lambda s: want[s] - base[s], reverse=True)[:extra]:
        base[s] += 1
    return base


def _min_sq_split(total: int, parts: int) -> int:
    """The least sum of squares of ``parts`` non-negative integers that sum to ``total``: an even split."""
    if parts <= 0:
        return 0
    q, r = divmod(max(total, 0), parts)
    return (parts - r) * q * q + r * (q + 1) * (q + 1)


def pair_sq_least(players: int, rounds: Sequence[Sequence[int]], least_games: int) -> int:
    """A lower bound on the sum over pairs of squared meetings, sum(m^2), of any schedule whose round r has
    tables of the sizes ``rounds[r]`` and in which every player plays at least ``least_games`` games.

    sum(m^2) = (||U^T U||_F^2 - sum_p g_p^2) / 2 for the players-by-games incidence U, and ||U^T U||_F^2
    is the sum over pairs of games of their common players squared. A game g of k players meets no game of
    its own round; in a round where everybody plays, its k players spread over that round's tables (the
    squares sum to at least those of an even split of k), and over the tables of the other rounds its
    players' remaining games (at least k * (least_games - 1) in all) spread at best evenly. The bound of
    tools/seating_quality.py spreads every game's meetings over all the other games; this one counts a
    round in which everybody plays as a whole, which is larger when tables differ in size (40 players in
    tables of 13, 13 and 14 for 9 rounds: it is exact there).
    """
    full = [sum(sizes) == players for sizes in rounds]
    frob = 0
    for r, sizes in enumerate(rounds):
        for k in sizes:
            rest = k * (least_games - 1)
            fixed = 0
            slots = 0
            for r2, sizes2 in enumerate(rounds):
                if r2 == r:
                    continue
                if full[r2]:
                    fixed += _min_sq_split(k, len(sizes2))
                    rest -= k
                else:
                    slots += len(sizes2)
            frob += k * k + fixed + _min_sq_split(rest, slots)
    # sum_p g_p^2 is largest, for a given total, when the games are as uneven as they may be; with
    # least_games as everybody's count it is exact
    total = sum(k for sizes in rounds for k in sizes)
    diag = _max_sq_sum(players, total, least_games, len(rounds))
    return max(0, -(-(frob - diag) // 2))


def _max_sq_sum(players: int, total: int, least: int, most: int) -> int:
    """The largest sum of squares of ``players`` integers in [least, most] summing to ``total``."""
    counts = [least] * players
    left = total - least * players
    for i in range(players):
        if left <= 0:
            break
        add = min(most - least, left)
        counts[i] += add
        left -= add
    return sum(c * c for c in counts)


def seat_sq_least(players: int, games: Sequence[Sequence[int]]) -> float:
    """The least sum of squared deviations of seat counts from the ideal that any seat order of these games
    can reach (the scorer's seat figure is its RMS over players x seats).

    A relaxation solved exactly: integer counts c[p][s] with every player's total his games, every seat's
    total the number of games that have it, and c[p][s] at most p's games that have seat s; the cost is
    separable and convex, so this is a min-cost flow, solved by successive shortest paths from the
    per-player optimum. The scorer's floor drops the seat totals; where tables differ in size the seats
    only the larger tables have must still be taken by somebody, which the floor does not see.
    """
    if not games:
        return 0.0
    kmax = max(len(seats) for seats in games)
    ideal = seat_ideal(players, games, kmax)
    cap = [[0] * kmax for _ in range(players)]
    need = [0] * kmax
    for seats in games:
        for s in range(len(seats)):
            need[s] += 1
        for p in seats:
            row = cap[p]
            for s in range(len(seats)):
                row[s] += 1
    c = [[0] * kmax for _ in range(players)]
    load = [0] * kmax
    for p in range(players):
        want, row, limit = ideal[p], c[p], cap[p]
        for _ in range(limit[0]):  # every game has seat 1: limit[0] is p's number of games
            best = min((s for s in range(kmax) if row[s] < limit[s]),
                       key=lambda s: (round(2 * (row[s] - want[s]), 9), load[s] - need[s]))
            row[best] += 1
            load[best] += 1
    nodes = kmax + players  # seats, then players
    inf = math.inf
    while True:
        excess = [load[s] - need[s] for s in range(kmax)]
        if all(e <= 0 for e in excess):
            break
        dist = [inf] * nodes
        parent = [-1] * nodes
        for s in range(kmax):
            if excess[s] > 0:
                dist[s] = 0.0
        for _ in range(nodes):  # Bellman-Ford: the residual graph has no negative cycle
            changed = False
            for s in range(kmax):
                ds = dist[s]
                if ds == inf:
                    continue
                for p in range(players):  # p gives up one seat s
                    x = c[p][s]
                    if x > 0:
                        nd = ds + 2 * (ideal[p][s] - x) + 1
                        if nd < dist[kmax + p] - 1e-12:
                            dist[kmax + p], parent[kmax + p], changed = nd, s, True
            for p in range(players):
                dp = dist[kmax + p]
                if dp == inf:
                    continue
                row, want, limit = c[p], ideal[p], cap[p]
                for s in range(kmax):  # p takes one more seat s
                    if row[s] < limit[s]:
                        nd = dp + 2 * (row[s] - want[s]) + 1
                        if nd < dist[s] - 1e-12:
                            dist[s], parent[s], changed = nd, kmax + p, True
            if not changed:
                break
        end = min((s for s in range(kmax) if excess[s] < 0 and dist[s] < inf), key=lambda s: dist[s])
        v = end
        while parent[v] != -1:
            u = parent[v]
            p = u - kmax
            c[p][v] += 1
            v = parent[u]
            c[p][v] -= 1
        load[end] += 1
        load[v] -= 1
    return sum((c[p][s] - ideal[p][s]) ** 2 for p in range(players) for s in range(kmax))

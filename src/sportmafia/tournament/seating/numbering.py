"""Seat numbering: the order of the players of every game, so that each player's count of every seat is as
close as possible to his ideal (:func:`number_seats`).

Greedy first, then improving Kempe chains (exchange seats c and d along an alternating path of games); where
tables differ in size, then annealing over exchanges of two seats in a game, down to
:func:`.bounds.seat_sq_least`. Seat 1 opens day 1, so its balance weighs most.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .bounds import seat_ideal, seat_sq_least
from .model import Game

SEAT_ONE_WEIGHT = 1.5  # seat 1 opens day 1: its balance weighs most
# annealing of seats where tables differ in size: iterations per game, at most
SEAT_ANNEAL_PER_GAME, SEAT_ANNEAL_MAX, TIE_BREAK = 15_000, 300_000, 0.01


def numbered_games(players: int, tables: Sequence[Sequence[list[int]]], free: Sequence[int],
                   history: Sequence[Sequence[list[int]]], played: Sequence[Game]) -> list[Game]:
    """The games of every round, sorted by round and table: the ``played`` ones as they were, and the tables
    of the ``free`` rounds with their seats numbered (:func:`number_seats`; the games of ``history``, the
    played rounds' tables, count toward every player's balance)."""
    new_games = [seats for r in free for seats in tables[r]]
    fixed_games = [seats for rnd in history for seats in rnd]
    ordered = number_seats(players, new_games, fixed_games)
    games = list(played)
    i = 0
    for r in free:
        for t in range(len(tables[r])):
            games.append(Game(r, t, tuple(ordered[i])))
            i += 1
    return sorted(games, key=lambda g: (g.round, g.table))


def number_seats(n: int, games: list[list[int]], fixed: Sequence[Sequence[int]]) -> list[list[int]]:
    """Order the players of every game (``games``; ``fixed`` games keep their order) so that every player's
    count of each seat is as near his ideal as it can get: greedy, then improving Kempe chains."""
    if not games:
        return games
    kmax = max(len(s) for s in list(games) + list(fixed))
    ideal = seat_ideal(n, list(games) + list(fixed), kmax)
    weight = [SEAT_ONE_WEIGHT] + [1.0] * (kmax - 1)
    cnt = [[0] * kmax for _ in range(n)]
    for seats in fixed:
        for s, p in enumerate(seats):
            cnt[p][s] += 1
    out: list[list[int]] = []
    for seats in games:
        left = list(seats)
        order: list[int] = []
        for s in range(len(seats)):
            p = min(left, key=lambda q: (cnt[q][s] - ideal[q][s], q))
            left.remove(p)
            order.append(p)
            cnt[p][s] += 1
        out.append(order)
    # where[p]: the games of p (indices into out)
    where: list[list[int]] = [[] for _ in range(n)]
    for gi, seats in enumerate(out):
        for p in seats:
            where[p].append(gi)

    def kempe() -> None:
        for _ in range(50):
            if not _kempe_pass(n, kmax, out, where, cnt, ideal, weight):
                break

    kempe()
    if len({len(seats) for seats in list(games) + list(fixed)}) > 1:
        # tables of different sizes: the chains can stop short of the least (the seats only the larger tables
        # have); annealing over exchanges of two seats within a game gets there
        least = seat_sq_least(n, list(games) + list(fixed))
        _anneal_seats(out, cnt, ideal, weight, least, random.Random(len(out)))
    return out


def _anneal_seats(out: list[list[int]], cnt: list[list[int]], ideal: list[list[float]], weight: Sequence[float],
                  least: float, rng: random.Random) -> None:
    """Simulated annealing over exchanges of two players' seats in one game, on the scorer's (unweighted)
    cost, with the extra weight of seat 1 only breaking ties; stops when the cost reaches ``least`` and
    leaves the best seats found."""
    n, kmax = len(cnt), len(weight)

    def plain() -> float:
        return sum((cnt[p][s] - ideal[p][s]) ** 2 for p in range(n) for s in range(kmax))

    flat = plain()
    if flat <= least + 1e-9 or not out:
        return
    iterations = min(SEAT_ANNEAL_MAX, SEAT_ANNEAL_PER_GAME * len(out))
    cost = 0.0
    best = (flat, 0.0, [list(seats) for seats in out])
    t_hot, t_cold = 0.5, 0.01
    for it in range(iterations):
        seats = out[rng.randrange(len(out))]
        i, j = rng.sample(range(len(seats)), 2)
        x, y = seats[i], seats[j]
        cx, cy, ix, iy = cnt[x], cnt[y], ideal[x], ideal[y]
        d_flat = (2 * (cx[j] - ix[j]) + 1) + (-2 * (cx[i] - ix[i]) + 1) \
            + (2 * (cy[i] - iy[i]) + 1) + (-2 * (cy[j] - iy[j]) + 1)
        d = weight[j] * (2 * (cx[j] - ix[j]) + 1) + weight[i] * (-2 * (cx[i] - ix[i]) + 1) \
            + weight[i] * (2 * (cy[i] - iy[i]) + 1) + weight[j] * (-2 * (cy[j] - iy[j]) + 1)
        temperature = t_hot * (t_cold / t_hot) ** (it / iterations)
        step = d_flat + TIE_BREAK * (d - d_flat)
        if step <= 0 or rng.random() < math.exp(-step / temperature):
            cx[i] -= 1
            cx[j] += 1
            cy[j] -= 1
            cy[i] += 1
            seats[i], seats[j] = y, x
            flat += d_flat
            cost += d
            if (flat, cost) < best[:2]:
                best = (flat, cost, [list(s) for s in out])
                if flat <= least + 1e-9:
                    break
    for seats, saved in zip(out, best[2], strict=True):
        for s, p in enumerate(seats):
            cnt[p][s] -= 1
        seats[:] = saved
        for s, p in enumerate(seats):
            cnt[p][s] += 1


def _kempe_pass(n: int, kmax: int, out: list[list[int]], where: list[list[int]], cnt: list[list[int]],
                ideal: list[list[float]], weight: Sequence[float]) -> bool:
    """One pass of improving Kempe chains over every pair of seats; True when something improved."""

    def dev(p: int, s: int) -> float:
        return cnt[p][s] - ideal[p][s]

    improved = False
    for c in range(kmax):
        for d in range(kmax):
            if c == d:
                continue
            wc, wd = weight[c], weight[d]
            for p in range(n):
                # p gives up a c for a d: his change of cost
                gain_p = wc * (1 - 2 * dev(p, c)) + wd * (1 + 2 * dev(p, d))
                if gain_p >= wc + wd - 1e-9:
                    continue  # p has no more c than d (relative to his ideal): no chain can pay off
                path = _kempe_path(p, c, d, out, where, cnt, ideal, wc, wd, gain_p)
                if path is None:
                    continue
                for gi in path:
                    seats = out[gi]
                    x, y = seats[c], seats[d]
                    seats[c], seats[d] = y, x
                    cnt[x][c] -= 1
                    cnt[x][d] += 1
                    cnt[y][d] -= 1
                    cnt[y][c] += 1
                improved = True
    return improved


def _kempe_path(p: int, c: int, d: int, out: list[list[int]], where: list[list[int]], cnt: list[list[int]],
                ideal: list[list[float]], wc: float, wd: float, gain_p: float) -> list[int] | None:
    """Breadth-first search of an alternating chain: p (seat c -> d) in a game with q (d -> c), q (c -> d) in
    another game ... ending at a player whose gain of a c and loss of a d, with p's change, lowers the cost.
    Returns the games to swap seats c and d in, or None."""
    parent: dict[int, tuple[int, int]] = {p: (-1, -1)}
    frontier = [p]
    best: tuple[float, int] | None = None
    while frontier and best is None:
        nxt: list[int] = []
        for x in frontier:
            for gi in where[x]:
                seats = out[gi]
                if len(seats) <= max(c, d) or seats[c] != x:
                    continue
                q = seats[d]
                if q in parent:
                    continue
                parent[q] = (x, gi)
                gain_q = wc * (1 + 2 * (cnt[q][c] - ideal[q][c])) + wd * (1 - 2 * (cnt[q][d] - ideal[q][d]))
                total = gain_p + gain_q
                if total < -1e-9 and (best is None or total < best[0]):
                    best = (total, q)
                nxt.append(q)
        frontier = nxt
    if best is None:
        return None
    path: list[int] = []
    q = best[1]
    while q != p:
        x, gi = parent[q]
        path.append(gi)
        q = x
    return path

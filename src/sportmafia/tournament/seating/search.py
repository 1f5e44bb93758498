"""The group search: who sits at which table in every round, by simulated annealing (:class:`Search`).

The cost is the sum over pairs of squared meetings (equivalently the RMS deviation of meetings per pair);
pairs that must not meet cost a large penalty (``BIG``) per meeting. The moves: a swap of two players
between two tables of one round and, where players sit out, a "bench swap" that exchanges a player and a
benched one in two rounds at once, so that nobody's number of games changes. The search stops at
:func:`target_cost`, the least any schedule of the sizes can have (:mod:`.bounds`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

from .bounds import pair_rmse_bound, pair_sq_least
from .terms import Terms

# Penalty per meeting of a pair that must not meet: the cost of a pair is (meetings + BIG)^2.
BIG = 1000
# annealing: share of bench moves where players sit out and there are also swaps; temperatures of each period
# (hot to cold, geometric); period length
BENCH_SHARE = 0.3
T_HOT, T_COLD = 2.0, 0.3
PERIOD_MAX, PERIODS = 1000000, 3
# the search after a cyclic start runs this many times fewer steps; more when the start's pair RMS is within
# 1% (+ 0.01) of the bound already
POLISH, POLISH_NEAR = 3, 6


def search_groups(players: int, plan: Sequence[Sequence[int]], tables: list[list[list[int]]],
                  bench: list[list[int]], free: list[int], history: Sequence[Sequence[Sequence[int]]],
                  forbidden: set[tuple[int, int]], pinned: Mapping[int, int], target: int, polish: bool,
                  rng: random.Random, steps: int | None, seconds: float | None,
                  progress: Callable[[float], None] | None, terms: Terms | None = None,
                  banned: Sequence[Mapping[int, set[int]]] = (),
                  offsets: Mapping[tuple[int, int], int] | None = None) -> Search:
    """Run the search over the free rounds from ``tables`` and ``bench`` (``polish``: they are a cyclic start,
    so fewer steps do); ``steps`` (default :func:`default_steps`) and ``seconds`` bound it."""
    search = Search(players, tables, bench, free, history, forbidden, pinned, rng, terms, banned, offsets)
    divide = 1
    if polish:
        divide = POLISH_NEAR if near(players, search.cost, target, plan) else POLISH
    deadline = None if seconds is None else time.monotonic() + seconds
    if steps is None:
        steps = default_steps(players, len(free)) // divide
    search.run(steps, target, deadline, progress)
    return search


def default_steps(players: int, rounds: int) -> int:
    """The search's steps when none are given: more for more rounds and more tables."""
    return min(3_000_000, 150_000 + 40_000 * rounds * max(1, players // 10))


def near(n: int, cost: float, target: int, plan: Sequence[Sequence[int]]) -> bool:
    """Whether the pair RMS of ``cost`` is within 1% (+ 0.01) of that of ``target``."""
    pairs = n * (n - 1) / 2
    mean = sum(k * (k - 1) / 2 for sizes in plan for k in sizes) / pairs

    def rms(total: float) -> float:
        return math.sqrt(max(0.0, total / pairs - mean * mean))

    return rms(cost) <= 1.01 * rms(target) + 0.01


class Search:
    """Simulated annealing over the groups of the free rounds; the meeting matrix holds M + BIG for pairs
    that must not meet, so the cost sum(A^2) over pairs is sum(M^2) plus 2*BIG per forbidden meeting."""

    def __init__(self, n: int, tables: list[list[list[int]]], bench: list[list[int]], free: list[int],
                 history: Sequence[Sequence[Sequence[int]]], forbidden: set[tuple[int, int]],
                 pinned: Mapping[int, int], rng: random.Random, terms: Terms | None = None,
                 banned: Sequence[Mapping[int, set[int]]] = (),
                 offsets: Mapping[tuple[int, int], int] | None = None) -> None:
        self.n = n
        self.terms = terms if terms is not None and terms.active else None
        self.banned = list(banned) or [{} for _ in tables]
        self.tables = tables
        self.bench = bench
        self.free = free
        self.rng = rng
        self.pinned = pinned
        a = [[0] * n for _ in range(n)]
        for x, y in forbidden:
            a[x][y] = a[y][x] = BIG
        for (x, y), w in (offsets or {}).items():
            a[x][y] += w
            a[y][x] += w
        for rnd in list(history) + tables:
            for seats in rnd:
                for x, y in combinations(seats, 2):
                    a[x][y] += 1
                    a[y][x] += 1
        self.a = a
        self.pos = [[-1] * n for _ in tables]
        for r, rnd in enumerate(tables):
            for t, seats in enumerate(rnd):
                for p in seats:
                    self.pos[r][p] = t
        self.cost: float = sum(a[x][y] ** 2 for x, y in combinations(range(n), 2))
        if self.terms is not None:
            self.cost += self.terms.total()
        self.swap_rounds = [r for r in free if sum(1 for t in tables[r] if len(t) > 0) >= 2]
        self.bench_rounds = [r for r in free if bench[r] and tables[r]]

    def _movable(self, p: int, table: int, r: int) -> bool:
        return self.pinned.get(p, table) == table and table not in self.banned[r].get(p, ())

    def swap_delta(self, r: int) -> tuple[float, int, int, int, int] | None:
        """A random swap of two players between two tables of round ``r``: (the change of cost, t1, i, t2, j),
        or None when a pinned player would move."""
        rnd = self.tables[r]
        rng = self.rng
        t1 = rng.randrange(len(rnd))
        t2 = rng.randrange(len(rnd) - 1)
        if t2 >= t1:
            t2 += 1
        seats1, seats2 = rnd[t1], rnd[t2]
        i = rng.randrange(len(seats1))
        j = rng.randrange(len(seats2))
        x, y = seats1[i], seats2[j]
        if not (self._movable(x, t2, r) and self._movable(y, t1, r)):
            return None
        ax, ay = self.a[x], self.a[y]
        s = 0
        for z in seats1:
            s += ay[z] - ax[z]
        for z in seats2:
            s += ax[z] - ay[z]
        s -= 2 * ax[y]
        delta: float = 2 * (len(seats1) + len(seats2) - 2) + 2 * s
        if self.terms is not None:
            delta += self.terms.delta(((r, t1, x, y), (r, t2, y, x)), self.pos)
        return delta, t1, i, t2, j

    def _meetings_move(self, seats: list[int], out: int, into: int) -> None:
        """Update the meeting counts for ``into`` taking the place of ``out`` at a table of ``seats``."""
        a = self.a
        ao, ai = a[out], a[into]
        for z in seats:
            if z != out:
                ao[z] -= 1
                a[z][out] -= 1
                ai[z] += 1
                a[z][into] += 1

    def do_swap(self, r: int, t1: int, i: int, t2: int, j: int) -> None:
        rnd = self.tables[r]
        seats1, seats2 = rnd[t1], rnd[t2]
        x, y = seats1[i], seats2[j]
        if self.terms is not None:
            self.terms.apply(((r, t1, x, y), (r, t2, y, x)), self.pos)
        self._meetings_move(seats1, x, y)
        self._meetings_move(seats2, y, x)
        seats1[i], seats2[j] = y, x
        pos = self.pos[r]
        pos[x], pos[y] = t2, t1

    def _replace(self, r: int, t: int, i: int, new: int) -> None:
        """Seat ``new`` (from the bench) in place of seats[i] of table t in round r (who goes to the bench)."""
        seats = self.tables[r][t]
        old = seats[i]
        self._meetings_move(seats, old, new)
        seats[i] = new
        bench = self.bench[r]
        bench[bench.index(new)] = old
        pos = self.pos[r]
        pos[old], pos[new] = -1, t

    def bench_move(self, temperature: float) -> float | None:
        """x plays in r and y sits out; in another round r2 it is the other way round: exchange both."""
        rng = self.rng
        r = rng.choice(self.bench_rounds)
        rnd = self.tables[r]
        t = rng.randrange(len(rnd))
        seats = rnd[t]
        i = rng.randrange(len(seats))
        x = seats[i]
        y = rng.choice(self.bench[r])
        if not self._movable(y, t, r):
            return None
        options = [r2 for r2 in self.bench_rounds
                   if r2 != r and self.pos[r2][y] >= 0 and self.pos[r2][x] < 0 and x in self.bench[r2]
                   and self._movable(x, self.pos[r2][y], r2)]
        if not options:
            return None
        r2 = rng.choice(options)
        t2 = self.pos[r2][y]
        seats2 = self.tables[r2][t2]
        j = seats2.index(y)
        ax, ay = self.a[x], self.a[y]
        d1 = 0
        for z in seats:
            if z != x:
                d1 += ay[z] - ax[z]
        d2 = 0
        pos1 = self.pos[r]
        common = 0
        for z in seats2:
            if z != y:
                d2 += ax[z] - ay[z]
                if pos1[z] == t:
                    common += 1
        delta: float = 2 * (len(seats) - 1) + 2 * d1 + 2 * (len(seats2) - 1) + 2 * d2 - 4 * common
        moves = ((r, t, x, y), (r2, t2, y, x))
        if self.terms is not None:
            delta += self.terms.delta(moves, self.pos)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            if self.terms is not None:
                self.terms.apply(moves, self.pos)
            self._replace(r, t, i, y)
            self._replace(r2, t2, j, x)
            self.cost += delta
            return delta
        return None

    def run(self, steps: int, target: float, deadline: float | None,
            progress: Callable[[float], None] | None) -> None:
        rng = self.rng
        best = self.cost
        best_tables = [[list(s) for s in rnd] for rnd in self.tables]
        best_bench = [list(b) for b in self.bench]
        if best <= target or (not self.swap_rounds and not self.bench_rounds):
            return
        bench_share = 0.0
        if self.bench_rounds:
            bench_share = 1.0 if not self.swap_rounds else BENCH_SHARE
        t_hot, t_cold = T_HOT, T_COLD
        period = max(20000, min(PERIOD_MAX, steps // PERIODS))
        step = 0
        report_every = max(1, steps // 200)
        since_best = 0
        while step < steps:
            phase = (step % period) / period
            temperature = t_hot * (t_cold / t_hot) ** phase
            step += 1
            if bench_share and rng.random() < bench_share:
                if self.bench_move(temperature) is None:
                    continue
            else:
                r = rng.choice(self.swap_rounds)
                move = self.swap_delta(r)
                if move is None:
                    continue
                delta = move[0]
                if delta > 0 and rng.random() >= math.exp(-delta / temperature):
                    continue
                self.do_swap(r, move[1], move[2], move[3], move[4])
                self.cost += delta
            if self.cost < best:
                best = self.cost
                since_best = 0
                best_tables = [[list(s) for s in rnd] for rnd in self.tables]
                best_bench = [list(b) for b in self.bench]
                if best <= target:
                    break
            else:
                since_best += 1
            if step % report_every == 0:
                if progress is not None:
                    progress(step / steps)
                if deadline is not None and time.monotonic() > deadline:
                    break
            if since_best > 3 * period and phase == 0:
                # stuck: restart the next period from the best schedule
                self._restore(best_tables, best_bench)
                since_best = 0
        self._restore(best_tables, best_bench)

    def _restore(self, tables: list[list[list[int]]], bench: list[list[int]]) -> None:
        for r in self.free:
            for t, seats in enumerate(self.tables[r]):
                for i, p in enumerate(seats):
                    if tables[r][t][i] != p:
                        break
                else:
                    continue
                break
            else:
                continue
            # rebuild the round: remove its meetings, then add the saved ones
            a = self.a
            for seats in self.tables[r]:
                for x, y in combinations(seats, 2):
                    a[x][y] -= 1
                    a[y][x] -= 1
            self.tables[r] = [list(s) for s in tables[r]]
            self.bench[r] = list(bench[r])
            for seats in self.tables[r]:
                for x, y in combinations(seats, 2):
                    a[x][y] += 1
                    a[y][x] += 1
            pos = self.pos[r]
            for p in range(self.n):
                pos[p] = -1
            for t, seats in enumerate(self.tables[r]):
                for p in seats:
                    pos[p] = t
        self.cost = sum(self.a[x][y] ** 2 for x, y in combinations(range(self.n), 2))
        if self.terms is not None:
            self.terms.rebuild(self.tables)
            self.cost += self.terms.total()


def target_cost(n: int, plan: Sequence[Sequence[int]], history: Sequence[Sequence[Sequence[int]]],
                 n_forbidden: int, least_games: int = 0) -> int:
    """The least cost the search can hope for: the bound on sum(M^2) of the whole schedule (every player
    plays at least ``least_games`` games); the search stops when it gets there."""
    sizes = [k for rnd in plan for k in rnd] + [len(s) for rnd in history for s in rnd]
    pairs = n * (n - 1) // 2
    total = sum(k * (k - 1) // 2 for k in sizes)
    mean = total / pairs
    low = math.floor(mean)
    frac_pairs = total - low * pairs  # pairs that meet low + 1 times
    floor_sum = (pairs - frac_pairs) * low * low + frac_pairs * (low + 1) ** 2
    best = floor_sum
    rounds = len(plan) + len(history)
    if len(set(sizes)) == 1 and sizes and (n * rounds) and total:
        k = sizes[0]
        g = len(sizes) * k / n
        if abs(g - round(g)) < 1e-9:
            bound = pair_rmse_bound(n, len(sizes), rounds, k, g)
            best = max(best, math.ceil(pairs * (mean * mean + bound * bound) - 1e-6))
    best = max(best, pair_sq_least(n, [[len(s) for s in rnd] for rnd in history] + [list(r) for r in plan],
                                   least_games))
    return best + n_forbidden * BIG * BIG

"""The cyclic start: schedules invariant under a cyclic group, searched over a few base rounds.

With tables of one size and no constraints (no absences, pinned players, players kept apart or played
rounds) the generator first looks for a schedule whose rounds are the shifts of a few base rounds
(:class:`Cyclic`); :func:`cyclic_start` tries the group orders that fit (:func:`cyclic_orders`) and hands the
best one, developed, to the search (:mod:`.search`), which then only polishes it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations

# base-round search steps of one run, and of all runs (each group order twice, the likeliest orders first); a
# run stops when its best has not improved for this share of its steps
CYCLIC_STEPS, CYCLIC_BUDGET, STALL = 100_000, 300_000, 0.3


class Cyclic:
    """A schedule invariant under the cyclic group Z_c: players are (z, i) for z in Z_c and orbits i, and
    rounds are the c shifts z -> z + s of a few base rounds. A pair's meetings then depend only on its
    orbits and the difference of its z, so the search runs over the base rounds alone (c times fewer
    choices), and every class of c pairs meets as often as the base rounds' pairs of that class. Balanced
    designs are often of this kind (16 players at one table of 10 for 16 rounds: a difference set)."""

    def __init__(self, n: int, c: int, base: int, k: int, tables: int, rng: random.Random) -> None:
        self.n, self.c, self.k, self.tables, self.rng = n, c, k, tables, rng
        self.steps = 0  # of the last run
        orbits = n // c
        self.orbit = [p // c for p in range(n)]
        cls: dict[tuple[int, int, int], int] = {}
        self.cls = [[0] * n for _ in range(n)]
        size: list[int] = []
        for x, y in combinations(range(n), 2):
            (ix, zx), (iy, zy) = divmod(x, c), divmod(y, c)
            d = (zy - zx) % c
            key = (ix, iy, min(d, c - d)) if ix == iy else (ix, iy, d)
            if key not in cls:
                cls[key] = len(cls)
                size.append(0)
            j = cls[key]
            size[j] += 1
            self.cls[x][y] = self.cls[y][x] = j
        # a class holds c pairs, or c / 2 when the difference is c / 2 within an orbit: the base pairs of such
        # a class meet twice each over the shifts
        self.mult = [c // m for m in size]
        self.size = size
        # the bench of every base round: spread over the orbits so that every player sits out as often
        bench_n = n - k * tables
        per_orbit = [0] * orbits
        self.parts: list[list[list[int]]] = []
        for _ in range(base):
            counts = [0] * orbits
            for _ in range(bench_n):
                j = min((j for j in range(orbits) if counts[j] < c), key=lambda j: (per_orbit[j] + counts[j], j))
                counts[j] += 1
            bench: list[int] = []
            for j in range(orbits):
                per_orbit[j] += counts[j]
                bench += [j * c + z for z in rng.sample(range(c), counts[j])]
            benched = set(bench)
            rest = [p for p in range(n) if p not in benched]
            rng.shuffle(rest)
            self.parts.append([rest[t * k:(t + 1) * k] for t in range(tables)] + [bench])
        self.balanced = len(set(per_orbit)) == 1
        self.f = [0] * len(size)
        for rnd in self.parts:
            for seats in rnd[:tables]:
                for x, y in combinations(seats, 2):
                    self.f[self.cls[x][y]] += 1
        self.cost = sum((self.f[j] * self.mult[j]) ** 2 * size[j] for j in range(len(size)))

    def run(self, steps: int, target: int) -> None:
        rng, f, mult, size, cls, tables = self.rng, self.f, self.mult, self.size, self.cls, self.tables
        best = self.cost
        best_parts = [[list(t) for t in rnd] for rnd in self.parts]
        changes: list[int] = []
        t_hot, t_cold = 1.0 * self.c, 0.3 * self.c
        groups = tables + (1 if self.parts[0][tables] else 0)  # the tables and a bench, if any
        if groups < 2:
            return
        self.steps = 0
        last_best = 0
        for step in range(steps):
            if best <= target or step - last_best > steps * STALL:
                break
            self.steps = step + 1
            temperature = t_hot * (t_cold / t_hot) ** (step / steps)
            rnd = self.parts[rng.randrange(len(self.parts))]
            t1 = rng.randrange(groups)
            t2 = rng.randrange(groups - 1)
            if t2 >= t1:
                t2 += 1
            i, j = rng.randrange(len(rnd[t1])), rng.randrange(len(rnd[t2]))
            x, y = rnd[t1][i], rnd[t2][j]
            if (t1 == tables or t2 == tables) and self.orbit[x] != self.orbit[y]:
                continue  # the bench keeps its orbits, so that games per player stay equal
            changes.clear()
            for t, out, into in ((t1, x, y), (t2, y, x)):
                if t < tables:
                    for z in rnd[t]:
                        if z != out:
                            changes.append(cls[out][z])
                            changes.append(-1 - cls[into][z])  # encoded: a class gaining a pair
            delta = 0
            for code in changes:
                jj, step_ = (code, -1) if code >= 0 else (-1 - code, 1)
                m = mult[jj]
                old = f[jj] * m
                f[jj] += step_
                delta += ((f[jj] * m) ** 2 - old * old) * size[jj]
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                rnd[t1][i], rnd[t2][j] = y, x
                self.cost += delta
                if self.cost < best:
                    best = self.cost
                    last_best = step
                    best_parts = [[list(t) for t in r] for r in self.parts]
            else:
                for code in changes:
                    if code >= 0:
                        f[code] += 1
                    else:
                        f[-1 - code] -= 1
        self.parts = best_parts
        self.cost = best

    def rounds(self, relabel: Sequence[int]) -> list[tuple[list[list[int]], list[int]]]:
        """The developed rounds (tables, bench), players renamed by ``relabel``."""
        c = self.c
        out = []
        for rnd in self.parts:
            for shift in range(c):
                move = [relabel[(p // c) * c + (p % c + shift) % c] for p in range(self.n)]
                out.append(([[move[p] for p in seats] for seats in rnd[:self.tables]],
                            [move[p] for p in rnd[self.tables]]))
        return out


def cyclic_orders(n: int, rounds: int, bench_n: int) -> list[int]:
    """The group orders c for which a cyclic schedule fits: c divides the players and the rounds, and the
    bench spreads evenly over the orbits; the largest first."""
    out = []
    for c in range(min(n, rounds), 1, -1):
        if n % c or rounds % c:
            continue
        orbits, base = n // c, rounds // c
        if (base * bench_n) % orbits:
            continue
        out.append(c)
    return out


def cyclic_start(n: int, k: int, tables: int, target: int, groups: list[list[list[int]]], bench: list[list[int]],
                 rng: random.Random, steps: int | None) -> bool:
    """Put the best cyclic schedule found into ``groups`` and ``bench`` (every round: its tables of ``k``,
    and who sits out; rounds in a seeded order, players renamed at random); False, leaving them as they
    are, where no group order fits. Orders that leave at least two base rounds are tried first: with a
    single base round every pair of the same difference meets exactly alike, which is often too rigid."""
    rounds = len(groups)
    orders = cyclic_orders(n, rounds, n - k * tables)
    orders.sort(key=lambda c: (rounds // c < 2, -c))
    per_run = CYCLIC_STEPS if steps is None else min(CYCLIC_STEPS, steps // 4)
    budget = CYCLIC_BUDGET if steps is None else min(CYCLIC_BUDGET, steps // 2)
    best: Cyclic | None = None
    for c in [c for c in orders for _ in range(2)]:
        if budget < per_run // 2:
            break
        cyclic = Cyclic(n, c, rounds // c, k, tables, rng)
        if not cyclic.balanced:
            continue
        cyclic.run(min(per_run, budget), target)
        budget -= cyclic.steps
        if best is None or cyclic.cost < best.cost:
            best = cyclic
        if best.cost <= target:
            break
    if best is None:
        return False
    relabel = list(range(n))
    rng.shuffle(relabel)
    developed = best.rounds(relabel)
    rng.shuffle(developed)
    for r, (tables_r, out) in enumerate(developed):
        groups[r], bench[r] = tables_r, out
    return True

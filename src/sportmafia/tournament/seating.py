"""Tournament seating: who sits where in every round (pure, deterministic for a seed).

For P players, R rounds and a table size (``10``) or range (``12-16``) the generator

1. decides who sits out each round (players with fewer games so far go first, so that games per player
   differ by at most one when nobody is absent),
2. groups each round's players into tables: with tables of one size and no constraints it first searches
   schedules invariant under a cyclic group (:class:`_Cyclic`: the rounds are the shifts of a few base
   rounds, so the search runs over those alone), then runs simulated annealing over swaps of two players
   between two tables of one round (and, where players sit out, "bench swaps" that exchange a player and a
   benched one in two rounds at once, so that nobody's number of games changes), minimising the sum of
   squared pair meetings (equivalently the RMS deviation of meetings per pair) down to the least any
   schedule of the sizes can have (:func:`pair_sq_least`); pairs that must not meet cost a large penalty
   per meeting,
3. numbers the seats of every game so that each player's count of every seat is as close as possible to
   his ideal (improving Kempe chains: exchange seats c and d along an alternating path of games; where
   tables differ in size, then annealing over exchanges of two seats in a game, down to
   :func:`seat_sq_least`).

The quality figures (:func:`quality`) are those of ``tools/seating_quality.py``: meetings per pair (min, max,
RMS deviation from the mean and the least RMS any schedule of the size can reach) and the RMS deviation of
seat counts from the ideal with its floor; and two tighter bounds of this module (``pair_rmse_least``,
``seat_rmse_least``). docs/tournament.md ("Seating") has the arguments.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..errors import BilingualError

__all__ = [
    "Game",
    "Seating",
    "SeatingError",
    "generate",
    "pair_rmse_bound",
    "pair_sq_least",
    "parse_table",
    "quality",
    "regenerate",
    "rmse_floor",
    "round_tables",
    "seat_sq_least",
]

# Penalty per meeting of a pair that must not meet: the cost of a pair is (meetings + BIG)^2.
BIG = 1000
SEAT_ONE_WEIGHT = 1.5  # seat 1 opens day 1: its balance weighs most
# annealing of seats where tables differ in size: iterations per game, at most
SEAT_ANNEAL_PER_GAME, SEAT_ANNEAL_MAX, TIE_BREAK = 15_000, 300_000, 0.01
# annealing: share of bench moves where players sit out and there are also swaps; temperatures of each period
# (hot to cold, geometric); period length
BENCH_SHARE = 0.3
T_HOT, T_COLD = 2.0, 0.3
PERIOD_MAX, PERIODS = 1000000, 3


class SeatingError(BilingualError):
    """A seating request that cannot be met. Carries English and Russian messages."""


@dataclass(frozen=True, slots=True)
class Game:
    """One table of one round: ``seats[i]`` is the player (index from 0) in seat i + 1."""

    round: int
    table: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Seating:
    players: int
    games: tuple[Game, ...]
    stats: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def rounds(self) -> int:
        return 1 + max((g.round for g in self.games), default=-1)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players,
                "games": [{"round": g.round, "table": g.table, "seats": list(g.seats)} for g in self.games]}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Seating:
        games = tuple(Game(int(g["round"]), int(g["table"]), tuple(int(p) for p in g["seats"]))
                      for g in doc["games"])
        return Seating(int(doc["players"]), games)


# ---------------------------------------------------------------------------------------------------------
# quality figures


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


def _seat_ideal(players: int, games: Sequence[Sequence[int]], kmax: int) -> list[list[float]]:
    ideal = [[0.0] * kmax for _ in range(players)]
    for seats in games:
        share = 1 / len(seats)
        for p in seats:
            row = ideal[p]
            for s in range(len(seats)):
                row[s] += share
    return ideal


def _best_counts(want: Sequence[float]) -> list[int]:
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
    ideal = _seat_ideal(players, games, kmax)
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
    ideal = _seat_ideal(n, games, kmax)
    have = [[0] * kmax for _ in range(n)]
    for seats in games:
        for s, p in enumerate(seats):
            have[p][s] += 1
    dev2 = sum((have[p][s] - ideal[p][s]) ** 2 for p in range(n) for s in range(kmax))
    floor2 = 0.0
    for p in range(n):
        best = _best_counts(ideal[p])
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


# ---------------------------------------------------------------------------------------------------------
# table plans


def parse_table(text: str) -> tuple[int, int]:
    """``"10"`` -> (10, 10); ``"12-16"`` -> (12, 16)."""
    try:
        lo, _, hi = text.partition("-")
        low, high = int(lo), int(hi or lo)
    except ValueError:
        raise SeatingError(f"table size {text!r}: expected a number (10) or a range (12-16)",
                           f"размер стола {text!r}: ожидается число (10) или диапазон (12-16)") from None
    if not 2 <= low <= high:
        raise SeatingError(f"table size {text!r}: need 2 <= min <= max",
                           f"размер стола {text!r}: нужно 2 <= min <= max")
    return low, high


def round_tables(seated: int, low: int, high: int) -> list[int] | None:
    """Table sizes for ``seated`` players with every table in [low, high], as even as possible (all equal if
    that can be, else the fewest tables); None when impossible."""
    if seated == 0:
        return []
    options = [t for t in range(-(-seated // high), seated // low + 1)]
    if not options:
        return None
    even = [t for t in options if seated % t == 0]
    t = even[0] if even else options[0]
    base, extra = divmod(seated, t)
    return [base] * (t - extra) + [base + 1] * extra


def _spread(total: int, caps: Sequence[int]) -> list[int]:
    """``total`` split over slots as evenly as possible, each at most its cap (water filling)."""
    out = [0] * len(caps)
    left = total
    while left > 0:
        open_ = [i for i in range(len(caps)) if out[i] < caps[i]]
        if not open_:
            break
        level = min(out[i] for i in open_)
        for i in open_:
            if left and out[i] == level:
                out[i] += 1
                left -= 1
    return out


def _plan(players: int, present: Sequence[int], low: int, high: int, games_per_player: int | None,
          history_slots: int) -> list[list[int]]:
    """Table sizes of every (remaining) round."""
    rounds = len(present)
    if not rounds:
        return []
    if low == high:
        k = low
        caps = [m // k for m in present]
        if games_per_player is None:
            tables = caps
        else:
            slots = players * games_per_player - history_slots
            # everybody gets at least that many games where the tables allow, else some one fewer
            need = min(-(-slots // k), sum(caps))
            if need < slots // k:
                raise SeatingError(
                    f"{players} players cannot play {games_per_player} games each at tables of {k} in {rounds} rounds",
                    f"{players} игроков не могут сыграть по {games_per_player} игр за столами по {k} за {rounds} туров")
            tables = _spread(max(need, 0), caps)
        if sum(tables) == 0:
            raise SeatingError(f"too few players for a table of {k}", f"слишком мало игроков для стола на {k}")
        return [[k] * t for t in tables]
    if games_per_player is None:
        seated = list(present)
    else:
        total = players * games_per_player - history_slots
        seated = _spread(max(total, 0), present)
    plan: list[list[int]] = []
    for r, m in enumerate(seated):
        sizes = round_tables(m, low, high)
        if sizes is None or not sizes:
            raise SeatingError(f"round {r + 1}: {m} players cannot sit at tables of {low}-{high}",
                               f"тур {r + 1}: {m} игроков нельзя рассадить за столы по {low}-{high}")
        plan.append(sizes)
    return plan


# ---------------------------------------------------------------------------------------------------------
# the search


class _Cyclic:
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


def _cyclic_orders(n: int, rounds: int, bench_n: int) -> list[int]:
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


# cyclic start: base-round search steps of one run, and of all runs (each group order twice, the likeliest
# orders first); a run stops when its best has not improved for this share of its steps
CYCLIC_STEPS, CYCLIC_BUDGET, STALL = 100_000, 300_000, 0.3
# the search after a cyclic start runs this many times fewer steps; more when the start's pair RMS is within
# 1% (+ 0.01) of the bound already
POLISH, POLISH_NEAR = 3, 6


def _near(n: int, cost: int, target: int, seats: int, plan: Sequence[Sequence[int]]) -> bool:
    pairs = n * (n - 1) / 2
    mean = sum(k * (k - 1) / 2 for sizes in plan for k in sizes) / pairs

    def rms(total: int) -> float:
        return math.sqrt(max(0.0, total / pairs - mean * mean))

    return rms(cost) <= 1.01 * rms(target) + 0.01


def _cyclic_start(n: int, rounds: int, k: int, tables: int, target: int, rng: random.Random,
                  steps: int | None) -> list[tuple[list[list[int]], list[int]]] | None:
    """The best cyclic schedule found (rounds in a seeded order, players renamed at random), or None where
    no group order fits. Orders that leave at least two base rounds are tried first: with a single base
    round every pair of the same difference meets exactly alike, which is often too rigid."""
    orders = _cyclic_orders(n, rounds, n - k * tables)
    orders.sort(key=lambda c: (rounds // c < 2, -c))
    per_run = CYCLIC_STEPS if steps is None else min(CYCLIC_STEPS, steps // 4)
    budget = CYCLIC_BUDGET if steps is None else min(CYCLIC_BUDGET, steps // 2)
    best: _Cyclic | None = None
    for c in [c for c in orders for _ in range(2)]:
        if budget < per_run // 2:
            break
        cyclic = _Cyclic(n, c, rounds // c, k, tables, rng)
        if not cyclic.balanced:
            continue
        cyclic.run(min(per_run, budget), target)
        budget -= cyclic.steps
        if best is None or cyclic.cost < best.cost:
            best = cyclic
        if best.cost <= target:
            break
    if best is None:
        return None
    relabel = list(range(n))
    rng.shuffle(relabel)
    developed = best.rounds(relabel)
    rng.shuffle(developed)
    return developed


class _Search:
    """Simulated annealing over the groups of the free rounds; the meeting matrix holds M + BIG for pairs
    that must not meet, so the cost sum(A^2) over pairs is sum(M^2) plus 2*BIG per forbidden meeting."""

    def __init__(self, n: int, tables: list[list[list[int]]], bench: list[list[int]], free: list[int],
                 history: Sequence[Sequence[Sequence[int]]], forbidden: set[tuple[int, int]],
                 pinned: Mapping[int, int], rng: random.Random) -> None:
        self.n = n
        self.tables = tables
        self.bench = bench
        self.free = free
        self.rng = rng
        self.pinned = pinned
        a = [[0] * n for _ in range(n)]
        for x, y in forbidden:
            a[x][y] = a[y][x] = BIG
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
        self.cost = sum(a[x][y] ** 2 for x, y in combinations(range(n), 2))
        self.swap_rounds = [r for r in free if sum(1 for t in tables[r] if len(t) > 0) >= 2]
        self.bench_rounds = [r for r in free if bench[r] and tables[r]]

    def _movable(self, p: int, table: int) -> bool:
        return self.pinned.get(p, table) == table

    def swap_delta(self, r: int) -> tuple[int, int, int, int, int, int] | None:
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
        if not (self._movable(x, t2) and self._movable(y, t1)):
            return None
        ax, ay = self.a[x], self.a[y]
        s = 0
        for z in seats1:
            s += ay[z] - ax[z]
        for z in seats2:
            s += ax[z] - ay[z]
        s -= 2 * ax[y]
        delta = 2 * (len(seats1) + len(seats2) - 2) + 2 * s
        return delta, t1, i, t2, j, 0

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

    def bench_move(self, temperature: float) -> int | None:
        """x plays in r and y sits out; in another round r2 it is the other way round: exchange both."""
        rng = self.rng
        r = rng.choice(self.bench_rounds)
        rnd = self.tables[r]
        t = rng.randrange(len(rnd))
        seats = rnd[t]
        i = rng.randrange(len(seats))
        x = seats[i]
        y = rng.choice(self.bench[r])
        if not self._movable(y, t):
            return None
        options = [r2 for r2 in self.bench_rounds
                   if r2 != r and self.pos[r2][y] >= 0 and self.pos[r2][x] < 0 and x in self.bench[r2]
                   and self._movable(x, self.pos[r2][y])]
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
        delta = 2 * (len(seats) - 1) + 2 * d1 + 2 * (len(seats2) - 1) + 2 * d2 - 4 * common
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            self._replace(r, t, i, y)
            self._replace(r2, t2, j, x)
            self.cost += delta
            return delta
        return None

    def run(self, steps: int, target: int, deadline: float | None,
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


def _target_cost(n: int, plan: Sequence[Sequence[int]], history: Sequence[Sequence[Sequence[int]]],
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


# ---------------------------------------------------------------------------------------------------------
# seats within games


def _assign_seats(n: int, games: list[list[int]], fixed: Sequence[Sequence[int]]) -> list[list[int]]:
    """Order the players of every game (``games``; ``fixed`` games keep their order) so that every player's
    count of each seat is as near his ideal as it can get: greedy, then improving Kempe chains."""
    if not games:
        return games
    kmax = max(len(s) for s in list(games) + list(fixed))
    ideal = _seat_ideal(n, list(games) + list(fixed), kmax)
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


# ---------------------------------------------------------------------------------------------------------
# the generator


def _groups_of(players: int, apart: Sequence[Collection[int]]) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    for group in apart:
        members = sorted(set(group))
        for p in members:
            if not 0 <= p < players:
                raise SeatingError(f"player {p} is not among the {players} players",
                                   f"игрока {p} нет среди {players} игроков")
        pairs.update(combinations(members, 2))
    return pairs


def _default_steps(players: int, rounds: int) -> int:
    return min(3_000_000, 150_000 + 40_000 * rounds * max(1, players // 10))


def generate(players: int, rounds: int, table: tuple[int, int] | int, *, games_per_player: int | None = None,
             seed: int = 0, apart: Sequence[Collection[int]] = (), absent: Mapping[int, Collection[int]] | None = None,
             pinned: Mapping[int, int] | None = None, steps: int | None = None, seconds: float | None = None,
             progress: Callable[[float], None] | None = None,
             _history: Sequence[Game] = (), _start: int = 0) -> Seating:
    """Seat ``players`` players for ``rounds`` rounds.

    ``table``: a size (tables of that size; who does not fill a whole table sits out, in turn) or a range
    ``(min, max)`` (everybody plays; tables as even as possible). ``games_per_player``: fewer games than
    rounds (every player plays that many, or one more where the numbers do not divide). ``apart``: groups
    of players (a team, a club) no two of whom may sit at one table. ``absent``: round -> players who miss
    it. ``pinned``: player -> the table he always sits at (a fixed host's table). ``steps`` bounds the
    search (the default grows with the size); ``seconds`` also stops it at a time limit, which makes the
    result depend on the machine. Deterministic for a ``seed`` otherwise.
    """
    low, high = (table, table) if isinstance(table, int) else table
    if players < 2 or rounds < 1:
        raise SeatingError("need at least 2 players and 1 round", "нужно хотя бы 2 игрока и 1 тур")
    if not 2 <= low <= high:
        raise SeatingError(f"table size {low}-{high}: need 2 <= min <= max",
                           f"размер стола {low}-{high}: нужно 2 <= min <= max")
    if games_per_player is not None and not 1 <= games_per_player <= rounds:
        raise SeatingError(f"games per player must be between 1 and the {rounds} rounds",
                           f"число игр на игрока должно быть от 1 до {rounds} (числа туров)")
    absent = absent or {}
    pinned = dict(pinned or {})
    for p, t in pinned.items():
        if not 0 <= p < players or t < 0:
            raise SeatingError(f"pinned player {p} at table {t}: no such player or table",
                               f"закреплённый игрок {p} за столом {t}: нет такого игрока или стола")
    forbidden = _groups_of(players, apart)
    rng = random.Random(seed)
    history: list[list[list[int]]] = [[] for _ in range(_start)]
    for g in _history:
        if g.round < _start:
            rnd = history[g.round]
            while len(rnd) <= g.table:
                rnd.append([])
            rnd[g.table] = list(g.seats)
    count = [0] * players
    for rnd in history:
        for seats in rnd:
            for p in seats:
                count[p] += 1
    free = list(range(_start, rounds))
    present_sets = []
    for r in free:
        away = set(absent.get(r, ()))
        present_sets.append([p for p in range(players) if p not in away])
    if players < low and not _start:
        raise SeatingError(f"{players} players are too few for a table of {low}",
                           f"{players} игроков слишком мало для стола на {low}")
    plan = _plan(players, [len(s) for s in present_sets], low, high, games_per_player,
                 sum(count))
    # 1. who sits out: the fewest games so far first; then who can come less often later
    later = [0] * players
    for pres in present_sets:
        for p in pres:
            later[p] += 1
    tables: list[list[list[int]]] = [[] for _ in range(rounds)]
    bench: list[list[int]] = [[] for _ in range(rounds)]
    for idx, r in enumerate(free):
        pres = present_sets[idx]
        for p in pres:
            later[p] -= 1
        sizes = plan[idx]
        seated_n = sum(sizes)
        room = list(sizes)
        jitter = {p: rng.random() for p in pres}
        order = sorted(pres, key=lambda p: (count[p], later[p], jitter[p]))
        chosen: list[int] = []
        for p in order:
            if len(chosen) == seated_n:
                break
            pin = pinned.get(p)
            if pin is not None:
                if pin >= len(room) or room[pin] == 0:
                    continue
                room[pin] -= 1
            chosen.append(p)
        if len(chosen) < seated_n:
            raise SeatingError(f"round {r + 1}: not enough players can be seated (pinned tables)",
                               f"тур {r + 1}: не хватает игроков для рассадки (закреплённые столы)")
        for p in chosen:
            count[p] += 1
        chosen_set = set(chosen)
        bench[r] = [p for p in pres if p not in chosen_set]
        # initial groups: pinned players first, then greedily to the table they have met least
        groups: list[list[int]] = [[] for _ in sizes]
        for p in chosen:
            if p in pinned:
                groups[pinned[p]].append(p)
        rest = [p for p in chosen if p not in pinned]
        rng.shuffle(rest)
        for p in rest:
            best_t = min((t for t in range(len(sizes)) if len(groups[t]) < sizes[t]),
                         key=lambda t: (sum(1 for x in groups[t] if (min(p, x), max(p, x)) in forbidden), rng.random()))
            groups[best_t].append(p)
        tables[r] = groups
    # 2. groups: a cyclic start where the sizes allow one, then the search over all rounds
    seats_total = sum(k for sizes in plan for k in sizes)
    plain = not _start and not any(absent.values()) and not pinned and not forbidden
    least_games = seats_total // players if plain else 0
    target = _target_cost(players, [plan[i] for i in range(len(free))], history, len(forbidden), least_games)
    divide = 1  # after a cyclic start the search only polishes it, with fewer steps
    if plain and low == high and len({len(sizes) for sizes in plan}) == 1 and plan[0]:
        start = _cyclic_start(players, rounds, low, len(plan[0]), target, rng, steps)
        if start is not None:
            for r, (groups, out) in enumerate(start):
                tables[r], bench[r] = groups, out
            divide = POLISH
    search = _Search(players, tables, bench, free, history, forbidden, pinned, rng)
    if divide > 1 and _near(players, search.cost, target, seats_total, plan):
        divide = POLISH_NEAR
    deadline = None if seconds is None else time.monotonic() + seconds
    if steps is None:
        steps = _default_steps(players, len(free)) // divide
    search.run(steps, target, deadline, progress)
    tables = search.tables
    for r in free:
        for seats in tables[r]:
            for x, y in combinations(sorted(seats), 2):
                if (x, y) in forbidden:
                    raise SeatingError(
                        f"players {x} and {y} must not meet, but they cannot be kept apart in round {r + 1}",
                        f"игроки {x} и {y} не должны встречаться, но в туре {r + 1} их не развести")
    # 3. seats
    new_games = [seats for r in free for seats in tables[r]]
    fixed_games = [seats for rnd in history for seats in rnd]
    ordered = _assign_seats(players, new_games, fixed_games)
    games: list[Game] = [g for g in _history if g.round < _start]
    i = 0
    for r in free:
        for t in range(len(tables[r])):
            games.append(Game(r, t, tuple(ordered[i])))
            i += 1
    if progress is not None:
        progress(1.0)
    return Seating(players, tuple(sorted(games, key=lambda g: (g.round, g.table))),
                   {"cost": search.cost, "target": target})


def regenerate(seating: Seating, played: int, rounds: int | None = None, table: tuple[int, int] | int | None = None,
               *, dropped: Collection[int] = (), **options: Any) -> Seating:
    """A new seating for rounds ``played`` .. ``rounds - 1`` that keeps rounds 0 .. ``played - 1`` of
    ``seating`` as they were; ``dropped`` players leave the tournament (they sit out every remaining round).
    Meetings and seats of the played rounds count toward the balance of the rest."""
    total = rounds if rounds is not None else seating.rounds
    if not 0 <= played <= total:
        raise SeatingError(f"played rounds {played}: must be between 0 and {total}",
                           f"сыгранных туров {played}: должно быть от 0 до {total}")
    if table is None:
        sizes = [len(g.seats) for g in seating.games if g.round >= played] or [len(g.seats) for g in seating.games]
        table = (min(sizes), max(sizes))
    absent: dict[int, set[int]] = {r: set(v) for r, v in dict(options.pop("absent", None) or {}).items()}
    for r in range(played, total):
        absent.setdefault(r, set()).update(dropped)
    return generate(seating.players, total, table, absent=absent, _history=seating.games, _start=played,
                    **options)

"""The constraints' penalty terms in the group search (:class:`Terms`): meetings over a pair's cap and
tables' rating sums beyond the tolerance, each a large cost per unit over, and (soft) the players' opponents'
strength, kept up to date move by move.

Soft groups and pairs that never meet are offsets of the search's meeting matrix (:func:`pair_offsets`);
banned tables are refused moves (:class:`~.search.Search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .constraints import Constraints

# the cost of one meeting over a pair's cap, and of one rating point of a table beyond the tolerance
CAP_WEIGHT = 2000
RATING_WEIGHT = 50.0
# the weight of the players' opponents' strength (a soft term: the sum over players of the square of the sum of
# their opponents' ratings, in standard deviations from the mean), where ratings are given
OPPONENT_WEIGHT = 0.02


def pair_offsets(c: Constraints) -> dict[tuple[int, int], int]:
    """Pair (smaller first) -> its offset in the meeting matrix: the group weight for every group it is in."""
    out: dict[tuple[int, int], int] = {}
    for g in c.groups:
        for x, y in combinations(sorted(set(g)), 2):
            out[(x, y)] = out.get((x, y), 0) + c.group_weight
    return out


class Terms:
    """The caps' and the ratings' part of the search's cost for the schedule ``tables`` (rounds of tables)
    after the played ``history``; :meth:`delta` prices a set of moves, :meth:`apply` makes them."""

    def __init__(self, n: int, c: Constraints, tables: Sequence[Sequence[Sequence[int]]],
                 history: Sequence[Sequence[Sequence[int]]], free: Sequence[int]) -> None:
        self.c = c
        self.free = list(free)
        self.cap: list[dict[int, int]] = [{} for _ in range(n)]
        for x, y, k in c.caps:
            self.cap[x][y] = min(k, self.cap[x].get(y, k))
            self.cap[y][x] = self.cap[x][y]
        self.has_caps = any(self.cap)
        self.z: list[float] = []
        if len(c.ratings) == n and n > 1:
            mean = sum(c.ratings) / n
            sd = (sum((x - mean) ** 2 for x in c.ratings) / n) ** 0.5
            if sd > 0:
                self.z = [(x - mean) / sd for x in c.ratings]
        self.active = self.has_caps or c.tolerance is not None or bool(self.z)
        self.history = history
        self.meet: dict[tuple[int, int], int] = {}
        self.sums: list[list[float]] = []
        self.rebuild(tables)

    def rebuild(self, tables: Sequence[Sequence[Sequence[int]]]) -> None:
        self.meet = {}
        for rnd in list(self.history) + [tables[r] for r in self.free]:
            for seats in rnd:
                for x, y in combinations(seats, 2):
                    if y in self.cap[x]:
                        key = (min(x, y), max(x, y))
                        self.meet[key] = self.meet.get(key, 0) + 1
        rating = self.c.ratings
        self.sums = [[sum(rating[p] for p in seats) for seats in rnd] if self.c.tolerance is not None else []
                     for rnd in tables]
        self.tables = tables
        self.means = [sum(self.sums[r]) / max(1, sum(len(x) for x in rnd)) if self.sums and rnd else 0.0
                      for r, rnd in enumerate(tables)]
        self.opp = [0.0] * len(self.cap)
        self.zsum: list[list[float]] = []
        if self.z:
            z = self.z
            self.zsum = [[sum(z[p] for p in seats) for seats in rnd] for rnd in tables]
            for rnd in list(self.history) + [tables[r] for r in self.free]:
                for seats in rnd:
                    total = sum(z[p] for p in seats)
                    for p in seats:
                        self.opp[p] += total - z[p]

    def _opp_changes(self, moves: Sequence[tuple[int, int, int, int]]) -> dict[int, float]:
        """The changes of the players' opponents' strength sums when ``moves`` are made."""
        z = self.z
        ch: dict[int, float] = {}
        for r, t, out, into in moves:
            total = self.zsum[r][t]
            d = z[into] - z[out]
            for p in self.tables[r][t]:
                if p != out:
                    ch[p] = ch.get(p, 0.0) + d
            ch[out] = ch.get(out, 0.0) - (total - z[out])
            ch[into] = ch.get(into, 0.0) + (total - z[out])
        return ch

    def _opp_delta(self, moves: Sequence[tuple[int, int, int, int]]) -> float:
        """The change of the opponents' term (before its weight) when ``moves`` are made."""
        opp = self.opp
        if len(moves) == 2 and moves[0][0] == moves[1][0]:
            # a swap of x (table t1) and y (table t2) in one round: the others of t1 gain z_y - z_x, those of t2
            # lose it; x's opponents change from t1's to t2's, y's the other way
            z = self.z
            r, t1, x, y = moves[0]
            t2 = moves[1][1]
            d = z[y] - z[x]
            seats1, seats2 = self.tables[r][t1], self.tables[r][t2]
            a1 = sum(opp[p] for p in seats1) - opp[x]
            a2 = sum(opp[p] for p in seats2) - opp[y]
            e = (self.zsum[r][t2] - z[y]) - (self.zsum[r][t1] - z[x])
            return (2 * d * (a1 - a2) + (len(seats1) + len(seats2) - 2) * d * d
                    + 2 * e * (opp[x] - opp[y]) + 2 * e * e)
        return sum((2 * opp[p] + c) * c for p, c in self._opp_changes(moves).items())

    def total(self) -> float:
        cost = 0.0
        for (x, y), m in self.meet.items():
            cost += CAP_WEIGHT * max(0, m - self.cap[x][y])
        if self.c.tolerance is not None:
            for r in self.free:
                cost += self._round_cost(r, self.sums[r], None)
        if self.z:
            cost += OPPONENT_WEIGHT * sum(o * o for o in self.opp)
        return cost

    def _round_cost(self, r: int, sums: Sequence[float], extra: dict[int, float] | None) -> float:
        rnd = self.tables[r]
        seated = sum(len(s) for s in rnd)
        if not seated:
            return 0.0
        values = [sums[t] + (extra or {}).get(t, 0.0) for t in range(len(rnd))]
        mean = sum(values) / seated
        tol = self.c.tolerance or 0.0
        return RATING_WEIGHT * sum(max(0.0, abs(v - len(s) * mean) - tol) for v, s in zip(values, rnd, strict=True))

    def _tables_delta(self, r: int, extra: dict[int, float]) -> float:
        """The change of round r's rating cost when its tables' sums change by ``extra`` and its total does not."""
        rnd = self.tables[r]
        sums = self.sums[r]
        mean = self.means[r]
        tol = self.c.tolerance or 0.0
        d = 0.0
        for t, e in extra.items():
            share = len(rnd[t]) * mean
            d += max(0.0, abs(sums[t] + e - share) - tol) - max(0.0, abs(sums[t] - share) - tol)
        return RATING_WEIGHT * d

    def _pair_changes(self, r: int, t: int, out: int, into: int, pos: Sequence[int],
                      acc: dict[tuple[int, int], int]) -> None:
        """The capped pairs' meeting changes when ``into`` takes ``out``'s place at table t of round r."""
        for z in self.cap[out]:
            if z != into and pos[z] == t:
                key = (min(out, z), max(out, z))
                acc[key] = acc.get(key, 0) - 1
        for z in self.cap[into]:
            if z != out and pos[z] == t:
                key = (min(into, z), max(into, z))
                acc[key] = acc.get(key, 0) + 1

    def delta(self, moves: Sequence[tuple[int, int, int, int]], pos: Sequence[Sequence[int]]) -> float:
        """The change of cost of ``moves`` (round, table, who leaves, who comes), none of them made yet; in one
        round either a swap (two moves) or a bench move (one)."""
        if not self.active:
            return 0.0
        acc: dict[tuple[int, int], int] = {}
        if self.has_caps:
            for r, t, out, into in moves:
                self._pair_changes(r, t, out, into, pos[r], acc)
        d = 0.0
        if self.z:
            d += OPPONENT_WEIGHT * self._opp_delta(moves)
        if len(moves) == 2 and moves[0][0] == moves[1][0] and self.c.tolerance is not None:
            # a swap of two players between two tables of one round: the round's average stays
            r, t1, x, y = moves[0]
            t2 = moves[1][1]
            e = self.c.ratings[y] - self.c.ratings[x]
            d += self._tables_delta(r, {t1: e, t2: -e})
            moves = ()
        for (x, y), ch in acc.items():
            if ch:
                k = self.cap[x][y]
                m = self.meet.get((x, y), 0)
                d += CAP_WEIGHT * (max(0, m + ch - k) - max(0, m - k))
        if self.c.tolerance is not None and moves:
            rating = self.c.ratings
            by_round: dict[int, dict[int, float]] = {}
            for r, t, out, into in moves:
                extra = by_round.setdefault(r, {})
                extra[t] = extra.get(t, 0.0) + rating[into] - rating[out]
            for r, extra in by_round.items():
                if abs(sum(extra.values())) < 1e-9:  # a swap: the round's average stays, only its tables change
                    d += self._tables_delta(r, extra)
                else:
                    d += self._round_cost(r, self.sums[r], extra) - self._round_cost(r, self.sums[r], None)
        return d

    def apply(self, moves: Sequence[tuple[int, int, int, int]], pos: Sequence[Sequence[int]]) -> None:
        """Make ``moves`` (call before the tables and positions change)."""
        if not self.active:
            return
        acc: dict[tuple[int, int], int] = {}
        for r, t, out, into in moves:
            self._pair_changes(r, t, out, into, pos[r], acc)
            if self.c.tolerance is not None:
                self.sums[r][t] += self.c.ratings[into] - self.c.ratings[out]
                self.means[r] = sum(self.sums[r]) / max(1, sum(len(x) for x in self.tables[r]))
        for key, ch in acc.items():
            self.meet[key] = self.meet.get(key, 0) + ch
        if self.z:
            for p, c in self._opp_changes(moves).items():
                self.opp[p] += c
            for r, t, out, into in moves:
                self.zsum[r][t] += self.z[into] - self.z[out]

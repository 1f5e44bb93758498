"""The judge's constraints on a seating as data (:class:`Constraints`), their checks, and the reasons why a
set of them cannot all hold (:func:`check_constraints` before the search, :func:`broken` after it).

Hard constraints, never broken (the generator refuses, saying which and why, instead):

- ``caps``: a pair (x, y) meets at most k times (k = 0: never at one table; the ``apart`` groups of
  :func:`~.generator.generate` are caps of 0 on every pair of a group);
- ``banned``: a player never sits at a table, in every round or in one (a host does not host players of his
  own club, or players he is listed against: the service turns the hosts' conflicts into these);
- ``tolerance`` with ``ratings``: in every round each table's sum of ratings is within the tolerance of
  the even share (the table's size times the round's average rating).

Soft: ``groups`` (a club's players) meet as little as the rest allows; with ratings, every player's
opponents' strength is kept even (:mod:`.terms`) and reported (:func:`opponent_spread`). A player who sits out given rounds is ``absent`` of
:func:`~.generator.generate`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...i18n import Text, msg
from .model import Game, SeatingError

# the weight of a meeting of two players of one group (a soft constraint, large enough that the groups meet as
# little as the hard constraints allow first, then as evenly as the rest allows; the cost of a pair is
# (meetings + weight)^2, so every meeting of such a pair costs 2 * weight more)
GROUP_WEIGHT = 10


@dataclass(frozen=True, slots=True)
class Constraints:
    """Constraints on who sits with whom (players are indices from 0, rounds and tables from 0).

    ``caps``: (x, y, k), x and y meet at most k times; ``groups``: groups whose meetings are kept low
    (``group_weight`` per meeting, see :data:`GROUP_WEIGHT`); ``banned``: (player, table, round or None
    for every round) he never sits at; ``ratings``: every player's rating (empty: none), with
    ``tolerance`` (None: tables are not balanced by strength) the most a table's rating sum may differ
    from its even share; ``seats``: (player, the seats from 0 he may take), his seat wishes (hard: the seats
    of a game are then reordered so that they hold, :func:`honour_seats`)."""

    caps: tuple[tuple[int, int, int], ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()
    banned: tuple[tuple[int, int, int | None], ...] = ()
    ratings: tuple[float, ...] = ()
    tolerance: float | None = None
    group_weight: int = GROUP_WEIGHT
    seats: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def empty(self) -> bool:
        """No constraint at all (ratings alone are one: every player's opponents' strength is kept even)."""
        return not (self.caps or self.groups or self.banned or self.tolerance is not None or self.seats
                    or self.ratings)

    def to_json(self) -> dict[str, Any]:
        return {"caps": [list(c) for c in self.caps], "groups": [list(g) for g in self.groups],
                "banned": [list(b) for b in self.banned], "ratings": list(self.ratings),
                "tolerance": self.tolerance, "group_weight": self.group_weight,
                "seats": [[p, list(allowed)] for p, allowed in self.seats]}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Constraints:
        tol = doc.get("tolerance")
        return Constraints(
            caps=tuple((int(x), int(y), int(k)) for x, y, k in doc.get("caps", ())),
            groups=tuple(tuple(int(p) for p in g) for g in doc.get("groups", ())),
            banned=tuple((int(p), int(t), None if r is None else int(r)) for p, t, r in doc.get("banned", ())),
            ratings=tuple(float(x) for x in doc.get("ratings", ())),
            tolerance=None if tol is None else float(tol),
            group_weight=int(doc.get("group_weight", GROUP_WEIGHT)),
            seats=tuple((int(p), tuple(int(x) for x in allowed)) for p, allowed in doc.get("seats", ())))

    def banned_tables(self, rounds: int) -> list[dict[int, set[int]]]:
        """By round: player -> the tables he may not sit at."""
        out: list[dict[int, set[int]]] = [{} for _ in range(rounds)]
        for p, t, r in self.banned:
            for rr in range(rounds) if r is None else (r,):
                if 0 <= rr < rounds:
                    out[rr].setdefault(p, set()).add(t)
        return out


def check_constraints(players: int, rounds: int, c: Constraints, pinned: Mapping[int, int],
                      present: Sequence[Sequence[int]], free: Sequence[int], tables: Sequence[int],
                      forbidden: set[tuple[int, int]], cliques: Sequence[Sequence[int]]) -> None:
    """Refuse, with the reason, constraints that name no such player or cannot all hold whatever the
    search does: a group of players who must not meet with more of them in a round than it has tables, two
    players who must not meet (or meet at most k times) pinned to one table, a table every present player is
    banned from. ``present[i]`` and ``tables[i]``: the players and the number of tables of round ``free[i]``."""
    def player(p: int) -> None:
        if not 0 <= p < players:
            raise SeatingError(msg("player %(player)s is not among the %(players)d players", player=p,
                                   players=players))

    for x, y, k in c.caps:
        player(x)
        player(y)
        if k < 0 or x == y:
            raise SeatingError(msg("players %(player)s and %(other)s: a cap on meetings needs two players and a "
                                   "number from 0", player=x, other=y))
    for g in c.groups:
        for p in g:
            player(p)
    for p, t, r in c.banned:
        player(p)
        if t < 0 or (r is not None and not 0 <= r < rounds):
            raise SeatingError(msg("player %(player)s is kept from table %(table)s in round %(round)s: no such table "
                                   "or round", player=p, table=t + 1, round="-" if r is None else r + 1))
    for p, seats in c.seats:
        player(p)
        if not seats or min(seats) < 0:
            raise SeatingError(msg("player %(player)s: a seat wish names seats from 1", player=p))
    if c.tolerance is not None:
        if len(c.ratings) != players or any(not math.isfinite(x) for x in c.ratings):
            raise SeatingError(msg("balancing tables by strength needs a rating for each of the %(players)d "
                                   "players", players=players))
        if c.tolerance < 0:
            raise SeatingError(msg("the tolerance of the tables' rating sums cannot be negative"))
    for i, r in enumerate(free):
        here = set(present[i])
        for group in cliques:
            there = [p for p in group if p in here]
            if len(there) > tables[i]:
                raise SeatingError(msg(
                    "round %(round)d: tables %(tables)d, players in it who must not meet %(count)d, more than its "
                    "tables: %(player)s and %(other)s among them", count=len(there), player=there[0], other=there[1], round=r + 1,
                    tables=tables[i]))
    caps = {(min(x, y), max(x, y)): k for x, y, k in c.caps}
    caps.update({pair: 0 for pair in forbidden})
    for (x, y), k in caps.items():
        if x in pinned and pinned.get(y) == pinned[x]:
            together = sum(1 for i in range(len(free)) if x in present[i] and y in present[i])
            if together > k:
                raise SeatingError(msg(
                    "players %(player)s and %(other)s are both pinned to table %(table)d, but may meet at most %(k)d "
                    "times", player=x, other=y, table=pinned[x] + 1, k=k))


def broken(tables: Sequence[Sequence[Sequence[int]]], history: Sequence[Sequence[Sequence[int]]],
           free: Sequence[int], c: Constraints, forbidden: set[tuple[int, int]]) -> list[Text]:
    """The hard constraints a schedule breaks, each as its reason (empty: every one holds)."""
    out: list[Text] = []
    for r in free:
        for seats in tables[r]:
            for x, y in combinations(sorted(seats), 2):
                if (x, y) in forbidden:
                    out.append(msg("players %(player)s and %(other)s must not meet, but they cannot be kept apart in "
                                   "round %(round)d", player=x, other=y, round=r + 1))
    meet: dict[tuple[int, int], int] = {}
    caps = {(min(x, y), max(x, y)): k for x, y, k in c.caps}
    for rnd in list(history) + [tables[r] for r in free]:
        for seats in rnd:
            for x, y in combinations(sorted(seats), 2):
                if (x, y) in caps:
                    meet[(x, y)] = meet.get((x, y), 0) + 1
    for (x, y), k in caps.items():
        if meet.get((x, y), 0) > k:
            out.append(msg("players %(player)s and %(other)s may meet at most %(k)d times, but the other constraints "
                           "make them meet %(n)d times", player=x, other=y, k=k, n=meet[(x, y)]))
    banned = c.banned_tables(len(tables))
    for r in free:
        for t, seats in enumerate(tables[r]):
            for p in seats:
                if t in banned[r].get(p, ()):
                    out.append(msg("player %(player)s may not sit at table %(table)d, but round %(round)d has no other "
                                   "place for him", player=p, table=t + 1, round=r + 1))
    if c.tolerance is not None:
        for r in free:
            worst = max(rating_excess(tables[r], c.ratings), default=0.0)
            if worst > c.tolerance + 1e-9:
                out.append(msg("round %(round)d: a table's rating sum is %(off)s from its even share, more than the "
                               "tolerance %(tolerance)s; a tolerance of at least %(off)s can hold",
                               round=r + 1, off=math.ceil(worst), tolerance=c.tolerance))
    return out


def rating_excess(rnd: Sequence[Sequence[int]], ratings: Sequence[float]) -> list[float]:
    """How far each table's rating sum is from its even share (its size times the round's average rating)."""
    seated = [p for seats in rnd for p in seats]
    if not seated:
        return []
    mean = sum(ratings[p] for p in seated) / len(seated)
    return [abs(sum(ratings[p] for p in seats) - len(seats) * mean) for seats in rnd]


def opponent_spread(games: Sequence[Sequence[int]], ratings: Sequence[float]) -> float:
    """The spread (largest minus smallest) over players of their opponents' average rating."""
    total = [0.0] * len(ratings)
    count = [0] * len(ratings)
    for seats in games:
        s = sum(ratings[p] for p in seats)
        for p in seats:
            total[p] += s - ratings[p]
            count[p] += len(seats) - 1
    avg = [total[p] / count[p] for p in range(len(ratings)) if count[p]]
    return max(avg) - min(avg) if avg else 0.0


def honour_seats(games: Sequence[Game], start: int, wishes: Sequence[tuple[int, tuple[int, ...]]]) -> list[Game]:
    """The games with the seats of rounds ``start`` on reordered so that every player with a seat wish sits
    in a seat he may take (players with wishes placed first, each keeping his seat where he can: a matching
    of players to seats by augmenting paths); a game where that cannot be is refused, saying whose wishes
    clash."""
    allowed = {p: set(seats) for p, seats in wishes}
    out: list[Game] = []
    for g in games:
        if g.round < start or all(s in allowed.get(p, {s}) for s, p in enumerate(g.seats)):
            out.append(g)
            continue
        k = len(g.seats)
        holder: list[int | None] = [None] * k
        current = {p: s for s, p in enumerate(g.seats)}

        def options(p: int, k: int = k, current: dict[int, int] = current) -> list[int]:
            mine = allowed.get(p)
            seats = [s for s in range(k) if mine is None or s in mine]
            return sorted(seats, key=lambda s: (s != current[p], s))

        def augment(p: int, seen: set[int], holder: list[int | None] = holder,
                    options: Callable[[int], list[int]] = options) -> bool:
            for s in options(p):
                if s in seen:
                    continue
                seen.add(s)
                q = holder[s]
                if q is None or augment(q, seen):
                    holder[s] = p
                    return True
            return False

        for p in sorted(g.seats, key=lambda p: (p not in allowed, current[p])):
            if not augment(p, set()):
                clash = [q for q in g.seats if q in allowed]
                raise SeatingError(msg("round %(round)d, table %(table)d: the seat wishes of %(player)s and %(other)s "
                                       "cannot all hold at one table", round=g.round + 1, table=g.table + 1,
                                       player=clash[0], other=clash[-1]))
        out.append(Game(g.round, g.table, tuple(p for p in holder if p is not None)))
    return out

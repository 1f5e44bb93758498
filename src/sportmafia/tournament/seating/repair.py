"""The remaining rounds of a published seating changed as little as possible (:func:`repair`): the judge's
other choice, beside seating them anew for the best balance (:func:`.generator.regenerate`), when a player
leaves, arrives late, misses a round or a new constraint no longer holds mid-tournament.

Every player keeps his table and seat unless he must move: one who left or misses the round leaves his seat,
one whose seat breaks a hard constraint now (a host's conflict, a pair that must not meet, a cap on meetings
already reached, a table he is pinned away from) leaves it too, and each seat left is taken by a player of the
round who sits it out and may sit there, the fewest games first (where none may, a player of another table who
may moves to it, and one sitting out takes his place). Then, round by round, where tables are of a range (everybody
plays) one still sitting out takes a place at the smallest table he may sit at, and while a player sitting out
has two games fewer than one seated (a late arrival), he takes that one's seat. A table left below the smallest
size, or a round whose players now make other tables than it has, cannot be mended this way: the judge is
told, and seats the rounds anew instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from itertools import combinations

from ...i18n import msg
from .constraints import Constraints, broken, honour_seats
from .generator import forbidden_pairs
from .model import Game, Seating, SeatingError
from .planning import round_tables


def repair(seating: Seating, played: int, table: tuple[int, int], *, players: int | None = None,
           dropped: Collection[int] = (), absent: Mapping[int, Collection[int]] | None = None,
           apart: Sequence[Collection[int]] = (), pinned: Mapping[int, int] | None = None,
           constraints: Constraints | None = None, seed: int = 0) -> Seating:
    """Rounds ``played`` on of ``seating`` mended with the fewest moves (see the module); rounds before
    ``played`` are kept as they were. ``players``: more than ``seating`` had (arrivals, numbered after the
    others); ``dropped``: players who left (they sit out every remaining round); ``absent``: round -> players
    who miss it; ``apart``, ``pinned`` and ``constraints`` as for :func:`.generator.generate`. Raises
    :class:`SeatingError` with the reason where that cannot be done."""
    n = seating.players if players is None else players
    low, high = table
    cons = constraints or Constraints()
    if (cons.tolerance is not None or cons.ratings) and len(cons.ratings) != n:
        raise SeatingError(msg("balancing tables by strength needs a rating for each of the %(players)d players",
                               players=n))
    forbidden = forbidden_pairs(n, apart) | {(min(x, y), max(x, y)) for x, y, k in cons.caps if k == 0}
    caps = {(min(x, y), max(x, y)): k for x, y, k in cons.caps if k > 0}
    pins = dict(pinned or {})
    gone = set(dropped)
    away = {r: set(v) | gone for r, v in (absent or {}).items()}
    rounds = seating.rounds
    banned = cons.banned_tables(rounds)
    rng = random.Random(seed)
    kept = [g for g in seating.games if g.round < played]
    plan: dict[int, list[list[int | None]]] = {}
    for g in sorted(seating.games, key=lambda g: (g.round, g.table)):
        if g.round >= played:
            plan.setdefault(g.round, []).append(list(g.seats))
    count = [0] * n
    meet: dict[tuple[int, int], int] = {}

    def tally(seats: Sequence[int | None], step: int) -> None:
        here = [p for p in seats if p is not None]
        for p in here:
            count[p] += step
        for pair in combinations(sorted(here), 2):
            if pair in caps:
                meet[pair] = meet.get(pair, 0) + step

    for g in kept:
        tally(g.seats, 1)
    for tables in plan.values():
        for seats in tables:
            tally(seats, 1)

    def clash(p: int, x: int, together: bool) -> bool:
        """Whether p and x may not share a table (``together``: they share it now, their meeting counted)."""
        pair = (min(p, x), max(p, x))
        return pair in forbidden or (pair in caps and meet.get(pair, 0) + (0 if together else 1) > caps[pair])

    def allowed(p: int, r: int, t: int) -> bool:
        return t not in banned[r].get(p, ()) and pins.get(p, t) == t

    def fits(p: int, r: int, t: int, seats: Sequence[int | None], instead: int | None = None) -> bool:
        """Whether p may take a place at table t of round r (in ``instead``'s place)."""
        return allowed(p, r, t) and not any(clash(p, x, False) for x in seats if x is not None and x not in (p, instead))

    def holds(p: int, r: int, t: int, seats: Sequence[int | None]) -> bool:
        """Whether p's seat at table t of round r keeps every hard constraint (of a pair that must not meet, or
        meets too often, the first is the one who moves)."""
        return allowed(p, r, t) and not any(clash(p, x, True) for x in seats if x is not None and x > p)

    def place(b: int | None, seats: list[int | None], s: int) -> None:
        """``b`` takes seat s (None: the seat is left), its meetings and games counted."""
        q = seats[s]
        if q is not None:
            _meet_with(q, seats, caps, meet, -1)
            tally([q], -1)
        seats[s] = b
        if b is not None:
            tally([b], 1)
            _meet_with(b, seats, caps, meet, 1)

    for r in sorted(plan):
        tables = plan[r]
        out = away.get(r, gone)
        # 1. seats left: by those who are not there, and by those whose seat breaks a hard constraint now
        for t, seats in enumerate(tables):
            for s, p in enumerate(seats):
                if p is not None and (p in out or not holds(p, r, t, seats)):
                    place(None, seats, s)
        seated = {p for seats in tables for p in seats if p is not None}
        bench = [p for p in range(n) if p not in out and p not in seated]
        there = len(bench) + len(seated)
        sizes = [low] * (there // low) if low == high else round_tables(there, low, high)
        if sizes is None or len(sizes) != len(tables):
            raise SeatingError(msg("round %(round)d: %(n)d players are there now, for other tables than it has; seat "
                                   "the remaining rounds anew", round=r + 1, n=there))
        jitter = {p: rng.random() for p in bench}
        # 2. each seat left is taken by one who sits the round out and may sit there, the fewest games first
        for t, seats in enumerate(tables):
            for s, p in enumerate(seats):
                if p is None:
                    who = [b for b in bench if fits(b, r, t, seats)]
                    if who:
                        b = min(who, key=lambda b: (count[b], jitter[b]))
                        place(b, seats, s)
                        bench.remove(b)
                    else:
                        _by_way_of(r, t, s, tables, bench, fits, place)
        # 3. where tables are of a range, everybody plays: one still sitting out takes a place at a table with room
        if low < high:
            for b in list(bench):
                room = [t for t, seats in enumerate(tables)
                        if sum(p is not None for p in seats) < high and fits(b, r, t, seats)]
                if not room:
                    raise SeatingError(msg("round %(round)d: no table has a place %(player)s may take; seat the "
                                           "remaining rounds anew", round=r + 1, player=b))
                t = min(room, key=lambda t: sum(p is not None for p in tables[t]))
                tables[t].append(None)
                place(b, tables[t], len(tables[t]) - 1)
                bench.remove(b)
        # 4. a player sitting out with two games fewer than one seated takes his seat
        while True:
            best: tuple[int, int, int, int] | None = None
            for b in bench:
                for t, seats in enumerate(tables):
                    for s, q in enumerate(seats):
                        gap = 0 if q is None else count[q] - count[b]
                        if gap >= 2 and q not in pins and (best is None or gap > best[0]) and \
                                fits(b, r, t, seats, instead=q):
                            best = (gap, b, t, s)
            if best is None:
                break
            _, b, t, s = best
            q = tables[t][s]
            assert q is not None
            place(b, tables[t], s)
            bench.remove(b)
            bench.append(q)
        for t, seats in enumerate(tables):
            filled = [p for p in seats if p is not None]
            if filled and len(filled) < low:
                raise SeatingError(msg("round %(round)d: table %(table)d keeps %(n)d players, fewer than %(low)d, and "
                                       "nobody sitting out may take the places; seat the remaining rounds anew",
                                       round=r + 1, table=t + 1, n=len(filled), low=low))
            tables[t] = list(filled)
    games = kept + [Game(r, t, tuple(p for p in seats if p is not None)) for r in sorted(plan)
                    for t, seats in enumerate(plan[r]) if seats]
    history = [[list(g.seats) for g in kept if g.round == r] for r in range(played)]
    schedule = [[[p for p in seats if p is not None] for seats in plan.get(r, [])] for r in range(rounds)]
    # a pair that must never meet again is kept apart in the remaining rounds (``forbidden``), whatever the played
    # ones saw, as :func:`.generator.generate` does
    reasons = broken(schedule, history, sorted(plan), replace(cons, caps=tuple(c for c in cons.caps
                                                                       if c[2] > 0)), forbidden)
    if reasons:
        raise SeatingError(reasons[0])
    if cons.seats:
        games = honour_seats(games, played, cons.seats)
    return Seating(n, tuple(games))


def _by_way_of(r: int, t: int, s: int, tables: list[list[int | None]], bench: list[int],
               fits: Callable[..., bool], place: Callable[[int | None, list[int | None], int], None]) -> None:
    """Seat s of table t left with nobody sitting out who may take it: a player of another table who may
    moves to it, and one sitting out takes his place (two moves instead of one)."""
    for t2, seats2 in enumerate(tables):
        if t2 == t:
            continue
        for s2, y in enumerate(seats2):
            if y is None or not fits(y, r, t, tables[t]):
                continue
            for b in bench:
                if fits(b, r, t2, seats2, instead=y):
                    place(None, seats2, s2)
                    place(y, tables[t], s)
                    place(b, seats2, s2)
                    bench.remove(b)
                    return


def _meet_with(p: int, seats: Sequence[int | None], caps: Mapping[tuple[int, int], int],
               meet: dict[tuple[int, int], int], step: int) -> None:
    for x in seats:
        if x is not None and x != p:
            pair = (min(p, x), max(p, x))
            if pair in caps:
                meet[pair] = meet.get(pair, 0) + step

"""The generator: :func:`generate` seats a tournament in its named steps, :func:`regenerate` the rounds
not yet played.

1. :func:`.planning.plan_rounds`: how many tables of what size every round has;
   :func:`.planning.first_rounds`: who sits out each round and the groups the search starts from;
2. :func:`.search.target_cost`: the least cost any schedule of the sizes can have (:mod:`.bounds`);
   :func:`.cyclic.cyclic_start`: a schedule invariant under a cyclic group, where the sizes allow one;
   :func:`.search.search_groups`: the search over who sits at which table;
3. :func:`.numbering.numbered_games`: the seat order of every game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import combinations
from typing import Any

from ...i18n import msg
from .constraints import Constraints, broken, check_constraints, honour_seats
from .cyclic import cyclic_start
from .model import Game, Seating, SeatingError
from .numbering import numbered_games
from .planning import first_rounds, plan_rounds
from .search import search_groups, target_cost
from .terms import Terms, pair_offsets


def generate(players: int, rounds: int, table: tuple[int, int] | int, *, games_per_player: int | None = None,
             seed: int = 0, apart: Sequence[Collection[int]] = (), absent: Mapping[int, Collection[int]] | None = None,
             pinned: Mapping[int, int] | None = None, steps: int | None = None, seconds: float | None = None,
             progress: Callable[[float], None] | None = None, constraints: Constraints | None = None,
             _history: Sequence[Game] = (), _start: int = 0) -> Seating:
    """Seat ``players`` players for ``rounds`` rounds.

    ``table``: a size (tables of that size; who does not fill a whole table sits out, in turn) or a range
    ``(min, max)`` (everybody plays; tables as even as possible). ``games_per_player``: fewer games than
    rounds (every player plays that many, or one more where the numbers do not divide). ``apart``: groups
    of players (a team, a club) no two of whom may sit at one table. ``absent``: round -> players who miss
    it. ``pinned``: player -> the table he always sits at (a fixed host's table). ``steps`` bounds the
    search (the default grows with the size); ``seconds`` also stops it at a time limit, which makes the
    result depend on the machine. ``constraints``: caps on pairs' meetings, groups kept apart as far as
    possible, banned tables, tables balanced by rating (:mod:`.constraints`); hard constraints hold or the
    request is refused with the reason. Deterministic for a ``seed`` otherwise.
    """
    low, high = (table, table) if isinstance(table, int) else table
    _check_request(players, rounds, low, high, games_per_player)
    absent = absent or {}
    pinned = dict(pinned or {})
    _check_pinned(players, pinned)
    forbidden = forbidden_pairs(players, apart)
    cons = constraints or Constraints()
    forbidden |= {(min(x, y), max(x, y)) for x, y, k in cons.caps if k == 0}
    cons = Constraints(tuple(c for c in cons.caps if c[2] > 0), cons.groups, cons.banned, cons.ratings,
                       cons.tolerance, cons.group_weight, cons.seats)
    rng = random.Random(seed)
    history = _played_rounds(_history, _start)
    count = _games_so_far(players, history)
    free = list(range(_start, rounds))
    present = [_present(players, absent.get(r, ())) for r in free]
    if players < low and not _start:
        raise SeatingError(msg("%(players)d players are too few for a table of %(low)d", players=players, low=low))
    # 1. how many tables; who sits out: the fewest games so far first; the groups the search starts from
    banned = cons.banned_tables(rounds)
    plan = _plan_without_nowhere(players, present, free, banned, low, high, games_per_player, sum(count))
    cliques = [sorted(set(g)) for g in apart] + [[x, y] for x, y in forbidden]
    check_constraints(players, rounds, cons, pinned, present, free, [len(p) for p in plan], forbidden, cliques)
    tables, bench = first_rounds(players, rounds, free, present, plan, count, pinned, forbidden, rng, banned)
    # 2. groups: a cyclic start where the sizes allow one, then the search over all rounds
    plain = not _start and not any(absent.values()) and not pinned and not forbidden and cons.empty
    least_games = sum(k for sizes in plan for k in sizes) // players if plain else 0
    offsets = pair_offsets(cons)
    target = target_cost(players, plan, history, len(forbidden), least_games) + sum(w * w for w in offsets.values())
    terms = Terms(players, cons, tables, history, free)
    polish = (plain and low == high and len({len(sizes) for sizes in plan}) == 1 and bool(plan[0])
              and cyclic_start(players, low, len(plan[0]), target, tables, bench, rng, steps))
    search = search_groups(players, plan, tables, bench, free, history, forbidden, pinned, target, polish, rng,
                           steps, seconds, progress, terms, banned, offsets)
    reasons = broken(search.tables, history, free, cons, forbidden)
    if reasons:
        raise SeatingError(reasons[0])
    # 3. seats
    games = numbered_games(players, search.tables, free, history, [g for g in _history if g.round < _start])
    if cons.seats:
        games = honour_seats(games, _start, cons.seats)
    if progress is not None:
        progress(1.0)
    return Seating(players, tuple(games))


def _plan_without_nowhere(players: int, present: list[list[int]], free: Sequence[int],
                          banned: Sequence[Mapping[int, set[int]]], low: int, high: int,
                          games_per_player: int | None, played: int) -> list[list[int]]:
    """The tables of each free round (:func:`.planning.plan_rounds`), a player who may sit at none of his
    round's tables (a host's conflicts) taken out of ``present`` for it first, as if absent, so that the
    others' games stay even; taking him out can leave fewer tables, so until nobody is left without one."""
    while True:
        plan = plan_rounds(players, [len(s) for s in present], low, high, games_per_player, played)
        nowhere = False
        for i, r in enumerate(free):
            tables = set(range(len(plan[i])))
            if tables:
                keep = [p for p in present[i] if not tables <= banned[r].get(p, set())]
                nowhere |= len(keep) < len(present[i])
                present[i] = keep
        if not nowhere:
            return plan


def regenerate(seating: Seating, played: int, rounds: int | None = None, table: tuple[int, int] | int | None = None,
               *, dropped: Collection[int] = (), players: int | None = None, **options: Any) -> Seating:
    """A new seating for rounds ``played`` .. ``rounds - 1`` that keeps rounds 0 .. ``played - 1`` of
    ``seating`` as they were; ``dropped`` players leave the tournament (they sit out every remaining round).
    Meetings and seats of the played rounds count toward the balance of the rest. ``players``: more players
    than ``seating`` had (those added since, numbered after the others; they play the remaining rounds)."""
    n = seating.players if players is None else players
    if n < seating.players:
        raise SeatingError(msg("players %(players)d: fewer than the seating's; withdraw players instead",
                               players=n))
    total = rounds if rounds is not None else seating.rounds
    if not 0 <= played <= total:
        raise SeatingError(msg("played rounds %(played)d: must be between 0 and %(total)d", played=played,
                               total=total))
    if table is None:
        sizes = [len(g.seats) for g in seating.games if g.round >= played] or [len(g.seats) for g in seating.games]
        table = (min(sizes), max(sizes))
    absent: dict[int, set[int]] = {r: set(v) for r, v in dict(options.pop("absent", None) or {}).items()}
    for r in range(played, total):
        absent.setdefault(r, set()).update(dropped)
    return generate(n, total, table, absent=absent, _history=seating.games, _start=played,
                    **options)


def forbidden_pairs(players: int, apart: Sequence[Collection[int]]) -> set[tuple[int, int]]:
    """The pairs (smaller first) that must not meet: any two of a group of ``apart``."""
    pairs: set[tuple[int, int]] = set()
    for group in apart:
        members = sorted(set(group))
        for p in members:
            if not 0 <= p < players:
                raise SeatingError(msg("player %(player)s is not among the %(players)d players", player=p,
                                       players=players))
        pairs.update(combinations(members, 2))
    return pairs


def _check_request(players: int, rounds: int, low: int, high: int, games_per_player: int | None) -> None:
    if players < 2 or rounds < 1:
        raise SeatingError(msg("need at least 2 players and 1 round"))
    if not 2 <= low <= high:
        size = f"{low}-{high}"
        raise SeatingError(msg("table size %(size)s: need 2 <= min <= max", size=size))
    if games_per_player is not None and not 1 <= games_per_player <= rounds:
        raise SeatingError(msg("games per player must be between 1 and the %(rounds)d rounds", rounds=rounds))


def _check_pinned(players: int, pinned: Mapping[int, int]) -> None:
    for p, t in pinned.items():
        if not 0 <= p < players or t < 0:
            raise SeatingError(msg("pinned player %(player)s at table %(table)s: no such player or table", player=p,
                                   table=t))


def _present(players: int, away: Collection[int]) -> list[int]:
    gone = set(away)
    return [p for p in range(players) if p not in gone]


def _games_so_far(players: int, history: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    count = [0] * players
    for rnd in history:
        for seats in rnd:
            for p in seats:
                count[p] += 1
    return count


def _played_rounds(played: Sequence[Game], start: int) -> list[list[list[int]]]:
    """The tables of the rounds before ``start`` (by round, then table), from the games played."""
    history: list[list[list[int]]] = [[] for _ in range(start)]
    for g in played:
        if g.round < start:
            rnd = history[g.round]
            while len(rnd) <= g.table:
                rnd.append([])
            rnd[g.table] = list(g.seats)
    return history

"""Planning: how many tables of what size every round has (:func:`plan_rounds`), and who plays each round
and at which table he starts (:func:`first_rounds`: who sits out, then first groups for the search).

A table size is one number (tables of that size; who does not fill a whole table sits out, in turn) or a
range ``(min, max)`` (everybody plays; tables as even as possible, :func:`round_tables`). With fewer games
than rounds (``games_per_player``) the seats to fill are spread over the rounds as evenly as the players
present allow.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ...i18n import msg, nmsg
from .model import SeatingError


def parse_table(text: str) -> tuple[int, int]:
    """``"10"`` -> (10, 10); ``"12-16"`` -> (12, 16)."""
    try:
        lo, _, hi = text.partition("-")
        low, high = int(lo), int(hi or lo)
    except ValueError:
        raise SeatingError(msg("table size %(size)s: expected a number (10) or a range (12-16)",
                               size=repr(text))) from None
    if not 2 <= low <= high:
        raise SeatingError(msg("table size %(size)s: need 2 <= min <= max", size=repr(text)))
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


def plan_rounds(players: int, present: Sequence[int], low: int, high: int, games_per_player: int | None,
                history_slots: int) -> list[list[int]]:
    """Table sizes of every (remaining) round: ``present[r]`` players are there in round r, and
    ``history_slots`` seats were taken in the rounds played already."""
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
                raise SeatingError(nmsg(
                    "%(n)d player cannot play %(games)d games each at tables of %(k)d in %(rounds)d rounds",
                    "%(n)d players cannot play %(games)d games each at tables of %(k)d in %(rounds)d rounds",
                    players, games=games_per_player, k=k, rounds=rounds))
            tables = _spread(max(need, 0), caps)
        if sum(tables) == 0:
            raise SeatingError(msg("too few players for a table of %(k)d", k=k))
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
            raise SeatingError(msg("round %(round)d: %(players)d players cannot sit at tables of %(low)d-%(high)d",
                                   round=r + 1, players=m, low=low, high=high))
        plan.append(sizes)
    return plan


def first_rounds(players: int, rounds: int, free: Sequence[int], present: Sequence[Sequence[int]],
                 plan: Sequence[Sequence[int]], count: Sequence[int], pinned: Mapping[int, int],
                 forbidden: set[tuple[int, int]], rng: random.Random,
                 banned: Sequence[Mapping[int, set[int]]] = ()) -> tuple[list[list[list[int]]], list[list[int]]]:
    """Who plays each free round and the groups the search starts from: (tables, bench) by round.

    ``present[i]``: the players there in round ``free[i]``; ``count``: everybody's games so far. Who sits out:
    the fewest games so far first; then who can come less often later (:func:`who_plays`)."""
    count = list(count)
    later = [0] * players
    for pres in present:
        for p in pres:
            later[p] += 1
    tables: list[list[list[int]]] = [[] for _ in range(rounds)]
    bench: list[list[int]] = [[] for _ in range(rounds)]
    for idx, r in enumerate(free):
        pres = present[idx]
        for p in pres:
            later[p] -= 1
        sizes = plan[idx]
        chosen = who_plays(r, pres, sizes, count, later, pinned, rng)
        for p in chosen:
            count[p] += 1
        chosen_set = set(chosen)
        bench[r] = [p for p in pres if p not in chosen_set]
        tables[r] = first_groups(chosen, sizes, pinned, forbidden, rng, banned[r] if banned else {}, r)
    return tables, bench


def who_plays(r: int, present: Sequence[int], sizes: Sequence[int], count: Sequence[int], later: Sequence[int],
              pinned: Mapping[int, int], rng: random.Random) -> list[int]:
    """The players of round ``r``: the fewest games so far first, then who can come less often later (random
    among equals), as long as a pinned player's table has room."""
    seated_n = sum(sizes)
    room = list(sizes)
    jitter = {p: rng.random() for p in present}
    order = sorted(present, key=lambda p: (count[p], later[p], jitter[p]))
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
        raise SeatingError(msg("round %(round)d: not enough players can be seated (pinned tables)", round=r + 1))
    return chosen


def first_groups(chosen: Sequence[int], sizes: Sequence[int], pinned: Mapping[int, int],
                 forbidden: set[tuple[int, int]], rng: random.Random, banned: Mapping[int, set[int]] | None = None,
                 r: int = 0) -> list[list[int]]:
    """The tables a round's search starts from: pinned players at their tables, then the others in random
    order (those banned from more tables first), each to a table with room he may sit at where he has the
    fewest players he must not meet; when that leaves somebody no place, a matching (:func:`place_banned`)."""
    banned = banned or {}
    groups: list[list[int]] = [[] for _ in sizes]
    for p in chosen:
        if p in pinned:
            groups[pinned[p]].append(p)
    if any(pinned[p] in banned.get(p, ()) for p in chosen if p in pinned):
        return place_banned(chosen, sizes, pinned, banned, r)
    rest = [p for p in chosen if p not in pinned]
    rng.shuffle(rest)
    rest.sort(key=lambda p: -len(banned.get(p, ())))
    for p in rest:
        options = [t for t in range(len(sizes)) if len(groups[t]) < sizes[t] and t not in banned.get(p, ())]
        if not options:
            return place_banned(chosen, sizes, pinned, banned, r)
        best_t = min(options,
                     key=lambda t: (sum(1 for x in groups[t] if (min(p, x), max(p, x)) in forbidden), rng.random()))
        groups[best_t].append(p)
    return groups


def place_banned(chosen: Sequence[int], sizes: Sequence[int], pinned: Mapping[int, int],
                 banned: Mapping[int, set[int]], r: int) -> list[list[int]]:
    """Seat every chosen player at a table he may sit at (a bipartite matching of players to seats, by
    augmenting paths), or refuse saying which table cannot be filled."""
    slots = [t for t, k in enumerate(sizes) for _ in range(k)]
    holder: list[int | None] = [None] * len(slots)

    def allowed(p: int) -> list[int]:
        pin = pinned.get(p)
        return [i for i, t in enumerate(slots) if (pin is None or pin == t) and t not in banned.get(p, ())]

    def augment(p: int, seen: set[int]) -> bool:
        for i in allowed(p):
            if i in seen:
                continue
            seen.add(i)
            q = holder[i]
            if q is None or augment(q, seen):
                holder[i] = p
                return True
        return False

    for p in chosen:
        if not augment(p, set()):
            for t, k in enumerate(sizes):
                fit = sum(1 for q in chosen if t not in banned.get(q, ()) and pinned.get(q, t) == t)
                if fit < k:
                    raise SeatingError(msg("round %(round)d: table %(table)d needs %(k)d players, but only %(n)d of "
                                           "those playing may sit at it (hosts' conflicts)", round=r + 1, table=t + 1,
                                           k=k, n=fit))
            raise SeatingError(msg("round %(round)d: the players cannot all be seated at tables they may sit at "
                                   "(hosts' conflicts)", round=r + 1))
    groups: list[list[int]] = [[] for _ in sizes]
    for i, q in enumerate(holder):
        if q is not None:
            groups[slots[i]].append(q)
    return groups

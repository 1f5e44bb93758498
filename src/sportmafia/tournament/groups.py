"""Groups and tables (T.groups): split the participants of a round into tables of a size range.

Participants are split into tables of 12-16 players, as even as possible; each table has a host, and a
participant who hosts sits the round out. Who sits at which seat is the seating module's business; this
module only decides how many tables, of what size, and who plays at all this round.

>>> split_tables(40, (12, 16))
[13, 13, 14]
>>> plan_tables(25, (10, 10))
([10, 10], 5)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..errors import BilingualError
from ..i18n import Text, msg, nmsg

P = TypeVar("P")

SizeRange = range | tuple[int, int]
"""Table sizes: ``range(12, 17)`` or ``(12, 16)`` (both ends included in the tuple form)."""


class TournamentError(BilingualError):
    """Something the tournament layer refuses (``clause``: the rulebook id); ``text`` is the reason, a message of
    the catalogs shown in either language."""

    def __init__(self, clause: str, text: Text) -> None:
        super().__init__(text, prefix=f"[{clause}] ")
        self.clause = clause


def size_bounds(sizes: SizeRange) -> tuple[int, int]:
    """``(min, max)`` of a size range; raises :class:`TournamentError` for an empty or bad range."""
    if isinstance(sizes, range):
        if sizes.step != 1 or len(sizes) == 0:
            raise TournamentError("T.groups", msg("table sizes %(sizes)s must be a non-empty range with step 1",
                                                  sizes=str(sizes)))
        low, high = sizes.start, sizes.stop - 1
    else:
        low, high = sizes
    if low < 1 or high < low:
        raise TournamentError("T.groups", msg("table sizes %(low)d-%(high)d are not a valid range", low=low, high=high))
    return low, high


def _even(players: int, low: int, high: int) -> list[int] | None:
    """The most even split of exactly ``players`` into the fewest tables of ``low..high``, or None."""
    if players <= 0:
        return None
    tables = -(-players // high)  # fewest tables: more tables would only make them smaller
    if tables * low > players:
        return None
    base, extra = divmod(players, tables)
    return [base] * (tables - extra) + [base + 1] * extra


def _too_few(players: int, low: int, high: int) -> Text:
    return msg("%(players)d players are too few for one table of %(low)d-%(high)d", players=players, low=low,
               high=high)


def split_tables(players: int, sizes: SizeRange) -> list[int]:
    """Table sizes seating every one of ``players``, as even as possible, fewest tables (T.groups).

    The smaller tables come first. Raises :class:`TournamentError` when no split seats everyone
    (too few players, or a fixed table size that does not divide them: see :func:`plan_tables`).

    >>> split_tables(26, range(12, 17))
    [13, 13]
    """
    low, high = size_bounds(sizes)
    split = _even(players, low, high)
    if split is None:
        if players < low:
            raise TournamentError("T.groups", _too_few(players, low, high))
        raise TournamentError("T.groups", msg(
            "%(players)d players cannot all be seated at tables of %(low)d-%(high)d; let some sit out (plan_tables)",
            players=players, low=low, high=high))
    return split


def plan_tables(players: int, sizes: SizeRange) -> tuple[list[int], int]:
    """Tables and the number of players sitting out: everyone plays when :func:`split_tables` can
    seat them all, else the fewest possible sit out (with a fixed size of 10, 25 players make two
    tables and 5 sit out). Raises :class:`TournamentError` when there are too few for one table."""
    low, high = size_bounds(sizes)
    if players < low:
        raise TournamentError("T.groups", _too_few(players, low, high))
    for seated in range(players, low - 1, -1):
        split = _even(seated, low, high)
        if split is not None:
            return split, players - seated
    raise AssertionError("unreachable: a single table of the minimum size always fits")


@dataclass(frozen=True)
class RoundPlan(Generic[P]):
    """Who plays this round: ``tables`` (participants per table, in the order given) and who does not
    (``hosts`` who are participants, and ``sitting_out`` when the sizes leave extras)."""

    tables: tuple[tuple[P, ...], ...]
    hosting: tuple[P, ...]
    sitting_out: tuple[P, ...]


def assign_round(participants: Sequence[P], hosts: Collection[P], sizes: SizeRange) -> RoundPlan[P]:
    """Split one round's players into tables (T.groups).

    A participant who hosts this round sits it out. When the sizes cannot seat everyone (a fixed size),
    the extras sit out: the LAST players of ``participants`` (order them by who should play first, e.g.
    by fewest games so far). Tables take the players in order; balanced seating is the seating
    module's job. Each table needs a host: fewer hosts than tables is refused.
    """
    if len(set(participants)) != len(participants):
        raise TournamentError("T.groups", msg("a participant is listed twice"))
    hosting = tuple(p for p in participants if p in hosts)
    players = [p for p in participants if p not in hosts]
    split, out = plan_tables(len(players), sizes)
    if len(hosts) < len(split):
        raise TournamentError("T.groups", nmsg("%(n)d table needs %(n)d host, only %(given)d given",
                                               "%(n)d tables need %(n)d hosts, only %(given)d given",
                                               len(split), given=len(hosts)))
    seated, sitting_out = players[:len(players) - out], players[len(players) - out:]
    tables: list[tuple[P, ...]] = []
    start = 0
    for size in split:
        tables.append(tuple(seated[start:start + size]))
        start += size
    return RoundPlan(tuple(tables), hosting, tuple(sitting_out))

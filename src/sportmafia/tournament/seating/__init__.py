"""Tournament seating: who sits where in every round (pure, deterministic for a seed).

For P players, R rounds and a table size (``10``) or range (``12-16``) the generator (:func:`generate`,
:mod:`.generator`)

1. plans the rounds (:mod:`.planning`): how many tables of what size, and who sits out each round (players
   with fewer games so far go first, so that games per player differ by at most one when nobody is absent),
2. groups each round's players into tables: with tables of one size and no constraints it first searches
   schedules invariant under a cyclic group (:mod:`.cyclic`: the rounds are the shifts of a few base rounds,
   so the search runs over those alone), then runs simulated annealing (:mod:`.search`) over swaps of two
   players between two tables of one round (and, where players sit out, "bench swaps" that exchange a
   player and a benched one in two rounds at once, so that nobody's number of games changes), minimising
   the sum of squared pair meetings (equivalently the RMS deviation of meetings per pair) down to the least
   any schedule of the sizes can have (:func:`pair_sq_least`, :mod:`.bounds`); pairs that must not meet
   cost a large penalty per meeting,
3. numbers the seats of every game (:mod:`.numbering`) so that each player's count of every seat is as
   close as possible to his ideal (improving Kempe chains: exchange seats c and d along an alternating path
   of games; where tables differ in size, then annealing over exchanges of two seats in a game, down to
   :func:`seat_sq_least`).

The result types are in :mod:`.model`. The quality figures (:func:`quality`, :mod:`.figures`) are those of
``tools/seating_quality.py``: meetings per pair (min, max, RMS deviation from the mean and the least RMS any
schedule of the size can reach) and the RMS deviation of seat counts from the ideal with its floor; and two
tighter bounds of this package (``pair_rmse_least``, ``seat_rmse_least``). docs/tournament.md ("Seating")
has the arguments.
"""

from .bounds import pair_rmse_bound, pair_sq_least, rmse_floor, seat_sq_least
from .figures import quality
from .generator import generate, regenerate
from .model import Game, Seating, SeatingError
from .planning import parse_table, round_tables

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

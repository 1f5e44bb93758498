"""When a running vote's result is already decided (F.remove.vote, FIIM 9.8).

FIIM 9.8 keeps a vote's result when a player is removed "во время голосования, после того, как был определён
результат голосования": the result is decided once the hands still to come can no longer change who leaves.
These are pure functions of the tally; `Game` asks them at the moment of a removal, before the removed player
leaves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def sole_leader(tally: Mapping[int, int], open_candidates: Sequence[int], hands_left: int) -> int | None:
    """The candidate who has the most votes however the ``hands_left`` hands still to come are given, or None.

    ``tally``: each candidate's votes so far; ``open_candidates``: the candidates who can still receive votes
    (the current one and those after him; the last takes the votes not given). Every hand still to come can
    go to any open candidate, so ``x`` is certain to lead alone when each other candidate, given all those
    hands if he is open, still stays below ``x``'s votes so far. A tie that may still come decides nothing:
    it leads to a revote.

    >>> sole_leader({4: 6, 7: 0}, [7], 3)
    4
    >>> sole_leader({4: 6, 7: 0}, [7], 6) is None
    True
    """
    open_set = set(open_candidates)
    for x, votes in tally.items():
        if all(other == x or count + (hands_left if other in open_set else 0) < votes
               for other, count in tally.items()):
            return x
    return None


def lift_passed(yes: int, living: int) -> bool:
    """The lift question is decided yes once more than half of the living players raised a hand (A.tie.lift):
    a raised hand is not taken back."""
    return yes * 2 > living

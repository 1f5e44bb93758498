"""The final (T.final): the best of the preliminary standings play more games.

The regulation: "Финалисты сыграют дополнительно по 3 игры каждый". How many finalists, how many games
each, and whether the preliminary points carry over are settings (:class:`FinalSettings`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..i18n import msg, nmsg
from .groups import TournamentError
from .results import GameResult
from .scoring import REGULATION, ScoringSystem
from .standings import DEFAULT_TIE_BREAKS, Adjustment, Row, Sanction, standings


@dataclass(frozen=True)
class FinalSettings:
    """``finalists``: how many reach the final; ``games_each``: final games per finalist; ``carry_over``:
    whether preliminary points count in the final table (the regulation sums all points: True)."""

    finalists: int = 12
    games_each: int = 3
    carry_over: bool = True


def finalists(rows: Sequence[Row], k: int, include_ties: bool = False) -> list[str]:
    """The ``k`` best participants who are not disqualified (T.final).

    When the place at the cut is shared with someone below it, the judge decides (T.judge): the call is
    refused, unless ``include_ties`` takes everyone sharing that place.
    """
    if k < 1:
        raise TournamentError("T.final", msg("the final needs at least one finalist"))
    ranked = [r for r in rows if not r.disqualified and r.place is not None]
    if len(ranked) < k:
        raise TournamentError("T.final", nmsg("%(n)d finalist wanted, only %(ranked)d participants rank",
                                              "%(n)d finalists wanted, only %(ranked)d participants rank",
                                              k, ranked=len(ranked)))
    chosen = ranked[:k]
    cut = chosen[-1].place
    tied_below = [r.participant for r in ranked[k:] if r.place == cut]
    if tied_below:
        if not include_ties:
            tied = [r.participant for r in ranked if r.place == cut]
            raise TournamentError("T.final", msg("place %(place)s at the cut is shared by %(names)s: the judge decides",
                                                 place=cut, names=", ".join(tied)))
        chosen += [r for r in ranked[k:] if r.place == cut]
    return [r.participant for r in chosen]


def final_standings(prelim_rows: Sequence[Row], final_results: Iterable[GameResult],
                    system: ScoringSystem = REGULATION, carry_over: bool = True,
                    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS, finalist_ids: Sequence[str] | None = None,
                    games_each: int | None = None, sanctions: Iterable[Sanction] = (),
                    adjustments: Iterable[Adjustment] = ()) -> list[Row]:
    """The final table (T.final): the finalists first, ranked by their final points (plus the
    preliminary points when ``carry_over``), then everyone else in preliminary order.

    ``finalist_ids`` defaults to every participant who played a final game. ``games_each``, when given,
    refuses a table where a finalist has played a different number of final games.
    """
    final_results = list(final_results)
    played = Counter(pid for r in final_results for pid in r.participants)
    chosen = list(finalist_ids) if finalist_ids is not None else sorted(played)
    outsiders = sorted(set(played) - set(chosen))
    if outsiders:
        raise TournamentError("T.final", msg("%(names)s played a final game but are not finalists",
                                             names=", ".join(outsiders)))
    if games_each is not None:
        off = sorted(p for p in chosen if played[p] != games_each)
        if off:
            raise TournamentError("T.final", nmsg("each finalist plays %(n)d final game; not so for %(names)s",
                                                  "each finalist plays %(n)d final games; not so for %(names)s",
                                                  games_each, names=", ".join(off)))
    prelim = {r.participant: r for r in prelim_rows}
    # every finalist has a place in the final from its start (0 carried without carry-over)
    carried = {p: (prelim[p].points if p in prelim else 0.0) if carry_over else 0.0 for p in chosen}
    prelim_sanctions = [s for p in chosen if p in prelim for s in prelim[p].sanctions]
    rows = standings(final_results, system, tie_breaks, sanctions=[*prelim_sanctions, *sanctions],
                     adjustments=adjustments, participants=chosen, carried=carried)
    ranked = [r for r in rows if not r.disqualified]
    dropped = [r for r in rows if r.disqualified]
    rest = [r for r in prelim_rows if r.participant not in set(chosen)]
    offset = len(ranked)
    out = list(ranked)
    for r in rest:
        # the rest keep their preliminary order after the finalists; a shared range loses the places of
        # the finalists the judge took out of it (a tie split at the cut)
        place = None if r.disqualified or r.place is None else offset + _rest_before(rest, r.place) + 1
        last = None if place is None or r.last_place is None else offset + _rest_before(rest, r.last_place + 1)
        out.append(dataclasses.replace(r, place=place, place_to=last))
    out.sort(key=lambda r: (r.place is None, r.place or 0))
    return out + dropped


def _rest_before(rest: Sequence[Row], place: int) -> int:
    """How many of the non-finalists ranked before ``place`` in the preliminary table (to renumber them)."""
    return sum(1 for r in rest if not r.disqualified and r.place is not None and r.place < place)

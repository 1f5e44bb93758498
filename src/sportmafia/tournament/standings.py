"""Standings (T.total, T.judge): points summed over the accepted games, ties broken by the judge's list.

``standings(results, system, tie_breaks, sanctions, adjustments)`` returns one :class:`Row` per
participant, best first. Points always decide first; the judge orders the tie-breaks (default: more wins,
then fewer games, then head-to-head). Rows still equal after every tie-break share a range of places
(``place`` to ``place_to``: 4-6). The top three places are the tournament's winners (T.total); a tie the
tie-breaks cannot split that straddles place 3 (3-5) is not decided by the regulation, so the judge decides
(T.judge): such rows are ``prize_tie``, not ``top_three``. A participant with no game yet has no place
(he is listed after the placed rows), and a disqualified participant (removed from the tournament, or
banned) is listed last, without a place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..i18n import msg
from .groups import TournamentError
from .results import GameResult
from .scoring import REGULATION, GameScore, ScoringSystem, score_game

TIE_BREAKS: dict[str, str] = {
    "points": "more points",
    "wins": "more wins",
    "fewer_games": "fewer games",
    "head_to_head": "more points in the games the tied players played together",
    "extra_points": "more extra points",
    "fewer_penalties": "fewer penalty points",
}
"""The tie-break keys a judge may order, with what they prefer."""

DEFAULT_TIE_BREAKS: tuple[str, ...] = ("points", "wins", "fewer_games", "head_to_head")
DISQUALIFYING = ("tournament", "ban")
PRIZE_PLACES = 3
"""The top three places are the tournament's winners (T.total)."""


@dataclass(frozen=True)
class Sanction:
    """A sanction reaching beyond a game (B.sanctions): scope ``round``, ``tournament`` or ``ban``."""

    participant: str
    scope: str
    reason: str = ""
    game_id: str = ""


@dataclass(frozen=True)
class Adjustment:
    """A judge's manual change of a participant's points, with the reason (T.judge)."""

    participant: str
    points: float
    reason: str

    def __post_init__(self) -> None:
        if not self.reason or not self.reason.strip():
            raise TournamentError("T.judge", msg("a manual adjustment needs a reason"))


@dataclass(frozen=True)
class Row:
    """One line of the standings. ``place`` is None for a disqualified participant and for one with no game
    yet; ``place_to`` is the last place of a range shared by a tie (``place`` when not shared)."""

    place: int | None
    participant: str
    points: float
    games: int
    wins: int
    wins_by_role: tuple[tuple[str, int], ...]
    extra_points: float
    penalties: float
    adjustments: tuple[Adjustment, ...] = ()
    sanctions: tuple[Sanction, ...] = ()
    disqualified: bool = False
    carried: float = 0.0
    """Points carried over from an earlier stage (the final, T.final)."""
    place_to: int | None = None
    """The last place of the range this row shares with others equal after every tie-break (4 of "2-4")."""

    @property
    def last_place(self) -> int | None:
        """The last place of the row's range (its ``place`` when the place is not shared)."""
        return self.place if self.place is None or self.place_to is None else max(self.place, self.place_to)

    @property
    def shared(self) -> bool:
        """The place is shared with others whom the tie-breaks do not split."""
        return self.place is not None and self.last_place != self.place

    @property
    def top_three(self) -> bool:
        """One of the tournament's winners (T.total): the row's whole range lies within places 1-3."""
        last = self.last_place
        return last is not None and last <= PRIZE_PLACES

    @property
    def prize_tie(self) -> bool:
        """A tie across the last prize place (3-5): the regulation does not split it, the judge does (T.judge)."""
        last = self.last_place
        return self.place is not None and last is not None and self.place <= PRIZE_PLACES < last


@dataclass
class _Acc:
    points: float = 0.0
    games: int = 0
    wins: int = 0
    extra: float = 0.0
    penalties: float = 0.0


def _check_tie_breaks(tie_breaks: Sequence[str]) -> tuple[str, ...]:
    unknown = [k for k in tie_breaks if k not in TIE_BREAKS]
    if unknown:
        raise TournamentError("T.total", msg("unknown tie-break %(key)s; known: %(known)s", key=repr(unknown[0]),
                                             known=", ".join(TIE_BREAKS)))
    keys = tuple(dict.fromkeys(tie_breaks))
    return keys if keys[:1] == ("points",) else ("points", *(k for k in keys if k != "points"))


def standings(results: Iterable[GameResult], system: ScoringSystem = REGULATION,
              tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS, sanctions: Iterable[Sanction] = (),
              adjustments: Iterable[Adjustment] = (), participants: Iterable[str] = (),
              carried: Mapping[str, float] | None = None) -> list[Row]:
    """The standings over the accepted ``results`` (T.total), best first.

    ``participants`` adds players with no game yet; ``carried`` adds points from an earlier stage.
    Sanctions found in the results (removals from the round, tournament, or a ban) join ``sanctions``.
    """
    keys = _check_tie_breaks(tie_breaks)
    results = list(results)
    carried = dict(carried or {})
    scores: list[dict[str, GameScore]] = [score_game(r, system) for r in results]
    acc: dict[str, _Acc] = defaultdict(_Acc)
    by_role: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    found: dict[str, list[Sanction]] = defaultdict(list)
    for p in participants:
        acc[p]
    for p in carried:
        acc[p]
    for result, game in zip(results, scores, strict=True):
        for pid, sc in game.items():
            a = acc[pid]
            a.points += sc.points
            a.games += 1
            a.extra += sc.extra
            a.penalties += sc.penalties
            if sc.won:
                a.wins += 1
                by_role[pid][sc.role] += 1
            if sc.sanction:
                found[pid].append(Sanction(pid, sc.sanction, "removed in a game", result.game_id))
    for s in sanctions:
        acc[s.participant]
        found[s.participant].append(s)
    adjusted: dict[str, list[Adjustment]] = defaultdict(list)
    for adj in adjustments:
        acc[adj.participant]
        adjusted[adj.participant].append(adj)
        acc[adj.participant].points += adj.points

    def total(pid: str) -> float:
        return round(acc[pid].points + carried.get(pid, 0.0), 6)

    def h2h(group: Sequence[str]) -> dict[str, float]:
        members = set(group)
        return {pid: round(sum(game[pid].points for game in scores if members <= game.keys()), 6)
                for pid in group}

    simple: dict[str, Callable[[str], float]] = {
        "points": total,
        "wins": lambda pid: acc[pid].wins,
        "fewer_games": lambda pid: -acc[pid].games,
        "extra_points": lambda pid: round(acc[pid].extra, 6),
        "fewer_penalties": lambda pid: round(acc[pid].penalties, 6),
    }

    def rank(group: list[str], rest: tuple[str, ...]) -> list[list[str]]:
        if len(group) < 2 or not rest:
            return [sorted(group)]
        key = rest[0]
        values = h2h(group) if key == "head_to_head" else {pid: simple[key](pid) for pid in group}
        out: list[list[str]] = []
        for v in sorted(set(values.values()), reverse=True):
            out.extend(rank([pid for pid in group if values[pid] == v], rest[1:]))
        return out

    disq = {pid for pid, ss in found.items() if any(s.scope in DISQUALIFYING for s in ss)}
    # no place until he plays: 0 points of no game are not 0 points of games lost (nor "fewer games")
    waiting = {pid for pid in set(acc) - disq if acc[pid].games == 0 and pid not in carried}
    rows: list[Row] = []
    place = 1
    for tied in rank(sorted(set(acc) - disq - waiting), keys):
        for pid in tied:
            rows.append(_row(place, pid, acc[pid], total(pid), by_role[pid], adjusted[pid], found[pid],
                             False, carried.get(pid, 0.0), place + len(tied) - 1))
        place += len(tied)
    for pid in sorted(waiting, key=lambda p: (-total(p), p)):
        rows.append(_row(None, pid, acc[pid], total(pid), by_role[pid], adjusted[pid], found[pid], False,
                         carried.get(pid, 0.0), None))
    for pid in sorted(disq, key=lambda p: (-total(p), p)):
        rows.append(_row(None, pid, acc[pid], total(pid), by_role[pid], adjusted[pid], found[pid], True,
                         carried.get(pid, 0.0), None))
    return rows


def _row(place: int | None, pid: str, a: _Acc, points: float, roles: Mapping[str, int],
         adjustments: list[Adjustment], sanctions: list[Sanction], disqualified: bool, carried: float,
         place_to: int | None) -> Row:
    return Row(place=place, place_to=place_to, participant=pid, points=points, games=a.games, wins=a.wins,
               wins_by_role=tuple(sorted(roles.items())), extra_points=round(a.extra, 6),
               penalties=round(a.penalties, 6), adjustments=tuple(adjustments), sanctions=tuple(sanctions),
               disqualified=disqualified, carried=carried)

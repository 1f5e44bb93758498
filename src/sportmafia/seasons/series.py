"""A season's standings (docs/seasons.md, "Seasons"): which games are the season's (those that ended on one of its
days, in the club's time), the standings by rating (the team Elo and OpenSkill over the season's games alone,
everyone starting afresh) and the standings by points (series points for each place in the season's
tournaments, as data). Pure functions over plain data.

Places are shared by rows equal in everything that orders them: ``place`` is the first place of the range and
``place_to`` its last (equal to ``place`` when not shared)."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from .elo import MAFIARATINGS, RatedGame, rate
from .skill import rate_skill
from .stats import MOSCOW

MAX_PLACES = 64
"""The longest list of series points (points for places 1 to 64)."""
MAX_POINTS = 10_000.0


def season_day(moment: datetime, timezone: str = MOSCOW) -> date:
    """The day a game that ended at ``moment`` (an aware datetime) counts for."""
    return moment.astimezone(ZoneInfo(timezone)).date()


def in_season(moment: datetime, starts_on: date, ends_on: date, timezone: str = MOSCOW) -> bool:
    """Whether a game that ended at ``moment`` is the season's: its day, in ``timezone``, from ``starts_on`` to
    ``ends_on``, both included."""
    return starts_on <= season_day(moment, timezone) <= ends_on


def check_series_points(points: Sequence[float]) -> list[float]:
    """The series points as stored: at most :data:`MAX_PLACES` finite numbers from 0 to :data:`MAX_POINTS`
    (``ValueError`` otherwise)."""
    if len(points) > MAX_PLACES:
        raise ValueError(f"at most {MAX_PLACES} places have series points")
    out = []
    for p in points:
        value = float(p)
        if not math.isfinite(value) or not 0 <= value <= MAX_POINTS:
            raise ValueError(f"series points are numbers from 0 to {MAX_POINTS:g}, not {p!r}")
        out.append(value)
    return out


def place_points(series: Sequence[float], place: int, place_to: int | None = None) -> float:
    """The points for ``place`` (``series[place - 1]``, 0 beyond the list); a place shared from ``place`` to
    ``place_to`` gives each the mean of the points of the places shared."""
    last = place if place_to is None else max(place, place_to)
    shared = [series[p - 1] if 0 < p <= len(series) else 0.0 for p in range(place, last + 1)]
    return sum(shared) / len(shared)


R = TypeVar("R")


def ranked(rows: Iterable[R], key: Callable[[R], tuple[Any, ...]], name: Callable[[R], str]
           ) -> list[tuple[int, int, R]]:
    """``rows`` in the order of ``key`` (smallest first), each with its place and the last place of its range:
    rows with equal keys share the place (listed by name)."""
    ordered = sorted(rows, key=lambda r: (key(r), name(r).casefold(), name(r)))
    out: list[tuple[int, int, R]] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and key(ordered[j + 1]) == key(ordered[i]):
            j += 1
        out += [(i + 1, j + 1, r) for r in ordered[i:j + 1]]
        i = j + 1
    return out


# --- standings by rating --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RatingRow:
    """One line of the standings by rating: a person's place, rated games and wins in the season, and his
    ratings from the season's games alone."""

    place: int
    place_to: int
    person: str
    games: int
    wins: int
    elo: float
    red: float
    black: float
    skill: float


def rating_standings(games: Iterable[RatedGame], excluded: Collection[str] = ()) -> list[RatingRow]:
    """The standings by rating over ``games`` from scratch (:func:`~sportmafia.seasons.elo.rate` and
    :func:`~sportmafia.seasons.skill.rate_skill`, everyone at the start), the ``excluded`` ids left out: every
    person with a rated game, by his overall Elo (higher first), then OpenSkill's ordinal; equal in both, the
    place is shared. ``games``/``wins``: the rated games (those with a winner, not excluded) and those he won."""
    games = list(games)
    elo = rate(games, excluded, MAFIARATINGS)
    skill = rate_skill(games, excluded)
    wins: dict[str, int] = {}
    for game in games:
        if game.winner is not None and game.game_id not in excluded:
            for person, team in zip(game.people, game.teams, strict=True):
                if person is not None and team == game.winner:
                    wins[person] = wins.get(person, 0) + 1
    rows = [RatingRow(0, 0, p, len(h), wins.get(p, 0), elo.overall(p), elo.colour(p, "red"), elo.colour(p, "black"),
                      skill.skill(p).ordinal) for p, h in elo.history.items()]
    return [RatingRow(place, last, r.person, r.games, r.wins, r.elo, r.red, r.black, r.skill)
            for place, last, r in ranked(rows, lambda r: (-round(r.elo, 6), -round(r.skill, 6)), lambda r: r.person)]


# --- standings by points --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Placing:
    """A tournament's final place of one of its participants: ``key`` names the person across tournaments
    (a club person's id, or the nickname of a participant linked to none), ``name`` is shown."""

    tournament: str
    key: str
    name: str
    place: int
    place_to: int | None = None


@dataclass(frozen=True)
class PointsRow:
    """One line of the standings by points: the series points summed over the season's tournaments, how many
    of them he played and won, his season Elo (the last tie-break) and each tournament's place and points."""

    place: int
    place_to: int
    key: str
    name: str
    points: float
    tournaments: int
    won: int
    elo: float
    results: tuple[tuple[str, int, int, float], ...]
    """(tournament, place, last place of a shared range, points), in the order the tournaments were given."""


def points_standings(placings: Iterable[Placing], series: Sequence[float],
                     elo: Mapping[str, float] | None = None, initial: float = MAFIARATINGS.initial
                     ) -> list[PointsRow]:
    """The standings by points: each placing gives ``place_points(series, place, place_to)``, summed per key.
    Ties: more points first, then more tournaments won (a first place, shared or not), then the higher season Elo
    (``elo``, by key; ``initial`` for a key without one); equal in all three, the place is shared."""
    elo = elo or {}
    results: dict[str, list[tuple[str, int, int, float]]] = {}
    names: dict[str, str] = {}
    for p in placings:
        last = p.place if p.place_to is None else max(p.place, p.place_to)
        results.setdefault(p.key, []).append((p.tournament, p.place, last, place_points(series, p.place, last)))
        names.setdefault(p.key, p.name)
    rows = [PointsRow(0, 0, k, names[k], sum(r[3] for r in rs), len(rs), sum(1 for r in rs if r[1] == 1),
                      elo.get(k, initial), tuple(rs)) for k, rs in results.items()]
    return [PointsRow(place, last, r.key, r.name, r.points, r.tournaments, r.won, r.elo, r.results)
            for place, last, r in ranked(rows, lambda r: (-round(r.points, 6), -r.won, -round(r.elo, 6)),
                                         lambda r: r.name)]

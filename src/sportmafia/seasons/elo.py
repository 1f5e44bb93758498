"""A team Elo compatible with mafiaratings: a red and a black rating per person (docs/seasons.md, "Ratings").

Everyone starts at 1000 in both colours. In a game, red's chance is ``p = 1 / (1 + 10 ** ((B - R) / 400))``
where R and B are the means of the red and the black players' ratings, each player's rating being the one of
the colour he plays. A red player gains ``W * (1 - p)`` on a win and loses ``L * p`` on a loss; a black player
gains ``W * p`` on a win and loses ``L * (1 - p)`` on a loss; only the rating of the colour played changes.
The weights W/L depend on the kind of game and the table's size (:data:`MAFIARATINGS`).

:func:`rate` rates games from scratch (ordered by end time, then game id); :class:`EloState` rates them one
by one as they come, with the same result.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any, NamedTuple

KINDS = ("club", "tournament", "elite")
"""The kinds of games: a club's game, a tournament's, an elite tournament's."""


@dataclass(frozen=True)
class Weights:
    """What a win gives (``win`` = W) and a loss takes (``loss`` = L) at even chances, times 2."""

    win: float
    loss: float


@dataclass(frozen=True)
class EloSystem:
    """The data of a team Elo: the initial rating, the weights per kind of game at a full table and at a smaller
    one (fewer than ``full_table`` players)."""

    name: str
    initial: float
    full_table: int
    full: Mapping[str, Weights]
    small: Mapping[str, Weights]
    scale: float = field(default=400.0)

    def weights(self, kind: str, players: int) -> Weights:
        table = self.full if players >= self.full_table else self.small
        try:
            return table[kind]
        except KeyError:
            raise ValueError(f"unknown kind of game {kind!r}; one of {', '.join(table)}") from None


MAFIARATINGS = EloSystem(
    name="mafiaratings",
    initial=1000.0,
    full_table=10,
    full=MappingProxyType({"club": Weights(4, 3), "tournament": Weights(16, 12), "elite": Weights(64, 48)}),
    small=MappingProxyType({"club": Weights(2, 1.5), "tournament": Weights(8, 6), "elite": Weights(32, 24)}),
)
"""mafiaratings' weights (include/game_ratings.php): 4/3 for a club's game, 16/12 for a tournament's, 64/48 for an
elite tournament's, and half of each with fewer than 10 players."""


@dataclass(frozen=True)
class RatedGame:
    """A game as the Elo sees it: who sat where (a person's key per seat, seat 1 first; None for a guest, who
    is not rated and not counted in the means), each seat's team, the winner and the kind of game."""

    game_id: str
    ended: datetime
    people: tuple[str | None, ...]
    teams: tuple[str, ...]
    winner: str | None
    kind: str = "club"


class RatingChange(NamedTuple):
    """One person's rating change in one game: the rating of ``colour`` before, the change and after."""

    person: str
    game_id: str
    ended: datetime
    colour: str
    before: float
    change: float
    after: float

    def to_json(self) -> dict[str, Any]:
        return {"person": self.person, "game_id": self.game_id, "ended": self.ended.isoformat(),
                "colour": self.colour, "before": self.before, "change": self.change, "after": self.after}


@dataclass(frozen=True)
class Ratings:
    """Ratings after a run of games: each person's red and black ratings, his history (each change in order)
    and red's chance ``p`` in each rated game (by game id)."""

    system: EloSystem
    red: Mapping[str, float]
    black: Mapping[str, float]
    history: Mapping[str, tuple[RatingChange, ...]]
    odds: Mapping[str, float]

    def colour(self, person: str, colour: str) -> float:
        """A person's rating in a colour (the initial one if he never played it)."""
        table = self.red if colour == "red" else self.black
        return table.get(person, self.system.initial)

    def overall(self, person: str) -> float:
        """The initial rating plus every change of both colours (mafiaratings' single rating)."""
        return self.colour(person, "red") + self.colour(person, "black") - self.system.initial

    def to_json(self) -> dict[str, Any]:
        people = sorted(self.history)
        return {"system": self.system.name, "initial": self.system.initial,
                "people": {p: {"red": self.colour(p, "red"), "black": self.colour(p, "black"),
                               "overall": self.overall(p), "games": len(self.history[p])} for p in people},
                "odds": dict(self.odds)}


def check_game(game: RatedGame, last: tuple[datetime, str] | None) -> tuple[datetime, str]:
    """A game's order key (end time, id), checked to come after ``last`` (the key of the game rated last);
    ``ValueError`` for a game out of order, a person at two seats, or teams that are not red and black."""
    key = (game.ended, game.game_id)
    if last is not None and key <= last:
        raise ValueError(f"game {game.game_id!r} comes before or with game {last[1]!r} already rated")
    if len(game.people) != len(game.teams):
        raise ValueError(f"game {game.game_id!r}: {len(game.people)} people for {len(game.teams)} seats")
    rated = [p for p in game.people if p is not None]
    if len(set(rated)) != len(rated):
        raise ValueError(f"game {game.game_id!r}: a person sits at two seats")
    if game.winner not in ("red", "black", None) or any(t not in ("red", "black") for t in game.teams):
        raise ValueError(f"game {game.game_id!r}: teams and the winner are red or black")
    return key


def in_order(games: Iterable[RatedGame]) -> list[RatedGame]:
    """Games in the order they are rated: by end time, then id."""
    return sorted(games, key=lambda g: (g.ended, g.game_id))


class EloState:
    """Ratings rated game by game: :meth:`apply` each game in order (by end time, then game id); the state then
    holds what :func:`rate` gives for the same games."""

    def __init__(self, system: EloSystem = MAFIARATINGS, excluded: Collection[str] = ()) -> None:
        self.system = system
        self.excluded = frozenset(excluded)
        self.red: dict[str, float] = {}
        self.black: dict[str, float] = {}
        self.history: dict[str, list[RatingChange]] = {}
        self.odds: dict[str, float] = {}
        self.last: tuple[datetime, str] | None = None
        self._copies: dict[str, tuple[RatingChange, ...]] = {}
        """Each person's history as of the last :meth:`ratings` (remade only for those who played since)."""
        self._changed: set[str] = set()

    def apply(self, game: RatedGame) -> tuple[RatingChange, ...]:
        """Rate one game; returns its changes (none for an excluded game or a game without a winner). Raises
        ``ValueError`` for a game that comes before one already applied, or a malformed one."""
        key = check_game(game, self.last)
        weights = self.system.weights(game.kind, len(game.people))
        self.last = key
        if game.winner is None or game.game_id in self.excluded:
            return ()
        initial = self.system.initial
        red, black = self.red, self.black
        red_sum = black_sum = 0.0
        red_n = black_n = 0
        for person, team in zip(game.people, game.teams, strict=True):
            if person is None:
                continue
            if team == "red":
                red_sum += red.get(person, initial)
                red_n += 1
            else:
                black_sum += black.get(person, initial)
                black_n += 1
        # include/game_ratings.php: red's odds are 0 when a team has no rated player
        p = 1.0 / (1.0 + 10.0 ** ((black_sum / black_n - red_sum / red_n) / self.system.scale)) \
            if red_n and black_n else 0.0
        self.odds[game.game_id] = p
        red_won = game.winner == "red"
        win, loss = weights.win, weights.loss
        gains = {"red": win * (1.0 - p) if red_won else -loss * p,
                 "black": -loss * (1.0 - p) if red_won else win * p}
        changes = []
        for person, team in zip(game.people, game.teams, strict=True):
            if person is None:
                continue
            table = red if team == "red" else black
            before = table.get(person, initial)
            change = gains[team]
            after = before + change
            table[person] = after
            entry = RatingChange(person, game.game_id, game.ended, team, before, change, after)
            self.history.setdefault(person, []).append(entry)
            self._changed.add(person)
            changes.append(entry)
        return tuple(changes)

    def ratings(self) -> Ratings:
        """The ratings now (a copy: later games do not change it). Only the histories of those who played since
        the last copy are copied again: after one game, ten of a club's two hundred."""
        for person in self._changed:
            self._copies[person] = tuple(self.history[person])
        self._changed.clear()
        return Ratings(system=self.system, red=MappingProxyType(dict(self.red)),
                       black=MappingProxyType(dict(self.black)), history=MappingProxyType(dict(self._copies)),
                       odds=MappingProxyType(dict(self.odds)))


def rate(games: Iterable[RatedGame], excluded: Collection[str] = (), system: EloSystem = MAFIARATINGS) -> Ratings:
    """Rate games from scratch, in the order of their end (then of their id), skipping the ``excluded`` ids."""
    state = EloState(system, excluded)
    for game in in_order(games):
        state.apply(game)
    return state.ratings()

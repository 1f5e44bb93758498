"""A Bayesian rating from OpenSkill (the Weng-Lin Plackett-Luce model of the ``openskill`` library): per person a
skill ``mu``, its uncertainty ``sigma`` and the ``ordinal`` (mu - 3 sigma, the library's), game by game.

Each game with a winner is two teams, red and black, the winner ranked first; a game without a winner (a draw,
an annulled game) is skipped, like an excluded one. The library's team strength is the sum of its players'
skills, and a table's red team is larger than its black team (7 and 3 at ten seats): so the smaller team is
evened out with placeholders, fresh default ratings that are not anyone's, as a guest's seat is. Their
updates are dropped. See docs/seasons.md, "Ratings".

The library is used through this module only (:class:`SkillModel`): the rest of the project sees plain floats.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

from .elo import RatedGame, check_game, in_order


class Skill(NamedTuple):
    """A person's skill: ``mu`` and ``sigma`` of the model, and its ``ordinal`` (a cautious figure to rank by). A
    named tuple: a season makes one per seat (200,000 of them for a club's year), and a frozen dataclass took four
    times as long to make."""

    mu: float
    sigma: float
    ordinal: float

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


class SkillModel:
    """The typed face of the library's model: a newcomer's skill, and the skills after one game of two teams.

    ``rate`` is the library's ``PlackettLuce.rate`` for two teams ranked 1 and 2, without its copies: ``rate``
    deep-copies its teams (drawing a random id for each copy) and then adds ``tau`` to each sigma, which cost four
    times the game's own arithmetic. Here the figures are set on a pool of work ratings that belong to nobody, the
    same ``tau`` step is taken, and the library's own computation (``_compute``) updates them: the same figures
    as ``rate`` (asserted by tests/seasons/test_skill.py on random games, so a change of the library shows)."""

    def __init__(self) -> None:
        self._model = PlackettLuce()
        fresh = self._model.rating()
        self.initial = Skill(fresh.mu, fresh.sigma, fresh.ordinal())
        self._tau_squared = self._model.tau * self._model.tau
        self._work: list[PlackettLuceRating] = []

    def rate(self, winners: Sequence[Skill], losers: Sequence[Skill], size: int = 0) -> tuple[list[Skill], list[Skill]]:
        """The skills of ``winners`` and ``losers`` after the first team beat the second, each team evened out to
        ``size`` with placeholders (newcomers' ratings that are nobody's: their own updates are not returned)."""
        if self._model.limit_sigma:  # pragma: no cover - the library's default is off; kept as the library would
            raise ValueError("limit_sigma is not supported")
        n_won, n_lost = max(size, len(winners)), max(size, len(losers))
        work, need = self._work, n_won + n_lost
        while len(work) < need:
            work.append(self._model.rating())
        tau_squared = self._tau_squared
        initial = self.initial
        teams = (*winners, *[initial] * (n_won - len(winners)), *losers, *[initial] * (n_lost - len(losers)))
        for rating, given in zip(work, teams, strict=False):
            rating.mu = given.mu
            rating.sigma = math.sqrt(given.sigma * given.sigma + tau_squared)
        won, lost = self._model._compute(teams=[work[:n_won], work[n_won:need]], ranks=[1, 2])
        made = self.skill
        return [made(r) for r in won[:len(winners)]], [made(r) for r in lost[:len(losers)]]

    @staticmethod
    def skill(rating: PlackettLuceRating) -> Skill:
        return Skill(rating.mu, rating.sigma, rating.ordinal())


class SkillChange(NamedTuple):
    """One person's skill before and after one game, and the colour he played."""

    person: str
    game_id: str
    ended: datetime
    colour: str
    before: Skill
    after: Skill

    def to_json(self) -> dict[str, Any]:
        return {"person": self.person, "game_id": self.game_id, "ended": self.ended.isoformat(),
                "colour": self.colour, "before": self.before.to_json(), "after": self.after.to_json()}


@dataclass(frozen=True)
class SkillRatings:
    """The skills after a run of games, each person's history, and the skill of a newcomer (``initial``)."""

    initial: Skill
    skills: Mapping[str, Skill]
    history: Mapping[str, tuple[SkillChange, ...]]

    def skill(self, person: str) -> Skill:
        return self.skills.get(person, self.initial)

    def to_json(self) -> dict[str, Any]:
        return {"initial": self.initial.to_json(),
                "people": {p: {**self.skills[p].to_json(), "games": len(self.history[p])} for p in sorted(self.skills)}}


class SkillState:
    """Skills rated game by game, in order (by end time, then game id): the same as :func:`rate_skill`."""

    def __init__(self, excluded: Collection[str] = (), model: SkillModel | None = None) -> None:
        self.model = model or SkillModel()
        self.excluded = frozenset(excluded)
        self.skills: dict[str, Skill] = {}
        self._copies: dict[str, tuple[SkillChange, ...]] = {}
        """Each person's history as of the last :meth:`ratings` (remade only for those who played since)."""
        self._changed: set[str] = set()
        self.history: dict[str, list[SkillChange]] = {}
        self.last: tuple[datetime, str] | None = None

    def apply(self, game: RatedGame) -> tuple[SkillChange, ...]:
        """Rate one game; returns its changes (none for an excluded game or one without a winner)."""
        self.last = check_game(game, self.last)
        if game.winner is None or game.game_id in self.excluded:
            return ()
        model, skills, initial = self.model, self.skills, self.model.initial
        winners: list[tuple[str, str]] = []
        losers: list[tuple[str, str]] = []
        for person, team in zip(game.people, game.teams, strict=True):
            if person is not None:
                (winners if team == game.winner else losers).append((person, team))
        # the smaller team (and a guest's seat) evened out with placeholders, whose updates are dropped
        size = max(game.teams.count("red"), game.teams.count("black"))
        before = ([skills.get(p, initial) for p, _ in winners], [skills.get(p, initial) for p, _ in losers])
        after = model.rate(*before, size)
        changes = []
        for side, was_side, new in zip((winners, losers), before, after, strict=True):
            for (person, colour), was, now in zip(side, was_side, new, strict=True):
                skills[person] = now
                change = SkillChange(person, game.game_id, game.ended, colour, was, now)
                self.history.setdefault(person, []).append(change)
                self._changed.add(person)
                changes.append(change)
        return tuple(changes)

    def ratings(self) -> SkillRatings:
        """The skills now (a copy)."""
        for person in self._changed:
            self._copies[person] = tuple(self.history[person])
        self._changed.clear()
        return SkillRatings(initial=self.model.initial, skills=MappingProxyType(dict(self.skills)),
                            history=MappingProxyType(dict(self._copies)))


def rate_skill(games: Iterable[RatedGame], excluded: Collection[str] = ()) -> SkillRatings:
    """Rate games from scratch with OpenSkill, in the order of their end (then id), skipping ``excluded`` ids."""
    state = SkillState(excluded)
    for game in in_order(games):
        state.apply(game)
    return state.ratings()

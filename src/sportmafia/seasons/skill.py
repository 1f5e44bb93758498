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

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

from .elo import RatedGame, check_game, in_order


@dataclass(frozen=True)
class Skill:
    """A person's skill: ``mu`` and ``sigma`` of the model, and its ``ordinal`` (a cautious figure to rank by)."""

    mu: float
    sigma: float
    ordinal: float

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


class SkillModel:
    """The typed face of the library's model: a new rating, and the ratings after one game of two teams.

    The library's rating objects are kept between games (:class:`SkillState` holds each person's): making one
    draws a random id, which cost more than the game's own arithmetic. The placeholders are a pool of fresh
    default ratings, each used at most once per game (``rate`` copies its teams and leaves them as they were)."""

    def __init__(self) -> None:
        self._model = PlackettLuce()
        fresh = self._model.rating()
        self.initial = Skill(fresh.mu, fresh.sigma, fresh.ordinal())
        self._placeholders: list[PlackettLuceRating] = []

    def rating(self, skill: Skill | None = None) -> PlackettLuceRating:
        """The library's rating of ``skill`` (a newcomer's default one without)."""
        return self._model.rating() if skill is None else self._model.rating(mu=skill.mu, sigma=skill.sigma)

    def placeholders(self, n: int) -> list[PlackettLuceRating]:
        """``n`` distinct default ratings that belong to nobody."""
        while len(self._placeholders) < n:
            self._placeholders.append(self._model.rating())
        return self._placeholders[:n]

    def rate_teams(self, winners: list[PlackettLuceRating], losers: list[PlackettLuceRating]
                   ) -> tuple[list[PlackettLuceRating], list[PlackettLuceRating]]:
        """The library's ratings after ``winners`` beat ``losers`` (new objects; those given are unchanged)."""
        won, lost = self._model.rate([winners, losers], ranks=[1, 2])
        return won, lost

    def rate(self, winners: list[Skill | None], losers: list[Skill | None]) -> tuple[list[Skill], list[Skill]]:
        """The skills after ``winners`` beat ``losers``; None stands for a placeholder (a default rating)."""
        won, lost = self.rate_teams([self.rating(s) for s in winners], [self.rating(s) for s in losers])
        return [self.skill(r) for r in won], [self.skill(r) for r in lost]

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
        self.kept: dict[str, PlackettLuceRating] = {}
        """Each person's rating as the library's object (the same figures as ``skills``)."""
        self.history: dict[str, list[SkillChange]] = {}
        self.last: tuple[datetime, str] | None = None

    def apply(self, game: RatedGame) -> tuple[SkillChange, ...]:
        """Rate one game; returns its changes (none for an excluded game or one without a winner)."""
        self.last = check_game(game, self.last)
        if game.winner is None or game.game_id in self.excluded:
            return ()
        model, kept = self.model, self.kept
        winners: list[tuple[str, str]] = []
        losers: list[tuple[str, str]] = []
        for person, team in zip(game.people, game.teams, strict=True):
            if person is not None:
                (winners if team == game.winner else losers).append((person, team))
        # the smaller team (and a guest's seat) evened out with placeholders, whose updates are dropped
        size = max(game.teams.count("red"), game.teams.count("black"))
        short = size - len(winners)
        placeholders = model.placeholders(short + size - len(losers))  # distinct: each object once a game
        after = model.rate_teams([*(kept[p] if p in kept else model.rating() for p, _ in winners),
                                  *placeholders[:short]],
                                 [*(kept[p] if p in kept else model.rating() for p, _ in losers),
                                  *placeholders[short:]])
        skills, initial = self.skills, model.initial
        changes = []
        for side, new in zip((winners, losers), after, strict=True):
            for (person, colour), rating in zip(side, new, strict=False):
                was = skills.get(person, initial)
                now = model.skill(rating)
                kept[person] = rating
                skills[person] = now
                change = SkillChange(person, game.game_id, game.ended, colour, was, now)
                self.history.setdefault(person, []).append(change)
                changes.append(change)
        return tuple(changes)

    def ratings(self) -> SkillRatings:
        """The skills now (a copy)."""
        return SkillRatings(initial=self.model.initial, skills=MappingProxyType(dict(self.skills)),
                            history=MappingProxyType({p: tuple(h) for p, h in self.history.items()}))


def rate_skill(games: Iterable[RatedGame], excluded: Collection[str] = ()) -> SkillRatings:
    """Rate games from scratch with OpenSkill, in the order of their end (then id), skipping ``excluded`` ids."""
    state = SkillState(excluded)
    for game in in_order(games):
        state.apply(game)
    return state.ratings()

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
    """The typed face of the library's model: a new rating, and the ratings after one game of two teams."""

    def __init__(self) -> None:
        self._model = PlackettLuce()
        fresh = self._model.rating()
        self.initial = Skill(fresh.mu, fresh.sigma, fresh.ordinal())

    def rate(self, winners: list[Skill | None], losers: list[Skill | None]) -> tuple[list[Skill], list[Skill]]:
        """The skills after ``winners`` beat ``losers``; None stands for a placeholder (a default rating)."""
        teams = [[self._rating(s) for s in winners], [self._rating(s) for s in losers]]
        won, lost = self._model.rate(teams, ranks=[1, 2])
        return [self._skill(r) for r in won], [self._skill(r) for r in lost]

    def _rating(self, skill: Skill | None) -> PlackettLuceRating:
        if skill is None:
            return self._model.rating()
        return self._model.rating(mu=skill.mu, sigma=skill.sigma)

    @staticmethod
    def _skill(rating: PlackettLuceRating) -> Skill:
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
        self.history: dict[str, list[SkillChange]] = {}
        self.last: tuple[datetime, str] | None = None

    def apply(self, game: RatedGame) -> tuple[SkillChange, ...]:
        """Rate one game; returns its changes (none for an excluded game or one without a winner)."""
        self.last = check_game(game, self.last)
        if game.winner is None or game.game_id in self.excluded:
            return ()
        winners = [(p, t) for p, t in zip(game.people, game.teams, strict=True) if t == game.winner]
        losers = [(p, t) for p, t in zip(game.people, game.teams, strict=True) if t != game.winner]
        size = max(len(winners), len(losers))
        winners += [(None, game.winner)] * (size - len(winners))
        losers += [(None, "")] * (size - len(losers))
        skills = self.skills
        initial = self.model.initial
        before = [[skills.get(p, initial) if p is not None else None for p, _ in team] for team in (winners, losers)]
        after = self.model.rate(before[0], before[1])
        changes = []
        for team, old, new in zip((winners, losers), before, after, strict=True):
            for (person, colour), was, now in zip(team, old, new, strict=True):
                if person is None or was is None:
                    continue
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

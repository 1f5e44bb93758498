"""A club's season as data: what each finished game says about each seat (its facts, read from the engine's
log), statistics over many games, and ratings (a mafiaratings-compatible team Elo, OpenSkill). Pure functions
over plain data, like :mod:`sportmafia.tournament`: no database, no clock, no HTTP."""

from .elo import MAFIARATINGS, EloState, EloSystem, RatedGame, RatingChange, Ratings, Weights, rate
from .facts import GameFacts, SeatFacts, game_facts, result_only_facts
from .skill import Skill, SkillChange, SkillRatings, SkillState, rate_skill
from .stats import (
    Filter,
    GroupStats,
    PersonStats,
    PlayedGame,
    PlayedSeat,
    Rate,
    group_stats,
    person_stats,
    played_seat,
    role_group,
    seat_stats,
    select,
    wilson,
)

__all__ = [
    "MAFIARATINGS",
    "EloState",
    "EloSystem",
    "Filter",
    "GameFacts",
    "GroupStats",
    "PersonStats",
    "PlayedGame",
    "PlayedSeat",
    "Rate",
    "RatedGame",
    "RatingChange",
    "Ratings",
    "SeatFacts",
    "Skill",
    "SkillChange",
    "SkillRatings",
    "SkillState",
    "Weights",
    "game_facts",
    "group_stats",
    "person_stats",
    "played_seat",
    "rate",
    "rate_skill",
    "result_only_facts",
    "role_group",
    "seat_stats",
    "select",
    "wilson",
]

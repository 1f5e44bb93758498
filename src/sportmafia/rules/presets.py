"""The three preset rule sets and the registry (`get_ruleset`)."""

from __future__ import annotations

from ..i18n import msg
from .ruleset import RuleSet, RuleSetError

CLUB = RuleSet(name="club")
"""Seed A, with the international (FIIM) rules where seed A is silent."""

FIIM = CLUB.variant(
    "fiim",
    withdrawal=False,
    best_move=True,
    draw_cycles=3,
    misses_win=0,
    four_player_nights=0,
    removal_rule="fiim",
    lift_three_at_nine="never",
    protest=False,
    team_defeat=True,
)
"""International sports rules, 10 players: no withdrawal, best move, draw, removal cancels a vote."""

TOURNAMENT = RuleSet(
    name="tournament",
    min_players=12,
    max_players=16,
    black_counts=((12, (3,)), (13, (3, 4)), (14, (3, 4)), (15, (4, 3)), (16, (4,))),
    don=False,
    checker="commissar",
    first_night_meetings=("commissar", "black"),
    intro_day=True,
    first_speaker="random",
    speech_rounds=(60, 30),
    nomination_round=1,
    withdrawal=False,
    self_nomination=True,
    first_free=False,
    nomination_style="leaders",
    default_vote=False,
    day1_single_candidate_skip=False,
    tie_revote=False,
    lift_vote=False,
    lift_two_at_four=False,
    tie_all_nobody=False,
    tie_all_leave=True,
    zero_tie_nobody=False,
    single_leader_majority=False,
    lot_without_nominations=True,
    fouls=False,
    short_speech_at=(),
    sanctions=True,
    removal_rule="none",
    night_kill="agree",
    checker_first=True,
    don_checks=False,
    misses_win=0,
    four_player_nights=0,
    award=False,
    protest=False,
    last_word_seconds=40,
)
"""Seed B: tables of 12-16, Commissar, two rounds a day, nomination leaders, the lot."""

_REGISTRY: dict[str, RuleSet] = {rs.name: rs for rs in (CLUB, TOURNAMENT, FIIM)}

PRESETS: tuple[str, ...] = tuple(_REGISTRY)


def get_ruleset(name: str) -> RuleSet:
    """A preset by name: ``club``, ``tournament`` or ``fiim``.

    >>> get_ruleset("club").max_players
    10
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        raise RuleSetError(
            msg("Unknown rule set '%(name)s'; presets: %(presets)s.", name=name, presets=", ".join(PRESETS))) from None

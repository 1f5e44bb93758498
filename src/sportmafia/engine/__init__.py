"""How a game runs: commands, events, the game as a fold of its events, views and records."""

from .commands import (
    COMMANDS,
    Advance,
    Award,
    BestMove,
    Check,
    Command,
    DealCards,
    DrawFirstSpeaker,
    DrawLot,
    Foul,
    Kill,
    LiftVote,
    Nominate,
    Override,
    Protest,
    Remove,
    Sanction,
    Shoot,
    TeamDefeat,
    Undo,
    Vote,
    Withdraw,
    command_from_json,
)
from .describe import describe as describe_event_line
from .errors import RuleViolation
from .events import EVENTS, Event, event_from_json
from .game import BLACK_ROLES, FOUL_REASONS, RED_ROLES, REMOVAL_REASONS, SANCTIONS, Game, team_of
from .record import RecordError, load, replay, summary, to_record
from .views import HiddenView, view, visible_events

__all__ = [
    "BLACK_ROLES", "COMMANDS", "EVENTS", "FOUL_REASONS", "RED_ROLES", "REMOVAL_REASONS", "SANCTIONS",
    "Advance", "Award", "BestMove", "Check", "Command", "DealCards", "DrawFirstSpeaker", "DrawLot", "Event",
    "Foul", "Game", "HiddenView", "Kill", "LiftVote", "Nominate", "Override", "Protest", "RecordError",
    "Remove", "RuleViolation", "Sanction", "Shoot", "TeamDefeat", "Undo", "Vote", "Withdraw",
    "command_from_json", "describe_event_line", "event_from_json", "load", "replay", "summary", "team_of", "to_record", "view",
    "visible_events",
]

"""Events: what happened, in the order it happened. The game is the fold of its events.

Every command the engine accepts becomes one *action* event (what the actor did: :class:`Nominated`,
:class:`VoteCast`, :class:`Advanced`, …) followed by the *consequence* events the rules draw from it
(:class:`Step`, :class:`PlayerLeft`, :class:`GameEnded`, …). An action and its consequences are undone
together. Each event has a stable JSON form: ``{"type": "player_left", "seat": 5, "how": "vote", ...}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .codec import from_json, to_json


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = ""
    action: ClassVar[bool] = False
    """True for the event that records a command (the first of its group)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form (engine/codec.py)."""
        return to_json(self)


# --- action events --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Dealt(Event):
    type: ClassVar[str] = "dealt"
    action: ClassVar[bool] = True
    roles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FirstSpeakerDrawn(Event):
    type: ClassVar[str] = "first_speaker_drawn"
    action: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class LotDrawn(Event):
    type: ClassVar[str] = "lot_drawn"
    action: ClassVar[bool] = True
    seat: int


@dataclass(frozen=True, slots=True)
class Advanced(Event):
    type: ClassVar[str] = "advanced"
    action: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Nominated(Event):
    type: ClassVar[str] = "nominated"
    action: ClassVar[bool] = True
    by: int
    target: int
    named: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Withdrawn(Event):
    type: ClassVar[str] = "withdrawn"
    action: ClassVar[bool] = True
    by: int
    target: int


@dataclass(frozen=True, slots=True)
class VoteCast(Event):
    type: ClassVar[str] = "vote_cast"
    action: ClassVar[bool] = True
    voter: int
    candidate: int


@dataclass(frozen=True, slots=True)
class LiftVoteCast(Event):
    type: ClassVar[str] = "lift_vote_cast"
    action: ClassVar[bool] = True
    voter: int


@dataclass(frozen=True, slots=True)
class ShotFired(Event):
    type: ClassVar[str] = "shot_fired"
    action: ClassVar[bool] = True
    shooter: int
    target: int


@dataclass(frozen=True, slots=True)
class VolleyFired(Event):
    """Every living black player (``shooters``) shot ``target``: the host's "all shoot" as one action."""

    type: ClassVar[str] = "volley_fired"
    action: ClassVar[bool] = True
    shooters: tuple[int, ...]
    target: int


@dataclass(frozen=True, slots=True)
class KillChosen(Event):
    type: ClassVar[str] = "kill_chosen"
    action: ClassVar[bool] = True
    target: int


@dataclass(frozen=True, slots=True)
class Checked(Event):
    """``found``: the Don found the Sheriff, or the Sheriff/Commissar found a black player."""

    type: ClassVar[str] = "checked"
    action: ClassVar[bool] = True
    checker: int
    target: int
    found: bool


@dataclass(frozen=True, slots=True)
class BestMoveNamed(Event):
    type: ClassVar[str] = "best_move_named"
    action: ClassVar[bool] = True
    seat: int
    guesses: tuple[int, ...]
    black: int


@dataclass(frozen=True, slots=True)
class Fouled(Event):
    type: ClassVar[str] = "fouled"
    action: ClassVar[bool] = True
    seat: int
    reason: str
    technical: bool
    count: int


@dataclass(frozen=True, slots=True)
class Sanctioned(Event):
    """``sanction``: warning, game, round, tournament or ban (B.sanctions)."""

    type: ClassVar[str] = "sanctioned"
    action: ClassVar[bool] = True
    seat: int
    offence: str
    sanction: str


@dataclass(frozen=True, slots=True)
class Removed(Event):
    type: ClassVar[str] = "removed"
    action: ClassVar[bool] = True
    seat: int
    reason: str
    scope: str


@dataclass(frozen=True, slots=True)
class Awarded(Event):
    type: ClassVar[str] = "awarded"
    action: ClassVar[bool] = True
    winner: str
    reason: str


@dataclass(frozen=True, slots=True)
class TeamDefeated(Event):
    type: ClassVar[str] = "team_defeated"
    action: ClassVar[bool] = True
    team: str
    reason: str


@dataclass(frozen=True, slots=True)
class Overridden(Event):
    type: ClassVar[str] = "overridden"
    action: ClassVar[bool] = True
    winner: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class ProtestVoted(Event):
    type: ClassVar[str] = "protest_voted"
    action: ClassVar[bool] = True
    outcome: str
    voters: tuple[int, ...]
    passed: bool
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Undone(Event):
    """The action at log index ``seq`` and its consequences are undone (kept in the log)."""

    type: ClassVar[str] = "undone"
    action: ClassVar[bool] = True
    seq: int


# --- consequence events ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Step(Event):
    """The game moves to a new step. ``seat``: the speaker, candidate or checker (0 for none);
    ``round``: the speaking round, or the index of the candidate being voted on."""

    type: ClassVar[str] = "step"
    step: str
    day: int
    seat: int = 0
    round: int = 0
    seconds: int = 0


@dataclass(frozen=True, slots=True)
class VotingStarted(Event):
    """``kind``: vote, revote, lift or leaders; ``candidates`` in voting order."""

    type: ClassVar[str] = "voting_started"
    kind: str
    candidates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DefaultVotes(Event):
    type: ClassVar[str] = "default_votes"
    candidate: int
    voters: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class VoteResult(Event):
    """``outcome``: out, tie, lift, stay, nobody, removed-leads, all-tied, no-lift, single-day1,
    cancelled, no-candidates."""

    type: ClassVar[str] = "vote_result"
    kind: str
    tally: tuple[tuple[int, int], ...]
    leaving: tuple[int, ...]
    outcome: str


@dataclass(frozen=True, slots=True)
class VoteCancelled(Event):
    type: ClassVar[str] = "vote_cancelled"
    day: int
    clause: str


@dataclass(frozen=True, slots=True)
class Muted(Event):
    """The player's regular speech of ``day`` is taken by his third foul (A.foul.three)."""

    type: ClassVar[str] = "muted"
    seat: int
    day: int


@dataclass(frozen=True, slots=True)
class Expelled(Event):
    """A removal that follows from a foul or a sanction (the 4th foul, two technical fouls, B.sanctions)."""

    type: ClassVar[str] = "expelled"
    seat: int
    reason: str
    scope: str


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """``how``: vote, lift, kill, lot or removal; ``night``: during a night (else a day)."""

    type: ClassVar[str] = "player_left"
    seat: int
    how: str
    day: int
    night: bool


@dataclass(frozen=True, slots=True)
class NightResult(Event):
    """``killed``: the seat killed this night, 0 for a miss."""

    type: ClassVar[str] = "night_result"
    night: int
    killed: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """``winner``: red, black or None (draw or annulled); ``result``: why (see docs/game-record.md)."""

    type: ClassVar[str] = "game_ended"
    winner: str | None
    result: str


EVENTS: dict[str, type[Event]] = {
    e.type: e
    for e in (Dealt, FirstSpeakerDrawn, LotDrawn, Advanced, Nominated, Withdrawn, VoteCast, LiftVoteCast,
              ShotFired, VolleyFired, KillChosen, Checked, BestMoveNamed, Fouled, Sanctioned, Removed, Awarded,
              TeamDefeated, Overridden, ProtestVoted, Undone, Step, VotingStarted, DefaultVotes, VoteResult,
              VoteCancelled, Muted, Expelled, PlayerLeft, NightResult, GameEnded)
}


def event_from_json(data: Any) -> Event:
    """Parse an event's JSON form; raises ``ValueError`` naming what is wrong."""
    event: Event = from_json(EVENTS, data, "event")
    return event

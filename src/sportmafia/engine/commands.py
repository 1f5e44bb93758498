"""Commands: what the host, a judge or a player asks the engine to do.

Each is a frozen dataclass with a stable JSON form (``{"type": "nominate", "by": 3, "target": 5}``).
Chance commands (:class:`DealCards`, :class:`DrawFirstSpeaker`, :class:`DrawLot`) leave their outcome
empty to draw it from the random generator the caller passes, or carry an outcome made at the table.
Commands whose :attr:`needs_reason` is true are listed by ``legal_commands`` as templates: fill the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .codec import from_json, to_json


@dataclass(frozen=True, slots=True)
class Command:
    type: ClassVar[str] = ""
    needs_reason: ClassVar[bool] = False

    def actor_seat(self) -> int | None:
        """The seat that acts, for commands a player may send from his own device."""
        return None

    def to_json(self) -> dict[str, Any]:
        """The JSON form (engine/codec.py)."""
        return to_json(self)


@dataclass(frozen=True, slots=True)
class DealCards(Command):
    """Deal the cards (B.deal). ``roles``: a deal made with physical cards, seat 1 first."""

    type: ClassVar[str] = "deal"
    roles: tuple[str, ...] | None = None
    black: int | None = None


@dataclass(frozen=True, slots=True)
class DrawFirstSpeaker(Command):
    """Draw the day's first speaker among the living (B.speech.order)."""

    type: ClassVar[str] = "draw_first_speaker"
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class DrawLot(Command):
    """Draw the lot among the living: the drawn player leaves (B.lot)."""

    type: ClassVar[str] = "draw_lot"
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Advance(Command):
    """The host's "Next": end the current speech, close the current vote, end the night step."""

    type: ClassVar[str] = "advance"


@dataclass(frozen=True, slots=True)
class Nominate(Command):
    """"Выставляю номер …" (A.nom.own). ``also``: further numbers named at once (A.nom.first-free)."""

    type: ClassVar[str] = "nominate"
    by: int
    target: int
    also: tuple[int, ...] = ()

    def actor_seat(self) -> int | None:
        return self.by


@dataclass(frozen=True, slots=True)
class Withdraw(Command):
    """"Отзываю" (A.nom.withdraw)."""

    type: ClassVar[str] = "withdraw"
    by: int
    target: int

    def actor_seat(self) -> int | None:
        return self.by


@dataclass(frozen=True, slots=True)
class Vote(Command):
    """A raised hand: ``voter`` votes for ``candidate`` (A.vote.one, B.vote)."""

    type: ClassVar[str] = "vote"
    voter: int
    candidate: int

    def actor_seat(self) -> int | None:
        return self.voter


@dataclass(frozen=True, slots=True)
class LiftVote(Command):
    """A raised hand for "all tied leave the game" (A.tie.lift)."""

    type: ClassVar[str] = "lift_vote"
    voter: int

    def actor_seat(self) -> int | None:
        return self.voter


@dataclass(frozen=True, slots=True)
class Shoot(Command):
    """A black player's night shot (A.night.shoot)."""

    type: ClassVar[str] = "shoot"
    shooter: int
    target: int

    def actor_seat(self) -> int | None:
        return self.shooter


@dataclass(frozen=True, slots=True)
class Volley(Command):
    """"All shoot": every living black player shoots ``target``, as one action (A.night.shoot): the host's
    one tap, taken back by one undo. Only before any of them has shot tonight."""

    type: ClassVar[str] = "volley"
    target: int


@dataclass(frozen=True, slots=True)
class Kill(Command):
    """The mafia's agreed victim of the night (B.night)."""

    type: ClassVar[str] = "kill"
    target: int


@dataclass(frozen=True, slots=True)
class Check(Command):
    """A night check by the Don, the Sheriff or the Commissar (A.night.checks, B.night)."""

    type: ClassVar[str] = "check"
    checker: int
    target: int

    def actor_seat(self) -> int | None:
        return self.checker


@dataclass(frozen=True, slots=True)
class BestMove(Command):
    """The first-night victim names up to three players (F.bestmove)."""

    type: ClassVar[str] = "best_move"
    seat: int
    guesses: tuple[int, ...]

    def actor_seat(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class Foul(Command):
    """A foul (A.foul.reasons); ``technical`` for F.technical."""

    type: ClassVar[str] = "foul"
    seat: int
    reason: str = ""
    technical: bool = False


@dataclass(frozen=True, slots=True)
class Sanction(Command):
    """An offence of the tournament's sanctions table (B.sanctions); the engine picks the sanction."""

    type: ClassVar[str] = "sanction"
    seat: int
    offence: str


@dataclass(frozen=True, slots=True)
class Remove(Command):
    """Remove a player (A.remove.reasons). ``scope``: game, round or tournament (B.sanctions)."""

    type: ClassVar[str] = "remove"
    seat: int
    reason: str = ""
    scope: str = "game"


@dataclass(frozen=True, slots=True)
class Award(Command):
    """The judge awards the win to ``winner`` (A.award)."""

    type: ClassVar[str] = "award"
    needs_reason: ClassVar[bool] = True
    winner: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TeamDefeat(Command):
    """The judge declares a team defeat of ``team`` (F.team-defeat)."""

    type: ClassVar[str] = "team_defeat"
    needs_reason: ClassVar[bool] = True
    team: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Override(Command):
    """The judge decides the result: ``winner`` red, black or None (annulled) (A.judge)."""

    type: ClassVar[str] = "override"
    needs_reason: ClassVar[bool] = True
    winner: str | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Protest(Command):
    """The protest vote after the game (A.protest): ``outcome`` annul or reverse, ``voters`` for it, and
    ``rule``: the rule that was broken (free text, such as a clause id; empty in records made before it)."""

    type: ClassVar[str] = "protest"
    outcome: str
    voters: tuple[int, ...]
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Undo(Command):
    """Undo the last action; the log keeps it as undone."""

    type: ClassVar[str] = "undo"


COMMANDS: dict[str, type[Command]] = {
    c.type: c
    for c in (DealCards, DrawFirstSpeaker, DrawLot, Advance, Nominate, Withdraw, Vote, LiftVote, Shoot, Volley,
              Kill, Check, BestMove, Foul, Sanction, Remove, Award, TeamDefeat, Override, Protest, Undo)
}


def command_from_json(data: dict[str, Any]) -> Command:
    """Parse a command's JSON form; raises ``ValueError`` naming what is wrong."""
    command: Command = from_json(COMMANDS, data, "command")
    return command

"""What a player says in his speech, as claims from a small vocabulary (as the AIWolf protocol does for
Werewolf). The engine does not model speech: a claim is kept beside the game, at the place of the log it was
made (a game record stays valid for the engine), public (every seat, spectator and agent sees every claim), and
shown as text in Russian and English.

The vocabulary (``Claim.kind``):

=============  =======================  =====================================================
kind           fields                   says
=============  =======================  =====================================================
``role``       ``role``                 "I am the Sheriff" / "the Commissar" (the table's checker), "I am red"
``check``      ``target``, ``color``    "I checked N: red" / "black"
``suspect``    ``target``               "I suspect N"
``trust``      ``target``               "I trust N"
``vote``       ``target``               "I will vote for N"
``lying``      ``target``               "N is lying"
=============  =======================  =====================================================

A claim is made by the seat whose speech it is (his speech, a tie speech, his defence or his last word,
A.speech.order, B.speech.order); anything else is refused with the rule (:func:`check_claim`). A claim says
nothing of what is true: a black player may claim the Sheriff, and that is the game.

>>> c = Claim(3, "check", target=7, color="black")
>>> c.text().render("en"), c.text().render("ru")
('#3: I checked #7: black.', '№3: Я проверил №7: чёрный.')
>>> claim_from_json(c.to_json()) == c
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import Game, RuleViolation
from ..engine.describe import ROLE_NAMES
from ..engine.state import SPEECH_STEPS
from ..i18n import N_, Text, msg, pmsg

KINDS = ("role", "check", "suspect", "trust", "vote", "lying")
"""The claims' kinds, in the order a speech usually makes them."""
CLAIMED_ROLES = ("sheriff", "commissar", "civilian")
"""The roles a player may claim: the table's red checker, or a plain red player (nobody claims to be black)."""
COLORS = ("red", "black")

_SAYS: dict[str, str] = {
    "suspect": N_("I suspect #%(target)s."),
    "trust": N_("I trust #%(target)s."),
    "vote": N_("I will vote for #%(target)s."),
    "lying": N_("#%(target)s is lying."),
}


@dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` says ``kind`` (about ``target``; ``role`` for a role claim; ``color`` for a check)."""

    seat: int
    kind: str
    target: int | None = None
    role: str | None = None
    color: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown claim {self.kind!r}; known: {', '.join(KINDS)}")
        if (self.kind == "role") != (self.role is not None) or (self.role is not None and
                                                                self.role not in CLAIMED_ROLES):
            raise ValueError(f"a role claim names one of {', '.join(CLAIMED_ROLES)}, and only it has a role")
        if (self.kind == "check") != (self.color is not None) or (self.color is not None and
                                                                  self.color not in COLORS):
            raise ValueError("a check claim names a color, red or black, and only it has a color")
        if (self.kind == "role") != (self.target is None):
            raise ValueError("every claim but a role claim is about another seat")
        if self.target is not None and self.target == self.seat:
            raise ValueError("a claim is about another seat")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        for key in ("target", "role", "color"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    def text(self) -> Text:
        """What the claim says, with the seat who says it (``#3: I am the Sheriff.``)."""
        if self.kind == "role":
            said = {"sheriff": msg("I am the Sheriff."), "commissar": msg("I am the Commissar."),
                    "civilian": msg("I am red.")}[self.role or "civilian"]
        elif self.kind == "check":
            said = (msg("I checked #%(target)s: red.", target=self.target) if self.color == "red"
                    else msg("I checked #%(target)s: black.", target=self.target))
        else:
            said = msg(_SAYS[self.kind], target=self.target)
        return pmsg("claim", "#%(seat)s: %(said)s", seat=self.seat, said=said)


def claim_from_json(data: Mapping[str, Any]) -> Claim:
    """A claim from its JSON form; ValueError names what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError("a claim is an object")
    unknown = set(data) - {"seat", "kind", "target", "role", "color"}
    if unknown:
        raise ValueError(f"unknown fields of a claim: {', '.join(sorted(unknown))}")
    seat, target = data.get("seat"), data.get("target")
    if not isinstance(seat, int) or isinstance(seat, bool) or (
            target is not None and (not isinstance(target, int) or isinstance(target, bool))):
        raise ValueError("a claim's seat and target are seat numbers")
    kind, role, color = data.get("kind"), data.get("role"), data.get("color")
    if not isinstance(kind, str) or not all(v is None or isinstance(v, str) for v in (role, color)):
        raise ValueError("a claim's kind, role and color are words")
    return Claim(seat, kind, target, role, color)


def speaker(game: Game) -> int | None:
    """The seat whose speech it is now (a speech, a tie speech, a defence, a last word), or None."""
    return game.seat if game.step in SPEECH_STEPS and not game.over and game.seat else None


def check_claim(game: Game, claim: Claim) -> None:
    """Refuse (``RuleViolation``, naming the rule) a claim its seat may not make now: only the seat whose
    speech it is speaks (A.speech.order, B.speech.order), about a seat of the table."""
    n = game.n
    for seat in (claim.seat, claim.target):
        if seat is not None and not 1 <= seat <= n:
            raise RuleViolation("bad-seat", seat=seat, n=n)
    leaders = game.rules.nomination_style == "leaders"  # the tournament's rules (seed B)
    now = speaker(game)
    if now != claim.seat:
        raise RuleViolation("not-your-word", clause="B.speech.order" if leaders else "A.speech.order",
                            seat=claim.seat, speaker=now or "—")
    if claim.role not in (None, "civilian", game.rules.checker):
        raise RuleViolation("no-such-role", clause="B.setup" if leaders else "A.setup", role=ROLE_NAMES[claim.role])


@dataclass(frozen=True, slots=True)
class Said:
    """A claim as kept beside the game: made when the log had ``at`` events."""

    at: int
    claim: Claim

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, **self.claim.to_json()}


def said_from_json(data: Mapping[str, Any]) -> Said:
    at = data.get("at")
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise ValueError("a claim's place in the log is a number of events")
    return Said(at, claim_from_json({k: v for k, v in data.items() if k != "at"}))

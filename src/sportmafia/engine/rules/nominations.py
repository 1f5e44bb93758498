"""Nominations: who may nominate whom and when, several numbers named at once, withdrawals (A.nom.own,
A.nom.first-free, A.nom.repeat, A.nom.withdraw, A.nom.muted, A.nom.dead, B.rounds, B.leaders, F.withdraw)."""

from __future__ import annotations

from collections.abc import Sequence

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..dispatch import Dispatch
from ..errors import RuleViolation
from ..state import Rng

NOMINATING_STEPS = ("speech", "muted")
"""The steps in which the speaker nominates: his speech, and (A.nom.muted) the turn of a player who lost his
speech to fouls: he still nominates when his turn comes."""


def nominations_open(day: int, rnd: int, rules: RuleSet) -> bool:
    """Whether this speech is one in which players nominate: from day 1, in the nomination round
    (A.nom.own; B.rounds: the second round)."""
    return day >= 1 and rnd == rules.nomination_round


def may_be_nominated(target: int, by: int, alive: Sequence[bool], rules: RuleSet) -> bool:
    """A.nom.dead: only a living player; A.nom.own: himself too, if the rule set allows it."""
    return alive[target] and (rules.self_nomination or target != by)


def accepted_nominee(named: Sequence[int], by: int, alive: Sequence[bool], nominated: dict[int, list[int]],
                     rules: RuleSet) -> int:
    """Of the numbers named at once, the one nominated, 0 if none can be.

    A.nom.first-free: the first not yet nominated; without it (B.leaders) the first that can be nominated,
    nominated already or not (A.nom.repeat: nominating him again is accepted)."""
    for t in named:
        if may_be_nominated(t, by, alive, rules) and (not rules.first_free or not nominated.get(t)):
            return t
    return 0


class NominationRules(Dispatch):
    def _x_nominate(self, cmd: C.Nominate, rng: Rng | None) -> None:
        self._need_live_game()
        rs = self.rules
        self._need_seat(cmd.by)
        named = (cmd.target, *cmd.also)
        for t in named:
            self._need_seat(t)
        if self.step not in NOMINATING_STEPS or self.seat != cmd.by:  # A.nom.own, A.nom.muted
            if self.step in NOMINATING_STEPS:
                raise RuleViolation("not-your-speech", seat=cmd.by, speaker=self.seat)
            raise self._wrong_step("nominate", "A.nom.own")
        if not nominations_open(self.day, self.round, rs):
            raise RuleViolation("no-nominations-now", clause="B.rounds" if rs.intro_day else "A.nom.own")
        if self.day in self.cancelled_days:
            clause = "F.remove.vote" if rs.removal_rule == "fiim" else "A.remove.day"
            raise RuleViolation("vote-cancelled", clause=clause)
        if len(self.speech_noms) >= rs.nominations_per_speech:  # A.nom.own: one at a time; B.rounds
            raise RuleViolation("one-nomination", clause="B.rounds" if rs.intro_day else None, seat=cmd.by)
        target = accepted_nominee(named, cmd.by, self.alive, self.nominators, rs)
        if not target:
            target = cmd.target
            self._need_alive(target)
            if not rs.self_nomination and target == cmd.by:
                raise RuleViolation("self-nomination")
        self._emit(E.Nominated(cmd.by, target, named) if cmd.also else self._ev_nominated[cmd.by][target])

    def _x_withdraw(self, cmd: C.Withdraw, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.by)
        self._need_seat(cmd.target)
        if not self.rules.withdrawal:  # F.withdraw
            raise RuleViolation("no-withdrawal")
        if self.step not in NOMINATING_STEPS or self.seat != cmd.by:  # A.nom.withdraw: before his speech ends
            raise self._wrong_step("withdraw", "A.nom.withdraw")
        if cmd.target not in self.speech_noms:
            raise RuleViolation("nothing-to-withdraw", seat=cmd.by, target=cmd.target)
        self._emit(E.Withdrawn(cmd.by, cmd.target))

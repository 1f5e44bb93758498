"""The deal (A.setup, B.setup, B.deal): a random deck from the rule set, or the cards dealt at the table."""

from __future__ import annotations

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..cache import step as _step
from ..dispatch import Dispatch
from ..errors import RuleViolation
from ..state import BLACK_ROLES, ROLES, Rng


def deck_fault(roles: tuple[str, ...], n: int, black: int | None, rules: RuleSet) -> str | None:
    """What is wrong with the cards of a deal made at the table, or None (A.setup, B.setup)."""
    if len(roles) != n:
        return f"{len(roles)} cards for {n} seats"
    dealt_black = sum(1 for r in roles if r in BLACK_ROLES)
    unknown = [r for r in roles if r not in ROLES]
    if unknown:
        return f"unknown role {unknown[0]!r}"
    # A.setup B.setup: the rule set's deck for this table, with one of its numbers of black players
    if dealt_black not in rules.black_options(n) or sorted(roles) != sorted(rules.roles_for(n, dealt_black)):
        return "the cards are not this rule set's deck"
    if black is not None and black != dealt_black:
        return f"{dealt_black} black cards, {black} asked"
    return None


class DealRules(Dispatch):
    def _x_deal(self, cmd: C.DealCards, rng: Rng | None) -> None:
        if self.over:
            raise RuleViolation("game-over")
        if self.step != "deal":
            raise RuleViolation("already-dealt")
        rs = self.rules
        if cmd.roles is not None:
            roles = tuple(cmd.roles)
            fault = deck_fault(roles, self.n, cmd.black, rs)
            if fault is not None:
                raise RuleViolation("bad-deal", detail=fault)
        else:
            if cmd.black is not None and cmd.black not in rs.black_options(self.n):
                raise RuleViolation("bad-deal", detail=f"{cmd.black} black players at {self.n}")
            if rng is None:
                raise RuleViolation("need-rng")
            deck = list(rs.roles_for(self.n, cmd.black))
            rng.shuffle(deck)  # B.deal: dealt at random for every game anew
            roles = tuple(deck)
        self._emit(E.Dealt(roles))
        if rs.intro_day:  # B.flow: day 0 is the introductions, opened by a drawn first speaker
            self._emit(_step("first_speaker", 0))
        else:
            self._start_night(0)

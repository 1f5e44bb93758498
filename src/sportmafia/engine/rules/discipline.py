"""Discipline: fouls, the muting and removing fouls, technical fouls, the sanctions table, removals and what
a removal does to the day's vote (A.foul.*, A.remove.*, B.sanctions, F.technical, F.remove.vote)."""

from __future__ import annotations

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..dispatch import Dispatch
from ..errors import RuleViolation
from ..state import SPEECH_STEPS, Rng

# B.sanctions: offence -> sanctions in order of repetition (the last repeats).
SANCTIONS: dict[str, tuple[str, ...]] = {
    "card_info": ("tournament",),
    "rudeness": ("warning", "tournament"),
    "eyes_open": ("round", "tournament"),
    "disruption": ("ban",),
    "gestures": ("warning", "game"),
    "drunk": ("tournament",),
    "arguing": ("warning", "warning", "round"),
}
REMOVAL_SCOPES = ("game", "round", "tournament", "ban")

# A.foul.reasons and A.remove.reasons: the seed's lists, as stable codes (texts in describe.py).
FOUL_REASONS = ("unethical", "night_conduct", "gestures", "hand_pulled", "out_of_turn", "forbidden_words",
                "night_gestures", "table_banging", "late_mask", "religion", "touching")
REMOVAL_REASONS = ("foul4", "insult", "bets", "oath", "judge_dispute", "night_hints", "peeping",
                   "left_seat", "night_touch")


def sanction_for(ladder: tuple[str, ...], prior: int) -> str:
    """B.sanctions: the sanction of an offence committed ``prior`` times before (the last one repeats)."""
    return ladder[min(prior, len(ladder) - 1)]


def foul_limit(technical: bool, rules: RuleSet) -> int:
    """The foul that removes the player: the fourth (A.foul.four), or the second technical one (F.technical)."""
    return rules.technical_remove if technical else rules.foul_remove


def muted_day(day_phase: bool, day: int, spoke_today: bool) -> int:
    """A.foul.three: the day whose speech a third foul takes: this day's if he has not spoken yet, else the
    next day's."""
    return day if day_phase and day >= 1 and not spoke_today else day + 1


class DisciplineRules(Dispatch):
    def _foulable(self, seat: int) -> bool:
        """At the table, or speaking his last word (A.lastword); A.win: not during the final words."""
        return self.alive[seat] or (self.step == "last_word" and seat == self.seat)

    def _x_foul(self, cmd: C.Foul, rng: Rng | None) -> None:
        self._need_live_game()
        rs = self.rules
        self._need_seat(cmd.seat)
        if not rs.fouls:
            raise RuleViolation("no-fouls")
        if cmd.technical and not rs.technical_fouls:  # F.technical
            raise RuleViolation("no-technical")
        if not self._foulable(cmd.seat):
            raise RuleViolation("not-alive", clause="A.foul.four", seat=cmd.seat)
        seat = cmd.seat
        count = (self.tech if cmd.technical else self.fouls)[seat] + 1
        self._emit(E.Fouled(seat, cmd.reason, cmd.technical, count))
        if count >= foul_limit(cmd.technical, rs):
            if seat not in self.removed:
                self._remove(seat, "technical" if cmd.technical else "foul4", "game")
            return
        if not cmd.technical and count == rs.foul_mute and self.alive[seat]:
            mute = muted_day(self.phase == "day", self.day, seat in self.spoke_today)
            self._emit(E.Muted(seat, mute))

    def _x_sanction(self, cmd: C.Sanction, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.seat)
        if not self.rules.sanctions:
            raise RuleViolation("no-sanctions")
        ladder = SANCTIONS.get(cmd.offence)
        if ladder is None:
            raise RuleViolation("bad-offence", offence=cmd.offence)
        if not self._foulable(cmd.seat):
            raise RuleViolation("not-alive", clause="B.sanctions", seat=cmd.seat)
        prior = sum(1 for off, _ in self.sanctions[cmd.seat] if off == cmd.offence)
        sanction = sanction_for(ladder, prior)
        self._emit(E.Sanctioned(cmd.seat, cmd.offence, sanction))
        if sanction != "warning" and cmd.seat not in self.removed:
            self._remove(cmd.seat, cmd.offence, sanction)

    def _x_remove(self, cmd: C.Remove, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.seat)
        if cmd.scope not in REMOVAL_SCOPES or (cmd.scope != "game" and not self.rules.sanctions):
            raise RuleViolation("bad-scope")
        if not self._foulable(cmd.seat) or cmd.seat in self.removed:
            raise RuleViolation("not-alive", clause="A.remove.reasons", seat=cmd.seat)
        self._emit(E.Removed(cmd.seat, cmd.reason, cmd.scope))
        self._depart_removed(cmd.seat)

    def _remove(self, seat: int, reason: str, scope: str) -> None:
        self._emit(E.Expelled(seat, reason, scope))
        self._depart_removed(seat)

    def _depart_removed(self, seat: int) -> None:
        """A removal: the player leaves with no last word (A.lastword, A.remove.night); the vote rule of the
        rule set applies (A.remove.day, A.remove.vote, F.remove.vote)."""
        if not self.alive[seat]:
            # removed during his own last word: recorded for the sheet, changes nothing else
            if self.step == "last_word" and self.seat == seat:
                self._advance()
            return
        rs, step, phase = self.rules, self.step, self.phase
        before_vote = phase == "day" and not self.vote_started and not self.vote_decided
        in_vote = phase == "day" and self.vote_started and not self.vote_decided
        decided = self._decided_leavers() if in_vote and rs.removal_rule == "fiim" else None
        self._leave((seat,), "removal")
        if self.over:
            return
        if rs.removal_rule == "club":
            # A.remove.day: removed during the day he counts as that day's vote: no voting that day
            if before_vote and self.day >= 1 and self.day not in self.cancelled_days:
                self._emit(E.VoteCancelled(self.day, "A.remove.day"))
        elif rs.removal_rule == "fiim":
            if before_vote and self.day >= 1:
                if self.day not in self.cancelled_days:
                    self._emit(E.VoteCancelled(self.day, "F.remove.vote"))
            elif in_vote and decided is not None:
                # FIIM 9.8: the result was decided before the removal: this vote goes on to it, and unless
                # the removed player is the one it sends out the next day's vote is cancelled.
                if seat not in decided and (self.day + 1) not in self.cancelled_days:
                    self._emit(E.VoteCancelled(self.day + 1, "F.remove.vote"))
            elif in_vote:
                self._emit(E.VoteCancelled(self.day, "F.remove.vote"))
                self._emit(E.VoteResult(self.vote_kind, tuple(self._tally()), (), "cancelled"))
                self._start_night_after_day()
                return
            elif (self.day + 1) not in self.cancelled_days:
                self._emit(E.VoteCancelled(self.day + 1, "F.remove.vote"))
        # the removed player's own step ends (A.remove.vote: a club vote goes on without him)
        if step in SPEECH_STEPS and self.seat == seat:
            self._advance()
        elif step == "voting" and rs.nomination_style == "leaders" and not any(
            self.alive[c] for c in self.vote_candidates
        ):
            self._count_leaders_vote()

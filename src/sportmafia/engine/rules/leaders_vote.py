"""The tournament's vote: the nomination leaders, their defence and vote, a tie, the lot (B.leaders,
B.defence, B.vote, B.tie, B.lot)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..cache import step as _step
from ..dispatch import Dispatch
from ..state import Rng
from .club_vote import vote_tally


def nomination_leaders(candidates: Sequence[int], nominators: Mapping[int, Sequence[int]]) -> tuple[int, ...]:
    """B.leaders: two or more sharing the top nomination count are all leaders; otherwise the top one and
    every one with the second count (D: a single nominated player is the only leader). In nomination order."""
    counts = sorted(((len(nominators[c]), c) for c in candidates), key=lambda p: -p[0])
    top = counts[0][0]
    firsts = [c for k, c in counts if k == top]
    if len(firsts) >= 2 or len(counts) == 1:
        chosen = set(firsts)
    else:
        second = counts[1][0]
        chosen = set(firsts) | {c for k, c in counts if k == second}
    return tuple(c for c in candidates if c in chosen)


def single_leader_leaves(votes: int, alive: int, rules: RuleSet) -> bool:
    """B.vote: the simple (relative) majority: the only leader has the most votes, unless nobody voted and the
    option zero_tie_nobody keeps him; or (option, D) more than half of the living."""
    if rules.single_leader_majority:
        return votes * 2 > alive
    return votes > 0 or not rules.zero_tie_nobody


def leaders_vote_outcome(top: int, tops: int, rules: RuleSet) -> str:
    """The outcome of a vote on two or more leaders: "out" (one leader has the most votes, B.vote), "tie-out"
    (B.tie: all those tied leave) or "nobody" (B.tie option: at 0:0, or with tie_all_leave off)."""
    if top == 0 and rules.zero_tie_nobody:
        return "nobody"
    if tops == 1:
        return "out"
    return "tie-out" if rules.tie_all_leave else "nobody"


class LeadersVoteRules(Dispatch):
    def _leaders(self, cands: list[int]) -> None:
        rs = self.rules
        if not cands:
            self._emit(E.VoteResult("leaders", (), (), "no-candidates"))
            if rs.lot_without_nominations:  # B.lot: nobody nominated, a lot is drawn
                self._emit(_step("lot", self.day))
            else:
                self._start_night_after_day()
            return
        leaders = nomination_leaders(cands, self.nominators)
        self._emit(E.VotingStarted("leaders", leaders))
        self._emit(_step("defence", self.day, leaders[0], 0, rs.defence_seconds))  # B.defence

    def _count_leaders_vote(self) -> None:
        rs = self.rules
        cands = [c for c in self.vote_candidates if self.alive[c]]
        tally = tuple(vote_tally(cands, self.votes))  # a removed voter's hand stays counted (A.remove.vote)
        if not cands:
            self._emit(E.VoteResult("leaders", tally, (), "nobody"))
            self._start_night_after_day()
            return
        counts = dict(tally)
        if len(cands) == 1:
            c = cands[0]
            if single_leader_leaves(counts[c], self.alive_count, rs):
                self._leave_by_vote(tally, (c,), "out")
            else:
                self._emit(E.VoteResult("leaders", tally, (), "stay"))
                self._start_night_after_day()
            return
        top = max(counts.values())
        tops = tuple(c for c in cands if counts[c] == top)
        outcome = leaders_vote_outcome(top, len(tops), rs)
        if outcome == "nobody":
            self._emit(E.VoteResult("leaders", tally, (), "nobody"))
            self._start_night_after_day()
        else:
            self._leave_by_vote(tally, tops, outcome)

    def _leave_by_vote(self, tally: tuple[tuple[int, int], ...], seats: tuple[int, ...], outcome: str) -> None:
        self._emit(E.VoteResult("leaders", tally, seats, outcome))
        self._leave(seats, "vote")
        if not self.over:
            self._next_last_word_or(self._start_night_after_day)

    def _x_lot(self, cmd: C.DrawLot, rng: Rng | None) -> None:
        self._need_live_game()
        if self.step != "lot":
            raise self._wrong_step("draw_lot", "B.lot")
        seat = self._drawn_seat(cmd.seat, rng, "B.lot")
        self._emit(E.LotDrawn(seat))
        self._leave((seat,), "lot")
        if not self.over:
            self._next_last_word_or(self._start_night_after_day)

"""The club vote: candidates voted one by one, the default votes, the tie's speeches and revote, the lift
question, a removal during the vote (A.vote.*, A.tie.*, A.remove.vote, F.remove.vote).

FIIM 9.8 keeps a vote's result when a player is removed "во время голосования, после того, как был определён
результат голосования": the result is decided once the hands still to come can no longer change who leaves
(``sole_leader``, ``lift_passed``); ``Game`` asks at the moment of a removal, before the removed player
leaves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..cache import step as _step
from ..dispatch import Dispatch
from ..errors import RuleViolation
from ..state import Rng


# --- decisions -------------------------------------------------------------------------------------------
def single_candidate_skipped(day: int, candidates: int, rules: RuleSet) -> bool:
    """A.vote.day1-single: on day 1 a single candidate is not voted on (night falls)."""
    return candidates == 1 and day == 1 and rules.day1_single_candidate_skip


def takes_default_votes(index: int, candidates: int, rules: RuleSet) -> bool:
    """A.vote.default: whether the candidate at ``index`` of the order is the last one, who is not voted on
    but takes every hand not given (the single candidate of a later day takes them all)."""
    return rules.default_vote and index == candidates - 1


def default_voters(living: Iterable[int], votes: Mapping[int, int]) -> tuple[int, ...]:
    """A.vote.default: the living players who did not vote (A.remove.vote: a removed player gives no default
    vote, and a hand he gave stays counted)."""
    return tuple(s for s in living if s not in votes)


def vote_tally(candidates: Iterable[int], votes: Mapping[int, int]) -> list[tuple[int, int]]:
    """Votes per candidate, in voting order. A hand given by a player who has since been removed stays counted
    (A.remove.vote: a vote is accepted when the hand touches the table before "спасибо")."""
    counts = dict.fromkeys(candidates, 0)
    for c in votes.values():
        if c in counts:
            counts[c] += 1
    return list(counts.items())


def most_voted(tally: Sequence[tuple[int, int]]) -> list[int]:
    """A.vote.result: the candidates with the most votes (two or more: a tie, A.tie)."""
    top = max(v for _, v in tally)
    return [c for c, v in tally if v == top]


def whole_table_tied(kind: str, tied: int, alive: int, rules: RuleSet) -> bool:
    """A.tie.all: the revote tied every living player again: nobody leaves (the first vote's whole-table
    tie still has its speeches and revote)."""
    return rules.tie_all_nobody and kind != "vote" and tied == alive


def revote_follows(kind: str, tied: int, tie_sizes: Sequence[int]) -> bool:
    """A.tie: the first vote's tie is revoted; A.tie.again: a revote tying a different number of players is
    revoted again (the same number: the lift question)."""
    return kind == "vote" or bool(tie_sizes and tie_sizes[-1] != tied)


def lift_allowed(alive: int, tied: int, day: int, rules: RuleSet) -> bool:
    """Whether the players tied twice are put to the lift question (A.tie.again)."""
    nine = rules.lift_three_at_nine
    if alive == 9 and tied == 3 and (nine == "never" or (nine == "not-day1" and day == 1)):  # A.tie.nine
        return False
    return rules.lift_two_at_four or not (alive == 4 and tied == 2)  # A.tie.four


def lift_passed(yes: int, living: int) -> bool:
    """The lift question is decided yes once more than half of the living players raised a hand (A.tie.lift):
    a raised hand is not taken back."""
    return yes * 2 > living


def sole_leader(tally: Mapping[int, int], open_candidates: Sequence[int], hands_left: int) -> int | None:
    """The candidate who has the most votes however the ``hands_left`` hands still to come are given, or None
    (F.remove.vote).

    ``tally``: each candidate's votes so far; ``open_candidates``: the candidates who can still receive votes
    (the current one and those after him; the last takes the votes not given). Every hand still to come can
    go to any open candidate, so ``x`` is certain to lead alone when each other candidate, given all those
    hands if he is open, still stays below ``x``'s votes so far. A tie that may still come decides nothing:
    it leads to a revote.

    >>> sole_leader({4: 6, 7: 0}, [7], 3)
    4
    >>> sole_leader({4: 6, 7: 0}, [7], 6) is None
    True
    """
    open_set = set(open_candidates)
    for x, votes in tally.items():
        if all(other == x or count + (hands_left if other in open_set else 0) < votes
               for other, count in tally.items()):
            return x
    return None


# --- the vote ----------------------------------------------------------------------------------------------
class ClubVoteRules(Dispatch):
    def _end_of_speeches(self) -> None:
        rs, day = self.rules, self.day
        if day == 0:
            self._start_night(0)  # B.flow: no vote on day 0
            return
        if day in self.cancelled_days:  # A.remove.day, F.remove.vote
            self._emit(E.VoteResult("vote", (), (), "cancelled"))
            self._start_night_after_day()
            return
        cands = [c for c in self.candidates if self.alive[c]]
        if rs.nomination_style == "leaders":
            self._leaders(cands)
            return
        if not cands:
            self._emit(E.VoteResult("vote", (), (), "no-candidates"))
            self._start_night_after_day()
            return
        if single_candidate_skipped(day, len(cands), rs):
            self._emit(E.VoteResult("vote", ((cands[0], 0),), (), "single-day1"))
            self._start_night_after_day()
            return
        self._start_vote("vote", cands)

    def _start_vote(self, kind: str, cands: list[int]) -> None:
        """A.vote.order: the candidates are voted on one by one in nomination order."""
        self._emit(E.VotingStarted(kind, tuple(cands)))
        if takes_default_votes(0, len(cands), self.rules):
            self._default_and_count()
        else:
            self._emit(_step("voting", self.day, cands[0], 0))

    def _close_candidate(self) -> None:
        i = self.round + 1
        cands = self.vote_candidates
        if i < len(cands) and not takes_default_votes(i, len(cands), self.rules):
            self._emit(_step("voting", self.day, cands[i], i))
        else:
            self._default_and_count()

    def _default_and_count(self) -> None:
        if self.rules.default_vote:  # A.vote.default
            rest = default_voters(self.living(), self.votes)
            if rest:
                self._emit(E.DefaultVotes(self.vote_candidates[-1], rest))
        self._count_club_vote()

    def _tally(self) -> list[tuple[int, int]]:
        return vote_tally(self.vote_candidates, self.votes)

    def _count_club_vote(self) -> None:
        rs, kind = self.rules, self.vote_kind
        tally = self._tally()
        leaders = most_voted(tally)
        t = tuple(tally)
        if any(not self.alive[c] for c in leaders):
            # A.remove.vote: the removed candidate got the most votes: nobody else leaves.
            self._emit(E.VoteResult(kind, t, (), "removed-leads"))
            self._start_night_after_day()
            return
        if len(leaders) == 1:  # A.vote.result
            self._emit(E.VoteResult(kind, t, (leaders[0],), "out"))
            self._leave((leaders[0],), "vote")
            if not self.over:
                self._next_last_word_or(self._start_night_after_day)
            return
        if whole_table_tied(kind, len(leaders), self.alive_count, rs):
            self._emit(E.VoteResult(kind, t, (), "all-tied"))
            self._start_night_after_day()
            return
        if not rs.tie_revote:  # A.tie (option): a tie sends nobody out
            self._emit(E.VoteResult(kind, t, (), "nobody"))
            self._start_night_after_day()
            return
        if revote_follows(kind, len(leaders), self.tie_sizes):
            self._emit(E.VoteResult(kind, t, tuple(leaders), "tie"))
            self._emit(E.VotingStarted("revote", tuple(leaders)))
            self._emit(_step("tie_speech", self.day, leaders[0], 0, rs.tie_speech_seconds))
            return
        # the same number tied again: the lift vote (A.tie.again, A.tie.lift)
        if not rs.lift_vote:
            self._emit(E.VoteResult(kind, t, (), "nobody"))
            self._start_night_after_day()
            return
        if not lift_allowed(self.alive_count, len(leaders), self.day, rs):
            self._emit(E.VoteResult(kind, t, (), "no-lift"))
            self._start_night_after_day()
            return
        self._emit(E.VoteResult(kind, t, tuple(leaders), "tie"))
        self._emit(E.VotingStarted("lift", tuple(leaders)))
        self._emit(_step("lift", self.day))

    def _count_lift(self) -> None:
        # A.remove.vote: a tied player removed during the question is no longer lifted; the hands raised
        # before a removal stay counted; the majority is of the players at the table now.
        leaders = tuple(c for c in self.vote_candidates if self.alive[c])
        yes = len(self.lift_yes)
        tally = ((0, yes),)
        if not leaders:
            self._emit(E.VoteResult("lift", tally, (), "removed-leads"))
            self._start_night_after_day()
        elif lift_passed(yes, self.alive_count):
            self._emit(E.VoteResult("lift", tally, leaders, "lift"))
            self._leave(leaders, "lift")
            if not self.over:
                self._next_last_word_or(self._start_night_after_day)
        else:
            self._emit(E.VoteResult("lift", tally, (), "stay"))
            self._start_night_after_day()

    def _decided_leavers(self) -> tuple[int, ...] | None:
        """Who the running club vote sends out whatever the hands still to come, or None if that can still
        change (F.remove.vote, FIIM 9.8)."""
        cands = self.vote_candidates
        if self.step == "lift":
            if lift_passed(len(self.lift_yes), self.alive_count):
                return tuple(c for c in cands if self.alive[c])
            return None
        if self.step == "voting":
            open_cands = cands[self.round:]
        elif self.step == "tie_speech":
            open_cands = cands
        else:
            return None
        votes = self.votes
        hands_left = sum(1 for s in self.living() if s not in votes)
        leader = sole_leader(dict(self._tally()), open_cands, hands_left)
        return None if leader is None else (leader,)

    # --- the hands ---------------------------------------------------------------------------------------
    def _x_vote(self, cmd: C.Vote, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.voter)
        self._need_seat(cmd.candidate)
        # B.vote: a tournament vote's refusals cite the tournament clause, not the club's.
        clause = "B.vote" if self.rules.nomination_style == "leaders" else None
        if self.step != "voting":
            raise self._wrong_step("vote", clause or "A.vote.order")
        if not self.alive[cmd.voter]:
            raise RuleViolation("cannot-vote", clause=clause, seat=cmd.voter)
        if cmd.voter in self.votes:  # A.vote.one
            raise RuleViolation("already-voted", clause=clause, seat=cmd.voter)
        if self.rules.nomination_style == "leaders":
            if cmd.candidate not in self.vote_candidates or not self.alive[cmd.candidate]:
                raise RuleViolation("not-a-leader", target=cmd.candidate)
        elif cmd.candidate != self.seat:  # A.vote.order: the candidate being voted on
            raise RuleViolation("not-a-candidate", target=cmd.candidate)
        self._emit(self._ev_vote[cmd.voter][cmd.candidate])

    def _x_lift_vote(self, cmd: C.LiftVote, rng: Rng | None) -> None:
        self._need_live_game()
        self._need_seat(cmd.voter)
        if self.step != "lift":
            raise self._wrong_step("lift_vote", "A.tie.lift")
        if not self.alive[cmd.voter]:
            raise RuleViolation("cannot-vote", clause="A.tie.lift", seat=cmd.voter)
        if cmd.voter in self.lift_yes:
            raise RuleViolation("already-voted", clause="A.tie.lift", seat=cmd.voter)
        self._emit(E.LiftVoteCast(cmd.voter))

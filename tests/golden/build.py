"""Build the golden game records: ``.venv/bin/python tests/golden/build.py`` rewrites every record.

Each scenario below is one whole game, played to its end with explicit commands: the deal is given card by
card (``"ccDmcSmccc"``), tournament first speakers and lots name their seat, so no randomness is used. A
scenario returns its :class:`Table`; the record ``to_record(game, meta={"title", "covers"})`` is written to
``<name>.json`` in this folder.

The outcomes are NOT taken from here: ``expected.json`` is written by hand from the rulebook
(`../shared/docs/RULEBOOK.md`, restated in `docs/rules/`) and ``test_golden.py`` compares the engine's replay with it. The helpers of
:class:`Table` press only the buttons a host would press (``Advance``, ``Vote``, ``Shoot``...) and check
that the game is where the script believes it is (whose speech, which candidate, who got the default
votes), so a script that drifts from the game fails here instead of writing a record that means something
else.

When the engine rightly changes the events it draws (a new step, a renamed field), rerun this script: the
records change, ``expected.json`` does not. Never derive ``expected.json`` from the engine; a record whose
outcome the engine gets wrong goes to ``KNOWN.md`` instead.

Deck letters: c civilian, S sheriff, D don, m mafia, K commissar.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from sportmafia.engine import (
    Advance,
    Award,
    BestMove,
    Check,
    Command,
    DealCards,
    DrawFirstSpeaker,
    DrawLot,
    Event,
    Foul,
    Game,
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
    to_record,
)
from sportmafia.rules import RuleSet, get_ruleset

HERE = Path(__file__).resolve().parent
EXPECTED = "expected.json"
LETTERS = {"c": "civilian", "S": "sheriff", "D": "don", "m": "mafia", "K": "commissar"}
SPEECHES = ("speech", "muted")


def deck(cards: str) -> tuple[str, ...]:
    """``"ccDmcSmccc"`` -> the roles of seats 1..N."""
    return tuple(LETTERS[c] for c in cards.replace(" ", ""))


class Table:
    """A game driven by explicit commands, with checked shortcuts for the host's routine presses."""

    def __init__(self, rules: str | RuleSet, cards: str) -> None:
        rs = get_ruleset(rules) if isinstance(rules, str) else rules
        roles = deck(cards)
        self.game = Game(rs, len(roles))
        self.last: list[Event] = []
        self.do(DealCards(roles=roles))

    # --- raw commands -------------------------------------------------------------------------------
    def do(self, *commands: Command) -> None:
        for command in commands:
            self.last = self.game.execute(command)  # no random generator: chance must carry its outcome

    def next(self) -> None:
        """The host's "Next"."""
        self.do(Advance())

    def at(self, step: str, seat: int | None = None, day: int | None = None) -> None:
        g = self.game
        where = f"{g.step} day {g.day} seat {g.seat}"
        assert g.step == step, f"expected {step}, game is at {where}"
        assert seat is None or g.seat == seat, f"expected {step} of seat {seat}, game is at {where}"
        assert day is None or g.day == day, f"expected {step} on day {day}, game is at {where}"

    # --- night ----------------------------------------------------------------------------------------
    def night0(self) -> None:
        """Night 0: the meetings, nothing else (A.night0, B.flow)."""
        assert self.game.step.startswith("meet_"), self.game.step
        while self.game.step.startswith("meet_"):
            self.next()

    def night(self, shots: Mapping[int, int] | Iterable[tuple[int, int]] = (), *, don: int | None = None,
              sheriff: int | None = None, commissar: int | None = None, kill: int | None = None) -> None:
        """One night from its first step: the shots (shooter -> target, or pairs to let one shoot twice),
        the Don's and the Sheriff's checks, or the Commissar's check and the agreed kill."""
        g = self.game
        pairs = list(shots.items()) if isinstance(shots, Mapping) else list(shots)
        todo = {"check_don": don, "check_sheriff": sheriff, "check_commissar": commissar}
        assert g.phase == "night", f"not night: {g.step} day {g.day}"
        night = g.day
        while not g.over and g.phase == "night":
            step = g.step
            if step == "shooting":
                for shooter, target in pairs:
                    self.do(Shoot(shooter, target))
                pairs = []
            elif step == "kill":
                assert kill is not None, "the mafia must agree on a victim"
                self.do(Kill(kill))
                kill = None
            elif step in todo:
                target = todo.pop(step)
                if target is not None:
                    self.do(Check(self.checker(), target))
            else:
                raise AssertionError(f"unexpected night step {step}")
            self.next()
        assert not pairs, f"shots never fired on night {night}: {pairs}"
        assert kill is None, f"no kill step on night {night}"
        unused = {k: v for k, v in todo.items() if v is not None}
        assert not unused, f"checks not made on night {night} (checker gone?): {unused}"

    def checker(self) -> int:
        """Who checks at this check step (the step itself does not name the seat: it is hidden)."""
        g = self.game
        if hasattr(g, "checker_seat"):
            return int(g.checker_seat())
        return g.seat  # engines that named the checker in the step

    # --- day ------------------------------------------------------------------------------------------
    def draw_speaker(self, seat: int) -> None:
        """B.speech.order: the first speaker drawn at the table (seat given)."""
        self.at("first_speaker")
        self.do(DrawFirstSpeaker(seat=seat))

    def last_word(self, seat: int) -> None:
        self.at("last_word", seat)
        self.next()

    def speeches(self, nominate: Mapping[int, int | tuple[int, ...]] | None = None, *,
                 order: list[int] | None = None, until: int | None = None, until_round: int | None = None) -> None:
        """Speeches in turn; ``nominate``: speaker -> number (or numbers, A.nom.first-free) named in his
        speech of the nomination round. ``until``: stop when it is that seat's turn (before acting).
        ``order``: the speakers expected, checked."""
        g = self.game
        noms = dict(nominate or {})
        heard: list[int] = []
        day = g.day
        nom_round = g.rules.nomination_round
        while g.step in SPEECHES and g.day == day and not g.over:
            seat = g.seat
            if seat == until and (until_round is None or g.round == until_round):
                break
            heard.append(seat)
            if g.round == nom_round and seat in noms:
                named = noms.pop(seat)
                named = named if isinstance(named, tuple) else (named,)
                self.do(Nominate(seat, named[0], named[1:]))
            self.next()
        else:
            assert until is None, f"seat {until} never got the floor"
        assert not noms, f"these players never spoke in the nomination round: {sorted(noms)}"
        assert order is None or heard == order, f"speakers {heard}, expected {order}"

    def ballot(self, candidate: int, voters: Iterable[int]) -> None:
        """Hands raised for the candidate being voted on now (A.vote.order)."""
        self.at("voting", candidate)
        for v in voters:
            self.do(Vote(v, candidate))

    def defaults(self, candidate: int, voters: Iterable[int]) -> None:
        """Check who did not vote and so voted for the last candidate (A.vote.default)."""
        got = [ev for ev in self.last if ev.type == "default_votes"]
        want = sorted(voters)
        if not want:
            assert not got, f"unexpected default votes {got}"
            return
        assert got, f"no default votes in {[e.to_json() for e in self.last]}"
        assert got[0].candidate == candidate and sorted(got[0].voters) == want, got[0]  # type: ignore[attr-defined]

    def vote(self, ballots: Mapping[int, Iterable[int]]) -> None:
        """A club vote: candidates in order, their hands; the last candidate's list is who defaults to him."""
        cands = list(ballots)
        g = self.game
        assert g.vote_candidates == cands, f"candidates {g.vote_candidates}, expected {cands}"
        if len(cands) > 1:
            for c in cands[:-1]:
                self.ballot(c, ballots[c])
                self.next()
        self.defaults(cands[-1], ballots[cands[-1]])

    def tie_speeches(self, order: list[int]) -> None:
        for seat in order:
            self.at("tie_speech", seat)
            self.next()

    def lift(self, yes: Iterable[int]) -> None:
        """"Кто за то, чтобы все голосуемые покинули игру?" (A.tie.lift)."""
        self.at("lift")
        for v in yes:
            self.do(LiftVote(v))
        self.next()

    def defence(self, order: list[int]) -> None:
        for seat in order:
            self.at("defence", seat)
            self.next()

    def leaders_vote(self, ballots: Mapping[int, Iterable[int]]) -> None:
        """B.vote: hands for each leader; who is not listed abstains."""
        self.at("voting")
        assert self.game.vote_candidates == list(ballots), (self.game.vote_candidates, list(ballots))
        for c, voters in ballots.items():
            for v in voters:
                self.do(Vote(v, c))
        self.next()

    def lot(self, seat: int) -> None:
        self.at("lot")
        self.do(DrawLot(seat=seat))

    def over(self, winner: str | None) -> None:
        assert self.game.over, f"the game is not over: {self.game.step} day {self.game.day}"
        assert self.game.winner == winner, self.game.winner


# ------------------------------------------------------------------------------------------------------
# scenarios
Scenario = Callable[[], Table]
SCENARIOS: dict[str, tuple[str, list[str], Scenario]] = {}


def scenario(name: str, title: str, covers: list[str]) -> Callable[[Scenario], Scenario]:
    def register(fn: Scenario) -> Scenario:
        assert name not in SCENARIOS, name
        SCENARIOS[name] = (title, covers, fn)
        return fn
    return register


CLUB10 = "ccDmcSmccc"
"""Don 3, mafia 4 and 7, Sheriff 6."""

FOUR_NIGHTS = get_ruleset("club").variant("club-four-nights", misses_win=0)
"""A club variant without the misses rule, so that A.night.four alone decides."""


def club_day1_four_out(t: Table) -> None:
    """Night 0 and day 1 of many club games: 1 nominates 4, 2 nominates 5; 4 (mafia) is voted out."""
    t.night0()
    t.speeches({1: 4, 2: 5}, order=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    t.vote({4: [1, 2, 3, 6, 8, 9], 5: [4, 5, 7, 10]})
    t.last_word(4)


# --- club: plain games ----------------------------------------------------------------------------------
@scenario("club_plain_red_win", "Club: red votes out all three black players",
          ["A.setup", "A.night0", "A.speech.order", "A.nom.own", "A.nom.repeat", "A.vote.order", "A.vote.default",
           "A.vote.result", "A.lastword", "A.night.shoot", "A.night.checks", "A.win"])
def club_plain_red_win() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: 7, 5: 4}, order=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])   # 5 repeats 4: order unchanged
    t.vote({4: [1, 2, 5, 6, 8, 9], 7: [3, 4, 7, 10]})
    t.last_word(4)
    t.night({3: 1, 7: 1}, don=6, sheriff=3)
    t.last_word(1)
    t.speeches({6: 3, 8: 7}, order=[2, 3, 5, 6, 7, 8, 9, 10])
    t.vote({3: [2, 5, 6, 8, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 6}, sheriff=7)                      # the Don is gone; the Sheriff shot tonight still checks
    t.last_word(6)
    t.speeches({5: 7}, order=[5, 7, 8, 9, 10, 2])
    t.vote({7: [2, 5, 7, 8, 9, 10]})               # a single candidate on day 3 takes every vote
    t.over("red")
    return t


@scenario("club_black_parity", "Club: black reaches parity with a night kill",
          ["A.win", "A.night.shoot", "A.night.checks", "A.vote.default"])
def club_black_parity() -> Table:
    t = Table("club", "cmcDcccSmc")                 # mafia 2 and 9, Don 4, Sheriff 8
    t.night0()
    t.speeches({1: 8, 3: 5})
    t.vote({8: [1, 2, 3, 4, 9, 10], 5: [5, 6, 7, 8]})
    t.last_word(8)
    t.night({2: 1, 4: 1, 9: 1}, don=5)              # the Sheriff is gone: no Sheriff check
    t.last_word(1)
    t.speeches({2: 3}, order=[2, 3, 4, 5, 6, 7, 9, 10])
    t.vote({3: [2, 3, 4, 5, 6, 7, 9, 10]})
    t.last_word(3)
    t.night({2: 5, 4: 5, 9: 5}, don=6)              # 3 black, 3 red left
    t.over("black")
    return t


# --- club: ties ---------------------------------------------------------------------------------------------
@scenario("club_tie_revote_shrinks", "Club: a three-way tie, a two-way tie in the revote, then a third vote",
          ["A.tie", "A.tie.again", "A.vote.default", "A.vote.result"])
def club_tie_revote_shrinks() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 3, 2: 4, 5: 8, 6: 9})
    t.vote({3: [1, 2, 5], 4: [6, 10, 3], 8: [4, 7, 8], 9: [9]})          # 3-3-3-1
    t.tie_speeches([3, 4, 8])
    t.vote({3: [1, 2, 5, 6], 4: [3, 7, 9, 10], 8: [4, 8]})               # 4-4-2: two tied, not three
    t.tie_speeches([3, 4])
    t.vote({3: [1, 2, 5, 6, 8, 9], 4: [3, 4, 7, 10]})
    t.last_word(3)
    t.night({4: 10, 7: 10}, sheriff=4)
    t.last_word(10)
    t.speeches({2: 7, 6: 4}, order=[2, 4, 5, 6, 7, 8, 9, 1])
    t.vote({7: [1, 2, 5, 6, 8, 9], 4: [4, 7]})
    t.last_word(7)
    t.night({4: 1}, sheriff=8)
    t.last_word(1)
    t.speeches({5: 4}, order=[4, 5, 6, 8, 9, 2])
    t.vote({4: [2, 4, 5, 6, 8, 9]})
    t.over("red")
    return t


@scenario("club_tie_lift_passes", "Club: two tied twice, the table lifts both",
          ["A.tie", "A.tie.again", "A.tie.lift", "A.lastword"])
def club_tie_lift_passes() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: 9})
    t.vote({4: [1, 2, 3, 5, 6], 9: [4, 7, 8, 9, 10]})
    t.tie_speeches([4, 9])
    t.vote({4: [1, 2, 5, 6, 10], 9: [3, 4, 7, 8, 9]})                    # the same two tie again
    t.lift([1, 2, 5, 6, 8, 10])                                          # 6 of 10: both leave
    t.last_word(4)
    t.last_word(9)
    t.night({3: 2, 7: 2}, don=6, sheriff=7)
    t.last_word(2)
    t.speeches({6: 7, 8: 3}, order=[3, 5, 6, 7, 8, 10, 1])
    t.vote({7: [1, 5, 6, 8, 10], 3: [3, 7]})
    t.last_word(7)
    t.night({3: 6}, don=1, sheriff=3)
    t.last_word(6)
    t.speeches({5: 3}, order=[5, 8, 10, 1, 3])
    t.vote({3: [1, 3, 5, 8, 10]})
    t.over("red")
    return t


@scenario("club_tie_lift_even_split", "Club: the lift vote splits 5-5 at ten players and both stay",
          ["A.tie", "A.tie.again", "A.tie.lift", "A.vote.default"])
def club_tie_lift_even_split() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 2, 3: 5})
    t.vote({2: [1, 3, 4, 6, 7], 5: [2, 5, 8, 9, 10]})
    t.tie_speeches([2, 5])
    t.vote({2: [1, 3, 4, 6, 8], 5: [2, 5, 7, 9, 10]})
    t.lift([1, 2, 3, 4, 5])                                              # exactly half: they stay
    t.night({3: 8, 4: 8, 7: 8}, don=1, sheriff=4)
    t.last_word(8)
    t.speeches({6: 4}, order=[2, 3, 4, 5, 6, 7, 9, 10, 1])
    t.vote({4: [1, 2, 3, 4, 5, 6, 7, 9, 10]})
    t.last_word(4)
    t.night({3: 6, 7: 6}, don=6, sheriff=3)
    t.last_word(6)
    t.speeches({9: 3, 10: 7}, order=[3, 5, 7, 9, 10, 1, 2])
    t.vote({3: [1, 2, 5, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 1}, sheriff=None)
    t.last_word(1)
    t.speeches({5: 7}, order=[5, 7, 9, 10, 2])
    t.vote({7: [2, 5, 7, 9, 10]})
    t.over("red")
    return t


@scenario("club_tie_nine_no_lift",
          "Club variant with lift_three_at_nine 'never': three tied twice at nine players are not lifted",
          ["A.tie", "A.tie.again", "A.tie.nine", "A.vote.day1-single"])
def club_tie_nine_no_lift() -> Table:
    t = Table(get_ruleset("club").variant("club-never9", lift_three_at_nine="never"), CLUB10)
    t.night0()
    t.speeches({1: 10})                                                  # a single candidate on day 1
    t.night({3: 10, 4: 10, 7: 10}, don=5, sheriff=2)
    t.last_word(10)
    t.speeches({2: 1, 3: 5, 4: 8}, order=[2, 3, 4, 5, 6, 7, 8, 9, 1])
    t.vote({1: [2, 3, 4], 5: [1, 6, 7], 8: [5, 8, 9]})
    t.tie_speeches([1, 5, 8])
    t.vote({1: [1, 2, 3], 5: [4, 6, 7], 8: [5, 8, 9]})                   # three tied again, nine players
    t.night({3: 2, 4: 2, 7: 2}, don=6, sheriff=4)
    t.last_word(2)
    t.speeches({6: 4, 8: 3}, order=[3, 4, 5, 6, 7, 8, 9, 1])
    t.vote({4: [1, 5, 6, 8, 9], 3: [3, 4, 7]})
    t.last_word(4)
    t.night({3: 6, 7: 6}, don=6, sheriff=7)
    t.last_word(6)
    t.speeches({5: 3, 8: 7}, order=[5, 7, 8, 9, 1, 3])
    t.vote({3: [1, 5, 8, 9], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 1})
    t.last_word(1)
    t.speeches({8: 7}, order=[7, 8, 9, 5])
    t.vote({7: [5, 7, 8, 9]})
    t.over("red")
    return t


def club_down_to_four(t: Table, day4: Mapping[int, int] | None = None) -> None:
    """Days 1-3 and nights 1-3 that leave Don 3 with reds 8, 9 and 10 (four players) at day 4."""
    club_day1_four_out(t)                                                 # day 1: 4 out
    t.night({3: 1, 7: 1}, don=2, sheriff=3)
    t.last_word(1)
    t.speeches({6: 7}, order=[2, 3, 5, 6, 7, 8, 9, 10])                  # day 2: 7 out
    t.vote({7: [2, 3, 5, 6, 7, 8, 9, 10]})
    t.last_word(7)
    t.night({3: 6}, don=5, sheriff=3)
    t.last_word(6)
    t.speeches({3: 2}, order=[3, 5, 8, 9, 10, 2])                        # day 3: 2 out
    t.vote({2: [2, 3, 5, 8, 9, 10]})
    t.last_word(2)
    t.night({3: 5}, don=8)
    t.last_word(5)


@scenario("club_tie_four_lift", "Club: at four players two tied reds are lifted together and black wins",
          ["A.tie", "A.tie.again", "A.tie.lift", "A.tie.four", "A.win"])
def club_tie_four_lift() -> Table:
    t = Table("club", CLUB10)
    club_down_to_four(t)
    t.speeches({8: 9, 3: 10}, order=[8, 9, 10, 3])
    t.vote({9: [3, 8], 10: [9, 10]})
    t.tie_speeches([9, 10])
    t.vote({9: [3, 8], 10: [9, 10]})
    t.lift([3, 8, 9])                                                    # 3 of 4
    t.over("black")
    return t


@scenario("club_tie_all",
          "Club: all ten players nominated, one vote each, twice: the speeches and revote, then nobody leaves",
          ["A.tie.all", "A.tie", "A.vote.one", "A.vote.default", "A.nom.own"])
def club_tie_all() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 9, 9: 10, 10: 1})
    t.vote({2: [1], 3: [2], 4: [3], 5: [4], 6: [5], 7: [6], 8: [7], 9: [8], 10: [9], 1: [10]})
    t.tie_speeches([2, 3, 4, 5, 6, 7, 8, 9, 10, 1])                     # the whole table tied: a revote
    t.vote({2: [1], 3: [2], 4: [3], 5: [4], 6: [5], 7: [6], 8: [7], 9: [8], 10: [9], 1: [10]})
    t.night({3: 6, 4: 6, 7: 6}, don=6, sheriff=3)
    t.last_word(6)
    t.speeches({2: 3}, order=[2, 3, 4, 5, 7, 8, 9, 10, 1])
    t.vote({3: [1, 2, 3, 4, 5, 7, 8, 9, 10]})
    t.last_word(3)
    t.night({4: 2, 7: 2})
    t.last_word(2)
    t.speeches({5: 4, 8: 7}, order=[4, 5, 7, 8, 9, 10, 1])
    t.vote({4: [1, 5, 8, 9, 10], 7: [4, 7]})
    t.last_word(4)
    t.night({7: 8})
    t.last_word(8)
    t.speeches({5: 7}, order=[5, 7, 9, 10, 1])
    t.vote({7: [1, 5, 7, 9, 10]})
    t.over("red")
    return t


# --- club: removals --------------------------------------------------------------------------------------
@scenario("club_remove_day", "Club: a removal during the day's speeches cancels that day's vote",
          ["A.remove.day", "A.remove.reasons", "A.nom.dead"])
def club_remove_day() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 4}, until=3)
    t.do(Remove(5, "oath"))                                              # "отвечаю" during 3's speech
    t.speeches(order=[3, 4, 6, 7, 8, 9, 10])                             # no vote today: nobody nominates
    t.night({3: 1, 4: 1, 7: 1}, don=2, sheriff=7)
    t.last_word(1)
    t.speeches({6: 7}, order=[2, 3, 4, 6, 7, 8, 9, 10])
    t.vote({7: [2, 3, 4, 6, 7, 8, 9, 10]})
    t.last_word(7)
    t.night({3: 6, 4: 6}, don=6, sheriff=3)
    t.last_word(6)
    t.speeches({8: 3, 9: 4}, order=[3, 4, 8, 9, 10, 2])
    t.vote({3: [2, 8, 9, 10], 4: [3, 4]})
    t.last_word(3)
    t.night({4: 2})
    t.last_word(2)
    t.speeches({8: 4}, order=[4, 8, 9, 10])
    t.vote({4: [4, 8, 9, 10]})
    t.over("red")
    return t


@scenario("club_remove_during_vote",
          "Club: a removed candidate leads the vote (nobody else leaves); a fourth foul during a vote",
          ["A.remove.vote", "A.remove.reasons", "A.foul.four", "A.vote.default"])
def club_remove_during_vote() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: 5, 3: 8})
    t.ballot(4, [1, 2, 6, 9, 10])
    t.next()
    t.do(Remove(4, "insult"))                                            # while 5 is being voted on
    t.ballot(5, [3])
    t.next()
    t.defaults(8, [5, 7, 8])                                             # 4 has left: no default vote
    t.night({3: 10, 7: 10}, don=6, sheriff=3)
    t.last_word(10)
    t.do(Foul(9, "gestures"), Foul(9, "out_of_turn"))
    t.speeches({2: 3, 6: 7}, order=[2, 3, 5, 6, 7, 8, 9, 1])
    t.ballot(3, [1, 2, 5, 6, 8])
    t.do(Foul(9, "gestures"), Foul(9, "hand_pulled"))                    # third and fourth: 9 is removed
    t.next()
    t.defaults(7, [3, 7])
    t.last_word(3)
    t.night({7: 1}, sheriff=7)
    t.last_word(1)
    t.speeches({6: 7}, order=[5, 6, 7, 8, 2])
    t.vote({7: [2, 5, 6, 7, 8]})
    t.over("red")
    return t


@scenario("club_remove_night", "Club: a black player removed at night before shooting; later the last black",
          ["A.remove.night", "A.remove.reasons", "A.night.shoot", "A.win"])
def club_remove_night() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 8, 2: 9})
    t.vote({8: [1, 2, 3, 4, 5, 6], 9: [7, 8, 9, 10]})
    t.last_word(8)
    t.at("shooting", day=1)
    t.do(Remove(4, "peeping"))                                           # 4 had not shot
    t.night({3: 1, 7: 1}, don=6, sheriff=3)                              # the two left agree: 1 is killed
    t.last_word(1)                                                       # 4 has no last word
    t.speeches({6: 3, 9: 7}, order=[2, 3, 5, 6, 7, 9, 10])
    t.vote({3: [2, 5, 6, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.at("shooting", day=2)
    t.do(Shoot(7, 5), Remove(7, "night_touch"))                          # the last black player leaves
    t.over("red")
    return t


@scenario("club_remove_in_tie",
          "Club: a tied player removed in his tie speech leads the revote; a tied player removed during the lift:"
          " the question goes on for the other",
          ["A.remove.vote", "A.tie", "A.tie.lift", "A.remove.reasons"])
def club_remove_in_tie() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: 9})
    t.vote({4: [1, 2, 3, 5, 6], 9: [4, 7, 8, 9, 10]})
    t.at("tie_speech", 4)
    t.do(Remove(4, "oath"))                                              # the revote goes on with him
    t.tie_speeches([9])
    t.vote({4: [1, 2, 3, 5, 6, 10], 9: [7, 8, 9]})                       # he gets the most: nobody leaves
    t.night({3: 1, 7: 1}, don=6, sheriff=7)
    t.last_word(1)
    t.speeches({2: 5, 3: 8}, order=[2, 3, 5, 6, 7, 8, 9, 10])
    t.vote({5: [2, 3, 6, 7], 8: [5, 8, 9, 10]})
    t.tie_speeches([5, 8])
    t.vote({5: [2, 3, 6, 7], 8: [5, 8, 9, 10]})
    t.at("lift")
    t.do(LiftVote(2), LiftVote(3), Remove(8, "insult"))                  # a tied player leaves: the question
    t.next()                                                             # goes on for 5: 2 of 9, he stays
    t.night({3: 6, 7: 6}, don=5, sheriff=3)
    t.last_word(6)
    t.speeches({5: 3, 9: 7}, order=[3, 5, 7, 9, 10, 2])
    t.vote({3: [2, 5, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 2})
    t.last_word(2)
    t.speeches({9: 7}, order=[5, 7, 9, 10])
    t.vote({7: [5, 7, 9, 10]})
    t.over("red")
    return t


# --- club: fouls -------------------------------------------------------------------------------------------
@scenario("club_third_foul", "Club: third foul before one's speech (muted today, still nominates) and during it",
          ["A.foul.three", "A.nom.muted", "A.foul.four", "A.foul.night", "A.foul.reasons", "A.remove.night"])
def club_third_foul() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 7}, until=2)
    t.do(Foul(5, "gestures"), Foul(8, "forbidden_words"))
    t.speeches(until=3)
    t.do(Foul(5, "table_banging"), Foul(8, "out_of_turn"))
    t.speeches(until=4)
    t.do(Foul(5, "out_of_turn"))                                         # 5's third, before his speech
    t.speeches({5: 4}, until=8)                                          # 5 is muted and still nominates
    t.do(Foul(8, "forbidden_words"))                                     # 8's third, in his own speech
    t.speeches(order=[8, 9, 10])
    t.vote({7: [1, 2, 5, 6, 8, 9, 10], 4: [3, 4, 7]})
    t.last_word(7)
    t.night({3: 2, 4: 2}, don=6, sheriff=4)
    t.last_word(2)
    t.speeches({6: 4, 8: 3}, order=[3, 4, 5, 6, 8, 9, 10, 1])            # 8 is muted today, nominates
    t.vote({4: [1, 5, 6, 8, 9, 10], 3: [3, 4]})
    t.last_word(4)
    t.at("shooting", day=2)
    t.do(Foul(5, "night_conduct"))                                       # 5's fourth, at night
    t.night({3: 10})
    t.last_word(10)
    t.speeches({6: 3}, order=[6, 8, 9, 1, 3])
    t.vote({3: [1, 3, 6, 8, 9]})
    t.over("red")
    return t


@scenario("club_short_speech", "Club: muted players speak 30 s at four and at three players",
          ["A.foul.short", "A.foul.three", "A.foul.night", "A.nom.muted", "A.timing"])
def club_short_speech() -> Table:
    t = Table("club", CLUB10)
    club_day1_four_out(t)
    t.night({3: 1, 7: 1}, don=2, sheriff=3)
    t.last_word(1)
    t.do(Foul(9, "gestures"))
    t.speeches({6: 7}, order=[2, 3, 5, 6, 7, 8, 9, 10])
    t.vote({7: [2, 3, 5, 6, 7, 8, 9, 10]})
    t.last_word(7)
    t.night({3: 6}, don=5, sheriff=3)
    t.last_word(6)
    t.do(Foul(9, "out_of_turn"))
    t.speeches({3: 2}, order=[3, 5, 8, 9, 10, 2])
    t.vote({2: [2, 3, 5, 8, 9, 10]})
    t.last_word(2)
    t.night({3: 5}, don=8)
    t.last_word(5)
    t.at("speech", 8, day=4)                                             # four players: 3, 8, 9, 10
    t.do(Foul(9, "gestures"))                                            # 9's third: today's speech is 30 s
    t.speeches(order=[8, 9, 10, 3])                                      # nobody nominates
    t.at("shooting", day=4)
    t.do(Foul(10, "night_gestures"), Foul(10, "late_mask"))
    t.night({3: 8}, don=9)
    t.at("last_word", 8, day=5)
    t.do(Foul(10, "out_of_turn"))                                        # 10's third before his speech
    t.last_word(8)
    t.speeches({10: 3}, order=[9, 10, 3])                                # three players; 10 speaks 30 s
    t.vote({3: [3, 9, 10]})
    t.over("red")
    return t


# --- club: nights ----------------------------------------------------------------------------------------
@scenario("club_three_misses", "Club: misses on nights 1-4; a vote-out on day 2 breaks the first run",
          ["A.night.misses", "A.night.shoot"])
def club_three_misses() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 10, 2: 9})
    t.vote({10: [1, 2, 3, 4, 5, 6], 9: [7, 8, 9, 10]})
    t.last_word(10)
    t.night({3: 1, 4: 1, 7: 2}, don=5, sheriff=8)                        # different targets: a miss
    t.speeches({2: 8}, order=[2, 3, 4, 5, 6, 7, 8, 9, 1])
    t.vote({8: [1, 2, 3, 4, 5, 6, 7, 8, 9]})                             # someone voted out on day 2
    t.last_word(8)
    t.night({3: 1, 4: 1}, don=6, sheriff=3)                              # 7 does not shoot: a miss
    t.speeches(order=[3, 4, 5, 6, 7, 9, 1, 2])                           # nobody nominated
    t.night([(3, 1), (3, 1), (4, 1), (7, 1)], don=1, sheriff=4)          # 3 shoots twice: a miss
    t.speeches(order=[4, 5, 6, 7, 9, 1, 2, 3])
    t.night({3: 5, 4: 5, 7: 6}, don=2, sheriff=7)                        # third miss since the vote
    t.over("red")
    return t


@scenario("club_three_misses_from_night1",
          "Club: a vote-out on day 1, then misses on nights 1-3 with no vote-out between: red wins",
          ["A.night.misses", "A.night.shoot"])
def club_three_misses_from_night1() -> Table:
    t = Table("club", CLUB10)
    club_day1_four_out(t)                                                # day 1's vote is before the run
    t.night({3: 1, 7: 2}, don=2, sheriff=3)                              # night 1: a miss
    t.speeches(order=[2, 3, 5, 6, 7, 8, 9, 10, 1])
    t.night({3: 1}, don=6, sheriff=7)                                    # night 2: 7 does not shoot
    t.speeches(order=[3, 5, 6, 7, 8, 9, 10, 1, 2])
    t.night({3: 5, 7: 6}, don=1, sheriff=8)                              # night 3: a miss
    t.over("red")
    return t


@scenario("club_four_nights", "Club variant without the misses rule: three kill-less nights at four players",
          ["A.night.four", "A.night.shoot"])
def club_four_nights() -> Table:
    t = Table(FOUR_NIGHTS, CLUB10)
    club_day1_four_out(t)
    t.night({3: 1, 7: 1}, don=2, sheriff=3)
    t.last_word(1)
    t.speeches({6: 7}, order=[2, 3, 5, 6, 7, 8, 9, 10])
    t.vote({7: [2, 3, 5, 6, 7, 8, 9, 10]})
    t.last_word(7)
    t.night({3: 6}, don=5, sheriff=3)
    t.last_word(6)
    t.speeches({3: 2}, order=[3, 5, 8, 9, 10, 2])
    t.vote({2: [2, 3, 5, 8, 9, 10]})
    t.last_word(2)
    t.night(don=8)                                                       # night 3 at five players: no shot
    t.speeches({8: 5}, order=[5, 8, 9, 10, 3])
    t.vote({5: [3, 5, 8, 9, 10]})
    t.last_word(5)
    t.night(don=9)                                                       # night 4 at four players
    t.speeches(order=[8, 9, 10, 3])
    t.night(don=10)                                                      # night 5
    t.speeches(order=[9, 10, 3, 8])
    t.night(don=8)                                                       # night 6: third in a row at four
    t.over("red")
    return t


# --- club: nominations ---------------------------------------------------------------------------------------
@scenario("club_withdraw", "Club: withdrawals: the candidate stays if nominated earlier by another; renominating",
          ["A.nom.withdraw", "A.nom.repeat", "A.nom.own", "A.vote.order"])
def club_withdraw() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 7}, until=2)
    t.do(Nominate(2, 7), Withdraw(2, 7), Nominate(2, 4))                 # 7 stays: 1 nominated him
    t.next()
    t.do(Nominate(3, 9), Withdraw(3, 9), Nominate(3, 8))                 # 9 is no longer a candidate
    t.speeches({5: 9}, order=[3, 4, 5, 6, 7, 8, 9, 10])                  # 9 nominated again: last
    t.vote({7: [1, 2, 5, 6, 10], 4: [3, 8], 8: [4], 9: [7, 9]})
    t.last_word(7)
    t.night({3: 6, 4: 6}, don=6, sheriff=4)
    t.last_word(6)
    t.at("speech", 2, day=2)
    t.do(Nominate(2, 4), Withdraw(2, 4), Nominate(2, 3))
    t.next()
    t.speeches({5: 4}, order=[3, 4, 5, 8, 9, 10, 1])
    t.vote({3: [1, 2, 5, 8, 9], 4: [3, 4, 10]})
    t.last_word(3)
    t.night({4: 1})
    t.last_word(1)
    t.speeches({5: 4}, order=[4, 5, 8, 9, 10, 2])
    t.vote({4: [2, 4, 5, 8, 9, 10]})
    t.over("red")
    return t


@scenario("club_first_free", "Club: several numbers named at once: the first not yet nominated is accepted",
          ["A.nom.first-free", "A.nom.repeat", "A.vote.order"])
def club_first_free() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: (4, 7), 3: (4, 7, 9), 5: (4, 7, 9)})            # 7, then 9, then 4 again
    t.vote({4: [1, 2, 5, 6, 8, 10], 7: [3, 9], 9: [4, 7]})
    t.last_word(4)
    t.night({3: 10, 7: 10}, don=1, sheriff=3)
    t.last_word(10)
    t.speeches({6: (3, 7), 8: (3, 7)}, order=[2, 3, 5, 6, 7, 8, 9, 1])
    t.vote({3: [1, 2, 5, 6, 8, 9], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 6}, sheriff=7)
    t.last_word(6)
    t.speeches({5: 7}, order=[5, 7, 8, 9, 1, 2])
    t.vote({7: [1, 2, 5, 7, 8, 9]})
    t.over("red")
    return t


@scenario("club_day1_single", "Club: a single candidate on day 1 is not voted on; on day 2 he takes every vote",
          ["A.vote.day1-single", "A.vote.default"])
def club_day1_single() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({4: 1}, order=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    t.night({3: 5, 4: 5, 7: 5}, don=2, sheriff=7)
    t.last_word(5)
    t.speeches({6: 7}, order=[2, 3, 4, 6, 7, 8, 9, 10, 1])
    t.vote({7: [1, 2, 3, 4, 6, 7, 8, 9, 10]})
    t.last_word(7)
    t.night({3: 6, 4: 6}, sheriff=3)
    t.last_word(6)
    t.speeches({8: 4, 9: 3}, order=[3, 4, 8, 9, 10, 1, 2])
    t.vote({4: [1, 2, 8, 9, 10], 3: [3, 4]})
    t.last_word(4)
    t.night({3: 1})
    t.last_word(1)
    t.speeches({9: 3}, order=[8, 9, 10, 2, 3])
    t.vote({3: [2, 3, 8, 9, 10]})
    t.over("red")
    return t


# --- club: judge --------------------------------------------------------------------------------------------
@scenario("club_award", "Club: the judge awards the win to red for hints from a departed black player",
          ["A.award"])
def club_award() -> Table:
    t = Table("club", CLUB10)
    club_day1_four_out(t)
    t.night({3: 1, 7: 1}, don=6, sheriff=3)
    t.at("last_word", 1, day=2)
    t.do(Award("red", "player 4, out of the game, signalled to his team from the audience"))
    t.over("red")
    return t


def club_red_win_in_three_days(t: Table) -> None:
    """4 out on day 1, 3 on day 2, 7 on day 3; nights kill 1 and 6."""
    club_day1_four_out(t)
    t.night({3: 1, 7: 1}, don=6, sheriff=3)
    t.last_word(1)
    t.speeches({6: 3, 8: 7})
    t.vote({3: [2, 5, 6, 8, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 6}, sheriff=7)
    t.last_word(6)
    t.speeches({5: 7}, order=[5, 7, 8, 9, 10, 2])
    t.vote({7: [2, 5, 7, 8, 9, 10]})


def club_black_win_in_two_nights(t: Table) -> None:
    """With mafia 2 and 9, Don 4, Sheriff 8 ("cmcDcccSmc"): Sheriff out on day 1, parity on night 2."""
    t.night0()
    t.speeches({1: 8, 3: 5})
    t.vote({8: [1, 2, 3, 4, 9, 10], 5: [5, 6, 7, 8]})
    t.last_word(8)
    t.night({2: 1, 4: 1, 9: 1}, don=5)
    t.last_word(1)
    t.speeches({2: 3})
    t.vote({3: [2, 3, 4, 5, 6, 7, 9, 10]})
    t.last_word(3)
    t.night({2: 5, 4: 5, 9: 5}, don=6)


@scenario("club_override", "Club: black wins at parity; the judge overrides the result to red with a reason",
          ["A.judge", "A.win"])
def club_override() -> Table:
    t = Table("club", "cmcDcccSmc")
    club_black_win_in_two_nights(t)
    t.over("black")
    t.do(Override("red", "the night-2 shot was shown after the host's 'спасибо'; the judge rules a miss "
                         "could not be replayed and gives the game to red"))
    t.over("red")
    return t


@scenario("club_protest_reverse", "Club: red wins; black and one departed red vote to reverse: black wins",
          ["A.protest"])
def club_protest_reverse() -> Table:
    t = Table("club", CLUB10)
    club_red_win_in_three_days(t)
    t.over("red")
    t.do(Protest("reverse", (3, 4, 7, 1)))                               # 1 had been killed on night 1
    t.over("black")
    return t


@scenario("club_protest_failed", "Club: black wins; one red does not vote for the protest, which fails",
          ["A.protest"])
def club_protest_failed() -> Table:
    t = Table("club", "cmcDcccSmc")
    club_black_win_in_two_nights(t)
    t.do(Protest("annul", (1, 3, 5, 6, 7, 8, 2)))                        # red 10 is missing
    t.over("black")
    return t


@scenario("club_protest_annul", "Club: red wins; the whole black team and red 6 annul the result",
          ["A.protest"])
def club_protest_annul() -> Table:
    t = Table("club", CLUB10)
    club_red_win_in_three_days(t)
    t.do(Protest("annul", (7, 6, 4, 3)))
    t.over(None)
    return t


@scenario("club_undo", "Club: the host undoes a nomination, a closed vote and two steps; the log keeps them",
          ["undo", "A.vote.default", "A.vote.result"])
def club_undo() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.at("speech", 1)
    t.do(Nominate(1, 4), Undo(), Nominate(1, 7))                         # he said 7, not 4
    t.next()
    t.speeches({2: 4})
    t.ballot(7, [1, 2, 5])
    t.next()                                                             # 4 would leave 7:3 ...
    t.defaults(4, [3, 4, 6, 7, 8, 9, 10])
    t.do(Undo())                                                         # ... but hands were missed
    t.ballot(7, [6, 8, 9, 10])
    t.next()
    t.defaults(4, [3, 4, 7])
    t.last_word(7)
    t.night({3: 1, 4: 1}, don=6, sheriff=3)
    t.last_word(1)
    t.speeches({6: 3}, until=8)
    t.do(Nominate(8, 2))
    t.next()
    t.do(Undo(), Undo(), Nominate(8, 4))                                 # back into 8's speech; 4, not 2
    t.next()
    t.speeches(order=[9, 10])
    t.vote({3: [2, 5, 6, 8, 9, 10], 4: [3, 4]})
    t.last_word(3)
    t.night({4: 6}, sheriff=4)
    t.last_word(6)
    t.speeches({5: 4}, order=[4, 5, 8, 9, 10, 2])
    t.vote({4: [2, 4, 5, 8, 9, 10]})
    t.over("red")
    return t


@scenario("club_misses_after_day_removal",
          "Club: misses on nights 1-4; a removal on day 2 counts as that day's vote-out and breaks the first run",
          ["A.night.misses", "A.remove.day"])
def club_misses_after_day_removal() -> Table:
    t = Table("club", CLUB10)
    t.night0()
    t.speeches({1: 10, 2: 9})
    t.vote({10: [1, 2, 3, 4, 5, 6], 9: [7, 8, 9, 10]})
    t.last_word(10)
    t.night({3: 1, 4: 1, 7: 2}, don=5, sheriff=8)                        # miss 1
    t.speeches(until=5)
    t.do(Remove(8, "bets"))                                              # day 2: 8 leaves "by the vote"
    t.speeches(order=[5, 6, 7, 9, 1])
    t.night({3: 1, 4: 1}, don=6, sheriff=3)                              # miss 2
    t.speeches(order=[3, 4, 5, 6, 7, 9, 1, 2])
    t.night({3: 1, 4: 1, 7: 2}, don=1, sheriff=4)                        # miss 3, but not 3 in a row
    # By A.remove.day the removal on day 2 counts as that day's vote-out, so the game goes on.
    t.speeches(order=[4, 5, 6, 7, 9, 1, 2, 3])                           # day 4: nobody nominated
    t.night({3: 2, 4: 2}, don=2, sheriff=7)                              # miss 4: nights 2-4, nobody out
    t.over("red")
    return t


# --- fiim ------------------------------------------------------------------------------------------------------
@scenario("fiim_best_move", "FIIM: the first-night victim names three players, two of them black",
          ["F.bestmove", "A.lastword", "A.night.checks"])
def fiim_best_move() -> Table:
    t = Table("fiim", CLUB10)
    club_day1_four_out(t)
    t.night({3: 8, 7: 8}, don=6, sheriff=3)
    t.at("last_word", 8, day=2)
    t.do(BestMove(8, (3, 7, 10)))
    t.next()
    t.speeches({6: 3, 9: 7}, order=[2, 3, 5, 6, 7, 9, 10, 1])
    t.vote({3: [1, 2, 5, 6, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 6}, sheriff=7)
    t.last_word(6)
    t.speeches({5: 7}, order=[5, 7, 9, 10, 1, 2])
    t.vote({7: [1, 2, 5, 7, 9, 10]})
    t.over("red")
    return t


@scenario("fiim_no_best_move", "FIIM: two players lifted on day 1, so the first-night victim has no best move",
          ["F.bestmove", "A.tie.lift", "A.tie.again"])
def fiim_no_best_move() -> Table:
    t = Table("fiim", CLUB10)
    t.night0()
    t.speeches({1: 5, 2: 8})
    t.vote({5: [1, 2, 3, 4, 6], 8: [5, 7, 8, 9, 10]})
    t.tie_speeches([5, 8])
    t.vote({5: [1, 2, 3, 4, 6], 8: [5, 7, 8, 9, 10]})
    t.lift([1, 2, 3, 4, 6, 7])
    t.last_word(5)
    t.last_word(8)
    t.night({3: 1, 4: 1, 7: 1}, don=2, sheriff=4)
    assert not any(c.type == "best_move" for c in t.game.legal_commands())
    t.last_word(1)
    t.speeches({6: 4}, order=[2, 3, 4, 6, 7, 9, 10])
    t.vote({4: [2, 3, 4, 6, 7, 9, 10]})
    t.last_word(4)
    t.night({3: 6, 7: 6}, don=2, sheriff=3)
    t.last_word(6)
    t.speeches({9: 3, 10: 7}, order=[3, 7, 9, 10, 2])
    t.vote({3: [2, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 2}, don=None)
    t.last_word(2)
    t.speeches({9: 7}, order=[7, 9, 10])
    t.vote({7: [7, 9, 10]})
    t.over("red")
    return t


@scenario("fiim_draw", "FIIM: after day 1 nobody leaves for three night-and-day cycles: a draw",
          ["F.draw", "A.tie.nine", "A.tie.again"])
def fiim_draw() -> Table:
    t = Table("fiim", CLUB10)
    t.night0()
    t.speeches({1: 10, 2: 9})
    t.vote({10: [1, 2, 3, 4, 5, 6], 9: [7, 8, 9, 10]})
    t.last_word(10)
    t.night({3: 1, 4: 1, 7: 2}, don=6, sheriff=3)                        # night 1: miss
    t.speeches(order=[2, 3, 4, 5, 6, 7, 8, 9, 1])                        # day 2: nobody nominated
    t.night({3: 1, 4: 1}, don=2, sheriff=4)                              # night 2: miss
    t.speeches({6: 3, 8: 4, 9: 7}, order=[3, 4, 5, 6, 7, 8, 9, 1, 2])    # day 3: three tied, nine players
    t.vote({3: [1, 2, 5], 4: [6, 8, 9], 7: [3, 4, 7]})
    t.tie_speeches([3, 4, 7])
    t.vote({3: [1, 2, 5], 4: [6, 8, 9], 7: [3, 4, 7]})
    t.night({3: 5, 4: 5, 7: 6}, don=5, sheriff=7)                        # night 3: miss
    t.speeches(order=[4, 5, 6, 7, 8, 9, 1, 2, 3])                        # day 4: nobody nominated
    t.over(None)
    return t


@scenario("fiim_remove_during_vote", "FIIM: a removal during the vote cancels it",
          ["F.remove.vote", "A.remove.reasons"])
def fiim_remove_during_vote() -> Table:
    t = Table("fiim", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: 7})
    t.ballot(4, [1, 2, 5, 6])
    t.do(Remove(9, "oath"))                                              # the vote is cancelled
    t.night({3: 1, 4: 1, 7: 1}, don=6, sheriff=4)
    t.last_word(1)
    t.speeches({6: 4, 8: 7}, order=[2, 3, 4, 5, 6, 7, 8, 10])
    t.vote({4: [2, 5, 6, 8, 10], 7: [3, 4, 7]})
    t.last_word(4)
    t.night({3: 6, 7: 6}, don=6, sheriff=7)
    t.last_word(6)
    t.speeches({5: 3, 8: 7}, order=[3, 5, 7, 8, 10, 2])
    t.vote({3: [2, 5, 8, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 2})
    t.last_word(2)
    t.speeches({5: 7}, order=[5, 7, 8, 10])
    t.vote({7: [5, 7, 8, 10]})
    t.over("red")
    return t


@scenario("fiim_remove_decided_in_vote",
          "FIIM 9.8: a removal during the vote after its result is decided keeps it and cancels the next day's",
          ["F.remove.vote", "A.remove.vote", "A.remove.reasons", "A.vote.default"])
def fiim_remove_decided_in_vote() -> Table:
    t = Table("fiim", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: 7})
    t.ballot(4, [1, 2, 3, 5, 6, 8])                                      # 6 hands: 7 can get only 4
    t.do(Remove(9, "oath"))                                              # decided: the vote goes on
    t.next()
    t.defaults(7, [4, 7, 10])
    t.last_word(4)
    t.night({3: 1, 7: 1}, don=6, sheriff=3)
    t.last_word(1)
    t.speeches(order=[2, 3, 5, 6, 7, 8, 10])                             # day 2: no vote
    t.night({3: 6, 7: 6})
    t.last_word(6)
    t.speeches({5: 3, 8: 7}, order=[3, 5, 7, 8, 10, 2])
    t.vote({3: [2, 5, 8, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 2})
    t.last_word(2)
    t.speeches({5: 7}, order=[5, 7, 8, 10])
    t.vote({7: [5, 7, 8, 10]})
    t.over("red")
    return t


@scenario("fiim_remove_night_and_day",
          "FIIM: a removal at night cancels the next day's vote; a removal before the vote cancels today's",
          ["F.remove.vote", "A.remove.reasons", "A.win"])
def fiim_remove_night_and_day() -> Table:
    t = Table("fiim", CLUB10)
    club_day1_four_out(t)
    t.at("shooting", day=1)
    t.do(Remove(10, "night_touch"))
    t.night({3: 1, 7: 1}, don=6, sheriff=3)
    t.last_word(1)
    t.speeches(order=[2, 3, 5, 6, 7, 8, 9])                              # day 2: no vote, no nominations
    t.night({3: 6, 7: 6}, don=2, sheriff=7)
    t.last_word(6)
    t.speeches({5: 3}, until=8)
    t.do(Remove(9, "insult"))                                            # day 3, before the vote
    t.speeches(order=[8, 2])
    t.night({3: 2, 7: 2}, don=5)                                         # 3, 5, 7, 8 left: parity
    t.over("black")
    return t


@scenario("fiim_remove_after_decided",
          "FIIM: the voted-out player removed in his last word changes nothing; another removal then "
          "cancels the next day's vote",
          ["F.remove.vote", "A.remove.reasons", "A.lastword"])
def fiim_remove_after_decided() -> Table:
    t = Table("fiim", CLUB10)
    t.night0()
    t.speeches({1: 4, 2: 5})
    t.vote({4: [1, 2, 3, 6, 8, 9], 5: [4, 5, 7, 10]})
    t.at("last_word", 4)
    t.do(Remove(4, "insult"))                                            # ends his last word
    t.night({3: 8, 7: 8}, don=6, sheriff=7)
    t.last_word(8)
    t.speeches({6: 3, 9: 7}, order=[2, 3, 5, 6, 7, 9, 10, 1])
    t.vote({3: [1, 2, 5, 6, 9, 10], 7: [3, 7]})
    t.at("last_word", 3)
    t.do(Remove(10, "oath"))                                             # day 3's vote is cancelled
    t.last_word(3)
    t.night({7: 6}, sheriff=None)
    t.last_word(6)
    t.speeches(order=[5, 7, 9, 1, 2])
    t.night({7: 1})
    t.last_word(1)
    t.speeches({9: 7}, order=[7, 9, 2, 5])
    t.vote({7: [2, 5, 7, 9]})
    t.over("red")
    return t


@scenario("fiim_remove_killed_in_last_word",
          "FIIM: the night's victim removed during his own last word: that day's vote still takes place",
          ["F.remove.vote", "A.lastword"])
def fiim_remove_killed_in_last_word() -> Table:
    t = Table("fiim", CLUB10)
    club_day1_four_out(t)
    t.night({3: 8, 7: 8}, don=6, sheriff=3)
    t.at("last_word", 8, day=2)
    t.do(Remove(8, "insult"))                                            # ends his last word
    t.speeches({6: 3, 9: 7}, order=[2, 3, 5, 6, 7, 9, 10, 1])
    t.vote({3: [1, 2, 5, 6, 9, 10], 7: [3, 7]})
    t.last_word(3)
    t.night({7: 6}, sheriff=7)
    t.last_word(6)
    t.speeches({5: 7}, order=[5, 7, 9, 10, 1, 2])
    t.vote({7: [1, 2, 5, 7, 9, 10]})
    t.over("red")
    return t


@scenario("fiim_team_defeat", "FIIM: the judge declares a team defeat of black for deliberate peeping",
          ["F.team-defeat"])
def fiim_team_defeat() -> Table:
    t = Table("fiim", CLUB10)
    club_day1_four_out(t)
    t.night({3: 1, 7: 1}, don=6, sheriff=3)
    t.last_word(1)
    t.speeches(until=5)
    t.do(TeamDefeat("black", "the Don admits he peeped at night on purpose"))
    t.over("red")
    return t


# --- tournament ------------------------------------------------------------------------------------------
TOUR12 = "cmcc Kcmccc mc"
"""Mafia 2, 7 and 11; Commissar 5."""


def tour_intro(t: Table, first: int) -> None:
    """Day 0 (introductions, drawn first speaker) and night 0."""
    t.draw_speaker(first)
    t.speeches()
    t.night0()


@scenario("tour12_leaders_tie_first", "Tournament, 12: two share the most nominations and both are leaders",
          ["B.table", "B.setup", "B.flow", "B.speech.order", "B.rounds", "B.leaders", "B.defence", "B.vote",
           "B.night", "B.lastword", "B.win"])
def tour12_leaders_tie_first() -> Table:
    t = Table("tournament", TOUR12)
    t.draw_speaker(4)
    t.speeches(order=[4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3])
    t.night0()
    t.draw_speaker(9)
    round1 = [9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8]
    t.speeches({9: 2, 10: 7, 12: 2, 1: 7, 3: 4}, order=round1 + round1)  # 2: 2, 7: 2, 4: 1
    t.defence([2, 7])
    t.leaders_vote({2: [1, 3, 4, 5, 6, 8, 9], 7: [2, 7, 10]})            # 11 and 12 abstain
    t.last_word(2)
    t.night(commissar=7, kill=5)
    t.last_word(5)
    t.draw_speaker(1)
    t.speeches({1: 7, 3: 7, 4: 11, 6: 7, 8: 11, 9: 4})                   # 7: 3, 11: 2, 4: 1
    t.defence([7, 11])
    t.leaders_vote({7: [1, 3, 4, 6, 8, 9, 10, 12], 11: [7, 11]})
    t.last_word(7)
    t.night(kill=1)                                                      # the Commissar is gone
    t.last_word(1)
    t.draw_speaker(6)
    t.speeches({6: 11, 9: 11, 12: 3})
    t.defence([11, 3])
    t.leaders_vote({11: [3, 4, 6, 8, 9, 10, 12], 3: [11]})
    t.over("red")
    return t


@scenario("tour13_leaders_tie_second",
          "Tournament, 13 with four mafia: one top nominee and a tie for second place; a single leader",
          ["B.leaders", "B.setup", "B.vote", "B.table"])
def tour13_leaders_tie_second() -> Table:
    t = Table("tournament", "mcKcc mccmc ccm")                           # mafia 1, 6, 9, 13; Commissar 3
    tour_intro(t, 7)
    t.draw_speaker(2)
    t.speeches({2: 6, 3: 9, 4: 6, 5: 10, 7: 6})                          # 6: 3, then 9 and 10: 1 each
    t.defence([6, 9, 10])
    t.leaders_vote({6: [2, 3, 4, 5, 7, 8, 11, 12], 9: [1, 13], 10: [6]})
    t.last_word(6)
    t.night(commissar=1, kill=4)
    t.last_word(4)
    t.draw_speaker(11)
    t.speeches({11: 1, 12: 1, 2: 1, 3: 1, 5: 13, 7: 9, 8: 9, 10: 13})   # 1: 4, then 13 and 9: 2 each
    t.defence([1, 13, 9])
    t.leaders_vote({1: [2, 3, 5, 7, 8, 10, 11, 12], 13: [9, 13], 9: [1]})
    t.last_word(1)
    t.night(commissar=9, kill=3)
    t.last_word(3)
    t.draw_speaker(8)
    t.speeches({8: 9, 10: 13, 11: 9, 12: 13, 2: 9, 5: 13, 7: 2})         # 9: 3, 13: 3 (2: 1 stays out)
    t.defence([9, 13])
    t.leaders_vote({9: [2, 5, 7, 8, 10], 13: [11, 12]})
    t.last_word(9)
    t.night(kill=2)
    t.last_word(2)
    t.draw_speaker(5)
    t.speeches({5: 13})                                                  # the only nominee
    t.defence([13])
    t.leaders_vote({13: [5, 7, 8, 10, 11]})                              # 5 of 7: more than half
    t.over("red")
    return t


@scenario("tour12_lot", "Tournament, 12: nobody nominated on days 1 and 3, the lot decides",
          ["B.lot", "B.lastword", "B.vote"])
def tour12_lot() -> Table:
    t = Table("tournament", TOUR12)
    tour_intro(t, 1)
    t.draw_speaker(3)
    t.speeches()
    t.lot(8)
    t.last_word(8)
    t.night(commissar=2, kill=5)
    t.last_word(5)
    t.draw_speaker(10)
    t.speeches({10: 2, 12: 2, 1: 2, 3: 7})
    t.defence([2, 7])
    t.leaders_vote({2: [1, 3, 4, 6, 9, 10, 12], 7: []})
    t.last_word(2)
    t.night(kill=1)
    t.last_word(1)
    t.draw_speaker(4)
    t.speeches()
    t.lot(11)
    t.last_word(11)
    t.night(kill=3)
    t.last_word(3)
    t.draw_speaker(7)
    t.speeches({9: 7, 10: 7})
    t.defence([7])
    t.leaders_vote({7: [4, 6, 9, 10, 12]})
    t.over("red")
    return t


@scenario("tour14_tie_all_out", "Tournament, 14, option zero_tie_nobody: a tie at zero sends nobody; a tie in "
          "the final vote sends both", ["B.tie", "B.leaders", "B.vote", "B.lastword"])
def tour14_tie_all_out() -> Table:
    rules = get_ruleset("tournament").variant("tournament-zero-nobody", zero_tie_nobody=True)
    t = Table(rules, "ccmcc ccmcK cmcc")                                 # mafia 3, 8, 12; Commissar 10
    tour_intro(t, 14)
    t.draw_speaker(1)
    t.speeches({1: 3, 2: 5, 4: 3, 6: 5, 7: 8})                           # 3: 2, 5: 2
    t.defence([3, 5])
    t.leaders_vote({3: [], 5: []})                                       # everyone abstains
    t.night(commissar=3, kill=13)
    t.last_word(13)
    t.draw_speaker(5)
    t.speeches({5: 3, 6: 8, 9: 3, 10: 8, 11: 1})                         # 3: 2, 8: 2
    t.defence([3, 8])
    t.leaders_vote({3: [1, 2, 4, 5, 6, 7], 8: [9, 10, 11, 12, 14, 3]})   # 6-6
    t.last_word(3)
    t.last_word(8)
    t.night(commissar=12, kill=10)
    t.last_word(10)
    t.draw_speaker(11)
    t.speeches({11: 12, 14: 12})
    t.defence([12])
    t.leaders_vote({12: [1, 2, 4, 5, 6, 7, 9, 11, 14]})
    t.over("red")
    return t


@scenario("tour15_mafia_win", "Tournament, 15 with four mafia: a final-vote tie, then mafia parity",
          ["B.table", "B.setup", "B.tie", "B.win", "B.leaders"])
def tour15_mafia_win() -> Table:
    t = Table("tournament", "cmccc mcKcm cccmc")                         # mafia 2, 6, 10, 14; Commissar 8
    tour_intro(t, 3)
    t.draw_speaker(5)
    t.speeches({5: 1, 6: 1, 7: 3, 9: 1, 10: 3, 11: 4})                   # 1: 3, 3: 2, 4: 1
    t.defence([1, 3])
    t.leaders_vote({1: [2, 3, 4, 5, 6, 7, 9, 10], 3: [1, 11, 12]})
    t.last_word(1)
    t.night(commissar=2, kill=8)
    t.last_word(8)
    t.draw_speaker(12)
    t.speeches({12: 2, 13: 2, 14: 13, 15: 3, 2: 13, 6: 13, 10: 2})      # 2: 3, 13: 3, 3: 1
    t.defence([2, 13])
    t.leaders_vote({2: [3, 12, 15], 13: [2, 4, 5, 6, 7, 10, 14]})
    t.last_word(13)
    t.night(kill=4)
    t.last_word(4)
    t.draw_speaker(7)
    t.speeches({7: 10, 9: 10, 10: 5, 11: 10, 14: 5, 2: 5})               # 10: 3, 5: 3
    t.defence([10, 5])
    t.leaders_vote({10: [7, 9, 11, 12], 5: [2, 6, 10, 14]})              # 4-4: both leave
    t.last_word(10)
    t.last_word(5)
    t.night(kill=3)
    t.last_word(3)
    t.draw_speaker(15)
    t.speeches({15: 14, 2: 9, 6: 9, 14: 9})                              # 9: 3, 14: 1
    t.defence([14, 9])
    t.leaders_vote({14: [7, 15], 9: [2, 6, 11, 12, 14]})
    t.last_word(9)
    t.night(kill=7)                                                      # 2, 6, 11, 12, 14, 15: 3 and 3
    t.over("black")
    return t


@scenario("tour16_sanctions", "Tournament, 16: a warning, then removal from the game; two mafia tied out",
          ["B.table", "B.setup", "B.sanctions", "B.tie", "B.leaders"])
def tour16_sanctions() -> Table:
    t = Table("tournament", "Kccmc cccmc ccmcc m")                       # mafia 4, 9, 13, 16; Commissar 1
    t.draw_speaker(16)
    t.speeches(until=3)
    t.do(Sanction(7, "gestures"))                                        # a warning
    t.speeches()
    t.night0()
    t.draw_speaker(8)
    t.speeches(until=10, until_round=0)
    t.do(Sanction(7, "gestures"))                                        # again: removal from the game
    t.speeches({8: 9, 9: 1, 10: 9, 12: 13, 14: 9, 1: 13})                # 9: 3, 13: 2, 1: 1
    t.defence([9, 13])
    t.leaders_vote({9: [1, 2, 3, 5, 6, 8, 10, 11, 12, 14], 13: [4, 15]})
    t.last_word(9)
    t.night(commissar=13, kill=1)
    t.last_word(1)
    t.draw_speaker(2)
    t.speeches({2: 13, 3: 13, 5: 16, 6: 13, 8: 16, 10: 4})               # 13: 3, 16: 2, 4: 1
    t.defence([13, 16])
    t.leaders_vote({13: [2, 3, 5, 6, 8, 10, 11, 12], 16: [4, 13, 14]})
    t.last_word(13)
    t.night(kill=2)
    t.last_word(2)
    t.draw_speaker(14)
    t.speeches({14: 16, 15: 4, 3: 16, 5: 4, 6: 16, 8: 4})                # 16: 3, 4: 3
    t.defence([16, 4])
    t.leaders_vote({16: [3, 6, 10, 11, 14], 4: [5, 8, 12, 15, 16]})      # 5-5: both leave
    t.over("red")
    return t


@scenario("tour12_single_leader_stays",
          "Tournament, 12, option single_leader_majority: removal from the round at night 0; a single leader "
          "without a majority stays", ["B.vote", "B.sanctions", "B.tie", "B.leaders"])
def tour12_single_leader_stays() -> Table:
    t = Table(get_ruleset("tournament").variant("tournament-half", single_leader_majority=True), TOUR12)
    t.draw_speaker(6)
    t.speeches()
    t.at("meet_commissar", day=0)
    t.do(Sanction(3, "eyes_open"))                                       # removal from the round
    t.night0()
    t.draw_speaker(12)
    t.speeches({12: 2})
    t.defence([2])
    t.leaders_vote({2: [1, 4, 5, 6, 8]})                                 # 5 of 11: not more than half
    t.night(commissar=11, kill=5)
    t.last_word(5)
    t.draw_speaker(1)
    t.speeches({1: 11, 4: 11, 6: 2, 8: 11})                              # 11: 3, 2: 1
    t.defence([11, 2])
    t.leaders_vote({11: [1, 4, 6, 8, 9, 10, 12], 2: []})
    t.last_word(11)
    t.night(kill=1)
    t.last_word(1)
    t.draw_speaker(9)
    t.speeches({9: 2, 10: 7, 12: 2, 4: 7})                               # 2: 2, 7: 2
    t.defence([2, 7])
    t.leaders_vote({2: [4, 6, 9, 12], 7: [2, 7, 8, 10]})                 # 4-4: both leave
    t.over("red")
    return t


@scenario("tour14_four_mafia_sanctions",
          "Tournament, 14 with four mafia: arguing (two warnings, then removal from the round) and rudeness "
          "(a warning, then removal from the tournament)",
          ["B.setup", "B.sanctions", "B.leaders", "B.vote"])
def tour14_four_mafia_sanctions() -> Table:
    t = Table("tournament", "cmccm cKcmc ccmc")                          # mafia 2, 5, 9, 13; Commissar 7
    t.draw_speaker(11)
    t.speeches(until=12)
    t.do(Sanction(4, "arguing"))                                         # warning
    t.speeches()
    t.night0()
    t.draw_speaker(6)
    t.speeches(until=8, until_round=0)
    t.do(Sanction(4, "arguing"))                                         # second warning
    t.speeches({6: 2, 8: 5, 10: 2, 12: 5, 14: 2, 1: 9})                  # 2: 3, 5: 2, 9: 1
    t.at("defence", 2)
    t.next()
    t.at("defence", 5)
    t.do(Sanction(4, "arguing"))                                         # third: removal from the round
    t.defence([5])
    t.leaders_vote({2: [1, 3, 6, 7, 8, 10, 11, 12, 14], 5: [2, 5, 9, 13]})
    t.last_word(2)
    t.night(commissar=5, kill=7)
    t.last_word(7)
    t.draw_speaker(3)
    t.speeches(until=6, until_round=0)
    t.do(Sanction(10, "rudeness"))                                       # warning
    t.speeches({3: 5, 5: 1, 6: 5, 8: 13, 11: 5, 12: 13})                 # 5: 3, 13: 2, 1: 1
    t.at("defence", 5)
    t.do(Sanction(10, "rudeness"))                                       # again: out of the tournament
    t.defence([5, 13])
    t.leaders_vote({5: [1, 3, 6, 8, 11, 12, 14], 13: [5, 9, 13]})
    t.last_word(5)
    t.night(kill=1)
    t.last_word(1)
    t.draw_speaker(12)
    t.speeches({12: 13, 14: 9, 3: 13, 6: 9, 8: 13})                      # 13: 3, 9: 2
    t.defence([13, 9])
    t.leaders_vote({13: [3, 6, 8, 11, 12, 14], 9: [9, 13]})
    t.last_word(13)
    t.night(kill=3)
    t.last_word(3)
    t.draw_speaker(9)
    t.speeches({11: 9})
    t.defence([9])
    t.leaders_vote({9: [6, 8, 11, 12, 14]})
    t.over("red")
    return t


# ------------------------------------------------------------------------------------------------------
def build(names: Iterable[str] | None = None) -> list[Path]:
    written = []
    for name in names or SCENARIOS:
        title, covers, fn = SCENARIOS[name]
        table = fn()
        record = to_record(table.game, meta={"title": title, "covers": covers})
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    paths = build(argv or None)
    stale = sorted(p.name for p in HERE.glob("*.json")
                   if p.name != EXPECTED and p.stem not in SCENARIOS)
    for p in paths:
        print(p.relative_to(HERE.parent.parent))
    if stale:
        print("records without a scenario (delete them?):", ", ".join(stale), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The judge: the award, the override, the team defeat, the protest vote after the game, and the best move
(A.award, A.judge, A.protest, F.team-defeat, F.bestmove)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ...rules import RuleSet
from .. import commands as C
from .. import events as E
from ..dispatch import Dispatch
from ..errors import RuleViolation
from ..state import BLACK_ROLES, Rng

# A.protest, A.judge: results the judge decided ("Решение судьи обжалованию не подлежит"): no protest.
JUDGED = frozenset({"override", "award", "team-defeat"})


def protest_open(rules: RuleSet, protest: object, winner: str | None, result: str) -> bool:
    """A.protest: once, after a game with a winner that the judge did not decide (A.judge)."""
    return rules.protest and protest is None and winner is not None and result not in JUDGED


def protest_passes(voters: Iterable[int], seats: Iterable[int], team: Callable[[int], str], winner: str) -> bool:
    """A.protest: the whole losing team (players who left included) and at least one winner voted for it."""
    voting = set(voters)
    losers = [s for s in seats if team(s) != winner]
    return all(s in voting for s in losers) and any(team(s) == winner for s in voting)


def best_move_due(rules: RuleSet, named: object, step: str, day: int, seat: int,
                  night_kills: Mapping[int, int], departures: Sequence[tuple[int, str, int, bool]]) -> bool:
    """F.bestmove: the player shot on the first night names his best move during his last word, once; not
    when two or more players left on day 1."""
    if not rules.best_move or named is not None or step != "last_word":
        return False
    if day != 2 or night_kills.get(1, 0) != seat:
        return False
    day1_out = sum(1 for _, _, d, nt in departures if d == 1 and not nt)
    return day1_out < 2


BEST_MOVE_GUESSES = 3
"""F.bestmove: the most players a best move names (the console lets the host pick as many)."""


def valid_best_move(guesses: Sequence[object], seat: int, n: int) -> bool:
    """F.bestmove: one to :data:`BEST_MOVE_GUESSES` other players, each named once."""
    return 1 <= len(guesses) <= BEST_MOVE_GUESSES and len(set(guesses)) == len(guesses) and not any(
        isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= n or x == seat for x in guesses
    )


class JudgeRules(Dispatch):
    def _need_reason(self, reason: str) -> None:
        if not isinstance(reason, str) or not reason.strip():
            raise RuleViolation("reason-required")

    def _need_team(self, team: str | None, allow_none: bool = False) -> None:
        if team is None and allow_none:
            return
        if team not in ("red", "black"):
            raise RuleViolation("bad-team")

    def _x_award(self, cmd: C.Award, rng: Rng | None) -> None:
        self._need_live_game()
        if not self.rules.award:
            raise RuleViolation("no-award")
        self._need_team(cmd.winner)
        self._need_reason(cmd.reason)
        self._emit(E.Awarded(cmd.winner, cmd.reason))
        self._emit(E.GameEnded(cmd.winner, "award"))

    def _x_team_defeat(self, cmd: C.TeamDefeat, rng: Rng | None) -> None:
        self._need_live_game()
        if not self.rules.team_defeat:
            raise RuleViolation("no-team-defeat")
        self._need_team(cmd.team)
        self._need_reason(cmd.reason)
        self._emit(E.TeamDefeated(cmd.team, cmd.reason))
        self._emit(E.GameEnded("black" if cmd.team == "red" else "red", "team-defeat"))

    def _x_override(self, cmd: C.Override, rng: Rng | None) -> None:
        if self.step == "deal":
            raise RuleViolation("not-dealt")
        self._need_team(cmd.winner, allow_none=True)
        self._need_reason(cmd.reason)
        self._emit(E.Overridden(cmd.winner, cmd.reason))
        self._emit(E.GameEnded(cmd.winner, "override"))

    def _x_protest(self, cmd: C.Protest, rng: Rng | None) -> None:
        if not self.rules.protest:
            raise RuleViolation("no-protest")
        if not self.over:
            raise RuleViolation("protest-during-game")
        if self.protest is not None:
            raise RuleViolation("protest-twice")
        if self.winner is None:
            raise RuleViolation("protest-no-winner")
        if self.result in JUDGED:  # A.protest, A.judge: the judge's decision cannot be appealed
            raise RuleViolation("protest-judge", clause="A.protest" if self.result != "override" else None)
        if cmd.outcome not in ("annul", "reverse"):
            raise RuleViolation("bad-team", clause="A.protest")
        for s in cmd.voters:
            self._need_seat(s)
        voters = tuple(sorted(set(cmd.voters)))
        passed = protest_passes(voters, self._seats, self.team, self.winner)
        rule = cmd.rule.strip() if isinstance(cmd.rule, str) else ""
        self._emit(E.ProtestVoted(cmd.outcome, voters, passed, rule))
        if passed:
            if cmd.outcome == "annul":
                self._emit(E.GameEnded(None, "protest-annul"))
            else:
                self._emit(E.GameEnded("black" if self.winner == "red" else "red", "protest-reverse"))

    def _x_best_move(self, cmd: C.BestMove, rng: Rng | None) -> None:
        self._need_live_game()
        if not self._best_move_open() or cmd.seat != self.seat:
            raise RuleViolation("no-best-move")
        g = cmd.guesses
        if not valid_best_move(g, cmd.seat, self.n):
            raise RuleViolation("bad-best-move")
        black = sum(1 for x in g if self.roles[x] in BLACK_ROLES)
        self._emit(E.BestMoveNamed(cmd.seat, tuple(g), black))

    def _best_move_open(self) -> bool:
        return best_move_due(self.rules, self.best_move, self.step, self.day, self.seat, self.night_kills,
                             self.departures)

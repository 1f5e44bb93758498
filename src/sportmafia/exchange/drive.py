"""Building a game from another platform's facts: a :class:`Script` (who nominated, voted, shot, checked,
was fouled, each with where it stands in the game and where it came from in the source) is played through the
engine command by command (:func:`play`). The engine decides every consequence; a command it refuses, a fact
the rules never reach, or a result that differs from the source's refuses the game (:class:`ImportRefused`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import (
    Advance,
    BestMove,
    Check,
    Command,
    DealCards,
    Foul,
    Game,
    LiftVote,
    Nominate,
    Remove,
    RuleViolation,
    Shoot,
    Vote,
)
from ..engine import events as E
from ..i18n import Text, msg
from ..rules import RuleSet
from .model import ImportRefused, outcome_of

END = 10**6
"""A day number past every game: a fact that stands "at the end"."""

VOTE_KINDS = ("vote", "revote")


@dataclass(frozen=True)
class Pos:
    """Where in a game something happened. ``part`` orders a day and the night after it: 0 the morning last
    word, 1 the speeches, 2 the vote (tie speeches, rounds, the lift question), 3 the evening last word, 4 the
    shots, 5 the Don's check, 6 the Sheriff's check (night 0's meetings are day 0, part 4). ``seat``: the
    speaker (part 1) or the candidate voted on (part 2); ``round``: the vote round, from 0; ``tie``: a tie
    speech before round ``round``; ``lift``: the lift question."""

    day: int
    part: int
    seat: int = 0
    round: int = 0
    tie: bool = False
    lift: bool = False


def rounds_closed(game: Game) -> int:
    return sum(1 for r in game.vote_results if r[0] in VOTE_KINDS)


def pos_of(game: Game) -> Pos:
    """Where the game stands now."""
    step, day = game.step, game.day
    if game.over:
        return Pos(END, 0)
    if step == "deal":
        return Pos(-1, 0)
    if step.startswith("meet_"):
        return Pos(0, 4)
    if step in ("speech", "muted"):
        return Pos(day, 1, game.seat)
    if step == "voting":
        return Pos(day, 2, game.seat, rounds_closed(game))
    if step == "tie_speech":
        return Pos(day, 2, game.seat, rounds_closed(game), tie=True)
    if step == "lift":
        return Pos(day, 2, 0, rounds_closed(game), lift=True)
    if step == "last_word":
        how = game.left.get(game.seat, ("", 0, False))[0]
        return Pos(day, 0 if how == "kill" else 3, game.seat)
    return Pos(day, {"shooting": 4, "kill": 4, "check_don": 5}.get(step, 6))


def _sub(p: Pos, game: Game) -> tuple[int, int]:
    """The order of ``p`` inside its part, as the game stands on that day."""
    if p.part == 1:
        return ((p.seat - game.opener) % game.n, 0) if game.opener else (p.seat, 0)
    if p.part == 2:
        if p.lift:
            return (END, 0)
        if p.tie:
            return (2 * p.round, 0)
        order = list(game.vote_candidates)
        return (2 * p.round + 1, order.index(p.seat) if p.seat in order else 0)
    return (0, 0)


def compare(a: Pos, b: Pos, game: Game) -> int:
    """-1, 0 or 1 as ``a`` stands before, with or after ``b`` (inside a day, in the order of that day)."""
    ka = (a.day, a.part, *_sub(a, game))
    kb = (b.day, b.part, *_sub(b, game))
    return (ka > kb) - (ka < kb)


@dataclass
class Fact:
    """One fact of the source: the command it is, where it stands, and where it came from (``where``)."""

    cmd: Command
    where: str
    pos: Pos
    done: bool = False
    optional: bool = False
    """A fact the rules may not ask for (a guess of a player who was not the first-night victim): kept if the
    engine asks for it, else listed as left out."""


@dataclass
class Script:
    """The facts of one game, ready to play: the deal, then facts by kind."""

    game_id: str
    ruleset: RuleSet
    names: tuple[str, ...]
    roles: tuple[str, ...]
    nominations: list[Fact] = field(default_factory=list)
    votes: list[Fact] = field(default_factory=list)
    lifts: list[Fact] = field(default_factory=list)
    shots: list[Fact] = field(default_factory=list)
    checks: list[Fact] = field(default_factory=list)
    best_moves: list[Fact] = field(default_factory=list)
    discipline: list[Fact] = field(default_factory=list)
    stop: Pos | None = None
    """Where an unfinished game stops (None: it is played to its end)."""
    winner: str | None = None
    finished: bool = True
    left_out: list[str] = field(default_factory=list)

    def facts(self) -> list[Fact]:
        return [*self.nominations, *self.votes, *self.lifts, *self.shots, *self.checks, *self.best_moves,
                *self.discipline]


def _refuse(script: Script, fact: Fact | None, clause: str, reason: Text) -> ImportRefused:
    return ImportRefused(script.game_id, fact.where if fact else "game", clause, reason)


def _overdue(f: Fact, at: Pos, game: Game) -> bool:
    """Whether the game has passed the moment ``f`` belongs to."""
    p = f.pos
    if isinstance(f.cmd, Vote):
        return at.day > p.day or (at.day == p.day and (at.part > 2 or rounds_closed(game) > p.round))
    if isinstance(f.cmd, Nominate):
        return at.day > p.day or (at.day == p.day and at.part > 1)
    if isinstance(f.cmd, (Foul, Remove)):
        return False
    return compare(at, p, game) > 0


class Player:
    """Plays a :class:`Script` through a new :class:`Game`."""

    def __init__(self, script: Script) -> None:
        self.s = script
        self.game = Game(script.ruleset, len(script.names), script.names)

    def run(self) -> Game:
        s, g = self.s, self.game
        self._do(DealCards(roles=s.roles), Fact(DealCards(roles=s.roles), "players", Pos(-1, 0)))
        for _ in range(20000):
            if g.over:
                break
            at = pos_of(g)
            self._discipline(at)
            if g.over:
                break
            at = pos_of(g)
            self._check_overdue(at)
            fact = self._next_fact(at)
            if s.stop is not None and (compare(at, s.stop, g) > 0 or (compare(at, s.stop, g) == 0 and fact is None)):
                break
            if fact is not None:
                self._do(fact.cmd, fact)
            else:
                self._do(Advance(), None)
        self._finish()
        return g

    # ---------------------------------------------------------------------------------------------------------
    def _do(self, cmd: Command, fact: Fact | None) -> list[E.Event]:
        rnd = rounds_closed(self.game)
        try:
            produced = self.game.execute(cmd)
        except RuleViolation as exc:
            raise _refuse(self.s, fact, exc.clause, exc.text) from None
        if fact is not None:
            fact.done = True
        self._consumed_by(produced, rnd)
        return produced

    def _consumed_by(self, produced: list[E.Event], rnd: int) -> None:
        """Votes for the last candidate are the default votes (A.vote.default): the source's hands for him are
        the engine's defaults."""
        for ev in produced:
            if isinstance(ev, E.DefaultVotes):
                day = self.game.day
                for f in self.s.votes:
                    c = f.cmd
                    assert isinstance(c, Vote)
                    if (not f.done and f.pos.day == day and f.pos.round == rnd and c.candidate == ev.candidate
                            and c.voter in ev.voters):
                        f.done = True

    def _discipline(self, at: Pos) -> None:
        g = self.game
        for f in self.s.discipline:
            if f.done or compare(f.pos, at, g) > 0:
                continue
            cmd = f.cmd
            if isinstance(cmd, Remove) and cmd.seat in g.removed:
                f.done = True  # the fourth foul already removed him
                continue
            self._do(cmd, f)
            if g.over:
                return

    def _check_overdue(self, at: Pos) -> None:
        g = self.game
        for f in self.s.facts():
            if not f.done and not f.optional and _overdue(f, at, g):
                self._refuse_overdue(f)

    def _refuse_overdue(self, f: Fact) -> None:
        """A fact whose moment the game has passed: the engine's refusal of it now, or the rule that skipped
        its moment."""
        try:
            self.game.execute(f.cmd)
        except RuleViolation as exc:
            raise _refuse(self.s, f, exc.clause, exc.text) from None
        raise _refuse(self.s, f, _clause_for(f.cmd),
                      msg("The rules never reach this moment of the game, so this cannot have happened."))

    def _next_fact(self, at: Pos) -> Fact | None:
        g, s = self.game, self.s
        step = g.step
        pool: list[Fact] = []
        if step in ("speech", "muted"):
            pool = [f for f in s.nominations if isinstance(f.cmd, Nominate) and f.cmd.by == g.seat]
        elif step == "voting":
            self._check_ballot(at)
            pool = [f for f in s.votes if f.pos.round == at.round and isinstance(f.cmd, Vote)
                    and f.cmd.candidate == g.seat]
        elif step == "lift":
            pool = s.lifts
        elif step == "shooting":
            pool = s.shots
        elif step.startswith("check_"):
            pool = [f for f in s.checks if f.pos.part == at.part]
        elif step == "last_word":
            pool = [f for f in s.best_moves if isinstance(f.cmd, BestMove) and f.cmd.seat == g.seat]
        for f in pool:
            if not f.done and f.pos.day == at.day:
                return f
        return None

    def _check_ballot(self, at: Pos) -> None:
        """At a round's first candidate: every hand of the source goes to a candidate of this vote, once."""
        g = self.game
        if not g.vote_candidates or g.seat != g.vote_candidates[0]:
            return
        seen: set[int] = set()
        for f in self.s.votes:
            c = f.cmd
            assert isinstance(c, Vote)
            if f.done or f.pos.day != at.day or f.pos.round != at.round:
                continue
            if c.candidate not in g.vote_candidates:
                self._refuse_overdue(f)
            if c.voter in seen:
                raise _refuse(self.s, f, "A.vote.one", RuleViolation("already-voted", seat=c.voter).text)
            seen.add(c.voter)

    def _finish(self) -> None:
        g, s = self.game, self.s
        left = [f for f in s.facts() if not f.done]
        late = [f for f in left if isinstance(f.cmd, (Foul, Remove)) and (g.over or s.stop is not None)]
        for f in late:
            s.left_out.append(f"{f.where}: after the end")
            f.done = True
        for f in left:
            if f.optional:
                s.left_out.append(f"{f.where}: not asked by the rules")
                f.done = True
        for f in s.facts():
            if not f.done:
                self._refuse_overdue(f)
        if s.finished and not g.over:
            raise _refuse(s, None, "A.win", msg("The source says the game ended, but by the rules it goes on."))
        if s.finished and g.winner != s.winner:
            raise _refuse(s, None, "A.win", msg(
                "By the rules the game ends: %(rules)s; the source says: %(source)s.",
                rules=msg(outcome_of(g.winner)), source=msg(outcome_of(s.winner))))


def _clause_for(cmd: Command) -> str:
    return {Nominate: "A.nom.own", Vote: "A.vote.result", LiftVote: "A.tie.lift", Shoot: "A.night.shoot",
            Check: "A.night.checks", BestMove: "F.bestmove"}.get(type(cmd), "A.judge")


def play(script: Script) -> Game:
    """The game the script's facts make, checked by the engine at every command."""
    return Player(script).run()

"""The facts of one finished game: what it says about each seat (role, team, result, fouls, how and when the
seat left, checks, votes, nominations, the best move), read from the engine's after-the-game view and from
its log (the events in effect: undone actions and their consequences left out, :func:`engine.in_effect`).

Facts are a derived index: they can always be rebuilt from the game's record. A result-only record (a game
imported without its events) gives facts with ``detail`` false: roles, the winner, fouls and departures only.
See docs/seasons.md, "Facts of a game".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine import NIGHT_STEPS, Game, in_effect, team_of, view
from ..engine import events as E

VERSION = 1
"""The version of the facts' JSON form (``to_json``); ``from_json`` refuses any other."""

Vote = tuple[int, int, bool]
"""(day, seat, that seat is black): a vote cast or a nomination made on that day."""
Check = tuple[int, int, bool]
"""(night, target seat, found): a Sheriff's (found = black) or a Don's (found = the Sheriff) check."""
Lift = tuple[int, tuple[int, ...]]
"""(day, the tied seats): a "yes" to lifting every tied player on that day."""


@dataclass(frozen=True)
class SeatFacts:
    """What one finished game says about one seat."""

    seat: int
    name: str
    role: str
    """The engine's role: civilian, sheriff, commissar, mafia or don."""
    team: str
    """red or black."""
    won: bool | None
    """None when the game has no winner (a draw, an annulled game)."""
    fouls: int
    removed: bool
    """Removed by the host or judge, or expelled by fouls or a sanction."""
    left: str | None
    """How the seat left the table (vote, lift, kill, lot, removal), None if it stayed to the end."""
    left_day: int | None
    """The day of that departure, or the night's number for a departure at night (night N follows day N)."""
    left_night: bool
    first_killed: bool
    """Killed on night 1 (the first killed)."""
    guess: tuple[int, ...] = ()
    """The seats this seat named in his best move (empty if none)."""
    guess_black: int | None = None
    """How many of them were black (None without a best move)."""
    checks: tuple[Check, ...] = ()
    votes: tuple[Vote, ...] = ()
    """Each vote of this seat in a counted ballot of a day (vote, revote, leaders; default votes included)."""
    nominations: tuple[Vote, ...] = ()
    """Each nomination this seat made that stood (withdrawn ones left out)."""
    lifts: tuple[Lift, ...] = ()
    """Each "yes" of this seat to lifting the tied players (not in ``votes``)."""

    @property
    def black(self) -> bool:
        return self.team == "black"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "role": self.role, "won": self.won, "fouls": self.fouls,
                "removed": self.removed, "left": self.left, "left_day": self.left_day,
                "left_night": self.left_night, "first_killed": self.first_killed, "guess": list(self.guess),
                "guess_black": self.guess_black, "checks": [list(c) for c in self.checks],
                "votes": [list(v) for v in self.votes], "nominations": [list(v) for v in self.nominations],
                "lifts": [[d, list(s)] for d, s in self.lifts]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatFacts:
        return cls(seat=int(data["seat"]), name=str(data["name"]), role=str(data["role"]),
                   team=team_of(str(data["role"])), won=_opt_bool(data["won"]), fouls=int(data["fouls"]),
                   removed=bool(data["removed"]), left=data["left"], left_day=data["left_day"],
                   left_night=bool(data["left_night"]), first_killed=bool(data["first_killed"]),
                   guess=tuple(int(s) for s in data.get("guess", ())), guess_black=data.get("guess_black"),
                   checks=_triples(data.get("checks", ())), votes=_triples(data.get("votes", ())),
                   nominations=_triples(data.get("nominations", ())),
                   lifts=tuple((int(d), tuple(int(s) for s in seats)) for d, seats in data.get("lifts", ())))


@dataclass(frozen=True)
class GameFacts:
    """What one finished game says: the table, the result and every seat's facts (seat 1 first)."""

    players: int
    ruleset: str
    winner: str | None
    """red, black or None (a draw, an annulled game)."""
    result: str
    """The engine's result code (black-gone, parity, misses, team-defeat, ...)."""
    days: int
    """The last day played (day 0, the introductions, not counted)."""
    nights: int
    """The last night played (night 0, the meetings, not counted)."""
    detail: bool
    """True: read from a full log; False: a result-only record (no votes, checks, nominations nor best move)."""
    seats: tuple[SeatFacts, ...]

    def seat(self, seat: int) -> SeatFacts:
        return self.seats[seat - 1]

    @property
    def first_killed(self) -> int:
        """The seat killed on night 1, 0 if none."""
        return next((s.seat for s in self.seats if s.first_killed), 0)

    def to_json(self) -> dict[str, Any]:
        """The stable JSON form (``version`` 1); a seat's team is not stored (its role gives it)."""
        return {"version": VERSION, "players": self.players, "ruleset": self.ruleset, "winner": self.winner,
                "result": self.result, "days": self.days, "nights": self.nights, "detail": self.detail,
                "seats": [s.to_json() for s in self.seats]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameFacts:
        if data.get("version") != VERSION:
            raise ValueError(f"facts of version {data.get('version')!r}, not {VERSION}")
        seats = tuple(SeatFacts.from_json(s) for s in data["seats"])
        if len(seats) != data["players"] or [s.seat for s in seats] != list(range(1, len(seats) + 1)):
            raise ValueError("the facts' seats are not seats 1..players in order")
        return cls(players=int(data["players"]), ruleset=str(data["ruleset"]), winner=data["winner"],
                   result=str(data["result"]), days=int(data["days"]), nights=int(data["nights"]),
                   detail=bool(data["detail"]), seats=seats)


def _opt_bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _triples(items: Any) -> tuple[tuple[int, int, bool], ...]:
    return tuple((int(a), int(b), bool(c)) for a, b, c in items)


def _won(team: str, winner: str | None) -> bool | None:
    return None if winner is None else team == winner


class _Reader:
    """One pass over the events in effect: each seat's votes, lift votes and nominations that stood, and the
    last day and night played."""

    def __init__(self, game: Game, black: Sequence[bool]) -> None:
        n = game.n
        self.black = black
        self.votes: list[list[Vote]] = [[] for _ in range(n + 1)]
        self.lifts: list[list[Lift]] = [[] for _ in range(n + 1)]
        self.noms: list[list[Vote]] = [[] for _ in range(n + 1)]
        self.days = self.nights = 0
        day = 0
        night = False
        ballot: list[tuple[int, int]] = []  # the current ballot's (voter, candidate), kept once it is counted
        lift_ballot: list[int] = []
        tied: tuple[int, ...] = ()
        for _, ev in in_effect(game.log):
            if isinstance(ev, E.Step):
                if ev.day != day or (ev.step in NIGHT_STEPS) != night:
                    ballot, lift_ballot = [], []
                day, night = ev.day, ev.step in NIGHT_STEPS
                if night:
                    self.nights = max(self.nights, day)
                else:
                    self.days = max(self.days, day)
            elif isinstance(ev, E.VotingStarted):
                ballot, lift_ballot, tied = [], [], ev.candidates
            elif isinstance(ev, E.VoteCast):
                ballot.append((ev.voter, ev.candidate))
            elif isinstance(ev, E.DefaultVotes):
                ballot.extend((v, ev.candidate) for v in ev.voters)
            elif isinstance(ev, E.LiftVoteCast):
                lift_ballot.append(ev.voter)
            elif isinstance(ev, E.VoteCancelled):
                if ev.day == day:
                    ballot, lift_ballot = [], []
            elif isinstance(ev, E.VoteResult):
                if ev.outcome != "cancelled":
                    self._count(day, ev.kind, ballot, lift_ballot, tied)
                ballot, lift_ballot = [], []
            elif isinstance(ev, E.Nominated):
                self.noms[ev.by].append((day, ev.target, black[ev.target]))
            elif isinstance(ev, E.Withdrawn):
                self.noms[ev.by].remove((day, ev.target, black[ev.target]))

    def _count(self, day: int, kind: str, ballot: list[tuple[int, int]], lift_ballot: list[int],
               tied: tuple[int, ...]) -> None:
        if kind == "lift":
            for voter in lift_ballot:
                self.lifts[voter].append((day, tied))
            return
        for voter, candidate in ballot:
            self.votes[voter].append((day, candidate, self.black[candidate]))


def game_facts(game: Game) -> GameFacts:
    """The facts of a finished engine game (``ValueError`` for a game that is not over)."""
    if not game.over:
        raise ValueError("the game is not over")
    after = view(game, "after")
    seats = after["seats"]
    black = [False] + [team_of(s["role"]) == "black" for s in seats]
    reader = _Reader(game, black)
    checks: dict[int, list[Check]] = {}
    for c in after["checks"]:
        checks.setdefault(c["checker"], []).append((c["night"], c["target"], c["found"]))
    first = int(after["night_kills"].get("1", 0))
    best = after["best_move"]
    winner = after["winner"]
    out = []
    for s in seats:
        seat, role = s["seat"], s["role"]
        left = s["left"]
        guessed = best is not None and best["seat"] == seat
        out.append(SeatFacts(
            seat=seat, name=s["name"], role=role, team=team_of(role), won=_won(team_of(role), winner),
            fouls=s["fouls"], removed=bool(s["removed"]), left=left["how"] if left else None,
            left_day=left["day"] if left else None, left_night=bool(left) and left["phase"] == "night",
            first_killed=seat == first, guess=tuple(best["guesses"]) if guessed else (),
            guess_black=best["black"] if guessed else None, checks=tuple(checks.get(seat, ())),
            votes=tuple(reader.votes[seat]), nominations=tuple(reader.noms[seat]),
            lifts=tuple(reader.lifts[seat])))
    return GameFacts(players=after["players"], ruleset=after["ruleset"], winner=winner, result=after["result"],
                     days=reader.days, nights=reader.nights, detail=True, seats=tuple(out))


def result_only_facts(ruleset: str, names: Sequence[str], roles: Sequence[str], winner: str | None, result: str,
                      fouls: Sequence[int], left: Sequence[tuple[str, int, bool] | None], *, days: int = 0,
                      nights: int = 0) -> GameFacts:
    """The facts of a result-only record (``detail`` false): per seat (seat 1 first) its name, role, fouls and
    departure ``(how, day, at night)``; the first killed is the seat killed on night 1. ``days``, ``nights``:
    as far as the record tells (0 when unknown)."""
    n = len(names)
    if not (len(roles) == len(fouls) == len(left) == n):
        raise ValueError("names, roles, fouls and departures must have one entry per seat")
    if winner not in ("red", "black", None):
        raise ValueError(f"the winner is red, black or None, not {winner!r}")
    seats = []
    for i in range(n):
        team = team_of(roles[i])
        how = left[i]
        seats.append(SeatFacts(
            seat=i + 1, name=names[i], role=roles[i], team=team, won=_won(team, winner), fouls=fouls[i],
            removed=how is not None and how[0] == "removal", left=how[0] if how else None,
            left_day=how[1] if how else None, left_night=bool(how and how[2]),
            first_killed=how is not None and how[0] == "kill" and how[1] == 1 and how[2]))
    return GameFacts(players=n, ruleset=ruleset, winner=winner, result=result, days=days, nights=nights,
                     detail=False, seats=tuple(seats))


def corrected(facts: GameFacts, changes: Sequence[Mapping[str, Any]]) -> GameFacts:
    """The facts as a judge's corrections of the result sheet leave them (B.sheet): ``changes`` are the
    corrections' changes in order, ``{"field", "seat", "new"}`` each (``tournament.results.check_changes``):
    the winner and result, a seat's role (his team follows), fouls and removal, the first killed and how many
    black his best move found. Each seat's ``won`` follows the winner and his team. Warnings and the removal's
    reason are not facts of the statistics."""
    top = {"winner": facts.winner, "result": facts.result}
    seats = {s.seat: s for s in facts.seats}
    first_killed, best_black = facts.first_killed, None
    for change in changes:
        field, seat, new = change["field"], change.get("seat"), change["new"]
        if field in top:
            top[field] = new
        elif field == "first_killed":
            first_killed = int(new)
        elif field == "best_move_black":
            best_black = new
        elif seat in seats and field == "role":
            seats[seat] = replace(seats[seat], role=str(new), team=team_of(str(new)))
        elif seat in seats and field == "fouls":
            seats[seat] = replace(seats[seat], fouls=int(new))
        elif seat in seats and field == "removed":
            seats[seat] = replace(seats[seat], removed=new is not None and new is not False)
    winner = top["winner"]
    roles_changed = any(seats[s.seat].role != s.role for s in facts.seats)
    black = {n: s.team == "black" for n, s in seats.items()}
    out = []
    for s in sorted(seats.values(), key=lambda s: s.seat):
        s = replace(s, won=_won(s.team, winner), first_killed=s.seat == first_killed)
        if roles_changed:  # what a vote, a nomination, a check or a best move found follows the roles corrected
            sheriffs = {n for n, x in seats.items() if x.role in ("sheriff", "commissar")}
            s = replace(s, votes=tuple((d, c, black.get(c, False)) for d, c, _ in s.votes),
                        nominations=tuple((d, c, black.get(c, False)) for d, c, _ in s.nominations),
                        checks=tuple((n, t, t in sheriffs if s.role == "don" else black.get(t, False))
                                     for n, t, _ in s.checks),
                        guess_black=None if s.guess_black is None else sum(black.get(g, False) for g in s.guess))
        if best_black is not None and s.seat == first_killed:
            s = replace(s, guess_black=int(best_black))
        out.append(s)
    return replace(facts, winner=winner, result=str(top["result"]), seats=tuple(out))

"""The engine's process-wide caches, in one place.

Commands and events are immutable values, and the same ones recur in every game: the commands and events of
a table size, the Step events, the best-move lists and the legal-command lists are made once and shared by
all games. The legal-command lists are keyed by what they depend on and bounded (cleared when full).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from . import commands as C
from . import events as E

CACHE_LIMIT = 200_000
"""The most entries a legal-command cache holds before it is cleared."""


class Tables:
    """The commands and events of a table of ``n`` seats, indexed by seat (0 unused)."""

    def __init__(self, n: int) -> None:
        seats = range(n + 1)
        self.nominate = [[C.Nominate(b, t) for t in seats] for b in seats]
        self.withdraw = [[C.Withdraw(b, t) for t in seats] for b in seats]
        self.vote = [[C.Vote(v, c) for c in seats] for v in seats]
        self.lift = [C.LiftVote(v) for v in seats]
        self.shoot = [[C.Shoot(s, t) for t in seats] for s in seats]
        self.check = [[C.Check(s, t) for t in seats] for s in seats]
        self.kill = [C.Kill(t) for t in seats]
        self.volley = [C.Volley(t) for t in seats]
        self.foul = [C.Foul(s) for s in seats]
        self.tech = [C.Foul(s, technical=True) for s in seats]
        self.remove = [C.Remove(s) for s in seats]
        self.ev_nominated = [[E.Nominated(b, t) for t in seats] for b in seats]
        self.ev_vote = [[E.VoteCast(v, c) for c in seats] for v in seats]
        self.ev_shot = [[E.ShotFired(s, t) for t in seats] for s in seats]


_TABLES: dict[int, Tables] = {}


def tables_for(n: int) -> Tables:
    tables = _TABLES.get(n)
    if tables is None:
        tables = _TABLES[n] = Tables(n)
    return tables


# Legal-command lists shared by all games, keyed by what they depend on (engine/rules/legal.py).
SPEECH_LEGAL: dict[tuple[Any, ...], list[C.Command]] = {}
VOTE_LEGAL: dict[tuple[int, int, int], list[C.Command]] = {}
KEYED_LEGAL: dict[tuple[Any, ...], list[C.Command]] = {}
"""The other steps' lists (the night's shots, kill and checks, the lift question, the best moves), each keyed by
its step and what it depends on."""

_STEPS: dict[tuple[str, int, int, int, int], E.Step] = {}


def step(step: str, day: int, seat: int = 0, rnd: int = 0, seconds: int = 0) -> E.Step:
    """A Step event (shared: events are immutable, and the same steps recur in every game)."""
    key = (step, day, seat, rnd, seconds)
    ev = _STEPS.get(key)
    if ev is None:
        ev = _STEPS[key] = E.Step(step, day, seat, rnd, seconds)
    return ev


ADVANCE = C.Advance()
ADVANCE_ONLY: list[C.Command] = [ADVANCE]
"""The commands of a step where the host's "Next" is all there is (shared: do not change it)."""
ADVANCED = E.Advanced()
UNDO = C.Undo()
OVERRIDES: list[C.Command] = [C.Override("red"), C.Override("black"), C.Override(None)]
_BEST_MOVES: dict[tuple[int, int], list[C.Command]] = {}


def best_moves(n: int, seat: int) -> list[C.Command]:
    """Every best move ``seat`` may name at a table of ``n`` (F.bestmove: one to three other players)."""
    key = (n, seat)
    if key not in _BEST_MOVES:
        others = [s for s in range(1, n + 1) if s != seat]
        _BEST_MOVES[key] = [C.BestMove(seat, combo) for k in (1, 2, 3) for combo in combinations(others, k)]
    return _BEST_MOVES[key]

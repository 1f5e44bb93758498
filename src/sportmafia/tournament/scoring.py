"""Scoring systems (T.score) as data a judge edits, and the points of one game.

A :class:`ScoringSystem` is a frozen dataclass of numbers; ``to_json``/``from_json`` store it with the
tournament's settings. Three starting points:

* :data:`REGULATION`: the tournament regulation (seed B): each player of the winning team 1 point, times
  1.2 in a game of more than 14 players.
* :data:`FIIM`: win 1; best move of the first-night victim 0.25 for two black named, 0.4 for three;
  -0.5 for a removal or four fouls; -0.7 for each player of a team defeated by the judge. Compensation Ci
  is a parameter, off (0) by default.
* :func:`custom`: points by role and outcome.

See docs/tournament.md for every number.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..i18n import msg
from .groups import TournamentError
from .results import GameResult

OUTCOMES = ("win", "loss", "draw")


@dataclass(frozen=True)
class ScoringSystem:
    """The numbers of a scoring system (all editable; a judge may save a variant with :meth:`variant`)."""

    name: str
    win: float = 1.0
    """Points for each player of the winning team."""
    loss: float = 0.0
    draw: float = 0.0
    """Points for each player when the game has no winner (draw or annulled)."""
    role_points: tuple[tuple[str, str, float], ...] = ()
    """(role, outcome, points): replaces ``win``/``loss``/``draw`` for that role and outcome."""
    large_table: int = 14
    large_multiplier: float = 1.0
    """The outcome points are multiplied by this in a game of MORE than ``large_table`` players."""
    best_move: tuple[tuple[int, float], ...] = ()
    """(black players named, points) for the first-night victim's best move."""
    removal_penalty: float = 0.0
    """Added (negative) once for a removal from the game or four fouls."""
    foul_limit: int = 4
    team_defeat_penalty: float = 0.0
    """Added (negative) to each player of a team defeated by the judge (result ``team-defeat``)."""
    compensation: float = 0.0
    """Ci: points to the first-night victim when he is red (0 = off). Ci = compensation × (his first-night
    kills as red), summed over the tournament; the FIIM formula is not pinned down here, so it is off by
    default and a judge sets the factor (for example 0.4)."""
    compensation_only_on_loss: bool = False
    """Ci only when the red team lost that game."""

    def variant(self, name: str, **changes: Any) -> ScoringSystem:
        return dataclasses.replace(self, name=name, **changes)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["role_points"] = [list(x) for x in self.role_points]
        data["best_move"] = [list(x) for x in self.best_move]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScoringSystem:
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - fields
        if unknown:
            raise TournamentError("T.score", msg("unknown scoring settings %(keys)s", keys=str(sorted(unknown))))
        kwargs = dict(data)
        kwargs["role_points"] = tuple((str(r), str(o), float(p)) for r, o, p in data.get("role_points", ()))
        kwargs["best_move"] = tuple((int(k), float(p)) for k, p in data.get("best_move", ()))
        system = cls(**kwargs)
        for _, outcome, _ in system.role_points:
            if outcome not in OUTCOMES:
                raise TournamentError("T.score", msg("unknown outcome %(outcome)s", outcome=repr(outcome)))
        return system

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)


REGULATION = ScoringSystem(name="regulation", win=1.0, large_table=14, large_multiplier=1.2)
"""T.score: 1 point for each player of the winning team; x1.2 in a game of more than 14 players."""

FIIM = ScoringSystem(
    name="fiim",
    win=1.0,
    best_move=((2, 0.25), (3, 0.4)),
    removal_penalty=-0.5,
    team_defeat_penalty=-0.7,
    compensation=0.0,
)
"""FIIM-style extra points and penalties (a setting, not the tournament default)."""


def custom(name: str, table: Mapping[str, Mapping[str, float]], base: ScoringSystem | None = None) -> ScoringSystem:
    """A system with points by role and outcome: ``{"commissar": {"win": 1.5, "loss": 0}}``; roles not in
    the table score as ``base`` (default: 1 for a win, nothing else)."""
    rows: list[tuple[str, str, float]] = []
    for role, outcomes in table.items():
        for outcome, points in outcomes.items():
            if outcome not in OUTCOMES:
                raise TournamentError("T.score", msg("unknown outcome %(outcome)s (win, loss, draw)",
                                                     outcome=repr(outcome)))
            rows.append((role, outcome, float(points)))
    return dataclasses.replace(base or ScoringSystem(name=name), name=name, role_points=tuple(rows))


@dataclass(frozen=True)
class GameScore:
    """One participant's points in one game, with the breakdown (label, points) and a sanction that
    reaches beyond the game (``round``, ``tournament`` or ``ban``) for the standings."""

    participant: str
    role: str
    outcome: str
    points: float
    breakdown: tuple[tuple[str, float], ...]
    sanction: str | None = None

    @property
    def won(self) -> bool:
        return self.outcome == "win"

    @property
    def extra(self) -> float:
        return round(sum(p for k, p in self.breakdown if p > 0 and k not in ("win", "loss", "draw")), 6)

    @property
    def penalties(self) -> float:
        return round(sum(p for k, p in self.breakdown if p < 0), 6)


def score_game(result: GameResult, system: ScoringSystem = REGULATION) -> dict[str, GameScore]:
    """Points of every participant of one game under ``system`` (T.score)."""
    roles = {(r, o): p for r, o, p in system.role_points}
    multiplier = system.large_multiplier if result.table_size > system.large_table else 1.0
    out: dict[str, GameScore] = {}
    for p in result.players:
        if result.winner is None:
            outcome = "draw"
        else:
            outcome = "win" if p.team == result.winner else "loss"
        default = {"win": system.win, "loss": system.loss, "draw": system.draw}[outcome]
        base = roles.get((p.role, outcome), default)
        parts: list[tuple[str, float]] = []
        if base:
            parts.append((outcome, round(base * multiplier, 6)))
        if result.best_move_black is not None and p.seat == result.first_killed:
            bonus = dict(system.best_move).get(result.best_move_black, 0.0)
            if bonus:
                parts.append(("best_move", bonus))
        if (system.compensation and p.seat == result.first_killed and p.team == "red"
                and not (system.compensation_only_on_loss and result.winner == "red")):
            parts.append(("compensation", system.compensation))
        if system.removal_penalty and (p.removed is not None or p.fouls >= system.foul_limit):
            parts.append(("removal", system.removal_penalty))
        if system.team_defeat_penalty and result.result == "team-defeat" and result.winner not in (None, p.team):
            parts.append(("team_defeat", system.team_defeat_penalty))
        sanction = p.removed if p.removed in ("round", "tournament", "ban") else None
        out[p.participant] = GameScore(participant=p.participant, role=p.role, outcome=outcome,
                                       points=round(sum((v for _, v in parts), 0.0), 6), breakdown=tuple(parts),
                                       sanction=sanction)
    return out

"""Result sheets (B.sheet): what the tournament keeps of a finished game, and the judge's corrections.

A :class:`GameResult` is built from a finished engine game (through the after-the-game view, the only
way game information leaves the engine) and maps seats to participant ids. The host confirms it; the
tournament judge may correct it with :func:`corrected`, which refuses a change without a reason and keeps
every correction on the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import BLACK_ROLES, Game, replay, team_of, view
from ..engine import events as E
from .groups import TournamentError

REMOVAL_SCOPES = ("game", "round", "tournament", "ban")
"""How far a removal reaches (B.sanctions): this game, the round, the tournament, or future tournaments."""

PlayerIds = Mapping[int, str] | Sequence[str]
"""Seat -> participant id: a mapping, or a sequence where index 0 is seat 1."""


@dataclass(frozen=True)
class PlayerResult:
    """One line of the result sheet."""

    participant: str
    seat: int
    name: str
    role: str
    team: str
    fouls: int = 0
    removed: str | None = None
    """The removal's scope (game, round, tournament, ban), or None."""
    removal_reason: str | None = None
    warnings: int = 0


@dataclass(frozen=True)
class Correction:
    """A judge's change to a result sheet, with the reason (B.sheet)."""

    reason: str
    changes: Mapping[str, Any]
    by: str = ""


@dataclass(frozen=True)
class GameResult:
    """A finished game as the tournament sees it (B.sheet).

    ``winner``: red, black or None (draw, annulled); ``result``: the engine's result code (``parity``,
    ``team-defeat``, …). ``first_killed``: the seat killed on night 1, the first night with a kill (0 for a miss);
    ``best_move_black``: how many black players that victim named in his best move (None if none).
    """

    players: tuple[PlayerResult, ...]
    winner: str | None
    result: str
    table_size: int
    ruleset: str = ""
    game_id: str = ""
    first_killed: int = 0
    best_move_black: int | None = None
    corrections: tuple[Correction, ...] = field(default=())

    def player(self, participant: str) -> PlayerResult:
        for p in self.players:
            if p.participant == participant:
                return p
        raise KeyError(participant)

    def by_seat(self, seat: int) -> PlayerResult:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    @property
    def participants(self) -> tuple[str, ...]:
        return tuple(p.participant for p in self.players)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _ids(player_ids: PlayerIds, n: int) -> dict[int, str]:
    ids = dict(player_ids) if isinstance(player_ids, Mapping) else {i: p for i, p in enumerate(player_ids, 1)}
    if sorted(ids) != list(range(1, n + 1)):
        raise TournamentError("B.sheet", f"player ids must name seats 1-{n}, got {sorted(ids)}",
                              f"нужны участники для мест 1-{n}, указаны {sorted(ids)}")
    if len(set(ids.values())) != n:
        raise TournamentError("B.sheet", "a participant sits at two seats",
                              "участник указан на двух местах")
    return ids


def _removal_reasons(game: Game) -> dict[int, str]:
    """The reason of each seat's removal, from the log (undone actions and their consequences skipped)."""
    undone = {ev.seq for ev in game.log if isinstance(ev, E.Undone)}
    reasons: dict[int, str] = {}
    action = -1
    for i, ev in enumerate(game.log):
        if ev.action:
            action = i
        if action in undone:
            continue
        if isinstance(ev, E.Removed | E.Expelled):
            reasons[ev.seat] = ev.reason
    return reasons


def from_game(game: Game, player_ids: PlayerIds, game_id: str = "") -> GameResult:
    """The result sheet of a finished game (B.sheet); ``player_ids`` maps seats to participants."""
    if not game.over:
        raise TournamentError("B.sheet", "the game is not over yet", "игра ещё не окончена")
    after = view(game, "after")
    ids = _ids(player_ids, after["players"])
    reasons = _removal_reasons(game)
    players = tuple(
        PlayerResult(participant=ids[s["seat"]], seat=s["seat"], name=s["name"], role=s["role"],
                     team=team_of(s["role"]), fouls=s["fouls"], removed=s["removed"],
                     removal_reason=reasons.get(s["seat"]) if s["removed"] else None,
                     warnings=s["warnings"])
        for s in after["seats"])
    kills = after["night_kills"]
    first_killed = int(kills.get("1", 0))  # night 1: the first night with a kill (0 for a miss)
    best = after["best_move"]
    best_black = best["black"] if best and best["seat"] == first_killed else None
    return GameResult(players=players, winner=after["winner"], result=after["result"],
                      table_size=after["players"], ruleset=after["ruleset"], game_id=game_id,
                      first_killed=first_killed, best_move_black=best_black)


def from_record(record: dict[str, Any], player_ids: PlayerIds, game_id: str = "") -> GameResult:
    """The result sheet of a game record (replayed and checked by the engine first)."""
    return from_game(replay(record), player_ids, game_id)


_TOP = {"winner", "result", "first_killed", "best_move_black"}
_PLAYER = {"role", "fouls", "removed", "removal_reason", "warnings"}


def corrected(result: GameResult, changes: Mapping[str, Any], reason: str, by: str = "") -> GameResult:
    """The judge's correction of a result sheet (B.sheet, T.judge), refused without a reason.

    ``changes``: top-level fields (``winner``, ``result``, ``first_killed``, ``best_move_black``) and/or
    participant ids mapped to player fields (``role``, ``fouls``, ``removed``, ``removal_reason``,
    ``warnings``); a changed role changes the team. The correction is appended to ``corrections``.

    >>> r = GameResult(players=(), winner="red", result="black-gone", table_size=12)
    >>> corrected(r, {"winner": "black"}, "the host marked the wrong team").winner
    'black'
    """
    if not reason or not reason.strip():
        raise TournamentError("B.sheet", "a correction needs a reason", "исправление требует указать причину")
    if not changes:
        raise TournamentError("B.sheet", "a correction changes nothing", "исправление ничего не меняет")
    top: dict[str, Any] = {}
    per_player: dict[str, dict[str, Any]] = {}
    known = set(result.participants)
    for key, value in changes.items():
        if key in _TOP:
            top[key] = value
        elif key in known and isinstance(value, Mapping):
            bad = set(value) - _PLAYER
            if bad:
                raise TournamentError("B.sheet", f"cannot change {sorted(bad)} of a player",
                                      f"нельзя изменить {sorted(bad)} у игрока")
            per_player[key] = dict(value)
        else:
            raise TournamentError("B.sheet", f"unknown field or participant {key!r}",
                                  f"неизвестное поле или участник {key!r}")
    if "winner" in top and top["winner"] not in ("red", "black", None):
        raise TournamentError("B.sheet", f"winner must be red, black or null, not {top['winner']!r}",
                              f"победитель: red, black или null, а не {top['winner']!r}")
    players = []
    for p in result.players:
        fix = per_player.get(p.participant)
        if fix:
            if "removed" in fix and fix["removed"] not in (*REMOVAL_SCOPES, None):
                raise TournamentError("B.sanctions", f"unknown removal scope {fix['removed']!r}",
                                      f"неизвестный вид снятия {fix['removed']!r}")
            if "role" in fix:
                fix["team"] = "black" if fix["role"] in BLACK_ROLES else "red"
            p = dataclasses.replace(p, **fix)
        players.append(p)
    note = Correction(reason=reason.strip(), changes=dict(changes), by=by)
    return dataclasses.replace(result, **top, players=tuple(players),
                               corrections=(*result.corrections, note))

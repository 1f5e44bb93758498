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
from ..i18n import Text, msg, pmsg
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
    left: str | None = None
    """How the player left the table (``vote``, ``lift``, ``kill``, ``lot``, ``removal``), or None."""
    left_day: int | None = None
    """The day of that departure, or the night's number for a departure at night (night N follows day N, as the
    engine and the console number them)."""
    left_night: bool = False
    """The departure came at night (a kill, or a removal at night)."""
    offences: tuple[tuple[str, str], ...] = ()
    """The offences of the sanctions table the host recorded (B.sanctions): (offence, the step the game
    applied), in order; the tournament counts them across games (:mod:`.offences`)."""


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
        raise TournamentError("B.sheet", msg("player ids must name seats 1-%(n)d, got %(seats)s", n=n,
                                             seats=str(sorted(ids))))
    if len(set(ids.values())) != n:
        raise TournamentError("B.sheet", msg("a participant sits at two seats"))
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
        raise TournamentError("B.sheet", msg("the game is not over yet"))
    after = view(game, "after")
    ids = _ids(player_ids, after["players"])
    reasons = _removal_reasons(game)
    players = tuple(
        PlayerResult(participant=ids[s["seat"]], seat=s["seat"], name=s["name"], role=s["role"],
                     team=team_of(s["role"]), fouls=s["fouls"], removed=s["removed"],
                     removal_reason=reasons.get(s["seat"]) if s["removed"] else None,
                     warnings=s["warnings"], left=s["left"]["how"] if s["left"] else None,
                     left_day=s["left"]["day"] if s["left"] else None,
                     left_night=bool(s["left"]) and s["left"]["phase"] == "night",
                     offences=tuple(game.sanctions[s["seat"]]))
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
        raise TournamentError("B.sheet", msg("a correction needs a reason"))
    if not changes:
        raise TournamentError("B.sheet", _NOTHING)
    top: dict[str, Any] = {}
    per_player: dict[str, dict[str, Any]] = {}
    known = set(result.participants)
    for key, value in changes.items():
        if key in _TOP:
            top[key] = value
        elif key in known and isinstance(value, Mapping):
            bad = set(value) - _PLAYER
            if bad:
                raise TournamentError("B.sheet", msg("cannot change %(fields)s of a player", fields=str(sorted(bad))))
            per_player[key] = dict(value)
        else:
            raise TournamentError("B.sheet", msg("unknown field or participant %(key)s", key=repr(key)))
    if "winner" in top and top["winner"] not in ("red", "black", None):
        raise TournamentError("B.sheet", msg("winner must be red, black or null, not %(value)s",
                                             value=repr(top["winner"])))
    players = []
    for p in result.players:
        fix = per_player.get(p.participant)
        if fix:
            if "removed" in fix and fix["removed"] not in (*REMOVAL_SCOPES, None):
                raise TournamentError("B.sanctions", msg("unknown removal scope %(scope)s",
                                                         scope=repr(fix["removed"])))
            if "role" in fix:
                fix["team"] = "black" if fix["role"] in BLACK_ROLES else "red"
            p = dataclasses.replace(p, **fix)
        players.append(p)
    note = Correction(reason=reason.strip(), changes=dict(changes), by=by)
    return dataclasses.replace(result, **top, players=tuple(players),
                               corrections=(*result.corrections, note))


# --- corrections as a list of changes (what the store keeps) -------------------------------------------

SHEET_FIELDS = ("winner", "result", "first_killed", "best_move_black")
"""The fields of the whole sheet a correction may change."""
SEAT_FIELDS = ("role", "fouls", "removed", "removal_reason", "warnings")
"""The fields of one seat's line a correction may change."""
RULE_RESULTS: dict[str, str | None] = {"black-gone": "red", "parity": "black", "misses": "red",
                                       "four-nights": "red", "draw": None}
"""The ways a game ends by the rules, each with the winner it gives. A correction of the winner alone of such a
sheet also records the result as the judge's decision (``override``): the old "how it ended" would contradict it."""
OVERRIDE = "override"
MAX_CHANGES = 40
"""The most changes one correction makes."""
MAX_COUNT = 10
"""The largest number of fouls or warnings a line may show."""
MAX_TEXT = 200
"""The longest removal reason a correction may write."""


_NOTHING = msg("a correction changes nothing")


def _refuse(text: Text) -> TournamentError:
    return TournamentError("B.sheet", text)


def _count(value: Any, what: Text, top: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise _refuse(msg("%(what)s must be a whole number from 0 to %(top)d, not %(value)s", what=what, top=top,
                          value=repr(value)))


def _check_value(result: GameResult, field_name: str, value: Any, roles: Sequence[str],
                 results: Sequence[str], max_fouls: int) -> None:
    if field_name == "winner":
        if value not in ("red", "black", None):
            raise _refuse(msg("the winner is red, black or null, not %(value)s", value=repr(value)))
    elif field_name == "result":
        if not isinstance(value, str) or value not in results:
            raise _refuse(msg("unknown result %(value)s; one of %(known)s", value=repr(value),
                              known=", ".join(results)))
    elif field_name == "first_killed":
        _count(value, pmsg("sheet field", "the first killed"), result.table_size)
    elif field_name == "best_move_black":
        if value is not None:
            _count(value, pmsg("sheet field", "the black players of the best move"), 3)
    elif field_name == "role":
        if value not in roles:
            raise _refuse(msg("unknown role %(value)s; this game's roles are %(roles)s", value=repr(value),
                              roles=", ".join(roles)))
    elif field_name == "fouls":
        _count(value, pmsg("sheet field", "fouls"), max_fouls)
    elif field_name == "warnings":
        _count(value, pmsg("sheet field", "warnings"), MAX_COUNT)
    elif field_name == "removed":
        if value not in (*REMOVAL_SCOPES, None):
            raise _refuse(msg("a removal is one of %(scopes)s or null, not %(value)s",
                              scopes=", ".join(REMOVAL_SCOPES), value=repr(value)))
    elif field_name == "removal_reason" and value is not None \
            and (not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT):
        raise _refuse(msg("a removal reason is text of 1 to %(max)d characters, or null", max=MAX_TEXT))


def _current(result: GameResult, field_name: str, seat: int | None) -> Any:
    if seat is None:
        return getattr(result, field_name)
    return getattr(result.by_seat(seat), field_name)


def check_changes(result: GameResult, changes: Sequence[Mapping[str, Any]], *,
                  roles: Sequence[str] = ("civilian", "sheriff", "commissar", "mafia", "don"),
                  results: Sequence[str] = (), max_fouls: int = MAX_COUNT) -> list[dict[str, Any]]:
    """A judge's changes checked against the sheet ``result`` (B.sheet); refused with
    :class:`TournamentError` unless every one is valid. Returns them as the store keeps them.

    A change is ``{"field": f, "new": value}`` for a field of the sheet (:data:`SHEET_FIELDS`) or
    ``{"field": f, "seat": n, "new": value}`` for a seat's line (:data:`SEAT_FIELDS`). ``roles``: the roles
    of the game's rule set; ``results``: the result codes allowed (empty: the current one only);
    ``max_fouls``: the most fouls a line may show. Each field of a seat is changed at most once, and every
    change must change something. The answer adds ``old`` (the value before) and ``seat`` (None for a
    field of the sheet) to each change.

    A new winner that the sheet's result by the rules contradicts (say, "black-gone" with black winning) also
    changes the result to the judge's decision, ``override`` (:data:`RULE_RESULTS`), unless the correction
    sets the result itself; without ``override`` among ``results`` it is refused.

    >>> r = GameResult(players=(), winner="red", result="award", table_size=10)
    >>> check_changes(r, [{"field": "winner", "new": "black"}])
    [{'field': 'winner', 'seat': None, 'old': 'red', 'new': 'black'}]
    >>> r = GameResult(players=(), winner="red", result="black-gone", table_size=10)
    >>> check_changes(r, [{"field": "winner", "new": "black"}], results=("black-gone", "override"))
    [{'field': 'winner', 'seat': None, 'old': 'red', 'new': 'black'}, {'field': 'result', 'seat': None, 'old': 'black-gone', 'new': 'override'}]
    """
    if not changes:
        raise _refuse(_NOTHING)
    if len(changes) > MAX_CHANGES:
        raise _refuse(msg("at most %(max)d changes in one correction", max=MAX_CHANGES))
    allowed_results = tuple(results) or (result.result,)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, int | None]] = set()
    for change in changes:
        if not isinstance(change, Mapping) or set(change) - {"field", "seat", "new"} or "field" not in change \
                or "new" not in change:
            raise _refuse(msg("a change is {field, seat (for a seat's line), new}"))
        name, seat, new = change["field"], change.get("seat"), change["new"]
        if name in SHEET_FIELDS:
            if seat is not None:
                raise _refuse(msg("%(field)s is a field of the whole sheet: give no seat", field=repr(name)))
        elif name in SEAT_FIELDS:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= result.table_size:
                raise _refuse(msg("%(field)s needs a seat from 1 to %(n)d, not %(seat)s", field=repr(name),
                                  n=result.table_size, seat=repr(seat)))
        else:
            raise _refuse(msg("unknown field %(field)s; fields: %(fields)s", field=repr(name),
                              fields=", ".join(SHEET_FIELDS + SEAT_FIELDS)))
        if (name, seat) in seen:
            raise _refuse(msg("%(field)s is changed twice", field=repr(name)))
        seen.add((name, seat))
        _check_value(result, name, new, roles, allowed_results, max_fouls)
        old = _current(result, name, seat)
        if old == new:
            if seat is None:
                raise _refuse(msg("%(field)s is %(old)s already", field=repr(name), old=repr(old)))
            raise _refuse(msg("%(field)s of seat %(seat)s is %(old)s already", field=repr(name), seat=seat,
                              old=repr(old)))
        out.append({"field": name, "seat": seat, "old": old, "new": new})
    winner = next((c["new"] for c in out if c["field"] == "winner"), result.winner)
    if ("result", None) not in seen and result.result in RULE_RESULTS and RULE_RESULTS[result.result] != winner:
        if OVERRIDE not in allowed_results:
            raise _refuse(msg("the result %(result)s gives the win to %(winner)s by the rules: change 'result' too",
                              result=repr(result.result), winner=repr(RULE_RESULTS[result.result])))
        out.append({"field": "result", "seat": None, "old": result.result, "new": OVERRIDE})
    return out


def apply_changes(result: GameResult, changes: Sequence[Mapping[str, Any]], reason: str,
                  by: str = "") -> GameResult:
    """:func:`corrected` with changes in the list form of :func:`check_changes` (seats, not participants)."""
    mapping: dict[str, Any] = {}
    for change in changes:
        seat = change.get("seat")
        if seat is None:
            mapping[change["field"]] = change["new"]
        else:
            mapping.setdefault(result.by_seat(seat).participant, {})[change["field"]] = change["new"]
    return corrected(result, mapping, reason, by)

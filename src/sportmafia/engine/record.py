"""Game record v1: a game as JSON (format in docs/game-record.md), and its checked replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..rules import RuleSet, RuleSetError, get_ruleset
from . import commands as C
from . import events as E
from .errors import RuleViolation
from .game import Game

FORMAT = "sportmafia-game"
VERSION = 1


class RecordError(ValueError):
    """A record that is malformed or breaks a rule: ``index`` of the event (None for the header),
    ``clause`` (a rulebook id, or "record" for the format)."""

    def __init__(self, message: str, index: int | None = None, clause: str = "record") -> None:
        where = f"event {index}" if index is not None else "record"
        super().__init__(f"{where}: [{clause}] {message}")
        self.index = index
        self.clause = clause
        self.detail = message


def to_record(game: Game, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game record of ``game`` (every event, undone ones included)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": {"name": game.rules.name, "options": game.rules.options()},
        "players": game.n,
        "seats": [{"seat": i, "name": name} for i, name in enumerate(game.names, 1)],
        "events": [ev.to_json() for ev in game.log],
    }
    if meta:
        record["meta"] = meta
    return record


def _header(record: Any) -> tuple[RuleSet, int, list[str], list[Any]]:
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported version {record.get('version')!r}; this reads version {VERSION}")
    rs_data = record.get("ruleset")
    if not isinstance(rs_data, dict) or not isinstance(rs_data.get("name"), str):
        raise RecordError("'ruleset' must be an object with a 'name'")
    try:
        options = rs_data.get("options")
        if options is None:
            ruleset = get_ruleset(rs_data["name"])
        elif isinstance(options, dict):
            ruleset = RuleSet.from_options({**options, "name": rs_data["name"]})
        else:
            raise RecordError("'ruleset.options' must be an object")
    except (RuleSetError, TypeError) as exc:
        raise RecordError(f"bad rule set: {exc}") from None
    players = record.get("players")
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats:
        raise RecordError("'seats' must be a non-empty list")
    if players is None:
        players = len(seats)
    if isinstance(players, bool) or not isinstance(players, int) or players != len(seats):
        raise RecordError("'players' must equal the number of seats")
    names = []
    for i, entry in enumerate(seats, 1):
        if not isinstance(entry, dict) or entry.get("seat") != i or not isinstance(entry.get("name"), str):
            raise RecordError(f"seat entry {i} must be {{'seat': {i}, 'name': '...'}}")
        names.append(entry["name"])
    try:
        ruleset.check_table(players)
    except RuleSetError as exc:
        raise RecordError(str(exc), clause="A.setup") from None
    events = record.get("events")
    if not isinstance(events, list):
        raise RecordError("'events' must be a list")
    return ruleset, players, names, events


def load(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def command_for(ev: E.Event) -> C.Command:
    """The command that produced an action event."""
    match ev:
        case E.Dealt(roles=roles):
            return C.DealCards(roles=roles)
        case E.FirstSpeakerDrawn(seat=s):
            return C.DrawFirstSpeaker(seat=s)
        case E.LotDrawn(seat=s):
            return C.DrawLot(seat=s)
        case E.Advanced():
            return C.Advance()
        case E.Nominated(by=b, target=t, named=named):
            return C.Nominate(b, named[0], tuple(named[1:])) if named else C.Nominate(b, t)
        case E.Withdrawn(by=b, target=t):
            return C.Withdraw(b, t)
        case E.VoteCast(voter=v, candidate=c):
            return C.Vote(v, c)
        case E.LiftVoteCast(voter=v):
            return C.LiftVote(v)
        case E.ShotFired(shooter=s, target=t):
            return C.Shoot(s, t)
        case E.VolleyFired(target=t):
            return C.Volley(t)
        case E.KillChosen(target=t):
            return C.Kill(t)
        case E.Checked(checker=c, target=t):
            return C.Check(c, t)
        case E.BestMoveNamed(seat=s, guesses=g):
            return C.BestMove(s, g)
        case E.Fouled(seat=s, reason=r, technical=tech):
            return C.Foul(s, r, tech)
        case E.Sanctioned(seat=s, offence=o):
            return C.Sanction(s, o)
        case E.Removed(seat=s, reason=r, scope=sc):
            return C.Remove(s, r, sc)
        case E.Awarded(winner=w, reason=r):
            return C.Award(w, r)
        case E.TeamDefeated(team=tm, reason=r):
            return C.TeamDefeat(tm, r)
        case E.Overridden(winner=w, reason=r):
            return C.Override(w, r)
        case E.ProtestVoted(outcome=o, voters=vs, rule=r):
            return C.Protest(o, vs, r)
        case E.Undone():
            return C.Undo()
    raise TypeError(f"{ev.type} is not an action event")


def replay(record: dict[str, Any], on_event: Callable[[int, E.Event], None] | None = None) -> Game:
    """Re-run a record through the engine, checking every event; raises :class:`RecordError`."""
    ruleset, players, names, raw = _header(record)
    game = Game(ruleset, players, names)
    parsed: list[E.Event] = []
    for i, data in enumerate(raw):
        try:
            parsed.append(E.event_from_json(data))
        except (ValueError, TypeError) as exc:
            raise RecordError(f"malformed event: {exc}", i) from None
    i = 0
    while i < len(parsed):
        ev = parsed[i]
        if not ev.action:
            raise RecordError(f"'{ev.type}' is a consequence, but the engine drew no such event here", i)
        try:
            produced = game.execute(command_for(ev))
        except RuleViolation as exc:
            raise RecordError(exc.message_en, i, exc.clause) from None
        for k, want in enumerate(produced):
            j = i + k
            got = parsed[j] if j < len(parsed) else None
            if got != want:
                found = got.to_json() if got is not None else "the end of the record"
                raise RecordError(f"the rules give {want.to_json()}, the record has {found}", j,
                                  _clause_of(want, game.rules.name))
            if on_event:
                on_event(j, want)
        i += len(produced)
    return game


def _clause_of(ev: E.Event, preset: str) -> str:
    """The clause that governs a consequence the record got wrong."""
    if isinstance(ev, E.VoteCancelled):
        return ev.clause
    if preset == "tournament":
        return {"step": "B.speech.order", "voting_started": "B.leaders", "vote_result": "B.vote",
                "player_left": "B.win", "night_result": "B.night", "game_ended": "B.win",
                "expelled": "B.sanctions"}.get(ev.type, "record")
    return {
        "step": "A.speech.order", "voting_started": "A.vote.order", "default_votes": "A.vote.default",
        "vote_result": "A.vote.result", "vote_cancelled": "A.remove.day", "muted": "A.foul.three",
        "expelled": "A.foul.four", "player_left": "A.win", "night_result": "A.night.shoot",
        "game_ended": "A.win",
    }.get(ev.type, "record")


def summary(game: Game) -> dict[str, Any]:
    """The outcome of a game: ``{"winner", "result", "departures", "events"}``."""
    return {
        "winner": game.winner,
        "result": game.result if game.over else "unfinished",
        "departures": [{"seat": s, "how": how, "day": day} for s, how, day, _ in game.departures],
        "events": len(game.log),
    }

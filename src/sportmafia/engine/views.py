"""Views: the only way game information leaves the engine.

``view(game, viewer)`` builds what one viewer may see now, as plain JSON data:

* ``"host"`` (the host or judge): everything, roles and night actions included;
* a seat number: the public table, plus his own role, his black teammates if he is black, and the
  results of his own checks;
* ``"spectator"``: public facts only (seats, who left and how, fouls, nominations, votes, the phase);
* ``"after"``: everything, and only once the game is over.

``visible_events(game, viewer)`` filters and redacts the log the same way, for clients that follow a game
event by event. Nothing else is sent to any client.
"""

from __future__ import annotations

from typing import Any

from . import events as E
from .describe import step_banner
from .game import BLACK_ROLES, NIGHT_STEPS, Game, team_of

Viewer = str | int


class HiddenView(PermissionError):
    """The viewer may not see this (the after-the-game view of a game in progress)."""


def _check_viewer(game: Game, viewer: Viewer) -> None:
    if isinstance(viewer, bool) or (isinstance(viewer, int) and not 1 <= viewer <= game.n):
        raise ValueError(f"no seat {viewer}")
    if isinstance(viewer, str) and viewer not in ("host", "spectator", "after"):
        raise ValueError(f"unknown viewer {viewer!r}")
    if viewer == "after" and not game.over:
        raise HiddenView("the after-the-game view opens when the game is over")


def view(game: Game, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` may see now (see the module doc)."""
    return Views(game)(viewer)


class Views:
    """The views of one game at one moment for many viewers (the sockets of a table after a move): what the
    players and spectators share is built once, and each seat's view is that plus his own. The dicts returned
    share their nested lists and dicts with each other: read them, do not change them. The game must not move
    while a ``Views`` of it is in use."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._public: dict[str, Any] | None = None

    def __call__(self, viewer: Viewer) -> dict[str, Any]:
        game = self.game
        _check_viewer(game, viewer)
        if viewer in ("host", "after"):
            return _view(game, viewer, full=True)
        if self._public is None:
            self._public = _view(game, "spectator", full=False)
        out = dict(self._public)
        out["viewer"] = viewer
        if isinstance(viewer, int):
            if game.step in NIGHT_STEPS:  # his own fouls of tonight are his to see
                seats = list(out["seats"])
                seats[viewer - 1] = _seat(game, viewer, hide_tonight=False, full=False)
                out["seats"] = seats
            out["you"] = _you(game, viewer)
        return out


def _seat(game: Game, s: int, hide_tonight: bool, full: bool) -> dict[str, Any]:
    """Seat ``s`` in a view; ``hide_tonight``: without the fouls given tonight (the viewer is not the host nor
    this player, and it is night)."""
    fouls = game.fouls[s]
    muted_day = game.mute_day[s] or None
    if hide_tonight:
        fouls -= game.night_fouls[s]
        if game.night_fouls[s] and fouls < game.rules.foul_mute:
            muted_day = None  # A.foul.night: a third foul tonight would name the player
    left = game.left.get(s)
    entry: dict[str, Any] = {
        "seat": s,
        "name": game.names[s - 1],
        "alive": game.alive[s],
        "left": {"how": left[0], "day": left[1], "phase": "night" if left[2] else "day"} if left else None,
        "fouls": fouls,
        "technical_fouls": game.tech[s],
        "muted_day": muted_day,
        "warnings": sum(1 for _, sn in game.sanctions[s] if sn == "warning"),
        "removed": game.removed.get(s),
        "nominated_by": list(game.nominators.get(s, ())),
    }
    if full:
        entry["role"] = game.roles[s] or None
    return entry


def _view(game: Game, viewer: Viewer, full: bool) -> dict[str, Any]:
    """The view of the host (``full``) or a spectator; a seat's is built on the spectator's by ``Views``."""
    night = game.step in NIGHT_STEPS
    seats = [_seat(game, s, night and not full, full) for s in range(1, game.n + 1)]
    out: dict[str, Any] = {
        "viewer": viewer,
        "ruleset": game.rules.name,
        "players": game.n,
        "phase": game.phase,
        "step": game.step,
        "day": game.day,
        "seat": game.seat,
        "round": game.round,
        "seconds": game.seconds,
        "banner": {"en": step_banner(game.step, game.day, game.seat, "en"),
                   "ru": step_banner(game.step, game.day, game.seat, "ru")},
        "seats": seats,
        "candidates": list(game.candidates),
        "vote": {
            "kind": game.vote_kind,
            "candidates": list(game.vote_candidates),
            "votes": {str(v): c for v, c in sorted(game.votes.items())},
            "lift": sorted(game.lift_yes),
        },
        "vote_cancelled": game.day in game.cancelled_days,
        "night_kills": {str(k): v for k, v in sorted(game.night_kills.items())},
        "best_move": None,
        "unnamed_night_fouls": sum(game.night_fouls) if night and not full else 0,
        "over": game.over,
        "final_words": game.final_words(),
        "winner": game.winner,
        "result": game.result,
        "protest": None,
    }
    if game.best_move:
        seat, guesses, black = game.best_move
        out["best_move"] = {"seat": seat, "guesses": list(guesses), "black": black if full else None}
    if game.protest:
        outcome, voters, passed = game.protest
        out["protest"] = {"outcome": outcome, "voters": list(voters), "passed": passed}
    if full:
        out["night"] = {
            "shots": {str(k): list(v) for k, v in sorted(game.shots.items())},
            "kill": game.kill_target or None,
        }
        out["checks"] = [_check_json(c) for c in game.checks]
    return out


def _check_json(c: tuple[int, int, int, bool]) -> dict[str, Any]:
    night, checker, target, found = c
    return {"night": night, "checker": checker, "target": target, "found": found}


def _you(game: Game, seat: int) -> dict[str, Any]:
    role = game.roles[seat]
    you: dict[str, Any] = {"seat": seat, "role": role or None, "team": team_of(role) if role else None,
                           "teammates": [], "checks": []}
    if role in BLACK_ROLES:
        you["teammates"] = [
            {"seat": s, "role": game.roles[s]} for s in range(1, game.n + 1)
            if s != seat and game.roles[s] in BLACK_ROLES
        ]
    you["checks"] = [_check_json(c) for c in game.checks if c[1] == seat]
    return you


def feed_item(seq: int, data: dict[str, Any]) -> dict[str, Any]:
    """An event as an entry of a numbered feed: ``{"seq": seq, **data}``, where ``seq`` is the event's index
    in the log. The one event with a field of that name, ``undone``, gives the index it undoes as ``undoes``.

    >>> feed_item(7, {"type": "undone", "seq": 3})
    {'seq': 7, 'type': 'undone', 'undoes': 3}
    """
    if "seq" in data:
        data = {("undoes" if k == "seq" else k): v for k, v in data.items()}
    return {"seq": seq, **data}


def visible_events(game: Game, viewer: Viewer, since: int = 0) -> list[dict[str, Any]]:
    """The log from index ``since`` as ``viewer`` may see it: ``feed_item(i, event)`` or a redacted form.

    Night actions and checks are left out (the checker sees his own); the deal shows a seat its own card;
    a foul given at night is shown without the player's name to everyone but him and the host.
    """
    _check_viewer(game, viewer)
    full = viewer in ("host", "after")
    out: list[dict[str, Any]] = []
    log = game.log
    night = False
    for i in range(min(since, len(log)) - 1, -1, -1):  # the last step before ``since`` says if it is night
        before = log[i]
        if isinstance(before, E.Step):
            night = before.step in NIGHT_STEPS
            break
    for i in range(max(since, 0), len(log)):
        ev = log[i]
        if isinstance(ev, E.Step):
            night = ev.step in NIGHT_STEPS
        if full:
            out.append(feed_item(i, ev.to_json()))
            continue
        item = _redact(game, ev, viewer, night)
        if item is not None:
            out.append(feed_item(i, item))
    return out


def _redact(game: Game, ev: E.Event, viewer: Viewer, night: bool) -> dict[str, Any] | None:
    seat = viewer if isinstance(viewer, int) else 0
    if isinstance(ev, E.Dealt):
        item: dict[str, Any] = {"type": "dealt"}
        if seat:
            item["role"] = ev.roles[seat - 1]
            if ev.roles[seat - 1] in BLACK_ROLES:
                item["teammates"] = [s for s, r in enumerate(ev.roles, 1) if r in BLACK_ROLES and s != seat]
        return item
    if isinstance(ev, E.ShotFired | E.KillChosen):
        return None
    if isinstance(ev, E.Checked):
        return ev.to_json() if ev.checker == seat else None
    if isinstance(ev, E.BestMoveNamed):
        return {"type": ev.type, "seat": ev.seat, "guesses": list(ev.guesses)}
    if night and isinstance(ev, E.Fouled | E.Muted) and ev.seat != seat:
        return {"type": ev.type, "seat": None} if isinstance(ev, E.Fouled) else None
    return ev.to_json()

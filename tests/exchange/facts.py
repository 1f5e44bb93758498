"""The facts of a game that the exchange formats hold, read from the engine's log (for the round trips)."""

from __future__ import annotations

from typing import Any

from sportmafia.engine import Game
from sportmafia.engine import events as E
from sportmafia.exchange.walk import walk


def facts(game: Game, *, votes: bool = True) -> dict[str, Any]:
    """Roles, winner, departures, fouls, checks, shots, nominations, every hand of every vote, the best move."""
    shots: list[tuple[int, int, int]] = []
    hands: list[tuple[int, int, int, int]] = []
    lifts: list[tuple[int, int]] = []
    noms: list[tuple[int, int, int]] = []
    rnd = -1
    for step, _ in walk(game):
        ev, day = step.action, step.day
        if isinstance(ev, E.ShotFired):
            shots.append((day, ev.shooter, ev.target))
        elif isinstance(ev, E.VolleyFired):
            shots.extend((day, s, ev.target) for s in ev.shooters)
        elif isinstance(ev, E.VoteCast):
            hands.append((day, rnd, ev.voter, ev.candidate))
        elif isinstance(ev, E.LiftVoteCast):
            lifts.append((day, ev.voter))
        elif isinstance(ev, E.Nominated):
            noms.append((day, ev.by, ev.target))
        for out in step.produced:
            if isinstance(out, E.VotingStarted) and out.kind in ("vote", "revote"):
                rnd = 0 if out.kind == "vote" else rnd + 1
            elif isinstance(out, E.DefaultVotes):
                hands.extend((day, rnd, v, out.candidate) for v in out.voters)
    out: dict[str, Any] = {
        "roles": game.roles[1:], "winner": game.winner, "over": game.over, "departures": game.departures,
        "fouls": game.fouls[1:], "checks": [(n, c, t) for n, c, t, _ in game.checks], "shots": shots,
        "best_move": game.best_move[:2] if game.best_move else None,
    }
    if votes:
        out.update(nominations=noms, hands=sorted(hands), lifts=sorted(lifts))
    return out

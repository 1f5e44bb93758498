"""Bots at an online table (docs/bots.md, "Bots at an online table"): a seat's claims, the bots a host seats at
his table, and the practice table (one person against bots, the server playing the host's part).

Everything here is refused with a message in both languages naming what is wrong (``BotsRefused``, or the
engine's ``RuleViolation`` naming the rule), and then changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..bots import AGENTS
from ..bots.claims import Claim, Said, check_claim, claim_from_json
from ..bots.table import TEAM, team_leader
from ..engine import Game
from ..i18n import Text, msg
from ..rules import get_ruleset
from ..rules.presets import PRESETS
from ..store import Store, online
from ..store import claims as db

PACES = ("normal", "fast", "agents")
"""How fast a table the server runs goes (``live.driver.PACES``): as the rules time it, twice as fast, or as fast
as its programs answer (a table of programs that took seats by the open seat protocol)."""
PRACTICE_PACES = ("normal", "fast")
_system_random = random.SystemRandom()
"""Where a table's seed (its bots' and its deal's chance) and a practice seat are drawn when none is given."""

__all__ = ["PACES", "PRACTICE_AGENTS", "PRACTICE_PACES", "TEAM", "BotsRefused", "Practice", "check_agents",
           "claim_of", "open_practice", "say", "seat_bots", "team_choice"]
PRACTICE_AGENTS = ("random", "baseline", "belief")
"""The bots' strengths a practice table offers, weakest first."""


class BotsRefused(Exception):
    """A request about bots the table refuses: ``code`` (``bad-claim``, ``bad-agent``, ``bad-seat``, ``taken``,
    ``bad-preset``, ``bad-pace``) and a message in both languages."""

    def __init__(self, code: str, text: Text) -> None:
        super().__init__(code)
        self.code, self.text = code, text


def say(store: Store, game_id: str, seat: int, data: Mapping[str, Any]) -> tuple[int, Said]:
    """Keep the claim ``data`` (its JSON form; its ``seat`` may be left out) of ``seat``'s speech: its number
    among the game's claims and the claim with its place in the log. Refused: a malformed claim (``BotsRefused``
    ``bad-claim``), another seat's, or one its seat may not make now (the engine's ``RuleViolation``)."""
    if not isinstance(data, Mapping):
        raise BotsRefused("bad-claim", msg("Not a valid claim: %(error)s.", error="a claim is an object"))
    if data.get("seat", seat) != seat:
        raise BotsRefused("bad-claim", msg("You speak only for your own seat."))
    try:
        claim = claim_from_json({**data, "seat": seat})
    except ValueError as exc:
        raise BotsRefused("bad-claim", msg("Not a valid claim: %(error)s.", error=str(exc))) from None
    return db.add_claim(store, game_id, claim, lambda game: check_claim(game, claim))


def claim_of(seat: int, data: Mapping[str, Any]) -> Claim:
    """A claim of ``seat`` from its JSON form (``BotsRefused`` ``bad-claim`` otherwise)."""
    try:
        return claim_from_json({**data, "seat": seat})
    except (ValueError, TypeError) as exc:
        raise BotsRefused("bad-claim", msg("Not a valid claim: %(error)s.", error=str(exc))) from None


def team_choice(store: Store, game_id: str, seat: int) -> Callable[[Game], Exception | None] | None:
    """The judge (``Store.append``'s ``judge``) of the black team's choice (the tournament's agreed kill, the
    host's command) sent from ``seat``'s own device at a table the server runs: the seat that leads the team
    makes it, a person's or a program's seat before the bots' (``bots.table.team_leader``), and the server
    records it as the host would. None where a person hosts the table (the choice is his command, refused to
    every seat as any host's command is). Every other seat, red or black, is refused in the same words, so a
    refusal tells nobody who is black."""
    record = db.bots_of(store, game_id)
    if record is None or not record.runs_table:
        return None
    bots = set(record.agents)

    def judge(game: Game) -> Exception | None:
        persons = [s for s in range(1, game.n + 1) if s not in bots]
        if team_leader(game, persons) != seat:
            return BotsRefused("not-yours", msg("The choice of the black team's leader is not yours to make."))
        return None
    return judge


def check_agents(agents: Mapping[int, str], players: int) -> None:
    for seat, name in agents.items():
        if not 1 <= seat <= players:
            raise BotsRefused("bad-seat", msg("Seat %(seat)s is not at this table of %(n)s.", seat=seat, n=players))
        if name not in AGENTS:
            raise BotsRefused("bad-agent", msg("No bot is called %(name)s; the bots: %(names)s.", name=name,
                                               names=", ".join(AGENTS)))


def seat_bots(store: Store, game_id: str, agents: Mapping[int, str], *, runs_table: bool, pace: str,
              seed: int | None = None) -> db.BotsRecord:
    """Bots at ``agents``' seats of the game's online table (the seats must have no live link: a person holds
    those), the server playing the host's part if ``runs_table``. Replaces what was set before."""
    summary = store.game(game_id)
    check_agents(agents, summary.players)
    if pace not in PACES:
        raise BotsRefused("bad-pace", msg("The pace is one of: %(paces)s.", paces=", ".join(PACES)))
    linked = online.linked_seats(store, game_id)
    taken = sorted(set(agents) & set(linked))
    if taken:
        raise BotsRefused("taken", msg("Seat %(seat)s has a player's link: revoke it first.", seat=taken[0]))
    return db.set_bots(store, game_id, agents, runs_table=runs_table, pace=pace,
                       seed=seed if seed is not None else _system_random.randrange(1 << 31))


@dataclass(frozen=True, slots=True)
class Practice:
    """A practice table just opened: its game, the person's seat and his seat's link (shown once)."""

    game_id: str
    seat: int
    token: str


def open_practice(store: Store, preset: str, agent: str, seat: int | None, pace: str, name: str,
                  seed: int | None = None) -> Practice:
    """A practice table: a game of ``preset`` at its smallest table, ``agent`` at every seat but the person's
    (``seat``, or one drawn), the server playing the host's part at ``pace``; the person's seat link."""
    if preset not in PRESETS:
        raise BotsRefused("bad-preset", msg("The rules are one of: %(presets)s.", presets=", ".join(PRESETS)))
    if agent not in PRACTICE_AGENTS:
        raise BotsRefused("bad-agent", msg("No bot is called %(name)s; the bots: %(names)s.", name=agent,
                                           names=", ".join(PRACTICE_AGENTS)))
    if pace not in PRACTICE_PACES:
        raise BotsRefused("bad-pace", msg("The pace is one of: %(paces)s.", paces=", ".join(PRACTICE_PACES)))
    rules = get_ruleset(preset)
    players = rules.min_players
    draw = _system_random
    if seat is None:
        seat = draw.randint(1, players)
    if not 1 <= seat <= players:
        raise BotsRefused("bad-seat", msg("Seat %(seat)s is not at this table of %(n)s.", seat=seat, n=players))
    names = [name if s == seat else f"Bot {s}" for s in range(1, players + 1)]
    game_id = store.create_game(db.practice_club(store), rules, players, names)
    online.open_table(store, game_id, None)
    token, _auth, _revoked = online.issue_seat(store, game_id, seat)
    db.set_bots(store, game_id, {s: agent for s in range(1, players + 1) if s != seat}, runs_table=True, pace=pace,
                seed=seed if seed is not None else draw.randrange(1 << 31), practice=True)
    return Practice(game_id, seat, token)

"""The reference client of the open seat protocol (docs/bots.md, "The open seat protocol"): one of this package's
agents plays a seat of an online table through the seat's link, as any outside program may.

``sportmafia agent URL --bot NAME``: ``URL`` is the seat's personal link (``https://host/play/TOKEN``). The client
asks which seat and rules the link opens (``GET /api/play/me``), opens the player's socket (``/ws/play``, the
token in the first message), and then, for each message:

- ``state`` / ``events``: the seat's feed entries are told to the agent; when the seat may act (``legal``), the
  agent chooses one of the commands (sent as ``{"type": "command", ...}``) or passes (``{"type": "pass"}``); at
  the start of its own speech it first makes its claims (``{"type": "claim", ...}``), and passes when it has
  nothing more to do in it (its speech ends);
- ``claims``: the public claims, told to the agent;
- the end (the view's ``over``): the client returns the result.

It asks the agent once for each thing its seat can see change (as ``bots.table.Seat`` does), and it answers
every question within the table's time limit or not at all: the table then plays the safe default.
"""

from __future__ import annotations

import json
import random
import urllib.request
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import connect
from websockets.typing import Origin

from ..engine import Command, Kill, command_from_json, told_entry
from ..rules import RuleSet
from .agents import Agent
from .claims import Said, said_from_json


@dataclass(frozen=True, slots=True)
class SeatLink:
    """A seat's link taken apart: the site (``https://host``), its socket's address and the token."""

    site: str
    socket: str
    token: str

    @classmethod
    def parse(cls, url: str) -> SeatLink:
        parts = urlsplit(url)
        path = parts.path.rstrip("/")
        if parts.scheme not in ("http", "https") or not parts.netloc or not path.startswith("/play/"):
            raise ValueError("a seat's link looks like https://host/play/TOKEN")
        site = f"{parts.scheme}://{parts.netloc}"
        return cls(site, f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}/ws/play", path[6:])


@dataclass
class Result:
    """How the seat's game went: its seat, the winner, the result, the messages taken, claims and commands sent."""

    seat: int
    winner: str | None = None
    result: str | None = None
    messages: int = 0
    sent: dict[str, int] = field(default_factory=dict)


def _me(link: SeatLink) -> dict[str, Any]:
    request = urllib.request.Request(f"{link.site}/api/play/me", headers={"X-Play-Token": link.token,
                                                                          "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        me: dict[str, Any] = json.loads(answer.read())
    return me


def leads_the_team(view: dict[str, Any], seat: int, bots: Collection[int]) -> bool:
    """Whether ``seat`` makes the black team's choice now (the tournament's agreed kill) at a table the server
    runs, from its own view: the lowest living black seat that no bot plays (the lowest living black seat when
    bots play them all; ``bots.table.team_leader``)."""
    you = view.get("you") or {}
    if view.get("over") or view.get("step") != "kill" or you.get("team") != "black":
        return False
    alive = {s["seat"] for s in view["seats"] if s["alive"]}
    black = [s for s in (seat, *(m["seat"] for m in you.get("teammates", ()))) if s in alive]
    people = [s for s in black if s not in bots]
    return bool(black) and min(people or black) == seat


def play_seat(url: str, agent: Agent, seed: int | None = None, say: Callable[[str], Any] | None = None) -> Result:
    """Play the seat of ``url`` (its personal link) with ``agent`` to the game's end."""
    link = SeatLink.parse(url)
    me = _me(link)
    seat, game_id = int(me["seat"]), str(me["game_id"])
    rules = RuleSet.from_options(me["rules"])
    agent.start(seat, rules, int(me["players"]), random.Random(seed))
    out = Result(seat)
    told_claims = 0
    asked: tuple[Any, ...] | None = None
    spoke: set[tuple[Any, ...]] = set()
    speech_steps: set[str] = set()
    chose: set[Any] = set()
    with connect(link.socket, origin=Origin(link.site), open_timeout=30, max_size=2 ** 22) as ws:

        def send(kind: str, **fields: Any) -> None:
            ws.send(json.dumps({"type": kind, "game_id": game_id, "command_id": uuid.uuid4().hex[:32], **fields}))
            out.sent[kind] = out.sent.get(kind, 0) + 1

        ws.send(json.dumps({"type": "hello", "token": link.token, "since": 0}))
        seq = 0
        for raw in ws:
            out.messages += 1
            m = json.loads(raw)
            kind = m.get("type")
            if kind == "claims":
                new: list[Said] = [said_from_json({k: v for k, v in c.items() if k not in ("n", "text")})
                                   for c in m["claims"] if c["n"] >= told_claims]
                told_claims += len(new)
                agent.observe([], new)
            elif kind in ("state", "events"):
                if kind == "state":
                    speech_steps = set(m.get("rules", {}).get("speech_steps", speech_steps))
                seq = m["next_seq"]
                agent.observe([told_entry(e) for e in m["events"]], [])
                v = m["view"]
                if v.get("over"):
                    out.winner, out.result = v.get("winner"), v.get("result")
                    break
                speaking = v.get("seat") == seat and v.get("step") in speech_steps
                moment = (v.get("step"), v.get("day"), v.get("seat"), v.get("round"))
                if speaking and moment not in spoke:
                    spoke.add(moment)
                    for claim in agent.speak():
                        send("claim", claim={k: v for k, v in claim.to_json().items() if k != "seat"})
                legal: list[Command] = [command_from_json(c) for c in m.get("legal", [])]
                if me.get("server_runs") and v.get("day") not in chose and leads_the_team(v, seat, me.get("bots", ())):
                    legal += [Kill(s["seat"]) for s in v["seats"] if s["alive"]]
                key = (seq, told_claims, tuple(legal))
                if key == asked or not (legal or speaking):
                    continue
                asked = key
                command = agent.act(legal) if legal else None
                if command is not None and command in legal:
                    send("command", command=command.to_json(), expected_seq=seq)
                    if command.type == "kill":
                        chose.add(v.get("day"))  # the team's choice of this night is made (his feed never shows it)
                else:
                    send("pass", seen=seq)
            elif kind == "refused" and say is not None:
                say(f"seat {seat}: refused: {m.get('error', {}).get('code')}")
    return out

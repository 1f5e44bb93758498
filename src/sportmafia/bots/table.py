"""A table of agents (:mod:`sportmafia.bots.agents`) with the host's part played by the table itself: the
deal and the draws from the table's seeded generator, each speech opened by its speaker's claims, every seat
with commands of the step asked in seat order (once for each state of the game: a seat that passes is asked
again when something happened), "Next" when nobody acts. A command the step cannot go on without (the
tournament's agreed kill) is asked of the black seat who leads the team (the lowest living), and when he passes
the first command offered is played for him (a safe default, counted in ``defaults``).

>>> from sportmafia.bots.agents import RandomAgent
>>> from sportmafia.rules import get_ruleset
>>> played = play_table(get_ruleset("club"), [RandomAgent() for _ in range(10)], seed=7)
>>> played.game.over, played.game.winner == play_table(get_ruleset("club"),
...     [RandomAgent() for _ in range(10)], seed=7).game.winner
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ..engine import (
    BLACK_ROLES,
    Advance,
    Command,
    DealCards,
    Game,
    RuleViolation,
    SeatFeeds,
    told_entry,
    visible_events,
)
from ..engine.cache import CACHE_LIMIT
from ..engine.state import SPEECH_STEPS
from ..rules import RuleSet
from .agents import Agent
from .claims import Said, check_claim, speaker

CHANCE = frozenset({"deal", "draw_first_speaker", "draw_lot"})
"""The host's chance commands: drawn from the table's generator."""
HOST_ONLY = frozenset({"volley"})
"""The host's shortcuts that stand for the seats' own commands: never offered (each shooter shoots)."""
TEAM = frozenset({"kill"})
"""Commands of the black team as one (the tournament's agreed kill): asked of the team's leader."""
ADVANCE = Advance()
ACTS_A_TURN = 4
"""The most commands a seat makes in one turn of the table (one speaker's speech, one candidate's vote): a
nomination withdrawn and made again without end is not a game."""


@dataclass
class Played:
    """A game played at a table of agents: the game, the claims made beside it, the refusals and defaults."""

    game: Game
    claims: list[Said] = field(default_factory=list)
    illegal: int = 0
    """Commands or claims an agent offered that the table refused (none, for a well-made agent)."""
    defaults: int = 0
    """Commands the table played for a seat that passed where the game cannot go on without one."""


def commands_by_seat(game: Game, offered: Sequence[Command], leaders: Collection[int] = ()) -> dict[int, list[Command]]:
    """The commands ``offered`` (the host's list) by the seat that makes them; the black team's (``TEAM``) by its
    leader: the lowest living black seat among ``leaders`` if any is, else the lowest living black seat."""
    by_seat = _own(offered)
    team = [c for c in offered if c.type in TEAM]
    if team:
        leader = team_leader(game, leaders)
        if leader is not None:
            by_seat.setdefault(leader, []).extend(team)
    return by_seat


def _own(offered: Sequence[Command]) -> dict[int, list[Command]]:
    """The commands ``offered`` by the seat that makes them, each seat's in their order (the team's left out)."""
    by_seat: dict[int, list[Command]] = {}
    for c in offered:
        seat = c.actor_seat()
        if seat is not None:
            by_seat.setdefault(seat, []).append(c)
    return by_seat


def team_leader(game: Game, leaders: Collection[int] = ()) -> int | None:
    """The seat that makes the black team's choices (``TEAM``): the lowest living black seat among ``leaders``
    if any is, else the lowest living black seat (None when none lives)."""
    black = [s for s in game.living() if game.roles[s] in BLACK_ROLES]
    first = [s for s in black if s in leaders] or black
    return min(first) if first else None


class Seat:
    """An agent at its seat: told what the seat's phone is told, and offered its commands once for each thing
    it could see change (its feed, the claims, its own commands): a seat is never asked again because of
    something hidden from it (a teammate's shot at night), so how often it is asked tells it nothing more.
    Its agent is told each entry as ``engine.told_entry`` makes it. ``feeds``: the table's feeds of its one game
    (:class:`engine.SeatFeeds`: the entries of ``visible_events``, shared by the seats shown them alike); without
    it, the seat reads ``visible_events`` of the game it is given each time."""

    def __init__(self, agent: Agent, seat: int, feeds: SeatFeeds | None = None) -> None:
        self.agent, self.seat, self.feeds = agent, seat, feeds
        self.told = 0
        self.told_claims = 0
        self.acts: dict[tuple[int, int, int], int] = {}
        self._read = 0  # the log's length when it was last told: its feed grows only with the log
        self._asked: tuple[int, int, Sequence[Command]] | None = None

    def tell(self, game: Game, claims: Sequence[Said]) -> None:
        """Bring the agent up to date: its seat's new feed entries and the claims made since."""
        read = len(game.log)
        if read == self._read and len(claims) == self.told_claims:
            return  # nothing new anywhere (its feed is empty from ``told`` on)
        self._read = read
        feeds = self.feeds
        entries = [told_entry(e) for e in visible_events(game, self.seat, self.told)] if feeds is None \
            else feeds.take(self.seat)
        new = claims[self.told_claims:]
        if entries or new:
            self.told += len(entries)
            self.told_claims = len(claims)
            self.agent.observe(entries, new)

    def offer(self, game: Game, claims: Sequence[Said], legal: Sequence[Command]) -> Command | None:
        """The agent's answer to ``legal``, or None when it passes or was asked already on what it sees now."""
        if len(game.log) != self._read or len(claims) != self.told_claims:
            self.tell(game, claims)
        if not legal:
            return None
        asked = self._asked
        if asked is not None and asked[0] == self.told and asked[1] == self.told_claims and \
                (asked[2] is legal or list(asked[2]) == list(legal)):
            return None
        self._asked = (self.told, self.told_claims, legal)
        return self.agent.act(legal)


_Layout = tuple[list[Command], list[Command], "Command | None", bool, tuple[Command, ...],
                tuple[tuple[int, int, int], ...]]
"""What the table makes of a list of the step's commands: the list; the list its seats' spans are of (the list
itself, but where a seat's commands lie apart in it); its chance draw; whether "Next" is among them; the team's
commands; each seat's own commands as ``(seat, start, stop)`` of that list, in seat order. Ints in tuples: the
garbage collector has little of it to walk (kept as a list and a tuple for each seat, it was most of what a long
run's full collections walked, some 6% of its time)."""


def _layout(commands: list[Command]) -> _Layout:
    chance: Command | None = None
    team: list[Command] = []
    advance, apart = False, False
    spans: dict[int, list[int]] = {}
    for i, c in enumerate(commands):
        kind, seat = c.type, c.actor_seat()
        if seat is not None:
            span = spans.get(seat)
            if span is None:
                spans[seat] = [i, i + 1]
            elif span[1] == i:
                span[1] = i + 1
            else:
                apart = True
        if kind == "advance":
            advance = True
        elif kind in TEAM:
            team.append(c)
        elif kind in CHANCE and chance is None:
            chance = c
    pool = commands
    if apart:  # no step of the engine's lists them so: each seat's own, one after another
        pool, spans = [], {}
        for seat, mine in _own(commands).items():
            spans[seat] = [len(pool), len(pool) + len(mine)]
            pool += mine
    return commands, pool, chance, advance, tuple(team), tuple((s, a, b) for s, (a, b) in sorted(spans.items()))


_OFFERED: dict[int, _Layout] = {}
"""The engine's lists of a step's commands are shared by all games where the step recurs (a speech, a vote):
each is looked at once, by its id (its entry keeps it alive, so the id is not another list's)."""


def _offered(commands: list[Command]) -> _Layout:
    found = _OFFERED.get(id(commands))
    if found is None or found[0] is not commands:
        if len(_OFFERED) > CACHE_LIMIT:  # as the engine's caches of the lists
            _OFFERED.clear()
        found = _OFFERED[id(commands)] = _layout(commands)
    return found


class _Table:
    def __init__(self, rules: RuleSet, agents: Sequence[Agent], seed: int, roles: Sequence[str] | None) -> None:
        self.rng = random.Random(seed)
        self.roles = tuple(roles) if roles is not None else None
        self.game = Game(rules, len(agents))
        feeds = SeatFeeds(self.game)
        self.seats = [Seat(agent, seat, feeds) for seat, agent in enumerate(agents, 1)]
        self.played = Played(self.game)
        self._spoke: set[tuple[int, str, int, int]] = set()
        for seat, agent in enumerate(agents, 1):
            agent.start(seat, rules, len(agents), random.Random(self.rng.randrange(1 << 32)))

    def step(self) -> None:
        game = self.game
        _, pool, chance, advance, team, spans = _offered(game.step_commands())
        if chance is not None:
            deal = self.roles is not None and chance.type == "deal"
            game.execute(DealCards(roles=self.roles) if deal else chance, self.rng)
            return
        if game.step in SPEECH_STEPS:
            self._speech()
        seats = self._with_team(pool, spans, team) if team else None
        if seats is not None:
            if any(self._ask(seat, cmds) for seat, cmds in seats):
                return
        else:
            for seat, start, stop in spans:
                if self._ask(seat, pool[start:stop]):
                    return
        if advance:
            game.execute(ADVANCE, self.rng)
            return
        # nobody acted and the step cannot go on without a command: the first offered, for its seat
        seat, cmds = seats[0] if seats is not None else (spans[0][0], pool[spans[0][1]:spans[0][2]])
        self.played.defaults += 1
        game.execute(cmds[0], self.rng, actor=None if cmds[0].type in TEAM else seat)

    def _with_team(self, pool: list[Command], spans: tuple[tuple[int, int, int], ...],
                   team: tuple[Command, ...]) -> list[tuple[int, list[Command]]]:
        """Each seat's commands, in seat order, the team's with its leader's (the lowest living black seat)."""
        by_seat = {seat: pool[start:stop] for seat, start, stop in spans}
        leader = team_leader(self.game)
        if leader is not None:
            by_seat[leader] = [*by_seat.get(leader, ()), *team]
        return sorted(by_seat.items())

    def _speech(self) -> None:
        game = self.game
        now = speaker(game)
        if now is None:
            return
        key = (game.day, game.step, now, game.round)
        if key in self._spoke:
            return
        self._spoke.add(key)
        seat = self.seats[now - 1]
        seat.tell(game, self.played.claims)
        for claim in seat.agent.speak():
            try:
                if claim.seat != now:
                    raise ValueError("a claim of another seat")
                check_claim(game, claim)
            except (ValueError, RuleViolation):
                self.played.illegal += 1
                continue
            self.played.claims.append(Said(len(game.log), claim))

    def _ask(self, seat: int, legal: list[Command]) -> bool:
        game = self.game
        link = self.seats[seat - 1]
        phase = (game.day, game.round, game.seat)
        acts = link.acts.get(phase, 0)
        if acts >= ACTS_A_TURN:
            return False
        cmd = link.offer(game, self.played.claims, legal)
        if cmd is None:
            return False
        if cmd not in legal:
            self.played.illegal += 1
            return False
        link.acts[phase] = acts + 1
        game.execute(cmd, self.rng, actor=None if cmd.type in TEAM else seat)
        return True


def play_table(rules: RuleSet, agents: Sequence[Agent], seed: int, roles: Sequence[str] | None = None,
               max_steps: int = 20_000) -> Played:
    """One whole game of ``agents`` (one a seat, in seat order) under ``rules``; the same seed (and agents)
    plays the same game. ``roles``: the deal (a role a seat), else the table deals at random."""
    rules.check_table(len(agents))
    table = _Table(rules, agents, seed, roles)
    for _ in range(max_steps):
        if table.game.over:
            break
        table.step()
    for seat in table.seats:
        seat.tell(table.game, table.played.claims)  # everyone sees the end
    return table.played

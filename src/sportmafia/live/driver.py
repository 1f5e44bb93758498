"""Bots at an online table (docs/bots.md, "Bots at an online table"): the server plays the seats a host gave to
bots, and, at a table it runs (a practice table, a table of programs), the host's part as well.

One :class:`TableDriver` a table, in one server process at a time (a lease in the database, renewed while it
runs: another process takes the table over when it stops renewing). It follows the game like any socket (the
hub wakes it after each move, and when a seat's claims or passes come), and on each wake-up:

- a bot's seat is told what its seat's phone is told (``bots.table.Seat``: its feed, the claims) and asked once
  for each thing it can see change; its commands are appended as its seat's, its claims kept when its speech
  begins;
- at a table the server runs, it also deals and draws, ends a speech when its time is up (a bot's speech lasts
  ``Pace.bot_speech``; a person's or a program's until it passes or its time runs out, the clock shown on every
  screen), waits for the other seats' decisions (a vote, a shot, a check) until they act or pass or
  ``Pace.answer`` passes, and then says "Next". A seat that lets its time run out is logged and plays the safe
  default: nothing (a pass), or, where the game cannot go on without one of its commands, the first offered.

Nothing a bot is told is more than its seat's phone is told (``tests/bots/test_agents.py``); what the driver
waits for is only what every screen sees (whose speech it is, whose decision is awaited), never a secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from ..bots import AGENTS
from ..bots.claims import Claim, Said, check_claim, speaker
from ..bots.table import CHANCE, TEAM, Seat, commands_by_seat, team_leader
from ..engine import (
    NIGHT_STEPS,
    Advance,
    Command,
    Game,
    RuleViolation,
    changes_phase,
    feed_events,
    feed_length,
    view,
)
from ..store import GameLocked, GameNotFound, StaleSequence, Store, unavailable
from ..store import claims as db
from .hub import Hub, app_state, get_hub

log = logging.getLogger("sportmafia.bots")

LEASE_SECONDS = 15.0
"""How long a process holds a table's bots without renewing; it renews every third of it."""
ABANDONED_TURNS = 6
"""A practice table whose person lets this many turns in a row run out was left: its bots stop."""
SCAN_SECONDS = 5.0
"""How often each process looks for tables with bots that nobody runs (a new one, or one whose process stopped)."""


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast a table the server runs goes: ``factor`` of the rules' speech times for a person's or a program's
    speech, ``bot_speech`` seconds for a bot's, ``answer`` seconds for a seat's other decisions, and a ``beat``
    after each move of the host's part (the room sees what happened). A step of the night lasts ``night``
    seconds whoever acts in it and whenever they do."""

    name: str
    factor: float
    bot_speech: float
    answer: float
    beat: float
    night: float


PACES = {"normal": Pace("normal", 1.0, 5.0, 20.0, 1.5, 15.0), "fast": Pace("fast", 0.5, 2.0, 10.0, 0.5, 8.0),
         "agents": Pace("agents", 0.1, 0.0, 5.0, 0.0, 1.0)}


PACE_SCALE_ENV = "SPORTMAFIA_PACE_SCALE"
"""Multiplies every time of the tables the server runs (default 1; from 0.01 to 10): a demonstration server's
faster practice tables, or the browser tests' whole games in seconds."""


def pace_of(name: str) -> Pace:
    """The pace ``name`` (``normal`` if unknown), its times scaled by ``$SPORTMAFIA_PACE_SCALE``."""
    pace = PACES.get(name, PACES["normal"])
    try:
        scale = float(os.environ.get(PACE_SCALE_ENV) or 1)
    except ValueError:
        scale = 1.0
    if not 0.01 <= scale <= 10 or scale == 1:
        return pace
    return Pace(pace.name, pace.factor * scale, pace.bot_speech * scale, pace.answer * scale, pace.beat * scale,
                pace.night * scale)


@dataclass
class _Turn:
    """A seat's turn to decide (``key``: what every screen sees of the moment), since ``since``, with ``limit``
    seconds."""

    key: tuple[Any, ...]
    since: float
    limit: float
    timed_out: bool = False


@dataclass
class TableDriver:
    """One table's bots (see the module's text)."""

    store: Store
    hub: Hub
    record: db.BotsRecord
    runner: str
    game: Game | None = None
    claims: list[Said] = field(default_factory=list)
    seats: dict[int, Seat] = field(default_factory=dict)
    moves: int = 0
    timeouts: int = 0
    illegal: int = 0
    _turns: dict[int, _Turn] = field(default_factory=dict)
    _done: set[tuple[int, tuple[Any, ...]]] = field(default_factory=set)
    _spoke: set[tuple[Any, ...]] = field(default_factory=set)
    _timer_key: str = ""
    _last_move: float = 0.0
    _acts: dict[tuple[int, tuple[Any, ...]], int] = field(default_factory=dict)
    _told: asyncio.Event = field(default_factory=asyncio.Event)
    _passes: list[dict[str, Any]] = field(default_factory=list)
    answers: deque[float] = field(default_factory=lambda: deque(maxlen=10_000))
    """Seconds each bot's answer took, from the read that showed it its decision to its command committed (or its
    claims kept): what a person at the table waits for (bench/practice.py)."""
    _woke: float = 0.0
    _silent: dict[int, int] = field(default_factory=dict)  # a seat's turns in a row that it let run out
    _loop: asyncio.AbstractEventLoop | None = None
    paces: Mapping[str, Pace] | None = None
    """The process's own paces by name (``Drivers.paces``); None: :func:`pace_of`."""

    @property
    def game_id(self) -> str:
        return self.record.game_id

    @property
    def pace(self) -> Pace:
        if self.paces is not None and self.record.pace in self.paces:
            return self.paces[self.record.pace]
        return pace_of(self.record.pace)

    # --- set-up
    async def _read(self) -> None:
        """The game and its claims brought up to date from the store."""
        if self.game is None:
            self.game = await run_in_threadpool(self.store.load, self.game_id)
            rng = random.Random(self.record.seed)
            for seat, name in sorted(self.record.agents.items()):
                agent = AGENTS[name]()
                agent.start(seat, self.game.rules, self.game.n, random.Random(rng.randrange(1 << 32)))
                self.seats[seat] = Seat(agent, seat)
            self.rng = random.Random(rng.randrange(1 << 32))
        else:
            self.game.fold_in(await run_in_threadpool(self.store.log_since, self.game_id, len(self.game.log)))
        new = await run_in_threadpool(db.claims, self.store, self.game_id, len(self.claims))
        self.claims.extend(new)

    def told(self, message: dict[str, Any]) -> None:
        """``Hub.tell_table``: a seat passed (from any thread)."""
        self._passes.append(message)
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: the table has stopped
                self._loop.call_soon_threadsafe(self._told.set)

    # --- the loop
    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        sub = self.hub.subscribe(self.game_id)
        self.hub.tables[self.game_id] = self.told
        renewed = time.monotonic()
        try:
            while True:
                sub.wake.clear()
                self._told.clear()
                try:
                    self._woke = time.perf_counter()
                    await self._read()
                    wait = await self._tick()
                except (StaleSequence, RuleViolation):
                    continue  # a seat acted meanwhile: look again
                except Exception as exc:
                    if not unavailable(exc):
                        raise
                    wait = 1.0
                if wait is not None and wait < 0:
                    return  # the game is over, or gone
                if time.monotonic() - renewed > LEASE_SECONDS / 3:
                    if not await run_in_threadpool(db.take_lease, self.store, self.game_id, self.runner, time.time(),
                                                   LEASE_SECONDS):
                        log.warning("bots: game %s: another process runs its table now", self.game_id)
                        return
                    renewed = time.monotonic()
                if wait == 0:
                    continue
                waits = [asyncio.ensure_future(sub.wake.wait()), asyncio.ensure_future(self._told.wait())]
                try:
                    await asyncio.wait(waits, timeout=min(wait if wait is not None else LEASE_SECONDS / 3,
                                                          LEASE_SECONDS / 3), return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for w in waits:
                        w.cancel()
        finally:
            self.hub.unsubscribe(sub)
            if self.hub.tables.get(self.game_id) == self.told:
                del self.hub.tables[self.game_id]

    async def _tick(self) -> float | None:
        """One look at the table: 0 to look again at once, a number of seconds to wait at most, None to wait for
        a move, below 0 to stop."""
        game = self.game
        assert game is not None
        if game.over:
            for link in self.seats.values():
                link.tell(game, self.claims)  # every bot sees the end
            log.info("bots: game %s is over (%s moves, %s timeouts)", self.game_id, self.moves, self.timeouts)
            return -1
        now = time.monotonic()
        runs = self.record.runs_table
        self._take_passes(game)
        offered = game.legal_commands(None, extras=False)
        chance = [c for c in offered if c.type in CHANCE]
        if chance:
            if not runs:
                return None
            if now < self._last_move + self.pace.beat:
                return self._last_move + self.pace.beat - now
            await self._append(chance[0], None)
            return 0
        if await self._speech(game, now):
            return 0
        # the black team's choice is its leading person's (or program's) to make when one lives: the bots follow
        by_seat = commands_by_seat(game, offered, leaders=[s for s in range(1, game.n + 1) if s not in self.seats])
        for seat in sorted(s for s in by_seat if s in self.seats):
            if await self._ask(game, seat, by_seat[seat]):
                return 0
        if not runs:
            return None
        return await self._host(game, offered, by_seat, now)

    async def _host(self, game: Game, offered: list[Command], by_seat: dict[int, list[Command]],
                    now: float) -> float | None:
        """The host's part: wait for the seats' decisions and the speech's time, then "Next"."""
        now_speaks = speaker(game)
        key = _moment(game)
        waits: list[float] = []
        if game.step in NIGHT_STEPS:
            # a night step lasts its full time whoever acts in it: how long it takes tells nobody whose it is
            night = self._turns.get(0)
            if night is None or night.key != key:
                night = self._turns[0] = _Turn(key, now, self.pace.night)
                self._start_timer(game, self.pace.night)
            waits.append(night.since + night.limit)
        for seat in sorted(set(by_seat) | ({now_speaks} if now_speaks else set())):
            if seat in self.seats:
                continue
            turn = self._turns.get(seat)
            if turn is None or turn.key != key:
                if turn is not None and not turn.timed_out:
                    self._silent[seat] = 0  # it answered its last turn
                limit = self._speech_limit(game) if seat == now_speaks else self.pace.answer
                turn = self._turns[seat] = _Turn(key, now, limit)
                if seat == now_speaks:
                    self._start_timer(game, limit)
            if (seat, key) in self._done or game.step in NIGHT_STEPS:
                continue
            if now < turn.since + turn.limit:
                waits.append(turn.since + turn.limit)
                continue
            self._done.add((seat, key))
            self.timeouts += 1
            turn.timed_out = True
            self._silent[seat] = self._silent.get(seat, 0) + 1
            log.info("bots: game %s: seat %s did not answer within %.0f s; it passes", self.game_id, seat, turn.limit)
            if self.record.practice and self._silent[seat] >= ABANDONED_TURNS:
                # the person left his practice table: the bots leave too (the game stays as it stands)
                log.info("bots: game %s: the practice table was left (%s turns unanswered); it stops", self.game_id,
                         self._silent[seat])
                await run_in_threadpool(db.clear_bots, self.store, self.game_id)
                return -1
        if now_speaks in self.seats:
            turn = self._turns.get(now_speaks)
            if turn is None or turn.key != key:
                turn = self._turns[now_speaks] = _Turn(key, now, self.pace.bot_speech)
                self._start_timer(game, self.pace.bot_speech)
            waits.append(turn.since + turn.limit)
        if now < self._last_move + self.pace.beat:
            waits.append(self._last_move + self.pace.beat)
        pending = [w for w in waits if w > now]
        if pending:
            return min(pending) - now
        if any(c.type == "advance" for c in offered):
            await self._append(Advance(), None)
            return 0
        if not by_seat:
            return None
        seat = min(by_seat)  # the step cannot go on without one of its commands: the first offered
        team = [c for c in by_seat[seat] if c.type in TEAM]
        bot = team_leader(game, self.seats) if team else None
        if bot is not None and bot in self.seats and bot != seat and await self._ask(game, bot, team):
            return 0  # the team's leader let the night pass: the black bots choose
        command = by_seat[seat][0]
        log.info("bots: game %s: seat %s passed where the game needs its command; playing %s", self.game_id, seat,
                 command.type)
        await self._append(command, None if command.type in TEAM else seat)
        return 0

    def _speech_limit(self, game: Game) -> float:
        seconds = view(game, "spectator").get("seconds") or 60
        return max(self.pace.answer, float(seconds) * self.pace.factor)

    def _start_timer(self, game: Game, limit: float) -> None:
        """The speech's clock on every screen, keyed by the step as the screens key it (``SM.timerStep``)."""
        v = view(game, "spectator")
        key = "|".join(_js(v.get(k)) for k in ("step", "day", "seat", "round")) + f"|{_js(v.get('seconds') or 0)}"
        if limit <= 0 or key == self._timer_key:
            return
        self._timer_key = key
        self.hub.set_timer(self.game_id, {"running": True, "left": round(limit), "total": round(limit), "key": key})

    def _take_passes(self, game: Game) -> None:
        """The passes the seats sent: each counts for the moment it was sent in, if the game is still in the phase
        its seat saw (as a player's command is judged: the entries of his feed since are others' acts at most)."""
        passes, self._passes = self._passes, []
        key = _moment(game)
        for p in passes:
            seat, seen = p.get("seat"), p.get("seen")
            if isinstance(seat, int) and seat not in self.seats and 1 <= seat <= game.n and isinstance(seen, int) \
                    and 0 <= seen <= feed_length(game, seat) and not changes_phase(feed_events(game, seat, seen)):
                self._done.add((seat, key))  # nothing since what he saw moved the game on (others' hands, say)

    async def _speech(self, game: Game, now: float) -> bool:
        """A bot's speech beginning: its claims kept (and told to every screen). Whether it said anything."""
        seat = speaker(game)
        if seat is None or seat not in self.seats:
            return False
        key = _moment(game)
        if key in self._spoke:
            return False
        self._spoke.add(key)
        link = self.seats[seat]
        link.tell(game, self.claims)
        said = False
        for claim in link.agent.speak():
            if claim.seat != seat:
                self.illegal += 1
                continue
            try:
                n, kept = await run_in_threadpool(db.add_claim, self.store, self.game_id, claim, _checker(claim))
            except RuleViolation:
                self.illegal += 1
                continue
            self.claims.append(kept)
            self.hub.publish_claims(self.game_id, n + 1)
            said = True
        if said:
            self.answers.append(time.perf_counter() - self._woke)
        return said

    async def _ask(self, game: Game, seat: int, legal: list[Command]) -> bool:
        link = self.seats[seat]
        key = (seat, _moment(game))
        if self._acts.get(key, 0) >= 4:
            return False
        command = link.offer(game, self.claims, legal)
        if command is None:
            return False
        if command not in legal:
            self.illegal += 1
            return False
        self._acts[key] = self._acts.get(key, 0) + 1
        await self._append(command, None if command.type in TEAM else seat)
        self.answers.append(time.perf_counter() - self._woke)
        return True

    async def _append(self, command: Command, actor: int | None) -> None:
        game = self.game
        assert game is not None
        result = await run_in_threadpool(
            lambda: self.store.append(self.game_id, command, expected_seq=len(game.log), rng=self.rng, actor=actor,
                                      command_id=f"bot:{uuid.uuid4().hex}"))
        self.hub.publish(self.game_id, result.next_seq, result.events)
        self.moves += 1
        self._last_move = time.monotonic()


def _checker(claim: Claim) -> Callable[[Game], None]:
    def check(game: Game) -> None:
        check_claim(game, claim)
    return check


def _moment(game: Game) -> tuple[Any, ...]:
    """What every screen sees of where the game stands: the step, the day, the speaker or candidate, the round
    and how many times the public feed moved the game to a new phase (a vote again on the same candidates is a
    new moment); never what only some seats see."""
    v = view(game, "spectator")
    phases = sum(1 for ev in feed_events(game, "spectator") if changes_phase((ev,)))
    return (v.get("step"), v.get("day"), v.get("seat"), v.get("round"), phases)


def _js(value: Any) -> str:
    """A value as JavaScript's template strings print it (``null`` for None)."""
    return "null" if value is None else str(value)


class Drivers:
    """The tables with bots this process runs; a scan every ``SCAN_SECONDS`` takes up those nobody runs.

    Two settings of one app, for a test's server (set on ``drivers_of(app)`` before it serves; a server started by
    ``sportmafia serve`` never sets them): ``paces``, the paces by name its tables run at instead of ``PACES``
    (a person's turns long, the bots' speeches, the beats and the nights short: a whole practice game in seconds,
    each night still as long whoever acts in it); ``seeds``, whence each practice table it opens takes its seed
    (the deal, the draws and the bots' choices), instead of the system's randomness."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.running: dict[str, asyncio.Task[None]] = {}
        self.drivers: dict[str, TableDriver] = {}
        self._scan: asyncio.Task[None] | None = None
        self.paces: Mapping[str, Pace] | None = None
        self.seeds: random.Random | None = None

    @property
    def store(self) -> Store:
        store: Store = self.app.state.store
        return store

    def start(self) -> None:
        if self._scan is None:
            self._scan = asyncio.ensure_future(self._scanning())

    async def stop(self) -> None:
        tasks = [t for t in (self._scan, *self.running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        hub = get_hub(self.app)
        for game_id in list(self.running):
            with contextlib.suppress(Exception):
                await run_in_threadpool(db.drop_lease, self.store, game_id, hub.origin)
        self.running.clear()

    async def _scanning(self) -> None:
        while True:
            await asyncio.sleep(SCAN_SECONDS)
            try:
                for record in await run_in_threadpool(db.tables_with_bots, self.store):
                    await self.ensure(record.game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("bots: looking for tables with bots failed (%s)", type(exc).__name__)

    async def ensure(self, game_id: str) -> bool:
        """Run the game's bots here unless this process runs them already or another one holds them; whether
        they run here."""
        task = self.running.get(game_id)
        if task is not None and not task.done():
            return True
        hub = get_hub(self.app)
        record = await run_in_threadpool(db.bots_of, self.store, game_id)
        if record is None or (not record.agents and not record.runs_table):
            return False
        if not await run_in_threadpool(db.take_lease, self.store, game_id, hub.origin, time.time(), LEASE_SECONDS):
            return False
        driver = TableDriver(self.store, hub, record, hub.origin, paces=self.paces)
        self.drivers[game_id] = driver
        self.running[game_id] = asyncio.ensure_future(self._run(driver))
        return True

    async def restart(self, game_id: str) -> bool:
        """The table's bots changed: the driver that runs them here stops, and one with the new ones starts."""
        task = self.running.pop(game_id, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        return await self.ensure(game_id)

    async def _run(self, driver: TableDriver) -> None:
        try:
            await driver.run()
        except asyncio.CancelledError:
            raise
        except (GameNotFound, GameLocked):
            pass
        except Exception:
            log.exception("bots: the table of game %s stopped", driver.game_id)
        finally:
            if self.running.get(driver.game_id) is asyncio.current_task():
                del self.running[driver.game_id]


def drivers_of(app: FastAPI) -> Drivers:
    """The app's tables with bots (made on first use)."""
    return app_state(app, "drivers", lambda: Drivers(app))

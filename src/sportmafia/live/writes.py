"""The write-concurrency policy: where a route's append runs (on the event loop, or in one of a few worker
threads) and where a read runs, so that under load the appends queue on the database's write lock and not on
the interpreter's (bench/online.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from ..store import Store
from .hub import app_state

T = TypeVar("T")

WRITER_THREADS = 4
"""Worker threads that run appends at once (per process). They queue on the database's write lock anyway; more
threads only fight over the interpreter's lock, which delayed everything else (bench/online.py)."""
WRITE_TURN_WAIT = 0.02
"""Seconds an append waits on the event loop for another thread's write (a set-up request's, say) to end
before it goes to a worker thread instead."""


class _GameTurns:
    """One turn at a time per game among this process's appends of it (an ``asyncio.Lock`` per game, made when
    first wanted and dropped when nobody waits on it)."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def turn(self, game_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(game_id) or (asyncio.Lock(), 0)
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users <= 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)


async def run_writer(app: FastAPI, fn: Callable[..., Any], *args: Any, game_id: str | None = None) -> Any:
    """:func:`write_now` in the game's turn (``game_id``): the appends of one game wait for each other here, on
    the event loop, not in the worker threads, where they would only wait on the game's row lock in the
    database and keep the threads from other games' appends (a vote's hands all come at once)."""
    if game_id is None:
        return await write_now(app, fn, *args)
    turns = app_state(app, "game_turns", _GameTurns)
    async with turns.turn(game_id):
        return await write_now(app, fn, *args)


class _Burst:
    """The commands of one game waiting for their turn together, and the task that will run them."""

    def __init__(self) -> None:
        self.items: list[tuple[Any, asyncio.Future[Any]]] = []


async def run_batched(app: FastAPI, fn_many: Callable[[list[Any]], list[Any]], item: Any, *, game_id: str) -> Any:
    """``item`` run by ``fn_many`` in the game's turn together with every other item of the game that came while
    the turn was taken (a vote's hands, raised at once): ``fn_many(items)`` runs them in one transaction
    (:meth:`Store.append_many`) and gives one answer per item, an exception to raise or the result. A burst of
    ten hands costs two transactions, not ten taken in turn, and the last hand's answer waits for one of them,
    not for nine. The turn is taken by a task of its own, so a request given up does not strand the others; an
    item whose request was given up before its turn came is not run."""
    bursts: dict[str, _Burst] = app_state(app, "game_bursts", dict)
    burst = bursts.get(game_id)
    if burst is None:
        burst = bursts[game_id] = _Burst()
        running: set[asyncio.Task[None]] = app_state(app, "burst_tasks", set)  # the loop keeps only weak refs
        task = asyncio.create_task(_run_burst(app, fn_many, game_id, burst))
        running.add(task)
        task.add_done_callback(running.discard)
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    burst.items.append((item, done))
    out = await done
    if isinstance(out, BaseException):
        raise out
    return out


async def _run_burst(app: FastAPI, fn_many: Callable[[list[Any]], list[Any]], game_id: str, burst: _Burst) -> None:
    turns = app_state(app, "game_turns", _GameTurns)
    async with turns.turn(game_id):
        bursts: dict[str, _Burst] = app_state(app, "game_bursts", dict)
        if bursts.get(game_id) is burst:
            del bursts[game_id]  # who comes from now on waits for the next turn, in the next burst
        items = [(item, done) for item, done in burst.items if not done.done()]
        if not items:
            return
        try:
            outs = await write_now(app, fn_many, [item for item, _ in items])
        except Exception as exc:  # the database itself failed: every item of the burst is refused with it
            outs = [exc] * len(items)
        for (_, done), out in zip(items, outs, strict=True):
            if not done.done():
                done.set_result(out)


async def write_now(app: FastAPI, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` (a route's append). On SQLite, right here on the event loop when the process's write lock
    is free or another thread's write ends within ``WRITE_TURN_WAIT``: an append is a millisecond of work that
    waits on nothing but that lock, and a worker thread's hand-over (and the fight for the interpreter's lock
    that follows) cost more than the append. Waiting those few milliseconds matters: had the appends gone to
    worker threads whenever another thread was writing, those threads would keep the lock taken for the next
    append, and the next, and under load every append stayed in a thread, each slower than the last
    (bench/online.py: answers past 2 s at 150 tables). Otherwise, and always on PostgreSQL (whose statements
    wait on the network), in a worker thread, at most ``WRITER_THREADS`` of them at once; the others wait on
    the event loop, not in a thread."""
    store: Store = app.state.store
    with store.write_turn(WRITE_TURN_WAIT) as now:
        if now:
            return fn(*args)
    limiter = app_state(app, "writers", lambda: anyio.CapacityLimiter(WRITER_THREADS))
    return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)


async def run_reader(fn: Callable[..., T], store: Store, *args: Any) -> T:
    """``fn(store, *args)`` (a read): on SQLite right here on the event loop (a local read, a fraction of a
    millisecond, waits on no writer), on PostgreSQL in a worker thread (it waits on the network)."""
    if store.local:
        return fn(store, *args)
    return await run_in_threadpool(fn, store, *args)


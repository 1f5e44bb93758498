"""The live layer's bursts (``live.writes.run_batched``): the players' commands of one game that come while its
turn is taken run together in the next turn, one answer each; a request given up before its turn is not run."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from sportmafia.live import app_state, run_batched, run_writer
from sportmafia.live.writes import _GameTurns
from sportmafia.store import Store, open_store


@pytest.fixture
def app() -> Iterator[FastAPI]:
    app = FastAPI()
    store: Store = open_store("sqlite://", migrate=True)
    app.state.store = store
    try:
        yield app
    finally:
        store.close()


class Doubler:
    """Runs a burst: each item doubled, 3 refused (an exception to raise for it alone); keeps the bursts."""

    def __init__(self) -> None:
        self.bursts: list[list[int]] = []

    def __call__(self, items: list[int]) -> list[Any]:
        self.bursts.append(list(items))
        return [ValueError(f"no {x}") if x == 3 else x * 2 for x in items]


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_what_comes_while_the_turn_is_taken_runs_together_next(app: FastAPI) -> None:
    async def scenario() -> None:
        run = Doubler()
        turns = app_state(app, "game_turns", _GameTurns)
        async with turns.turn("g1"):  # the host's command of the game is being written
            calls = [asyncio.create_task(run_batched(app, run, x, game_id="g1")) for x in range(1, 7)]
            other = asyncio.create_task(run_batched(app, run, 10, game_id="g2"))  # another game: not held up
            await _settle()
            assert run.bursts == [[10]] and await other == 20
        outs = await asyncio.gather(*calls, return_exceptions=True)
        assert run.bursts == [[10], [1, 2, 3, 4, 5, 6]]  # one turn for the six
        assert [str(o) if isinstance(o, Exception) else o for o in outs] == [2, 4, "no 3", 8, 10, 12]
        # the turn is shared with the single writes: a host's command after the burst waits for it
        first = asyncio.create_task(run_batched(app, run, 7, game_id="g1"))
        host = asyncio.create_task(run_writer(app, lambda: "host", game_id="g1"))
        assert await first == 14 and await host == "host"
    asyncio.run(scenario())


def test_a_request_given_up_before_its_turn_is_not_run(app: FastAPI) -> None:
    async def scenario() -> None:
        run = Doubler()
        turns = app_state(app, "game_turns", _GameTurns)
        async with turns.turn("g1"):
            kept = asyncio.create_task(run_batched(app, run, 1, game_id="g1"))
            given_up = asyncio.create_task(run_batched(app, run, 2, game_id="g1"))
            await _settle()
            given_up.cancel()
            await _settle()
        assert await kept == 2
        assert given_up.cancelled() and run.bursts == [[1]]
    asyncio.run(scenario())


def test_a_failing_database_refuses_the_whole_burst(app: FastAPI) -> None:
    def broken(items: list[int]) -> list[Any]:
        raise ConnectionError("the database went away")

    async def scenario() -> list[Any]:
        return await asyncio.gather(*(run_batched(app, broken, x, game_id="g1") for x in range(3)),
                                    return_exceptions=True)
    outs = asyncio.run(scenario())
    assert all(isinstance(o, ConnectionError) for o in outs)

"""``Store.append_many``: a burst of one game's commands (a vote's hands raised at once) in one transaction,
each answered as if appended alone in turn: the same log, the same answers, the same refusals."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from sportmafia.bots.random_play import random_command
from sportmafia.engine import DealCards, Game, RuleViolation
from sportmafia.rules import get_ruleset
from sportmafia.store import Append, AppendResult, GameNotFound, StaleSequence, Store

from .test_store import DECK, assert_consistent, event_count, new_game


class Revoked(Exception):
    """What the test's check raises for a command it refuses."""


def refuse(_conn: Any) -> None:
    raise Revoked


@contextmanager
def commits(store: Store) -> Iterator[list[int]]:
    """The number of commits on the store's database while the block runs (a list of one)."""
    count = [0]

    def on_commit(_conn: Any) -> None:
        count[0] += 1
    event.listen(store.engine, "commit", on_commit)
    try:
        yield count
    finally:
        event.remove(store.engine, "commit", on_commit)


def planned(seed: int, players: int = 10) -> list[tuple[Any, int, int]]:
    """A whole random game as (command, the seq it is executed at, the seed of its chance), on a mirror."""
    rng = random.Random(seed)
    mirror = Game(get_ruleset("club"), players)
    mirror.execute(DealCards(roles=DECK))
    out: list[tuple[Any, int, int]] = []
    while not mirror.over and len(out) < 3000:
        command = random_command(mirror, rng)
        at, chance = len(mirror.log), rng.randrange(1 << 30)
        mirror.execute(command, rng=random.Random(chance))
        out.append((command, at, chance))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_appended_in_bursts_is_the_game_appended_one_by_one(store: Store, seed: int) -> None:
    """Random games in random bursts, each with a command sent twice in it, a stale one and one its check
    refuses: the log, every answer and every refusal are those of the commands appended alone in turn; one
    commit per burst."""
    rng = random.Random(seed)
    plan = planned(seed)
    one_by_one, in_bursts = new_game(store), new_game(store)
    for game_id in (one_by_one, in_bursts):
        store.append(game_id, DealCards(roles=DECK), expected_seq=0, command_id="deal")
    ids = [str(uuid.uuid4()) for _ in plan]
    i = 0
    bursts = 0
    while i < len(plan):
        size = rng.randint(1, 8)
        burst: list[Append] = []
        for k in range(i, min(i + size, len(plan))):
            command, at, chance = plan[k]
            burst.append(Append(command, at, ids[k], rng=random.Random(chance)))
            roll = rng.random()
            if roll < 0.15:  # the same command again, at once: its first answer
                burst.append(Append(command, at, ids[k], rng=random.Random(chance)))
            elif roll < 0.25:  # decided on an older state, with nobody to say it still stands: stale
                burst.append(Append(command, max(0, at - 1), str(uuid.uuid4())))
            elif roll < 0.3:
                burst.append(Append(command, at + len(plan), str(uuid.uuid4()), check=refuse))
        alone: list[AppendResult | Exception] = []
        for a in burst:
            try:
                alone.append(store.append(one_by_one, a.command, expected_seq=a.expected_seq, command_id=a.command_id,
                                          rng=random.Random(plan[ids.index(a.command_id)][2])
                                          if a.command_id in ids else None, check=a.check))
            except (StaleSequence, RuleViolation, Revoked) as exc:
                alone.append(exc)
        with commits(store) as count:
            together = store.append_many(in_bursts, burst)
        assert count[0] == 1
        bursts += 1
        assert len(together) == len(alone)
        for x, y in zip(together, alone, strict=True):
            assert type(x) is type(y)
            if isinstance(x, AppendResult) and isinstance(y, AppendResult):
                assert (x.events, x.first_seq, x.next_seq, x.replayed) == (y.events, y.first_seq, y.next_seq,
                                                                           y.replayed)
                assert x.head_seq == store.game(in_bursts).next_seq
            elif isinstance(x, StaleSequence) and isinstance(y, StaleSequence):
                assert (x.expected, x.next_seq) == (y.expected, y.next_seq)
        i += size
    assert bursts > 10
    assert store.events_since(in_bursts) == store.events_since(one_by_one)
    assert assert_consistent(store, in_bursts).over


def test_a_refused_command_in_a_burst_leaves_the_others(store: Store) -> None:
    game_id = new_game(store)
    deal = Append(DealCards(roles=DECK), 0, "deal")
    again = Append(DealCards(roles=DECK), 2, "deal-again")  # dealt already: the engine refuses it
    with commits(store) as count:
        out = store.append_many(game_id, [deal, again, Append(DealCards(roles=DECK), 0, "deal")])
    assert count[0] == 1
    assert isinstance(out[0], AppendResult) and not out[0].replayed
    assert isinstance(out[1], RuleViolation)
    assert isinstance(out[2], AppendResult) and out[2].replayed and out[2].events == out[0].events
    assert event_count(store, game_id) == out[0].next_seq
    [refused] = store.append_many(game_id, [again])  # nothing new at all: nothing written
    assert isinstance(refused, RuleViolation) and event_count(store, game_id) == out[0].next_seq
    [missing] = store.append_many("no-such-game", [deal])
    assert isinstance(missing, GameNotFound)

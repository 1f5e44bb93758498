"""The store on every backend: round trips, whole games, the append contract, races."""

from __future__ import annotations

import random
import sqlite3
import threading
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from sqlalchemy import create_engine, func, insert, select

from sportmafia.bots.random_play import random_command
from sportmafia.engine import Advance, Award, DealCards, Game, Nominate, RuleViolation, Undo, replay
from sportmafia.engine.record import command_for
from sportmafia.rules import get_ruleset
from sportmafia.store import (
    AppendResult,
    ClubNotFound,
    CorruptLog,
    GameEvent,
    GameNotFound,
    StaleSequence,
    Store,
    open_store,
    upgrade,
)
from sportmafia.store.models import utcnow

from ..waiting import GUARD, wait_until
from .conftest import another_thread_writing

DECK = ("civilian", "civilian", "don", "mafia", "civilian", "sheriff", "mafia", "civilian", "civilian", "civilian")


def cid() -> str:
    return str(uuid.uuid4())


def event_count(store: Store, game_id: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(GameEvent).where(GameEvent.game_id == game_id))
                   or 0)


def new_game(store: Store, preset: str = "club", players: int = 10) -> str:
    return store.create_game(store.create_club("Test club"), preset, players)


def dealt_game(store: Store) -> str:
    game_id = new_game(store)
    store.append(game_id, DealCards(roles=DECK), expected_seq=0, command_id=cid())
    return game_id


def assert_consistent(store: Store, game_id: str) -> Game:
    """The log has seqs 0..n-1, agrees with the summary row, and re-runs under the rules."""
    numbered = store.events_since(game_id, 0)
    assert [n for n, _ in numbered] == list(range(len(numbered)))
    assert store.game(game_id).next_seq == len(numbered)
    game = store.load(game_id)
    assert replay(store.record(game_id)).snapshot() == game.snapshot()
    return game


def play(store: Store, game_id: str, seed: int, limit: int = 100_000) -> Game:
    """Random legal commands through the store, mirrored on an in-memory game; returns the mirror."""
    rng = random.Random(seed)
    summary = store.game(game_id)
    mirror = Game(get_ruleset(summary.ruleset), summary.players, summary.names)
    seq = 0
    for _ in range(limit):
        if mirror.over:
            break
        command = random_command(store.load(game_id), rng)
        result = store.append(game_id, command, expected_seq=seq, command_id=cid(), rng=rng)
        assert not result.replayed and result.first_seq == seq
        # the mirror executes the command with the outcome the store drew
        assert tuple(mirror.execute(command_for(result.events[0]))) == result.events
        seq = result.next_seq
        assert seq == len(mirror.log)
    return mirror


# --- round trips ---------------------------------------------------------------------------------------
def test_create_and_load_round_trip(store: Store) -> None:
    club = store.create_club("Red Square")
    names = [f"Nick {i}" for i in range(1, 11)]
    game_id = store.create_game(club, "club", 10, names)
    uuid.UUID(game_id)

    game = store.load(game_id)
    assert game.names == tuple(names) and game.n == 10 and game.rules == get_ruleset("club")
    assert game.snapshot() == Game(get_ruleset("club"), 10, names).snapshot()
    summary = store.game(game_id)
    assert (summary.status, summary.next_seq, summary.winner, summary.result) == ("dealing", 0, None, None)
    assert summary.created_at.tzinfo is not None and summary.updated_at == summary.created_at
    assert [g.id for g in store.list_games(club)] == [game_id]
    assert store.list_games(club + 1) == []
    assert store.events_since(game_id) == []


def test_a_club_variant_is_stored_whole(store: Store) -> None:
    variant = get_ruleset("club").variant("our club", withdrawal=False, protest=False)
    game_id = store.create_game(store.create_club("c"), variant, 10)
    assert store.load(game_id).rules == variant
    assert store.game(game_id).ruleset == "our club"


def test_unknown_game_and_club(store: Store) -> None:
    with pytest.raises(GameNotFound):
        store.load("no-such-game")
    with pytest.raises(GameNotFound):
        store.append("no-such-game", Advance(), expected_seq=0, command_id=cid())
    with pytest.raises(GameNotFound):
        store.events_since("no-such-game", 0)
    with pytest.raises(ClubNotFound):
        store.create_game(12345, "club", 10)


def test_list_games_newest_first(store: Store) -> None:
    club = store.create_club("c")
    ids = [store.create_game(club, "club", 10) for _ in range(3)]
    other = store.create_game(store.create_club("other"), "club", 10)
    listed = [g.id for g in store.list_games(club)]
    assert sorted(listed) == sorted(ids) and other not in listed
    created = [g.created_at for g in store.list_games(club)]
    assert created == sorted(created, reverse=True)


# --- whole games -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("preset", "players", "seed"), [("club", 10, 1), ("tournament", 12, 2)])
def test_a_whole_game_through_the_store(store: Store, preset: str, players: int, seed: int) -> None:
    game_id = new_game(store, preset, players)
    mirror = play(store, game_id, seed)
    assert mirror.over

    loaded = assert_consistent(store, game_id)
    assert loaded.snapshot() == mirror.snapshot()
    assert loaded.log == mirror.log
    summary = store.game(game_id)
    assert (summary.status, summary.winner, summary.result) == ("over", mirror.winner, mirror.result)
    assert summary.next_seq == len(mirror.log)
    assert store.events_since(game_id, 0) == list(enumerate(mirror.log))
    assert store.events_since(game_id, 7) == list(enumerate(mirror.log))[7:]
    assert store.events_since(game_id, len(mirror.log)) == []
    record = store.record(game_id)
    assert record["meta"]["game_id"] == game_id and record["ruleset"]["name"] == preset


def test_summary_columns_follow_the_game(store: Store) -> None:
    game_id = new_game(store)

    def summary() -> tuple[str, str | None, str | None, int]:
        row = store.game(game_id)
        return row.status, row.winner, row.result, row.next_seq

    assert summary() == ("dealing", None, None, 0)
    store.append(game_id, DealCards(roles=DECK), expected_seq=0, command_id=cid())
    assert summary() == ("playing", None, None, 2)
    store.append(game_id, Undo(), expected_seq=2, command_id=cid())
    assert summary() == ("dealing", None, None, 3)
    store.append(game_id, DealCards(), expected_seq=3, command_id=cid(), rng=random.Random(2))
    store.append(game_id, Award("red", "judge's decision"), expected_seq=5, command_id=cid())
    assert summary() == ("over", "red", "award", 7)
    store.append(game_id, Undo(), expected_seq=7, command_id=cid())
    assert summary() == ("playing", None, None, 8)
    assert_consistent(store, game_id)


# --- the append contract ------------------------------------------------------------------------------
def test_retry_answers_the_first_result_and_writes_nothing(store: Store) -> None:
    game_id = new_game(store)
    command_id = cid()
    first = store.append(game_id, DealCards(), expected_seq=0, command_id=command_id, rng=random.Random(5))
    assert not first.replayed and first.first_seq == 0 and first.next_seq == len(first.events) == first.head_seq
    written = event_count(store, game_id)

    # the answer was lost; the device sends the same command again, with the same id and seq
    again = store.append(game_id, DealCards(), expected_seq=0, command_id=command_id, rng=random.Random(99))
    assert again.replayed
    assert (again.events, again.first_seq, again.next_seq) == (first.events, first.first_seq, first.next_seq)
    assert event_count(store, game_id) == written
    assert store.game(game_id).next_seq == first.next_seq

    # after the game moved on, a late retry still gets the first answer, and head_seq tells how far it is
    advance = store.append(game_id, Advance(), expected_seq=first.next_seq, command_id=cid())
    late = store.append(game_id, DealCards(), expected_seq=0, command_id=command_id)
    assert late.replayed and late.events == first.events and late.next_seq == first.next_seq
    assert late.head_seq == advance.next_seq
    retry_advance = store.append(game_id, Advance(), expected_seq=123, command_id=command_id)
    assert retry_advance.events == first.events  # a command id names its first answer, whatever is sent
    assert event_count(store, game_id) == advance.next_seq


def test_a_command_id_is_required(store: Store) -> None:
    game_id = new_game(store)
    for bad in ("", "x" * 65):
        with pytest.raises(ValueError):
            store.append(game_id, DealCards(roles=DECK), expected_seq=0, command_id=bad)
    assert event_count(store, game_id) == 0


def test_stale_sequence_writes_nothing(store: Store) -> None:
    game_id = dealt_game(store)
    head = store.game(game_id).next_seq
    before = store.load(game_id).snapshot()
    for expected in (0, head - 1, head + 1, head + 50):
        with pytest.raises(StaleSequence) as info:
            store.append(game_id, Advance(), expected_seq=expected, command_id=cid())
        assert (info.value.next_seq, info.value.expected) == (head, expected)
    assert event_count(store, game_id) == head
    assert store.load(game_id).snapshot() == before


def test_rule_violation_writes_nothing(store: Store) -> None:
    game_id = new_game(store)
    command_id = cid()
    with pytest.raises(RuleViolation) as info:
        store.append(game_id, Nominate(by=1, target=5), expected_seq=0, command_id=command_id)
    assert info.value.code == "not-dealt"
    with pytest.raises(RuleViolation) as info:
        store.append(game_id, DealCards(), expected_seq=0, command_id=command_id)  # no rng, no outcome
    assert info.value.code == "need-rng"
    assert event_count(store, game_id) == 0
    assert store.game(game_id).next_seq == 0
    # a refused command used up nothing: its id can carry the next command
    result = store.append(game_id, DealCards(roles=DECK), expected_seq=0, command_id=command_id)
    assert not result.replayed and result.first_seq == 0


def test_a_player_acts_only_for_himself(store: Store) -> None:
    game_id = dealt_game(store)
    game = store.load(game_id)
    while game.step != "speech":
        head = store.game(game_id).next_seq
        store.append(game_id, Advance(), expected_seq=head, command_id=cid())
        game = store.load(game_id)
    head = store.game(game_id).next_seq
    with pytest.raises(RuleViolation) as info:
        store.append(game_id, Nominate(by=1, target=5), expected_seq=head, command_id=cid(), actor=2)
    assert info.value.code == "not-yours"
    result = store.append(game_id, Nominate(by=1, target=5), expected_seq=head, command_id=cid(), actor=1)
    assert result.events[0].to_json()["type"] == "nominated"


def test_no_other_writer_gets_between_read_and_write(store: Store, db_url: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """While an append is between reading the log and writing its events, another writer commits an event
    at the seq it is about to take.

    - PostgreSQL: the game row is locked FOR NO KEY UPDATE, which a writer that skips the lock (here: a raw
      insert) does not wait for; the append then meets the (game_id, seq) key, and the IntegrityError
      becomes StaleSequence, with nothing of the append written.
    - SQLite: the append began with BEGIN IMMEDIATE, so no other connection can write at all until it ends.
    """
    game_id = dealt_game(store)
    head = store.game(game_id).next_seq
    other: list[str] = []
    real_execute = Game.execute

    def execute_while_another_writes(game: Game, *args: Any, **kwargs: Any) -> Any:
        if not other:
            other.append(intrude(db_url, game_id, head))
        return real_execute(game, *args, **kwargs)

    monkeypatch.setattr(Game, "execute", execute_while_another_writes)
    if db_url.startswith("sqlite"):
        result = store.append(game_id, Advance(), expected_seq=head, command_id=cid())
        assert other == ["locked"] and result.first_seq == head
        assert_consistent(store, game_id)
        return
    with pytest.raises(StaleSequence) as info:
        store.append(game_id, Advance(), expected_seq=head, command_id=cid())
    assert other == ["written"]
    assert info.value.next_seq == head + 1
    assert event_count(store, game_id) == head + 1  # the intruder's row only
    assert store.game(game_id).next_seq == head
    with pytest.raises(CorruptLog):  # a log behind its summary row is refused, not folded
        store.load(game_id)


def intrude(db_url: str, game_id: str, seq: int) -> str:
    """Commit an event at ``seq`` from another connection, not taking the store's lock."""
    if db_url.startswith("sqlite"):
        raw = sqlite3.connect(db_url.removeprefix("sqlite:///"), timeout=0.2, isolation_level=None)
        try:
            raw.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            assert "locked" in str(exc)
            return "locked"
        finally:
            raw.close()
        return "written"
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(insert(GameEvent).values(game_id=game_id, seq=seq, type="advanced",
                                                  data={"type": "advanced"}, created_at=utcnow()))
    finally:
        engine.dispose()
    return "written"


# --- races ------------------------------------------------------------------------------------------------
def race(calls: list[Callable[[], AppendResult]]) -> list[AppendResult | BaseException]:
    """Run the calls in threads released at the same moment; their results or exceptions, in order."""
    barrier = threading.Barrier(len(calls))
    out: list[AppendResult | BaseException] = [RuntimeError("did not run")] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = calls[i]()
        except BaseException as exc:
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def test_two_devices_on_the_same_seq_one_wins(store: Store) -> None:
    game_id = dealt_game(store)
    for _ in range(8):
        head = store.game(game_id).next_seq
        results = race([partial(store.append, game_id, Advance(), expected_seq=head, command_id=cid())
                        for _ in range(2)])
        won = [r for r in results if isinstance(r, AppendResult)]
        lost = [r for r in results if isinstance(r, StaleSequence)]
        assert len(won) == 1 and len(lost) == 1, results
        assert won[0].first_seq == head
        assert lost[0].next_seq == won[0].next_seq == store.game(game_id).next_seq
    assert_consistent(store, game_id)


def test_the_same_command_sent_twice_at_once_is_applied_once(store: Store) -> None:
    game_id = dealt_game(store)
    for _ in range(5):
        head = store.game(game_id).next_seq
        command_id = cid()
        results = race([partial(store.append, game_id, Advance(), expected_seq=head, command_id=command_id)] * 2)
        assert all(isinstance(r, AppendResult) for r in results), results
        done = [r for r in results if isinstance(r, AppendResult)]
        assert sorted(r.replayed for r in done) == [False, True]
        assert done[0].events == done[1].events and done[0].first_seq == done[1].first_seq == head
    assert_consistent(store, game_id)


def test_many_writers_leave_a_log_without_gaps(store: Store) -> None:
    """Four threads keep appending whatever is legal, each from what it last saw; they only ever lose to
    each other by StaleSequence, and the log stays whole."""
    game_id = dealt_game(store)
    stale = [0]

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(15):
            game = store.load(game_id)
            if game.over:
                return
            try:
                store.append(game_id, random_command(game, rng), expected_seq=len(game.log), command_id=cid(),
                             rng=rng)
            except StaleSequence:
                stale[0] += 1

    threads = [threading.Thread(target=writer, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert_consistent(store, game_id)


def test_two_stores_on_one_database_see_each_others_appends(store: Store, db_url: str) -> None:
    """Each store keeps the parsed logs it has read; another store (another process) appending to the same game
    must still be seen at once, by reads and by appends, with nothing read twice or missed."""
    other = open_store(db_url)
    try:
        game_id = new_game(store)
        rng = random.Random(5)
        stores = (store, other)
        for i in range(120):
            here = stores[i % 2 if i < 60 else (i // 7) % 2]
            game = here.load(game_id)  # this store's view, read through its own cache
            if game.over:
                break
            there = stores[1 - stores.index(here)]
            assert there.load(game_id).log == game.log
            here.append(game_id, random_command(game, rng), expected_seq=len(game.log), command_id=cid(), rng=rng)
        for s in stores:
            assert_consistent(s, game_id)
        assert store.load(game_id).log == other.load(game_id).log
    finally:
        other.close()


def test_write_turn_is_given_only_when_no_other_thread_writes(store: Store, db_url: str) -> None:
    """SQLite: the turn is free, held to the end of its block (writes inside take the lock again at once), and
    refused while another thread writes; PostgreSQL never gives it (its writers wait on the server)."""
    game_id = dealt_game(store)
    sqlite = db_url.startswith("sqlite")
    with store.write_turn() as now:
        assert now is sqlite
        head = store.game(game_id).next_seq
        store.append(game_id, Advance(), expected_seq=head, command_id=cid())  # re-enters: no deadlock
        seen: list[bool] = []

        def other() -> None:
            with store.write_turn() as theirs:
                seen.append(theirs)
        t = threading.Thread(target=other)
        t.start()
        t.join(5)
        assert seen == [False]
    # another thread in the middle of an append: no turn here until it is done
    with another_thread_writing(store), store.write_turn() as now:
        assert now is False
    with store.write_turn() as now:
        assert now is sqlite
    assert_consistent(store, game_id)


def test_write_turn_waits_at_most_its_wait_for_another_threads_write(store: Store, db_url: str) -> None:
    """SQLite: ``write_turn(wait)`` is given once another thread's write ends within ``wait`` (the web app's
    appends wait these few milliseconds on the loop rather than go to a worker thread), and refused after
    ``wait`` while it goes on. PostgreSQL never gives it."""
    game_id = dealt_game(store)
    sqlite = db_url.startswith("sqlite")
    order: list[str] = []
    inside, asking = threading.Event(), threading.Event()

    def hold() -> None:  # another thread's write, which ends once this thread asks for its turn
        with store.write_conn():
            inside.set()
            assert asking.wait(GUARD)
            order.append("the other write ends")
    other = threading.Thread(target=hold)
    other.start()
    assert inside.wait(GUARD)
    order.append("asked")
    asking.set()
    with store.write_turn(wait=GUARD) as now:
        assert now is sqlite
        order.append("given")
        head = store.game(game_id).next_seq
        store.append(game_id, Advance(), expected_seq=head, command_id=cid())
    other.join()
    if sqlite:  # given once the other write ended, not before
        assert order == ["asked", "the other write ends", "given"], order
    with another_thread_writing(store), store.write_turn(wait=0.2) as now:
        assert now is False  # refused after its wait, the other write still going on
    assert_consistent(store, game_id)


def test_a_failing_check_refuses_the_command_and_writes_nothing(store: Store) -> None:
    """``append(check=...)`` runs inside the transaction, before anything: what it raises refuses the command
    (a retry of one applied before too: a revoked link gets no answer), and nothing is written."""
    game_id = dealt_game(store)
    head = store.game(game_id).next_seq

    def revoked(_conn: Any) -> None:
        raise LookupError("revoked")
    with pytest.raises(LookupError):
        store.append(game_id, Advance(), expected_seq=head, command_id="c1", check=revoked)
    assert store.game(game_id).next_seq == head
    seen: list[Any] = []
    done = store.append(game_id, Advance(), expected_seq=head, command_id="c1", check=seen.append)
    assert len(seen) == 1 and done.first_seq == head and not done.replayed
    with pytest.raises(LookupError):
        store.append(game_id, Advance(), expected_seq=head, command_id="c1", check=revoked)
    assert store.game(game_id).next_seq == done.next_seq
    assert_consistent(store, game_id)


def test_sqlite_checkpoints_run_in_their_own_thread_not_in_a_commit(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite file: no commit checkpoints (``wal_autocheckpoint=0`` on every connection), a thread of the store
    does, every ``CHECKPOINT_SECONDS``, copying the whole log while nobody reads; closing the store stops it and
    makes a last one. PostgreSQL (and SQLite in memory): no such thread."""
    from sportmafia.store import db

    monkeypatch.setattr(db, "CHECKPOINT_SECONDS", 0.05)
    upgrade(db_url)
    store = open_store(db_url)
    try:
        if not db_url.startswith("sqlite"):
            assert store.checkpointer is None
            return
        checkpointer = store.checkpointer
        assert checkpointer is not None and checkpointer.every == 0.05
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        before = checkpointer.runs
        game_id = dealt_game(store)
        for _ in range(5):
            head = store.game(game_id).next_seq
            store.append(game_id, Advance(), expected_seq=head, command_id=cid())
        wait_until(lambda: checkpointer.runs >= before + 2, "two checkpoints by the store's thread")
        # the thread's next wait is long: after the one it may be making now, the checkpoint below is alone
        # (one made at the same moment by the thread would find the log busy)
        checkpointer.every = 3600.0
        made = checkpointer.runs
        wait_until(lambda: checkpointer.runs > made, "the thread's last checkpoint before its long wait")
        busy, frames, copied = checkpointer.checkpoint()
        assert busy == 0 and frames > 0 and copied == frames  # the appends' pages, all in the file
        runs = checkpointer.runs
    finally:
        store.close()
    assert store.checkpointer is not None and not store.checkpointer._thread.is_alive()
    assert store.checkpointer.runs > runs  # a last one at close
    with open_store(db_url) as again:
        assert_consistent(again, game_id)
    with open_store("sqlite://") as memory:
        assert memory.checkpointer is None  # an in-memory database has no log to copy


def test_after_sees_the_game_the_append_committed(store: Store) -> None:
    """``append(after=...)`` is called once, after the commit, with the game the events leave; its value is the
    result's ``after``. A replay, a refused command and a stale one do not call it."""
    game_id = dealt_game(store)
    seen: list[tuple[int, str]] = []

    def after(game: Game) -> str:
        seen.append((len(game.log), game.step))
        return "made"
    head = store.game(game_id).next_seq
    result = store.append(game_id, Advance(), expected_seq=head, command_id="a1", after=after)
    assert result.after == "made" and seen == [(result.next_seq, store.load(game_id).step)]
    assert store.append(game_id, Advance(), expected_seq=head, command_id="a1", after=after).after is None
    with pytest.raises(StaleSequence):
        store.append(game_id, Advance(), expected_seq=head, command_id="a2", after=after)
    with pytest.raises(RuleViolation):
        store.append(game_id, Nominate(1, 2), expected_seq=result.next_seq, command_id="a3", after=after)
    assert len(seen) == 1
    assert_consistent(store, game_id)


def test_two_processes_appending_in_turn_fold_only_what_the_other_added(db_url: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Two stores on one database, as two server processes: each append takes the game as the last append of
    ITS process left it and folds in only what the other process added since (no read or fold of the whole log);
    whatever the interleaving, the game each process appends to is the game the stored log folds into, and
    what ``log_since`` (the process's sockets' read) returns continues the log exactly."""
    one, two = open_store(db_url, migrate=True), open_store(db_url)
    whole_folds: list[Store] = []  # appends that folded the whole log
    take = Store._take_folded

    def taking(self: Store, s: Any, row: Any) -> Game:
        kept = self._writable.get(row.id)
        game = take(self, s, row)
        if game is not kept:
            whole_folds.append(self)
        return game
    monkeypatch.setattr(Store, "_take_folded", taking)
    try:
        game_id = dealt_game(one)
        two.append(game_id, Advance(), expected_seq=len(one.load(game_id).log), command_id=cid())
        assert whole_folds == [one, two]  # the first append of the second process: it had never read the game
        rng = random.Random(21)
        for i in range(80):
            store = one if rng.random() < 0.5 else two
            game = store.load(game_id)
            if game.over:
                break
            command = random_command(game, rng)
            result = store.append(game_id, command, expected_seq=len(game.log), command_id=cid(), rng=rng)
            folded = Game.from_events(game.rules, game.n, [ev for _, ev in store.events_since(game_id)])
            kept = store._writable[game_id]  # what this process's next append starts from
            assert kept.snapshot() == folded.snapshot() and kept.log == folded.log, f"move {i}"
            other = two if store is one else one
            since = max(0, result.first_seq - rng.randrange(3))
            assert list(other.log_since(game_id, since)) == folded.log[since:]
        assert whole_folds == [one, two], "an append refolded the whole log"
        assert_consistent(one, game_id)
    finally:
        one.close()
        two.close()

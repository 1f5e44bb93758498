"""A writer killed with SIGKILL in the middle of its appends leaves a SQLite log that is whole: every
append it reported as committed is there, and nothing half-written is."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import text

from sportmafia.bots.random_play import random_command
from sportmafia.engine import replay
from sportmafia.store import open_store

CHILD = r"""
import random, sys, uuid
from sportmafia.bots.random_play import random_command
from sportmafia.store import open_store

url, club, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
store = open_store(url)
rng = random.Random(seed)
while True:
    game_id = store.create_game(club, "club", 10)
    print("game", game_id, flush=True)
    seq = 0
    while True:
        game = store.load(game_id)
        if game.over:
            break
        result = store.append(game_id, random_command(game, rng), expected_seq=seq, command_id=str(uuid.uuid4()),
                              rng=rng)
        seq = result.next_seq
        print("committed", seq, flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("kill_after", [40, 97, 230])  # events committed before the kill
def test_a_killed_writer_leaves_a_whole_log(tmp_path: Path, kill_after: int) -> None:
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    with open_store(url, migrate=True) as store:
        club = store.create_club("Crash club")

    stderr = (tmp_path / "child.err").open("w")
    child = subprocess.Popen([sys.executable, "-c", CHILD, url, str(club), str(kill_after)],
                             stdout=subprocess.PIPE, stderr=stderr, text=True, env={**os.environ})
    committed: dict[str, int] = {}  # game id: the next seq after the child's last reported commit
    current = ""
    try:
        assert child.stdout is not None
        for line in child.stdout:  # to the kill_after-th commit (or the child's end: then the assertion below)
            word, value = line.split()
            if word == "game":
                current = value
                committed[current] = 0
            else:
                committed[current] = int(value)
                if sum(committed.values()) >= kill_after:
                    break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        stderr.close()
    assert child.returncode == -signal.SIGKILL, (tmp_path / "child.err").read_text()
    assert sum(committed.values()) >= kill_after, (tmp_path / "child.err").read_text()

    with open_store(url) as store:
        with store.engine.connect() as conn:
            assert conn.scalar(text("PRAGMA integrity_check")) == "ok"
        stored = {g.id: g for g in store.list_games(club)}
        assert set(committed) <= set(stored)
        for game_id, seq in committed.items():
            summary = stored[game_id]
            assert summary.next_seq >= seq  # everything reported as committed is there
            game = store.load(game_id)  # folds: no gap, and the log agrees with the summary row
            assert len(game.log) == summary.next_seq
            assert [n for n, _ in store.events_since(game_id)] == list(range(summary.next_seq))
            assert replay(store.record(game_id)).snapshot() == game.snapshot()  # and obeys the rules
        # the store goes on where the writer stopped
        last = max(committed, key=lambda g: stored[g].created_at)
        game = store.load(last)
        if not game.over:
            result = store.append(last, random_command(game, random.Random(0)), expected_seq=len(game.log),
                                  command_id=str(uuid.uuid4()), rng=random.Random(0))
            assert result.first_seq == len(game.log)

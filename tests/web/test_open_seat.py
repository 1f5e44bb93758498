"""The open seat protocol end to end (docs/bots.md, "The open seat protocol"): a real server (uvicorn, on SQLite)
runs a table none of whose seats it plays; ten outside processes take the ten seats by their links (nine
reference clients, ``sportmafia agent URL --bot NAME``, and the example agent ``examples/seat_agent.py``) and
play a whole game against it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
import uvicorn

from sportmafia.store import Store
from sportmafia.store import claims as db
from sportmafia.web import create_app, ensure_demo

from ..waiting import wait_until
from .conftest import ADMIN_PASSWORD
from .server_chance import seed_tables

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    seed_tables(monkeypatch, 10)  # the table's deal and draws: the same game every run (the agents are seeded)
    monkeypatch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
    ensure_demo(store)
    port = free_port()
    running = uvicorn.Server(uvicorn.Config(create_app(store, secret_key="test-secret"), host="127.0.0.1", port=port,
                                           log_level="warning", ws="websockets"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    wait_until(lambda: running.started or not thread.is_alive(), "uvicorn serving")
    assert running.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(10)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_ten_outside_programs_play_a_whole_game(server: str, store: Store) -> None:
    with httpx.Client(base_url=server, timeout=30) as host:
        csrf = host.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD}).json()["csrf_token"]
        headers = {"X-CSRF-Token": csrf}
        roster = [p["id"] for p in host.get("/api/players").json()["players"]][:10]
        game_id = host.post("/api/games", json={"preset": "club", "players": 10, "roster": roster},
                            headers=headers).json()["id"]
        assert host.post(f"/api/games/{game_id}/online", headers=headers).status_code == 200
        links = host.post(f"/api/games/{game_id}/online/links", headers=headers).json()["links"]
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        procs = []
        for link in links:
            if link["seat"] == 10:  # the example agent: the protocol with nothing but `websockets`
                args = [sys.executable, str(ROOT / "examples" / "seat_agent.py"), link["url"]]
            else:
                args = [sys.executable, "-m", "sportmafia.cli", "agent", "--bot",
                        "belief" if link["seat"] == 1 else "baseline", "--seed", str(link["seat"])]
                env_link = {**env, "SPORTMAFIA_SEAT_URL": link["url"]}  # the link kept out of the process list
            procs.append(subprocess.Popen(args, env=env_link if link["seat"] != 10 else env, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True))
        # the server runs the table (deals, ends the speeches, says "Next") as fast as the programs answer
        r = host.put(f"/api/games/{game_id}/online/bots", json={"agents": {}, "runs_table": True, "pace": "agents"},
                     headers=headers)
        assert r.status_code == 200, r.text
        outs = []
        for proc in procs:
            out, err = proc.communicate(timeout=240)
            assert proc.returncode == 0, err[-2000:]
            outs.append(out)
    game = store.load(game_id)
    assert game.over
    ends = [json.loads(out.strip().splitlines()[-1]) for out in outs[:9]]
    assert {e["winner"] for e in ends} == {game.winner} and [e["seat"] for e in ends] == list(range(1, 10))
    assert sum(e["sent"].get("command", 0) for e in ends) > 0
    assert outs[9].startswith("the end:")
    said = db.claims(store, game_id)
    assert said and {s.claim.seat for s in said} <= set(range(1, 11))

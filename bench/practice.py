"""Practice tables benchmark: how long a person waits for a bot at a practice table (docs/bots.md).

Practice tables are opened on a server app (SQLite in a temporary folder, the live layer and the driver of
``live/driver.py`` as ``sportmafia serve`` runs them) and played to their ends at once, several at a time, the
person passing each turn at once on his phone's socket (the bots' speeches and the nights are scaled down by
``$SPORTMAFIA_PACE_SCALE`` so that the games take seconds). Each bot's answer is timed by the driver from the read
that showed it its decision to its command committed (or its claims kept): the store's read of the new events,
the bot's thinking and the append, all of it.

Prints one JSON line per agent:
{"bench": "practice", "agent": ..., "tables": ..., "answers": ..., "answer_p50_ms": ..., "answer_p99_ms": ...,
 "answer_max_ms": ..., "target_ms": 50, "met": ..., "machine_loop_ms": ...}
Run: ``make bench`` or ``python bench/practice.py [--tables 4] [--agents baseline,belief]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import uuid
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sportmafia.collector import tune_gc
from sportmafia.live.driver import PACE_SCALE_ENV, drivers_of
from sportmafia.services.table_bots import open_practice
from sportmafia.store import open_store
from sportmafia.web import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent))
from online import machine_loop_ms

TARGET_MS = 50.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def person(client: TestClient, token: str, game_id: str) -> None:
    """The person at the table: on his phone's socket, he passes each turn at once (his speech ends, he does not
    vote), to the end of the game."""
    with client.websocket_connect("/ws/play", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token, "since": 0}))
        while True:
            m = json.loads(ws.receive_text())
            if m["type"] not in ("state", "events"):
                continue
            v = m["view"]
            if v["over"]:
                return
            if m.get("legal") or v["seat"] == v["viewer"]:
                ws.send_text(json.dumps({"type": "pass", "game_id": game_id, "seen": m["next_seq"],
                                         "command_id": uuid.uuid4().hex}))


def run(agent: str, tables: int, folder: Path) -> dict[str, Any]:
    store = open_store(f"sqlite:///{folder / f'{agent}.db'}", migrate=True)
    app = create_app(store, secret_key="bench-secret")
    tune_gc()  # as `sportmafia serve` tunes its process once its app is built
    with TestClient(app) as client:
        drivers = drivers_of(app)
        games, people = [], []
        for seat in range(1, tables + 1):
            made = open_practice(store, "club", agent, seat, "fast", "Bench")
            client.portal.call(drivers.ensure, made.game_id)  # type: ignore[union-attr]
            games.append(made.game_id)
            people.append(threading.Thread(target=person, args=(client, made.token, made.game_id), daemon=True))
            people[-1].start()
        for thread in people:
            thread.join(600)
        if not all(store.game(g).status == "over" for g in games):
            raise RuntimeError("the practice games did not end within 10 minutes")
        answers = [t * 1000 for g in games for t in drivers.drivers[g].answers]
    store.close()
    p99 = percentile(answers, 0.99)
    return {"bench": "practice", "agent": agent, "tables": tables, "answers": len(answers),
            "answer_p50_ms": round(statistics.median(answers), 2), "answer_p99_ms": round(p99, 2),
            "answer_max_ms": round(max(answers), 2), "target_ms": TARGET_MS, "met": p99 <= TARGET_MS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="practice tables played at once, per agent")
    parser.add_argument("--agents", default="baseline,belief")
    args = parser.parse_args()
    os.environ.setdefault(PACE_SCALE_ENV, "0.02")
    loop_ms = machine_loop_ms()
    with tempfile.TemporaryDirectory() as folder:
        for agent in args.agents.split(","):
            print(json.dumps({**run(agent, args.tables, Path(folder)), "machine_loop_ms": loop_ms}), flush=True)


if __name__ == "__main__":
    main()

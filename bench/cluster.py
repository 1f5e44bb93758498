"""Many server processes: the online ladder of ``bench/online.py`` against N ``sportmafia serve`` processes on one
PostgreSQL database and one Redis, the clients spread across the processes as a load balancer spreads
connections (each table's host keeps one process, as his console's connection does; each socket, seats' and
spectators', goes to the next process in turn, so every table's clients are split across the processes and its
moves reach them through Redis).

For each N of ``--processes`` (default ``1,2``): a fresh PostgreSQL database, N processes on ports of their own,
the same ladder of tables (``--start`` tables, then ``--step`` more per level) until the p99 from an action to
its arrival at every client passes ``--limit-ms``. Prints per level a JSON line to stderr (``bench/online.py``'s
fields, with ``server_cpu_each`` per process and ``other_cpu``: PostgreSQL's and Redis's processes), and on stdout
per N:

    {"bench": "cluster", "processes": N, "tables": ..., "p99_ms": ..., "server_cpu_ms_per_action": ..., ...}

then ``{"bench": "cluster-ratio", "ratio": tables(N=2) / tables(N=1), "target": 1.6, "met": ...}``.

The bench's own client runs on uvloop (the machine's two cores are shared by the bench, the servers, PostgreSQL
and Redis: what the bench spends is taken from the servers it measures).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import sys
import tempfile
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console import free_port, start_server, stop_server
from online import main_async

DATABASE = "sportmafia_cluster_bench"
OTHERS = ("postgres", "redis-server")


def fresh_database(url: str) -> str:
    """Drop and create the bench's database on the server of ``url``; returns its SQLAlchemy URL."""
    parsed = make_url(url)
    admin = parsed.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    return parsed.set(drivername="postgresql+psycopg", database=DATABASE).render_as_string(hide_password=False)


def unreachable(database_url: str, redis_url: str) -> str | None:
    """Why the bench cannot run here (PostgreSQL or Redis not answering), or None."""
    try:
        admin = make_url(database_url).set(drivername="postgresql", database="postgres")
        with psycopg.connect(admin.render_as_string(hide_password=False), connect_timeout=3):
            pass
    except Exception as exc:
        return f"PostgreSQL at {make_url(database_url).render_as_string()} cannot be reached: {exc}"
    try:
        import redis

        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except Exception as exc:
        return f"Redis at {redis_url} cannot be reached: {exc}"
    return None


def other_pids() -> list[int]:
    """PostgreSQL's and Redis's processes on this machine (their CPU is the set-up's, not the servers')."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if name in OTHERS:
                pids.append(int(entry.name))
    return pids


def run(coro: Any) -> Any:
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        return asyncio.run(coro)
    return uvloop.run(coro)


def measure(n: int, args: argparse.Namespace, start: int | None) -> dict[str, Any]:
    url = fresh_database(args.database_url)
    with tempfile.TemporaryDirectory(prefix="sportmafia-cluster-") as tmp:
        procs = []
        try:
            # the first process migrates the new database; the others start once it answers
            for i in range(n):
                procs.append((start_server(Path(tmp), port := free_port(), url, args.redis_url,
                                           log_name=f"server-{i}.log", pin_cores=args.pin_cores), port))
            bases = [f"http://127.0.0.1:{port}" for _proc, port in procs]
            pids = [proc.pid for proc, _port in procs]
            print(json.dumps({"processes": n, "bases": bases}), file=sys.stderr, flush=True)
            held = run(main_async(bases, args.step, args.max_tables, args.seconds, args.warmup, args.limit_ms,
                                  pids, start=start, extra_pids=other_pids, table_affinity=args.table_affinity))
        finally:
            for proc, _port in procs:
                stop_server(proc)
    gc.collect()
    return {"bench": "cluster", "processes": n, **{k: v for k, v in held.items() if k != "bench"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", default="1,2", help="the numbers of server processes, comma-separated")
    parser.add_argument("--start", default="", help="the first level's tables per number of processes, "
                                                    "comma-separated (default: --step)")
    parser.add_argument("--step", type=int, default=25, help="tables added per level")
    parser.add_argument("--max-tables", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--limit-ms", type=float, default=100.0)
    parser.add_argument("--table-affinity", action="store_true",
                        help="every client of a table on its host's process (a load balancer hashing on the table), "
                             "not spread across the processes")
    parser.add_argument("--pin-cores", action="store_true",
                        help="each server process on a core of its own (sportmafia serve --pin-cores)")
    parser.add_argument("--database-url", default=os.environ.get(
        "SPORTMAFIA_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL server (the bench makes its own database there)")
    parser.add_argument("--redis-url", default=os.environ.get("SPORTMAFIA_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"))
    args = parser.parse_args()
    reason = unreachable(args.database_url, args.redis_url)
    if reason is not None:  # make bench on a machine without them: say so, measure nothing
        print(json.dumps({"bench": "cluster", "skipped": reason}))
        return
    counts = [int(x) for x in args.processes.split(",")]
    starts = [int(x) for x in args.start.split(",")] if args.start else [args.step] * len(counts)
    gc.set_threshold(50_000, 20, 10)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    held: dict[int, int] = {}
    for n, start in zip(counts, starts, strict=True):
        result = measure(n, args, start)
        held[n] = result.get("tables") or 0
        print(json.dumps(result), flush=True)
    if 1 in held and 2 in held:
        ratio = held[2] / held[1] if held[1] else None
        print(json.dumps({"bench": "cluster-ratio", "tables_1": held[1], "tables_2": held[2],
                          "ratio": None if ratio is None else round(ratio, 2), "target": 1.6,
                          "met": ratio is not None and ratio >= 1.6}), flush=True)


if __name__ == "__main__":
    main()

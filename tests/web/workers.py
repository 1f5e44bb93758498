"""``sportmafia serve --workers N`` as a real process tree for the tests (tests/web/test_workers.py,
tests/web/test_worker_kill.py), on a fresh PostgreSQL schema and the shared Redis.

Which worker holds a connection is read from the kernel, not asked of the server: the connection's server-side
socket in ``/proc/net/tcp`` (its local port the server's, its remote port the client's) and the worker whose
open files hold that socket. A client that needs a given worker opens connections until one lands on it (the
workers accept from one listening socket, each connection on whichever worker takes it first)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx2 as httpx

from tests.store.conftest import database
from tests.waiting import GUARD, wait_until
from tests.web.conftest import require_redis

SRC = Path(__file__).resolve().parents[2] / "src"
ADMIN_PASSWORD = "correct horse battery"
T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _server_socket_inode(server_port: int, client_port: int) -> int | None:
    """The inode of the server side of the TCP connection 127.0.0.1:client_port -> 127.0.0.1:server_port."""
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], int(fields[9])
            if int(local.rsplit(":", 1)[1], 16) == server_port and int(remote.rsplit(":", 1)[1], 16) == client_port \
                    and inode:
                return inode
    return None


def _holds(pid: int, inode: int) -> bool:
    target = f"socket:[{inode}]"
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                return True
        except OSError:
            continue
    return False


class Workers:
    """``python -m sportmafia.cli serve --workers N`` on ``database_url`` and ``redis_url``."""

    def __init__(self, data: Path, database_url: str, redis_url: str | None, workers: int = 2,
                 pin_cores: bool = False) -> None:
        self.data = data
        self.pin_cores = pin_cores  # --pin-cores, the cores' slots in data/cores
        self.database_url = database_url
        self.redis_url = redis_url
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data / "server.log"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SPORTMAFIA_")}
        env.update(SPORTMAFIA_DATA=str(self.data), SPORTMAFIA_ADMIN_PASSWORD=ADMIN_PASSWORD,
                   SPORTMAFIA_SECRET_KEY="workers-test-secret", SPORTMAFIA_DATABASE_URL=self.database_url,
                   PYTHONUNBUFFERED="1", PYTHONPATH=os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")]))
        if self.redis_url:
            env["SPORTMAFIA_REDIS_URL"] = self.redis_url
        if self.pin_cores:
            env["SPORTMAFIA_CORES_DIR"] = str(self.data / "cores")
        return env

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "sportmafia.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--workers", str(self.workers), *(["--pin-cores"] if self.pin_cores else [])],
                env=self.env(), stdout=log, stderr=subprocess.STDOUT)
        self.wait_ready()

    def wait_ready(self) -> list[int]:
        """Until the parent has ``workers`` workers and every one of them answers ``/readyz`` with 200."""
        def ready() -> list[int] | None:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped:\n{self.log.read_text(errors='replace')}")
            pids = self.worker_pids()
            if len(pids) != self.workers:
                return None
            answered: set[int] = set()
            for _ in range(40 * self.workers):
                try:
                    with httpx.Client(base_url=self.url, timeout=3) as c:
                        r = c.get("/readyz")
                        pid = self.pid_of_response(r)
                        if r.status_code == 200 and pid is not None:
                            answered.add(pid)
                except httpx.TransportError:
                    return None
                if answered >= set(pids):
                    return pids
            return None
        return wait_until(ready, f"{self.workers} workers ready", timeout=3 * GUARD, every=0.05)  # processes start slowly on a loaded machine

    def worker_pids(self) -> list[int]:
        """The worker processes: the parent's children that uvicorn started (not multiprocessing's helpers)."""
        assert self.proc is not None
        return sorted(p for p in _children(self.proc.pid)
                      if "multiprocessing" in _cmdline(p) and "resource_tracker" not in _cmdline(p))

    def pid_of_port(self, client_port: int) -> int | None:
        """The worker that holds the connection from ``client_port``."""
        inode = _server_socket_inode(self.port, client_port)
        if inode is None:
            return None
        for pid in self.worker_pids():
            if _holds(pid, inode):
                return pid
        return None

    def pid_of_response(self, response: httpx.Response) -> int | None:
        stream = response.extensions.get("network_stream")
        addr = stream.get_extra_info("client_addr") if stream is not None else None
        return None if addr is None else self.pid_of_port(addr[1])

    def on_worker(self, pid: int, connect: Callable[[], T], port_of: Callable[[T], int],
                  close: Callable[[T], Any], tries: int = 200) -> T:
        """A connection (``connect()``) that landed on the worker ``pid``: others are closed and made again."""
        for _ in range(tries):
            conn = connect()
            if self.pid_of_port(port_of(conn)) == pid:
                return conn
            close(conn)
        raise AssertionError(f"no connection landed on worker {pid} in {tries} tries")

    def client(self, pid: int, cookie: str | None = None, csrf: str | None = None) -> httpx.Client:
        """An HTTP client whose keep-alive connection is held by the worker ``pid``."""
        def connect() -> tuple[httpx.Client, int]:
            c = httpx.Client(base_url=self.url, timeout=10)
            r = c.get("/healthz")
            stream = r.extensions["network_stream"]
            return c, int(stream.get_extra_info("client_addr")[1])
        client, _port = self.on_worker(pid, connect, lambda cp: cp[1], lambda cp: cp[0].close())
        if cookie is not None:
            client.headers["Cookie"] = cookie
        if csrf is not None:
            client.headers["X-CSRF-Token"] = csrf
        return client

    def kill_worker(self, pid: int) -> None:
        os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                for pid in self.worker_pids():
                    os.kill(pid, signal.SIGKILL)
                self.proc.kill()
                self.proc.wait(timeout=10)


def log_in(client: httpx.Client, login: str = "admin", password: str = ADMIN_PASSWORD) -> tuple[str, str]:
    """Log in on ``client``; returns the session's cookie header and CSRF token (set on the client too)."""
    r = client.post("/api/login", json={"login": login, "password": password})
    assert r.status_code == 200, r.text
    secret = r.cookies.get("sportmafia_session")
    assert secret
    cookie = f"sportmafia_session={secret}"
    client.headers["Cookie"] = cookie
    client.headers["X-CSRF-Token"] = r.json()["csrf_token"]
    client.cookies.clear()
    return cookie, r.json()["csrf_token"]


@contextmanager
def running_workers(data: Path, pin_cores: bool = False) -> Iterator[Workers]:
    """``serve --workers 2`` on a fresh PostgreSQL schema and the test Redis, its data in ``data``; stopped after."""
    redis = require_redis()
    with database("postgresql", data) as url:
        srv = Workers(data, url, redis, pin_cores=pin_cores)
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()

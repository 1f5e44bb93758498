"""Private Redis and PostgreSQL servers for the fault tests (tests/web/test_fault_redis.py,
tests/web/test_fault_postgres.py): started, killed or stopped, and started again, without touching the shared
servers other tests run against (127.0.0.1:5432 and :6379).

- :class:`PrivateRedis`: ``redis-server`` on a free port, with no persistence.
- :class:`PrivatePostgres`: a cluster made by ``initdb`` (``--no-sync``, ``fsync = off``: a test cluster that
  dies with the machine is fine; a stop with ``-m immediate`` is a crash of the server, not of the machine, so
  whatever a commit wrote is still there), run as the user ``postgres`` when we are root (initdb refuses root).

Where a server's binaries are missing (or, as root, there is no ``postgres`` user), the test is skipped with the
reason printed, and fails when ``CI`` is "true", like the fixtures of tests/store/conftest.py."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.waiting import wait_until

SRC = str(Path(__file__).resolve().parent.parent / "src")
"""What a server process started by a test imports (this tree's code, not an installed copy)."""


def require(reason: str | None) -> None:
    """Skip the test (printing why) when ``reason`` is given; fail instead under ``CI=true``."""
    if reason is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the fault tests must run)", pytrace=False)
    print(f"\nskipping a fault test: {reason}", file=sys.stderr)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PrivateRedis:
    """A ``redis-server`` of the test's own, on a free port (the same port across restarts)."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="sm-redis-"))

    @staticmethod
    def missing() -> str | None:
        return None if shutil.which("redis-server") else "redis-server is not installed"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.binary is not None
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder), "--logfile", str(self.folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self.answers, "redis-server answering")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: the connections break at once, nothing is saved."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own, in a temporary folder, on a free port."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="sm-pg-"))
        self.data = self.folder / "data"
        self.sockets = self.folder / "sockets"
        self.sockets.mkdir()
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            for path in (self.folder, self.sockets):
                os.chown(path, owner.pw_uid, owner.pw_gid)

    @staticmethod
    def missing() -> str | None:
        if _pg_bin() is None:
            return "PostgreSQL's server binaries (initdb, pg_ctl in /usr/lib/postgresql/*/bin) are not installed"
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root, and there is no user 'postgres' to run initdb as"
            if shutil.which("runuser") is None:
                return "running as root, and runuser is not installed"
        return None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 60) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, timeout=timeout, cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stdout.decode(errors='replace')}"
                               f"{done.stderr.decode(errors='replace')}")

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "--no-sync", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                  "--no-instructions")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("fsync = off\nfull_page_writes = off\nlisten_addresses = '127.0.0.1'\n"
                       "max_connections = 40\nshared_buffers = 16MB\n")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-o", f"-p {self.port} -k {self.sockets}", "-l",
                  str(self.folder / "server.log"), "-w", "-t", "30", "start")

    def stop(self, mode: str = "immediate") -> None:
        """``immediate``: the server's processes quit at once, as in a crash (recovery at the next start);
        ``fast``: the connections are closed and the server shuts down cleanly."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def close(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
                   if p.split("/")[4].isdigit() else 0)
    return Path(found[-1]).parent if found else None

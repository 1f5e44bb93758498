"""The rules lab's runs started from the web (docs/lab.md, "The judge's page"): a club's admin or judge starts
a run of the lab (``sportmafia.lab``) in the background, follows its progress (games done, their rate, the
time left), stops it, resumes it, and downloads its report.

- **Where.** Each run is a folder ``$SPORTMAFIA_DATA/lab/club-<id>/<run id>/``: ``plan.json`` (what was asked,
  by whom), ``state.json`` (its status), the lab's own files (``batches.jsonl``, the resume file;
  ``summary.json``, ``games.csv``, the charts) and ``report-ru.html`` / ``report-en.html``. A run id is made
  here (its time and random hex) and a request's id is checked against its pattern, never used as a path
  otherwise.
- **Limits.** At most :data:`MAX_RUNNING` runs play at once in a process (a third is refused, "busy"), a run
  plays at most :data:`MAX_GAMES` games a variant and :data:`MAX_VARIANTS` variants, a club keeps at most
  :data:`MAX_RUNS` runs.
- **Stop and resume.** A stop is asked of the run's thread, which ends after the batch it waits for; the batches
  played are kept, and a resume plays only the others (the lab's resume file). A run writes its progress to
  ``state.json`` every two seconds, so that another server process (``serve --workers N``) shows it and may
  stop it (through a ``stop`` file in its folder); a run whose progress is older than two minutes was being
  played by a process that ended: it is shown stopped, and may be resumed.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..i18n import msg
from ..lab import LabError, Plan, play_batch, run
from ..lab.backends import Backend, Processes
from ..lab.batches import Task
from ..lab.report import render_report, write_report
from ..lab.variants import one_at_a_time
from ..store import UserRecord
from ..store.db import DATA_ENV, DEFAULT_DATA
from .errors import Refusal, conflict, invalid
from .seasons import STAFF

MAX_RUNNING = 2
"""Runs playing at once in one server process."""
MAX_GAMES = 20_000
"""Games a variant of one run."""
MAX_VARIANTS = 6
"""Variants of one run (the first and the options changed one at a time)."""
MAX_RUNS = 200
"""Runs a club keeps."""
MAX_SEED = 2**31 - 1
BATCH = 100
"""Games in one batch of a web run: a stop is answered within a batch."""
AGENTS = ("random", "baseline", "belief")
RUN_ID = re.compile(r"^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$")
STATUSES = ("running", "stopping", "stopped", "finished", "failed")
STOP = "stop"
"""A run's file that asks the server process playing it to stop (a stop asked of another process)."""
BEAT_S = 2.0
"""How often a run writes its progress to ``state.json`` (the other server processes read it there)."""
STALE_S = 120.0
"""A run whose progress is older than this is no longer played by any process: it is shown stopped."""


class Inline:
    """A backend that plays each batch in the run's own thread when it is waited for (a small server, the
    tests): one batch at a time, no process started."""

    name = "inline"

    def __init__(self, workers: int = 1) -> None:
        self.workers = 1

    def submit(self, task: Task) -> Task:
        return task

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        first = next(iter(pending))
        return {first}, pending - {first}

    def result(self, future: Any) -> dict[str, Any]:
        return play_batch(future)

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class LabRequest:
    """What a judge asks for: the base preset, the options changed one at a time (``option=value``, or a yes/no
    option's name for its other value), the agent, games per variant, the seed, the early stop."""

    preset: str
    changes: tuple[str, ...] = ()
    agent: str = "baseline"
    games: int = 1000
    seed: int = 0
    stop_when_significant: bool = False

    def plan(self, batch: int = BATCH) -> Plan:
        """The lab's plan, checked; a bad request is refused (``invalid``) with the lab's reason."""
        if not 1 <= self.games <= MAX_GAMES:
            raise invalid("bad-games", msg("A run plays from 1 to %(most)s games a variant.", most=MAX_GAMES))
        if len(self.changes) + 1 > MAX_VARIANTS:
            raise invalid("too-many-variants", msg("A run compares at most %(most)s variants.", most=MAX_VARIANTS))
        if not 0 <= self.seed <= MAX_SEED:
            raise invalid("bad-seed", msg("The seed is a whole number from 0 to %(most)s.", most=MAX_SEED))
        if self.agent not in AGENTS:
            raise invalid("bad-agent", msg("Unknown agent '%(agent)s'; agents: %(agents)s.", agent=self.agent,
                                           agents=", ".join(AGENTS)))
        if "+" in self.preset or "," in self.preset or any("+" in c or "," in c for c in self.changes):
            raise invalid("bad-variant", msg("Name a preset and each option changed on its own."))
        try:
            specs = one_at_a_time(self.preset.strip(), [c.strip() for c in self.changes])
            if len(set(specs)) != len(specs):
                raise invalid("same-variant", msg("Each option changed must make a variant of its own."))
            plan = Plan(tuple(specs), self.agent, self.games, 0, self.seed, max(1, min(batch, self.games)))
            plan.check()
        except LabError as exc:
            raise invalid("bad-variant", exc.text) from None
        return plan


def lab_root() -> Path:
    """``$SPORTMAFIA_DATA/lab`` (the data folder's, as the database's)."""
    return Path(os.environ.get(DATA_ENV) or DEFAULT_DATA).expanduser() / "lab"


def staff(user: UserRecord) -> int:
    """The user's club, if he is its admin or judge; else refused."""
    if user.role not in STAFF or user.club_id is None:
        raise Refusal("forbidden", "forbidden", msg("Only a club's admin or judge runs the rules lab."))
    return user.club_id


class Stopped(Exception):
    """Raised in a run's thread to end it at a stop."""


@dataclass
class Live:
    """A run this process plays: its thread, its counts and the stop asked."""

    club_id: int
    run_id: str
    thread: threading.Thread | None = None
    stop: bool = False
    done: int = 0
    total: int = 0
    started: float = 0.0
    first: int | None = None
    beat: float = 0.0

    def rate(self) -> tuple[float | None, int | None]:
        """Games a second since it started or resumed, and the seconds left at that rate."""
        elapsed = time.monotonic() - self.started
        played = self.done - (self.first if self.first is not None else self.done)
        if played <= 0 or elapsed <= 0:
            return None, None
        rate = played / elapsed
        return round(rate, 1), round((self.total - self.done) / rate)


class LabRuns:
    """The lab's runs of this process, in folders under ``root`` (default :func:`lab_root`); ``backend`` makes a
    run's backend from a number of workers (default: the machine's processes, ``workers`` of them); at most
    ``most_running`` runs play at once, in batches of ``batch`` games."""

    def __init__(self, root: Path | None = None, *, workers: int = 1,
                 backend: Callable[[int], Backend] | None = None, most_running: int = MAX_RUNNING,
                 batch: int = BATCH) -> None:
        self.root = root
        self.batch = batch
        self.most_running = most_running
        self.workers = max(1, workers)
        self.backend: Callable[[int], Backend] = backend or Processes
        self.lock = threading.Lock()
        self.live: dict[tuple[int, str], Live] = {}

    # --- folders ------------------------------------------------------------------------------------------
    def folder(self, club_id: int, run_id: str | None = None) -> Path:
        base = (self.root or lab_root()) / f"club-{int(club_id)}"
        if run_id is None:
            return base
        if not isinstance(run_id, str) or not RUN_ID.match(run_id):
            raise Refusal("not-found", "not-found", msg("No such lab run."))
        return base / run_id

    def _existing(self, club_id: int, run_id: str) -> Path:
        path = self.folder(club_id, run_id)
        if not (path / "plan.json").is_file():
            raise Refusal("not-found", "not-found", msg("No such lab run."))
        return path

    @staticmethod
    def _read(path: Path) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data

    @staticmethod
    def _write(path: Path, data: dict[str, Any]) -> None:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)

    # --- reads --------------------------------------------------------------------------------------------
    def runs(self, user: UserRecord) -> list[dict[str, Any]]:
        """The club's runs, the latest first."""
        club_id = staff(user)
        base = self.folder(club_id)
        if not base.is_dir():
            return []
        ids = sorted((p.name for p in base.iterdir() if RUN_ID.match(p.name) and (p / "plan.json").is_file()),
                     reverse=True)
        return [self._view(club_id, run_id, summary=False) for run_id in ids]

    def progress(self, user: UserRecord, run_id: str) -> dict[str, Any]:
        """A run: its plan, status, games done of all, their rate and the time left; its summary once it has one."""
        club_id = staff(user)
        self._existing(club_id, run_id)
        return self._view(club_id, run_id, summary=True)

    def _view(self, club_id: int, run_id: str, *, summary: bool) -> dict[str, Any]:
        path = self.folder(club_id, run_id)
        plan, state = self._read(path / "plan.json"), self._read(path / "state.json")
        with self.lock:
            live = self.live.get((club_id, run_id))
            status = state.get("status", "stopped")
            done, total = int(state.get("done", 0)), int(state.get("total", 0))
            rate, left = state.get("rate"), state.get("left_s")
            if live is not None:
                status = "stopping" if live.stop else "running"
                done, total = live.done, live.total or total
                rate, left = live.rate()
            elif status in ("running", "stopping"):
                if time.time() - float(state.get("beat", 0)) > STALE_S:
                    status, rate, left = "stopped", None, None  # the process that played it ended
                elif (path / STOP).exists():
                    status = "stopping"  # another server process plays it, and was asked to stop
        out: dict[str, Any] = {"id": run_id, "plan": plan, "status": status, "done": done, "total": total,
                               "rate": rate, "left_s": left,
                               "error": state.get("error"), "created_at": plan.get("created_at"),
                               "finished_at": state.get("finished_at"),
                               "reports": status == "finished" and (path / "report-en.html").is_file()}
        if summary and status == "finished":
            out["summary"] = self._read(path / "summary.json") or None
        return out

    def file(self, user: UserRecord, run_id: str, name: str) -> Path:
        """A finished run's file to download: ``report-ru.html``, ``report-en.html`` or ``games.csv``."""
        club_id = staff(user)
        path = self._existing(club_id, run_id)
        if name not in ("report-ru.html", "report-en.html", "games.csv") or not (path / name).is_file():
            raise Refusal("not-found", "not-found", msg("The run has no report yet."))
        if self._view(club_id, run_id, summary=False)["status"] != "finished":
            raise Refusal("not-found", "not-found", msg("The run has no report yet."))
        return path / name

    # --- changes ------------------------------------------------------------------------------------------
    def start(self, user: UserRecord, request: LabRequest) -> dict[str, Any]:
        """Start a run (checked whole before anything is written); refused while two play already."""
        club_id = staff(user)
        plan = request.plan(self.batch)
        base = self.folder(club_id)
        if base.is_dir() and sum(1 for p in base.iterdir() if RUN_ID.match(p.name)) >= MAX_RUNS:
            raise conflict("too-many-runs", msg("The club keeps at most %(most)s lab runs.", most=MAX_RUNS))
        now = datetime.now(UTC)
        run_id = f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        with self.lock:
            self._room()
            live = self.live[(club_id, run_id)] = Live(club_id, run_id)
        try:
            path = self.folder(club_id, run_id)
            path.mkdir(parents=True, mode=0o700)
            self._write(path / "plan.json", {"request": {**asdict(request), "changes": list(request.changes)},
                                             "specs": list(plan.specs), "agent": plan.agent, "games": plan.games,
                                             "seed": plan.seed, "players": plan.table(),
                                             "created_by": user.login, "created_at": now.isoformat()})
            self._write(path / "state.json", {"status": "running", "done": 0, "total": plan.games * len(plan.specs)})
        except BaseException:
            with self.lock:
                self.live.pop((club_id, run_id), None)
            raise
        self._launch(live, plan, request.stop_when_significant, path)
        return self._view(club_id, run_id, summary=False)

    def resume(self, user: UserRecord, run_id: str) -> dict[str, Any]:
        """Play the rest of a stopped run."""
        club_id = staff(user)
        path = self._existing(club_id, run_id)
        status = self._view(club_id, run_id, summary=False)["status"]
        if status not in ("stopped", "failed"):
            raise conflict("not-stopped", msg("Only a stopped run can be resumed."))
        request = self._read(path / "plan.json").get("request") or {}
        plan = LabRequest(str(request.get("preset", "")), tuple(request.get("changes", ())),
                          str(request.get("agent", "")), int(request.get("games", 0)), int(request.get("seed", 0)),
                          bool(request.get("stop_when_significant"))).plan(self.batch)
        with self.lock:
            if (club_id, run_id) in self.live:
                raise conflict("not-stopped", msg("Only a stopped run can be resumed."))
            self._room()
            live = self.live[(club_id, run_id)] = Live(club_id, run_id)
        self._launch(live, plan, bool(request.get("stop_when_significant")), path)
        return self._view(club_id, run_id, summary=False)

    def stop(self, user: UserRecord, run_id: str) -> dict[str, Any]:
        """Ask a running run to stop (it ends after the batch it waits for)."""
        club_id = staff(user)
        self._existing(club_id, run_id)
        with self.lock:
            live = self.live.get((club_id, run_id))
            if live is not None:
                live.stop = True
        if live is None:
            if self._view(club_id, run_id, summary=False)["status"] != "running":
                raise conflict("not-running", msg("The run is not running."))
            (self.folder(club_id, run_id) / STOP).touch()  # another server process plays it: it reads this
        return self._view(club_id, run_id, summary=False)

    def _room(self) -> None:
        if len(self.live) >= self.most_running:
            raise Refusal("busy", "busy", msg("The lab is busy: %(most)s runs are playing. Try again when one "
                                              "has finished.", most=self.most_running))

    def _launch(self, live: Live, plan: Plan, early: bool, path: Path) -> None:
        (path / STOP).unlink(missing_ok=True)
        live.total = plan.games * len(plan.specs)
        live.started = time.monotonic()
        live.thread = threading.Thread(target=self._play, args=(live, plan, early, path), daemon=True,
                                       name=f"lab-{live.run_id}")
        live.thread.start()

    def _play(self, live: Live, plan: Plan, early: bool, path: Path) -> None:
        def progress(done: int, total: int) -> None:
            with self.lock:
                if live.first is None:
                    live.first = done
                    live.started = time.monotonic()
                live.done, live.total = done, total
                stop = live.stop = live.stop or (path / STOP).exists()
                rate, left = live.rate()
                beat = time.time() - live.beat > BEAT_S
            if beat:  # for the other server processes (their pages read the folder)
                live.beat = time.time()
                self._write(path / "state.json", {"status": "running", "done": done, "total": total, "rate": rate,
                                                  "left_s": left, "beat": live.beat})
            if stop:
                raise Stopped

        state: dict[str, Any] = {"status": "failed", "total": live.total}
        pool = None
        try:
            pool = self.backend(self.workers)
            summary = run(plan, path, stop_when_significant=early, progress=progress, pool=pool)
            write_report(summary, path, "en")
            (path / "report.html").replace(path / "report-en.html")
            (path / "report-ru.html").write_text(render_report(summary, "ru"), encoding="utf-8")
            state = {"status": "finished", "done": live.done, "total": live.total,
                     "finished_at": datetime.now(UTC).isoformat()}
        except Stopped:
            state = {"status": "stopped", "done": live.done, "total": live.total}
        except Exception as exc:  # a failed run says why on its page
            state = {"status": "failed", "done": live.done, "total": live.total, "error": type(exc).__name__}
        finally:
            if pool is not None:
                pool.close()
            self._write(path / "state.json", state)
            with self.lock:
                self.live.pop((live.club_id, live.run_id), None)

    def close(self, timeout: float = 30.0) -> None:
        """Stop every run of this process and wait for their threads (the server's end, a test's)."""
        with self.lock:
            runs = list(self.live.values())
            for live in runs:
                live.stop = True
        for live in runs:
            if live.thread is not None:
                live.thread.join(timeout)

    def wait(self, timeout: float = 60.0) -> None:
        """Wait until no run plays (tests)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                threads = [x.thread for x in self.live.values() if x.thread is not None]
            if not threads:
                return
            threads[0].join(max(0.0, end - time.monotonic()))

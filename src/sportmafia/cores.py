"""Each server process on a core of its own (``sportmafia serve --pin-cores``, docs/deploy.md).

A server process runs its event loop and a dozen worker threads (the database's calls) that pass one
interpreter lock between them. Left to the system, those threads run on every core, and each hand-over of the
lock wakes a thread on another core (and its data moves with it). Kept on one core, the hand-overs are cheap:
measured with ``bench/cluster.py`` at 140 tables, a process spent 3.6 ms of CPU per action pinned against 4.2
unpinned and answered at half the p99, and in a ladder it held 200 tables against 120 (docs/deploy.md).

Which core: every pinned server on the machine holds a lock on one numbered slot file (``flock``) for as long
as it lives; a new one takes the lowest slot free and the core of that slot among the cores it may run on
(slot ``k`` on the ``k``-th core, round and round when there are more servers than cores). A server that dies
(even by SIGKILL) lets go of its slot, and the process that replaces it takes that slot, hence that core.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

SLOTS_MAX = 256
CORES_DIR_ENV = "SPORTMAFIA_CORES_DIR"

_held: list[tuple[int, int]] = []  # the slot file's descriptor (open and locked for the process's life), the core


def slots_dir() -> Path:
    """Where the slot files live: ``$SPORTMAFIA_CORES_DIR``, else a folder of this user's in the temporary
    folder (one per machine: the servers on it share its cores)."""
    chosen = os.environ.get(CORES_DIR_ENV)
    return Path(chosen) if chosen else Path(tempfile.gettempdir()) / f"sportmafia-cores-{os.getuid()}"


def pin_to_core(directory: Path | None = None) -> int | None:
    """Pin this process (the threads it has, and with them those it starts later) to one core: the core of the
    lowest slot no other live pinned server holds. Returns the core, or None where there is nothing to choose
    (one core allowed, or no CPU affinity on this system). Called once per process; called again, it keeps its
    slot. Raises :class:`UnsafeFolder` when the slots' folder is not this user's own."""
    import fcntl

    if not hasattr(os, "sched_setaffinity"):  # pragma: no cover - not Linux
        return None
    if _held:  # (once pinned, the process may run on that one core only)
        return _held[0][1]
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        return None
    folder = directory or slots_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    _check_folder(folder)
    for slot in range(SLOTS_MAX):
        # O_NOFOLLOW: a slot file is never a link to some other file; nothing is ever written to it
        fd = os.open(folder / f"slot-{slot}.lock", os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        core = allowed[slot % len(allowed)]
        _held.append((fd, core))
        _pin_threads(core)
        return core
    return None  # pragma: no cover - 256 pinned servers on one machine


class UnsafeFolder(Exception):
    """The slots' folder is not this user's own (another user could take or swap its files)."""


def _check_folder(folder: Path) -> None:
    """The folder is a directory (not a link) of this user's that nobody else may write in: in the shared
    temporary folder another user could have made it first."""
    import stat

    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise UnsafeFolder(f"{folder} is not a folder of this user's that only this user may write in")


def pin_said(who: str) -> str:
    """Pin this process (:func:`pin_to_core`); the line ``serve`` logs of it."""
    try:
        core = pin_to_core()
    except (UnsafeFolder, OSError) as exc:
        return f"--pin-cores: {who} not pinned: {exc}"
    if core is None:
        return f"--pin-cores: {who} not pinned (one core, or no CPU affinity on this system)"
    return f"--pin-cores: {who} on core {core}"


def _pin_threads(core: int) -> None:
    """Every thread of this process on ``core`` (``sched_setaffinity`` of a pid sets that one thread's mask;
    threads started later take the mask of the thread that starts them)."""
    try:
        tids = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:  # pragma: no cover - no /proc
        tids = [0]
    for tid in tids:
        with contextlib.suppress(OSError):  # a thread that just ended
            os.sched_setaffinity(tid, {core})

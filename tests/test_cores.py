"""``serve --pin-cores`` (sportmafia.cores): each server process, every thread of it, on one core; servers on one
machine take the cores in turn (the lowest slot free), and one started in place of a server that died (SIGKILL)
takes the core that one let go of. Each process here is a real one (pinning the tests' own process would bind
the tests), pinned with a slot folder of the test's own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sportmafia import cores

SRC = Path(__file__).resolve().parents[1] / "src"
CHILD = """
import json, os, sys, threading, time
from pathlib import Path
from sportmafia.cores import pin_to_core
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()   # a thread from before the pinning
core = pin_to_core(Path(sys.argv[1]))
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()   # and one started after it
masks = sorted({tuple(sorted(os.sched_getaffinity(int(t)))) for t in os.listdir("/proc/self/task")})
print(json.dumps({"core": core, "masks": masks, "again": pin_to_core(Path(sys.argv[1]))}), flush=True)
sys.stdin.read()
"""


@contextmanager
def pinned(folder: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, object]]]:
    import json

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        yield proc, json.loads(proc.stdout.readline())
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def allowed() -> list[int]:
    return sorted(os.sched_getaffinity(0))


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this system")
def test_servers_take_the_cores_in_turn_every_thread_on_its_own(tmp_path: Path) -> None:
    cpus = allowed()
    if len(cpus) < 2:
        with pinned(tmp_path) as (_proc, seen):
            assert seen["core"] is None  # one core: nothing to choose, nothing pinned
        return
    with pinned(tmp_path) as (_a, first), pinned(tmp_path) as (b, second), pinned(tmp_path) as (_c, third):
        assert [first["core"], second["core"], third["core"]] == [cpus[0], cpus[1], cpus[2 % len(cpus)]]
        for seen in (first, second, third):
            assert seen["masks"] == [[seen["core"]]]  # every thread, before the pinning and after
            assert seen["again"] == seen["core"]  # asked again: the same slot, no second one taken
        b.send_signal(signal.SIGKILL)
        b.wait(timeout=10)
        with pinned(tmp_path) as (_d, after):
            assert after["core"] == cpus[1]  # the slot (and core) the killed server let go of


def test_one_core_allowed_pins_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    monkeypatch.setattr(os, "sched_setaffinity", lambda *_a: pytest.fail("pinned with one core"), raising=False)
    assert cores.pin_to_core(tmp_path) is None
    assert not list(tmp_path.iterdir())  # no slot taken


def test_the_slots_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(cores.CORES_DIR_ENV, str(tmp_path / "x"))
    assert cores.slots_dir() == tmp_path / "x"
    monkeypatch.delenv(cores.CORES_DIR_ENV)
    assert cores.slots_dir().name == f"sportmafia-cores-{os.getuid()}"


def test_a_folder_another_user_could_write_in_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """In the shared temporary folder another user could make the slots' folder first and put links in it: a
    folder others may write in is refused, and a slot file that is a link is not followed (nor written)."""
    pinned_to: list[object] = []
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "sched_setaffinity", lambda *a: pinned_to.append(a), raising=False)
    monkeypatch.setattr(cores, "_held", [])
    folder = tmp_path / "open"
    folder.mkdir()
    folder.chmod(0o777)
    with pytest.raises(cores.UnsafeFolder):
        cores.pin_to_core(folder)
    monkeypatch.setenv(cores.CORES_DIR_ENV, str(folder))
    assert "the server not pinned:" in cores.pin_said("the server")
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    target = tmp_path / "precious"
    target.write_text("keep me")
    (own / "slot-0.lock").symlink_to(target)
    with pytest.raises(OSError):
        cores.pin_to_core(own)
    assert target.read_text() == "keep me"
    assert not cores._held and not pinned_to
    (own / "slot-0.lock").unlink()
    assert cores.pin_to_core(own) == 0 and pinned_to  # the same folder, the link gone: pinned

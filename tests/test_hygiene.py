"""No test depends on the machine's speed or on unseeded chance: every sleep, clock read and unseeded random in
tests/ (found by tests/hygiene.py) is in ``ALLOWED`` with the reason it must stay, and a new one fails here."""

from __future__ import annotations

from tests.hygiene import scan, scan_source

ALLOWED: dict[tuple[str, str, str], str] = {
    ("tests/waiting.py", "wait_until", "time.monotonic"):
        "the one poll loop: its deadline is a guard against a hang, never what a test asserts",
    ("tests/waiting.py", "wait_until", "time.sleep"): "the one poll loop waits between two looks at its condition",
    ("tests/waiting.py", "pause", "time.sleep"):
        "time passing on purpose; each caller of pause() is listed here with its reason",
    ("tests/web/test_server_crash.py", "test_sigkill_mid_game", "pause"):
        "the SIGKILL lands at a seeded moment inside a request in flight (before, during or after its commit): "
        "where in the request the server dies is the test's subject",
}
"""(file, function, call) -> why it stays. A line's number is not part of the key, so moving code keeps its entry;
a new call in the same function with the same name is covered by the entry, and reviewed with it."""


def test_no_sleeps_clocks_or_unseeded_chance_outside_the_allow_list() -> None:
    found = [f for f in scan() if f.key not in ALLOWED]
    assert not found, ("sleeps, clocks or unseeded chance in tests/ (wait for a condition with tests/waiting.py's "
                       "wait_until, assert no duration, seed random.Random(seed); or add the place to ALLOWED "
                       "with its reason):\n" + "\n".join(map(str, found)))


def test_every_allow_list_entry_is_still_used() -> None:
    used = {f.key for f in scan()}
    stale = sorted(set(ALLOWED) - used)
    assert not stale, f"entries of ALLOWED that match nothing any more (remove them): {stale}"


def test_every_allowed_place_says_why() -> None:
    assert all(reason.strip() for reason in ALLOWED.values())


NEW_TEST = '''
import asyncio
import random
import time
from time import perf_counter

from tests.waiting import pause


def test_reply_is_quick(page, client):
    started = time.monotonic()
    client.get("/")
    assert time.monotonic() - started < 1.0
    time.sleep(0.5)
    page.wait_for_timeout(200)
    pause(0.1)
    t0 = perf_counter()
    rng = random.Random()
    seat = random.choice([1, 2, 3])
    random.seed()
    seeded = random.Random(7)
    return seeded, t0, rng, seat


async def test_socket(ws):
    await asyncio.sleep(0)
    await asyncio.sleep(0.1)
    loop = asyncio.get_running_loop()
    return loop.time()
'''


def test_the_scan_finds_a_new_sleep_clock_and_unseeded_chance() -> None:
    found = {(f.line, f.kind, f.what, f.where) for f in scan_source(NEW_TEST, "tests/web/test_new.py")}
    assert found == {
        (5, "import", "from time import perf_counter", "<module>"),
        (11, "clock", "time.monotonic", "test_reply_is_quick"),
        (13, "clock", "time.monotonic", "test_reply_is_quick"),
        (14, "sleep", "time.sleep", "test_reply_is_quick"),
        (15, "sleep", "wait_for_timeout", "test_reply_is_quick"),
        (16, "sleep", "pause", "test_reply_is_quick"),
        (17, "clock", "time.perf_counter", "test_reply_is_quick"),
        (18, "chance", "random.Random()", "test_reply_is_quick"),
        (19, "chance", "random.choice", "test_reply_is_quick"),
        (20, "chance", "random.seed()", "test_reply_is_quick"),
        (27, "sleep", "asyncio.sleep", "test_socket"),
        (29, "clock", "loop.time", "test_socket"),
    }

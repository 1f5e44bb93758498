"""The login throttle (issue 14, item 4): an attempt is counted before its password is hashed, so a burst from
one address hashes at most the allowance; password checks run in a bounded pool of their own, so a burst never
stalls a host's game; strangers failing from other addresses do not stop the owner; the backoff grows.

The app is the production one (argon2-cffi's default parameters, the demo admin's real hash); the argon2
checks are counted by wrapping ``PasswordHasher.verify`` (the real check still runs)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from sportmafia.store import Store, open_store
from sportmafia.web import create_app, ensure_demo
from sportmafia.web.throttle import LoginThrottle, PasswordChecker, Ticket

from ..waiting import GUARD, wait_until
from .conftest import ADMIN_PASSWORD, Api

BURST = 30
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""For the accounts made here and the app's checker (its hash of unknown logins): the checks cost little. The
demo admin keeps argon2-cffi's defaults, as in production."""
OWNER_PASSWORD = "the owner's own password"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Store, int]]:
    path: Path = tmp_path_factory.mktemp("throttle") / "throttle.db"
    store = open_store(f"sqlite:///{path}", migrate=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
        setup = ensure_demo(store)
    assert setup.club_id is not None
    with TestClient(create_app(store, secret_key="throttle-test", passwords=PasswordChecker(CHEAP))) as client:
        yield client, store, setup.club_id
    store.close()


class Checks(list[str]):
    """The argon2 checks made while a test runs (the password each checked), and how many ran at once at most."""

    peak = 0


@pytest.fixture
def verifies(monkeypatch: pytest.MonkeyPatch) -> Checks:
    calls = Checks()
    lock = threading.Lock()
    running = [0]
    real = PasswordHasher.verify

    def counted(self: PasswordHasher, hash: str | bytes, password: str | bytes) -> bool:
        with lock:
            calls.append(str(password))
            running[0] += 1
            calls.peak = max(calls.peak, running[0])
        try:
            return real(self, hash, password)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(PasswordHasher, "verify", counted)
    return calls


def client_at(client: TestClient, host: str) -> TestClient:
    """Another browser, at address ``host``, whose requests run on the app's own event loop."""
    other = TestClient(client.app, client=(host, 40000))
    other.portal = client.portal
    return other


def login(client: TestClient, login: str, password: str) -> Any:
    return client.post("/api/login", json={"login": login, "password": password})


def test_a_burst_of_wrong_logins_hashes_only_the_allowance_and_games_go_on(
        server: tuple[TestClient, Store, int], verifies: Checks) -> None:
    client, store, club_id = server
    host = Api(client_at(client, "10.1.0.1"), store, club_id)
    host.login()
    game_id = host.new_game()
    assert host.get(f"/api/games/{game_id}").status_code == 200
    verifies.clear()
    stranger = client_at(client, "10.1.0.66")
    start = threading.Barrier(BURST + 1)
    # the checks are held until the host has read his game five times: were his reads queued behind the hashes
    # (the old code: up to 19 s), they would wait for ever and the held checks fail
    checking, gate = threading.Event(), threading.Event()
    counted = PasswordHasher.verify

    def held(self: PasswordHasher, hash: str | bytes, password: str | bytes) -> bool:
        checking.set()
        assert gate.wait(GUARD), "the host's reads waited behind the password checks"
        return counted(self, hash, password)

    def attempt(i: int) -> int:
        start.wait()
        return int(login(stranger, "admin", f"guess-{i}").status_code)

    def host_reads() -> bool:
        start.wait()
        wait_until(checking.is_set, "a password check under way")
        for _ in range(5):
            assert host.get(f"/api/games/{game_id}").status_code == 200
        answered_while_checks_were_held = not gate.is_set()
        gate.set()
        return answered_while_checks_were_held

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PasswordHasher, "verify", held)
        with ThreadPoolExecutor(BURST + 1) as pool:
            reads = pool.submit(host_reads)
            statuses = list(pool.map(attempt, range(BURST)))
            assert reads.result()
    assert len(verifies) <= 3, f"{len(verifies)} of {BURST} wrong logins were hashed"
    assert statuses.count(401) == len(verifies)
    assert statuses.count(429) == BURST - len(verifies)
    # one address over many accounts: at most its budget (10) is hashed
    verifies.clear()
    sprayer = client_at(client, "10.1.0.77")
    with ThreadPoolExecutor(BURST) as pool:
        statuses = list(pool.map(lambda i: int(login(sprayer, f"user{i}", "guess").status_code), range(BURST)))
    assert len(verifies) <= 10 and statuses.count(429) >= BURST - 10, statuses


def test_strangers_failing_from_other_addresses_do_not_stop_the_owner(
        server: tuple[TestClient, Store, int], verifies: Checks, monkeypatch: pytest.MonkeyPatch) -> None:
    client, store, club_id = server
    store.create_user(club_id, "owner", CHEAP.hash(OWNER_PASSWORD), "host")
    for i in range(12):  # twelve addresses guess the owner's password (more than the account's budget, 10)
        stranger = client_at(client, f"10.2.0.{i + 1}")
        assert login(stranger, "owner", f"guess-{i}").status_code == 401
    # the account is under attack: an address that failed on it waits from its first failure on
    again = login(stranger, "OWNER", "guess-again")
    assert again.status_code == 429 and 1 <= int(again.headers["Retry-After"]) <= 2
    owner = client_at(client, "10.2.1.1")  # the owner's own device: no failures from it
    r = login(owner, "owner", OWNER_PASSWORD)
    assert r.status_code == 200, r.text
    # and the owner who mistyped once still gets in a moment later
    typo = client_at(client, "10.2.1.2")
    assert login(typo, "owner", "typo").status_code == 401
    r = login(typo, "owner", OWNER_PASSWORD)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) <= 2
    # the moment it names comes (on the throttle's clock, moved on by the wait it asked for)
    throttle = client.app.state.login_throttle  # type: ignore[attr-defined]
    real, waited = throttle.clock, float(r.headers["Retry-After"])
    monkeypatch.setattr(throttle, "clock", lambda: real() + waited)
    assert login(typo, "owner", OWNER_PASSWORD).status_code == 200
    assert len(verifies) == 15


def test_the_password_checks_are_bounded_and_a_full_queue_answers_503_at_once(
        server: tuple[TestClient, Store, int], verifies: Checks, monkeypatch: pytest.MonkeyPatch) -> None:
    client, _store, _club = server
    checker = client.app.state.passwords  # type: ignore[attr-defined]
    start = threading.Barrier(BURST)
    # The checks are held until every attempt the checker could not take has had its answer: a 503 that waited
    # in a queue behind them would never come, the gate would time out, and the test fails (no wall clock).
    busy_answers = threading.Semaphore(0)
    gate = threading.Event()
    counted = PasswordHasher.verify

    def held(self: PasswordHasher, hash: str | bytes, password: str | bytes) -> bool:
        gate.wait(60)
        return counted(self, hash, password)

    def open_gate() -> bool:
        expected = BURST - checker.limit  # two checking, eight waiting: the other twenty are refused
        if all(busy_answers.acquire(timeout=60) for _ in range(expected)):
            gate.set()
            return True
        return False

    monkeypatch.setattr(PasswordHasher, "verify", held)

    def attempt(i: int) -> tuple[int, str | None]:
        c = client_at(client, f"10.3.0.{i + 1}")  # every one a clean (address, account) pair
        start.wait()
        r = login(c, "admin", f"guess-{i}")  # the demo admin's hash: a real argon2 check (64 MiB)
        if r.status_code == 503:
            busy_answers.release()
        return r.status_code, r.headers.get("Retry-After")

    with ThreadPoolExecutor(BURST + 1) as pool:
        opened = pool.submit(open_gate)
        results = list(pool.map(attempt, range(BURST)))
        refused_while_checks_were_held = opened.result()
    gate.set()
    statuses = [s for s, _ in results]
    assert refused_while_checks_were_held, statuses
    assert set(statuses) <= {401, 503}
    assert statuses.count(401) == len(verifies) == checker.limit
    busy = [ra for s, ra in results if s == 503]
    assert busy and all(ra == "1" for ra in busy)
    assert verifies.peak <= checker.workers == 2  # so at most 2 x 64 MiB at once


def test_the_backoff_grows_and_a_success_clears_it() -> None:
    now = [1000.0]
    throttle = LoginThrottle(address_budget=100, account_budget=100, clock=lambda: now[0])
    waits = []
    for _ in range(8):
        ticket = throttle.admit("10.4.0.1", "Admin")
        while not isinstance(ticket, Ticket):
            waits.append(round(ticket, 3))
            now[0] += ticket
            ticket = throttle.admit("10.4.0.1", "admin")  # the account is case-folded
        throttle.failed(ticket)
    assert waits == [2.0, 4.0, 8.0, 16.0, 32.0]  # 3 free failures, then 2 s, 4 s, 8 s ...
    assert throttle.backoff(40, 3) == throttle.cap == 900.0
    now[0] += 64
    ticket = throttle.admit("10.4.0.1", "admin")
    assert isinstance(ticket, Ticket)
    throttle.succeeded(ticket)
    for _ in range(3):
        again = throttle.admit("10.4.0.1", "admin")
        assert isinstance(again, Ticket)
        throttle.failed(again)
    # an attempt the checker could not take is not counted
    wait = throttle.admit("10.4.0.1", "admin")
    assert wait == 2.0
    now[0] += 2
    busy = throttle.admit("10.4.0.1", "admin")
    assert isinstance(busy, Ticket)
    throttle.cancel(busy)
    assert throttle.admit("10.4.0.1", "admin") is not None
    # one address over many accounts: its budget of failures in the window
    spray = LoginThrottle(clock=lambda: now[0])
    for i in range(10):
        assert isinstance(spray.admit("10.4.0.2", f"user{i}"), Ticket)
    assert spray.admit("10.4.0.2", "user10") == 300.0
    assert isinstance(spray.admit("10.4.0.3", "user10"), Ticket)

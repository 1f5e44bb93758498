"""Rate limits shared by every server process (docs/security.md, "Rate limits"; web/limits.py): the login
throttle, the limiter of wrong links and codes and the join limits keep their counts in Redis when it is
configured, in the database otherwise, so that a client gets the same decisions whichever process answers.

- every backend (Redis, SQLite, PostgreSQL) makes exactly the decisions of the one-process reference
  (``limits_reference.py``, the code before) on random sequences of calls under a fake clock;
- two app instances on one database (two server processes), with and without Redis: wrong passwords, wrong
  links and codes and join requests alternating between them are refused after exactly the count of one
  instance, and one pending request per address and the cooldown after a denial hold across them;
- decisions are atomic across processes, Redis unreachable falls back to the database (said once in the log),
  Redis keys are the installation's own, and the database's expired records are pruned.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sportmafia.live import hub as live_hub
from sportmafia.store import Store, open_store
from sportmafia.store import limits as records
from sportmafia.store.limits import installation_id
from sportmafia.web import create_app, ensure_demo
from sportmafia.web.limits import PRUNE_EVERY, FallbackBackend, LimitBackend, RedisBackend, StoreBackend
from sportmafia.web.online.joins import JoinLimits
from sportmafia.web.security import LoginLimiter
from sportmafia.web.throttle import LoginThrottle, PasswordChecker, Ticket
from tests.store.conftest import BACKENDS, database

from .conftest import ADMIN_PASSWORD, Api, require_redis
from .limits_reference import ReferenceLimiter, ReferenceThrottle
from .test_online import ORIGIN, hello, issue, open_table

CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
THROTTLE = {"pair_free": 2, "base": 1.0, "cap": 8.0, "address_budget": 4, "account_budget": 3, "window": 20.0}
LIMITER = {"max_failures": 3, "window": 10.0}
OWNER_PASSWORD = "the owner's own password"


@pytest.fixture(scope="module", params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, str]]:
    """One migrated database per module and backend (sqlite, postgresql), and its URL: each test, and each
    Hypothesis example, counts under keys of its own."""
    with database(request.param, tmp_path_factory.mktemp("limits")) as url:
        store = open_store(url, migrate=True)
        yield store, url
        store.close()


@pytest.fixture
def store(db: tuple[Store, str]) -> Store:
    return db[0]


@pytest.fixture
def db_url(db: tuple[Store, str]) -> str:
    return db[1]


@pytest.fixture(params=["redis", "database"])
def backend_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_backend(backend_kind: str, store: Store, request: pytest.FixtureRequest) -> Any:
    """A fresh backend each call (its own keys: a new secret, and on Redis a new installation id)."""
    made: list[LimitBackend] = []
    url = request.getfixturevalue("redis_url") if backend_kind == "redis" else None

    def make(on: Store = store, secret: str | None = None, installation: str | None = None) -> LimitBackend:
        secret = secret or secrets.token_hex(8)
        backend: LimitBackend = RedisBackend(url, installation or uuid.uuid4().hex, secret) if url \
            else StoreBackend(on, secret)
        made.append(backend)
        return backend
    yield make
    for backend in made:
        backend.close()


# ------------------------------------------------------------------------ the same decisions as one process
ADDRESSES, ACCOUNTS = ("a1", "a2", "a3"), ("ann", "Ann", "bob")
throttle_calls = st.lists(st.one_of(
    st.tuples(st.just("admit"), st.sampled_from(ADDRESSES), st.sampled_from(ACCOUNTS)),
    st.tuples(st.sampled_from(["succeeded", "failed", "cancel"]), st.integers(0, 30)),
    st.tuples(st.just("tick"), st.sampled_from([0.0, 0.5, 1.0, 3.0, 9.0, 25.0]))), min_size=1, max_size=40)
limiter_calls = st.lists(st.one_of(
    st.tuples(st.sampled_from(["retry_after", "failed", "succeeded"]), st.sampled_from(["k1", "k2", "k3"])),
    st.tuples(st.just("retry_after2"), st.just("k1")),
    st.tuples(st.just("tick"), st.sampled_from([0.0, 0.5, 2.0, 6.0, 11.0]))), min_size=1, max_size=40)
FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _decision(result: Ticket | float | Any) -> tuple[str, float]:
    return ("ticket", getattr(result, "at", 0.0)) if hasattr(result, "at") else ("wait", float(result))


@FEW
@given(calls=throttle_calls)
def test_the_login_throttle_decides_as_one_process_did(make_backend: Any, calls: list[tuple[Any, ...]]) -> None:
    now = [1000.0]
    reference = ReferenceThrottle(clock=lambda: now[0], **THROTTLE)  # type: ignore[arg-type]
    shared = LoginThrottle(clock=lambda: now[0], backend=make_backend(), **THROTTLE)  # type: ignore[arg-type]
    tickets: list[tuple[Any, Ticket]] = []
    for call in calls:
        if call[0] == "tick":
            now[0] += call[1]
        elif call[0] == "admit":
            old, new = reference.admit(call[1], call[2]), shared.admit(call[1], call[2])
            assert _decision(new) == pytest.approx(_decision(old)) if isinstance(old, float) else \
                _decision(new) == _decision(old), (call, old, new)
            if isinstance(new, Ticket):
                tickets.append((old, new))
        elif tickets:  # succeeded / failed / cancel of one of the tickets not yet settled
            old_ticket, new_ticket = tickets.pop(call[1] % len(tickets))
            getattr(reference, call[0])(old_ticket)
            getattr(shared, call[0])(new_ticket)


@FEW
@given(calls=limiter_calls)
def test_the_limiter_decides_as_one_process_did(make_backend: Any, calls: list[tuple[Any, ...]]) -> None:
    now = [1000.0]
    reference = ReferenceLimiter(clock=lambda: now[0], **LIMITER)  # type: ignore[arg-type]
    shared = LoginLimiter(clock=lambda: now[0], backend=make_backend(), **LIMITER)  # type: ignore[arg-type]
    for call in calls:
        if call[0] == "tick":
            now[0] += call[1]
        elif call[0] == "retry_after":
            assert shared.retry_after(call[1]) == pytest.approx(reference.retry_after(call[1])), call
        elif call[0] == "retry_after2":
            assert shared.retry_after("k1", "k2") == pytest.approx(reference.retry_after("k1", "k2")), call
        else:
            getattr(reference, call[0])(call[1])
            getattr(shared, call[0])(call[1])


# ------------------------------------------------------------------------------------ atomic, and apart
def test_a_burst_across_two_processes_gets_exactly_the_budget(make_backend: Any, db_url: str) -> None:
    """40 attempts at once from one address, from threads of two processes (two stores, two backends): exactly
    the address's budget is admitted."""
    other = open_store(db_url)
    try:
        secret, installation = secrets.token_hex(8), uuid.uuid4().hex  # the same keys in both
        one, two = make_backend(secret=secret, installation=installation), \
            make_backend(other, secret=secret, installation=installation)
        throttles = [LoginThrottle(address_budget=10, account_budget=100, backend=b) for b in (one, two)]
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda i: throttles[i % 2].admit("10.0.0.9", f"user{i}"), range(40)))
        assert sum(isinstance(r, Ticket) for r in results) == 10
        assert all(isinstance(r, Ticket) or 0 < r <= 300 for r in results)
    finally:
        other.close()


def test_redis_keys_are_the_installations_own(redis_url: str, store: Store, db_url: str, tmp_path: Any) -> None:
    """Two installations (two databases) on one Redis with the same secret count apart; two processes of one
    installation count together. The installation's id is made once and kept in its database."""
    import redis

    ident = installation_id(store)
    assert len(ident) == 32 and installation_id(store) == ident
    other_store = open_store(f"sqlite:///{tmp_path / 'other.db'}", migrate=True)
    try:
        assert installation_id(other_store) != ident
        ours = RedisBackend(redis_url, ident, "same-secret")
        same = RedisBackend(redis_url, installation_id(open_store(db_url)), "same-secret")
        theirs = RedisBackend(redis_url, installation_id(other_store), "same-secret")
        limiters = [LoginLimiter(max_failures=2, window=60, backend=b) for b in (ours, same, theirs)]
        key = f"addr-{uuid.uuid4().hex}"
        limiters[0].failed(key)
        limiters[1].failed(key)
        assert limiters[0].retry_after(key) is not None and limiters[1].retry_after(key) is not None
        assert limiters[2].retry_after(key) is None
        client = redis.Redis.from_url(redis_url)
        names = [k.decode() for k in client.scan_iter(match=f"sportmafia:{ident}:limit:*")]
        assert names and all(key not in n for n in names)  # a keyed hash, never the address
        assert all(0 < client.pttl(n) <= 61_000 for n in names)  # nothing outlives its use
        client.close()
        for b in (ours, same, theirs):
            b.close()
    finally:
        other_store.close()


def test_redis_unreachable_falls_back_to_the_database(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """A Redis that cannot be reached: every decision is made in the database (no error, no unlimited
    attempts), said once in the log."""
    secret = secrets.token_hex(8)
    backend = FallbackBackend(RedisBackend("redis://127.0.0.1:1/0", installation_id(store), secret),
                              StoreBackend(store, secret), pause=0.0)
    limiter = LoginLimiter(max_failures=3, window=60, backend=backend)
    with caplog.at_level(logging.WARNING, logger="sportmafia.limits"):
        for _ in range(3):
            assert limiter.retry_after("10.1.1.1") is None
            limiter.failed("10.1.1.1")
        assert limiter.retry_after("10.1.1.1") is not None
        assert backend.down
    said = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    assert len(said) == 1
    assert records.count_records(store, [backend.key(limiter.name, "10.1.1.1")]) == 1  # in the database


def test_expired_records_are_pruned(store: Store) -> None:
    now = [1_000_000.0]  # one clock for the limiter and its records, far before any real record's end

    def clock() -> float:
        return now[0]
    backend = StoreBackend(store, secrets.token_hex(8), clock=clock)
    limiter = LoginLimiter(max_failures=3, window=10.0, clock=clock, backend=backend)
    keys = [backend.key(limiter.name, f"k{i}") for i in range(5)]
    for i in range(5):
        limiter.failed(f"k{i}")
    assert records.count_records(store, keys) == 5
    now[0] += 10.0 + 1.0 - 0.001  # their life (the window and a second) not yet over: kept
    backend._pruned = 0.0  # the next decision prunes
    limiter.failed("other")
    assert records.count_records(store, keys) == 5
    now[0] += PRUNE_EVERY  # a minute on: they have expired, and the next decision prunes again
    limiter.failed("fresh")
    assert records.count_records(store, keys) == 0
    assert records.count_records(store, [backend.key(limiter.name, "fresh")]) == 1


# ----------------------------------------------------------------------- two server processes, one database
@pytest.fixture(scope="module", params=[(db, redis) for db in BACKENDS for redis in ("database", "redis")],
                ids=lambda p: "-".join(p))
def shared(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, Any]]:
    """Two app instances on one database (two server processes), with Redis or without (the limits then in the
    database): the admin logged in on the first, and ``client(address)``, a pair of clients without cookies from
    one address, one per instance."""
    db, with_redis = request.param
    redis = require_redis() if with_redis == "redis" else None
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(database(db, tmp_path_factory.mktemp("shared")))
        patch = stack.enter_context(pytest.MonkeyPatch.context())
        if redis:
            patch.setenv(live_hub.REDIS_ENV, redis)
        else:
            patch.delenv(live_hub.REDIS_ENV, raising=False)
        patch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
        stores = [open_store(url, migrate=True), open_store(url)]
        for s in stores:
            stack.callback(s.close)
        setup = ensure_demo(stores[0])
        assert setup.club_id is not None
        stores[0].create_user(setup.club_id, "owner", CHEAP.hash(OWNER_PASSWORD), "host")
        apps = [create_app(s, secret_key="test-secret", passwords=PasswordChecker(CHEAP)) for s in stores]
        clients = [stack.enter_context(TestClient(app)) for app in apps]
        assert all(isinstance(app.state.limits, FallbackBackend if redis else StoreBackend) for app in apps)
        host = Api(clients[0], stores[0], setup.club_id)
        host.login()

        def pair(address: str) -> tuple[Api, Api]:
            out = []
            for client, store in zip(clients, stores, strict=True):
                other = TestClient(client.app, client=(address, 50000))
                other.portal = client.portal
                out.append(Api(other, store, setup.club_id))
            return out[0], out[1]
        yield host, pair


def _too_many(r: Any, code: str) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == code and int(r.headers["Retry-After"]) >= 1


def test_wrong_passwords_on_two_processes_count_as_on_one(shared: tuple[Api, Any]) -> None:
    """Three wrong passwords are free per (address, account), alternating between the processes; the fourth is
    held back whichever answers, and the right password too until the backoff has passed; the address's budget
    over all accounts (10) holds across them too."""
    _, pair = shared
    one, two = pair("10.2.0.1")
    for i, api in enumerate((one, two, one)):
        r = api.client.post("/api/login", json={"login": "owner", "password": f"wrong {i}"})
        assert r.status_code == 401, r.text
    for api in (two, one):
        _too_many(api.client.post("/api/login", json={"login": "Owner", "password": "wrong 4"}),
                  "too-many-attempts")
    _too_many(two.client.post("/api/login", json={"login": "owner", "password": OWNER_PASSWORD}),
              "too-many-attempts")
    one, two = pair("10.2.0.2")
    for i in range(10):  # ten accounts that do not exist (each costs the cheap dummy check)
        r = (one, two)[i % 2].client.post("/api/login", json={"login": f"nobody-{i}", "password": "x"})
        assert r.status_code == 401, r.text
    _too_many(two.client.post("/api/login", json={"login": "nobody-10", "password": "x"}), "too-many-attempts")


def test_wrong_links_and_codes_on_two_processes_count_as_on_one(shared: tuple[Api, Any]) -> None:
    """The limiter of wrong links and codes (3 here): wrong seat tokens, a socket's, table codes and join
    secrets, alternating between the processes, are refused after exactly 3, with the right link too."""
    host, pair = shared
    one, two = pair("10.3.0.1")
    for api in (one, two):
        api.client.app.state.online_limiter = LoginLimiter(max_failures=3, window=60)  # type: ignore[attr-defined]
    game_id = host.new_game()
    code = open_table(host, game_id)["code"]
    good = issue(host, game_id, 1)
    assert one.client.get("/api/play/me", headers={"X-Play-Token": "guess-1"}).status_code == 401
    assert two.client.get("/api/join/ZZZZZZ").status_code == 404
    with two.client.websocket_connect("/ws/play", headers=ORIGIN) as ws:  # a wrong token on a socket counts too
        hello(ws, "guess-2")
        assert ws.receive_json()["error"]["code"] == "bad-link"
    _too_many(one.client.get("/api/play/me", headers={"X-Play-Token": good}), "too-many-attempts")
    _too_many(two.client.get(f"/api/join/{code}"), "too-many-attempts")
    _too_many(one.client.post("/api/join/claim", headers={"X-Join-Secret": "guess"}), "too-many-attempts")
    for api in (one, two):
        api.client.app.state.online_limiter = None  # type: ignore[attr-defined]


def test_join_requests_on_two_processes_count_as_on_one(shared: tuple[Api, Any]) -> None:
    """Per address 3 requests here: one pending request per address holds across the processes (409 on the
    other), the count too (429 after 3), and so does the cooldown after the host's denial."""
    host, pair = shared
    one, two = pair("10.4.0.1")
    for api in (one, two):
        api.client.app.state.join_limits = JoinLimits(per_address=3)  # type: ignore[attr-defined]
        api.client.app.state.join_guard = None  # type: ignore[attr-defined]
    game_id = host.new_game()
    code = open_table(host, game_id)["code"]
    first = one.client.post(f"/api/join/{code}", json={"seat": 2, "name": "Ann"})
    assert first.status_code == 200, first.text
    r = two.client.post(f"/api/join/{code}", json={"seat": 3, "name": "Someone else"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "pending", r.text
    r = host.post(f"/api/games/{game_id}/online/requests/{first.json()['id']}", {"approve": False})
    assert r.status_code == 200, r.text
    _too_many(two.client.post(f"/api/join/{code}", json={"seat": 3, "name": "Someone else"}), "cooldown")
    _too_many(one.client.post(f"/api/join/{code}", json={"seat": 4, "name": "Another"}), "too-many-requests")


def test_a_burst_of_logins_on_two_processes_hashes_only_the_allowance(shared: tuple[Api, Any]) -> None:
    """20 wrong logins at once for one account from one address, spread over two processes: 3 are checked."""
    _, pair = shared
    one, two = pair("10.5.0.1")
    lock, statuses = threading.Lock(), []

    def attempt(i: int) -> None:
        api = (one, two)[i % 2]
        r = api.client.post("/api/login", json={"login": "nobody", "password": f"burst {i}"})
        with lock:
            statuses.append(r.status_code)
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(attempt, range(20)))
    assert statuses.count(401) == 3 and statuses.count(429) == 17, statuses

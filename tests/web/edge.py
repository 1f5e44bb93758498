"""A server shared by a whole test module (the edge tests: exports, ids and text, headers, the fuzzer): one
store per backend and one login per role, not one per test (logging in costs an argon2 hash)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sportmafia.services.lab_runs import Inline, LabRuns
from sportmafia.store import Store, open_store, upgrade
from sportmafia.web import create_app, ensure_demo
from sportmafia.web.security import hash_password
from tests.store.conftest import database

from .conftest import ADMIN_PASSWORD, Api, own_client

PASSWORD = "an edge test password"


@dataclass
class Server:
    backend: str
    store: Store
    client: TestClient
    club_id: int
    admin: Api

    def as_role(self, login: str, role: str) -> Api:
        """A new user of the demo club with ``role``, logged in on a client of his own."""
        self.store.create_user(self.club_id, login, hash_password(PASSWORD), role)
        other = Api(own_client(self.client), self.store, self.club_id)
        other.login(login, PASSWORD)
        return other

    def anonymous(self) -> Api:
        return Api(own_client(self.client), self.store, self.club_id)


@contextmanager
def server(backend: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A migrated store with the demo club, its app running, and its admin logged in."""
    with database(backend, folder) as url:
        upgrade(url)
        store = open_store(url)
        try:
            monkeypatch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
            setup = ensure_demo(store)
            assert setup.club_id is not None
            app = create_app(store, secret_key="edge-secret")
            # the lab's runs: in the test's process, under the test's folder, never "busy" (a 503 is a failure)
            app.state.lab_runs = LabRuns(folder / "lab", backend=Inline, most_running=10_000)
            with TestClient(app) as client:
                admin = Api(client, store, setup.club_id)
                admin.login()
                yield Server(backend, store, client, setup.club_id, admin)
        finally:
            store.close()

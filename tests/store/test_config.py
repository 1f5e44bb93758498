"""Where open_store connects, and how SQLite connections are set up."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from sportmafia.store import database_url, open_store
from sportmafia.store.db import BUSY_TIMEOUT_MS, normalize_url


def test_url_argument_then_env_then_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPORTMAFIA_DATABASE_URL", raising=False)
    monkeypatch.setenv("SPORTMAFIA_DATA", str(tmp_path / "data"))
    assert database_url() == f"sqlite:///{tmp_path / 'data' / 'sportmafia.db'}"
    assert (tmp_path / "data").is_dir()
    monkeypatch.setenv("SPORTMAFIA_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert database_url() == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_default_folder_is_var_in_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPORTMAFIA_DATABASE_URL", raising=False)
    monkeypatch.delenv("SPORTMAFIA_DATA", raising=False)
    monkeypatch.chdir(tmp_path)
    store = open_store(migrate=True)
    try:
        assert store.create_club("c") == 1
    finally:
        store.close()
    assert (tmp_path / "var" / "sportmafia.db").is_file()


def test_postgres_urls_use_psycopg() -> None:
    assert normalize_url("postgresql://u@h:5432/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgresql+psycopg://u@h/db").drivername == "postgresql+psycopg"


def test_sqlite_runs_in_wal_with_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.scalar(text("PRAGMA journal_mode")) == "wal"
            assert conn.scalar(text("PRAGMA foreign_keys")) == 1
            assert conn.scalar(text("PRAGMA busy_timeout")) == BUSY_TIMEOUT_MS
    finally:
        store.close()


def test_the_examples_in_the_docs_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import doctest
    import re

    import sportmafia.store.store

    assert doctest.testmod(sportmafia.store.store, raise_on_error=True).attempted > 0
    monkeypatch.delenv("SPORTMAFIA_DATABASE_URL", raising=False)
    monkeypatch.setenv("SPORTMAFIA_DATA", str(tmp_path))
    page = (Path(__file__).parents[2] / "docs" / "store.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", page, re.S)
    assert block is not None
    scope: dict[str, object] = {"__name__": "docs_store_example"}
    exec(compile(block.group(1), "docs/store.md", "exec"), scope)
    assert scope["game"].step == "meet_black"  # type: ignore[attr-defined]
    scope["store"].close()  # type: ignore[attr-defined]
    assert (tmp_path / "sportmafia.db").is_file()


@pytest.mark.parametrize(("setting", "level"), [(None, 1), ("normal", 1), ("FULL", 2)])
def test_sqlite_synchronous_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str | None,
                                    level: int) -> None:
    if setting is None:
        monkeypatch.delenv("SPORTMAFIA_SQLITE_SYNC", raising=False)
    else:
        monkeypatch.setenv("SPORTMAFIA_SQLITE_SYNC", setting)
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.scalar(text("PRAGMA synchronous")) == level  # 1 NORMAL, 2 FULL
    finally:
        store.close()


def test_a_wrong_synchronous_setting_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPORTMAFIA_SQLITE_SYNC", "off")
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with pytest.raises(ValueError, match="SPORTMAFIA_SQLITE_SYNC"), store.engine.connect():
            pass
    finally:
        store.close()

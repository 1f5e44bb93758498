"""The shipped migrations build exactly the schema the models describe, on every backend."""

from __future__ import annotations

import threading
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from sportmafia.store import Base, current_revision, head_revision, make_engine, upgrade


def schema_diff(url: str) -> list[Any]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": True})
            return list(compare_metadata(context, Base.metadata))
    finally:
        engine.dispose()


def test_migrations_build_the_models_schema(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        assert current_revision(engine) is None
        assert schema_diff(db_url)  # an empty database differs (the comparison does see differences)
        upgrade(engine)
        assert current_revision(engine) == head_revision()
        assert schema_diff(db_url) == []
        tables = set(inspect(engine).get_table_names())
        assert {"clubs", "games", "game_events", "alembic_version"} <= tables
        upgrade(engine)  # again: nothing to do
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def test_two_processes_starting_at_once_both_upgrade(db_url: str) -> None:
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def start() -> None:
        barrier.wait()
        try:
            upgrade(db_url)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert schema_diff(db_url) == []


def test_downgrade_and_upgrade_again(db_url: str) -> None:
    from sportmafia.store.migrate import downgrade

    upgrade(db_url)
    engine = make_engine(db_url)
    try:
        downgrade(engine, "base")
        assert not {"clubs", "games", "game_events"} & set(inspect(engine).get_table_names())
        upgrade(engine)
        assert schema_diff(db_url) == []
    finally:
        engine.dispose()


def test_migrating_up_and_down_keeps_every_row(db_url: str) -> None:
    """A database with a game and its log, migrated up from 0002 and down and up again: every row stays. On
    SQLite, batch mode copies a table and drops the old one; with foreign keys on, that drop deletes the rows
    that refer to it (a game's events, cascading), so the migrations run with them off and checked after."""
    from sqlalchemy import text

    from sportmafia.store.migrate import downgrade

    def counts() -> tuple[int, int, int]:
        with engine.connect() as conn:
            return tuple(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()  # type: ignore[return-value]
                         for t in ("games", "game_events", "users"))

    engine = make_engine(db_url)
    try:
        upgrade(engine, "0002")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO clubs (id, name, created_at) VALUES (1, 'C', '2026-01-01')"))
            conn.execute(text("INSERT INTO users (id, club_id, login, password_hash, role, created_at) VALUES "
                              "(1, 1, 'h', 'x', 'host', '2026-01-01')"))
            conn.execute(text("INSERT INTO games (id, club_id, ruleset, ruleset_options, players, names, status, "
                              "next_seq, created_at, updated_at) VALUES ('g', 1, 'club', '{}', 10, '[]', 'playing', "
                              "3, '2026-01-01', '2026-01-01')"))
            for seq in range(3):
                conn.execute(text("INSERT INTO game_events (game_id, seq, type, data, created_at) VALUES "
                                  "('g', :seq, 'step', '{}', '2026-01-01')"), {"seq": seq})
        assert counts() == (1, 3, 1)
        upgrade(engine)
        assert counts() == (1, 3, 1)
        downgrade(engine, "0006")  # 0008 and 0007 taken back: games and users copied on SQLite
        assert counts() == (1, 3, 1)
        upgrade(engine)
        assert counts() == (1, 3, 1) and schema_diff(db_url) == []
    finally:
        engine.dispose()


def test_clubs_made_before_the_setting_start_the_timer_by_themselves(db_url: str) -> None:
    """0011: every club has ``autostart_timer``, on for the clubs there already were (the console starts the
    speech timer when a speech begins unless the club's admin turns it off); changed through store/clubs.py."""
    from sqlalchemy import text

    from sportmafia.store import open_store
    from sportmafia.store.clubs import club_settings, set_club_settings

    engine = make_engine(db_url)
    try:
        upgrade(engine, "0010")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO clubs (id, name, created_at) VALUES (7, 'Old', '2026-01-01')"))
        upgrade(engine)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT autostart_timer FROM clubs WHERE id = 7")).scalar_one() in (True, 1)
    finally:
        engine.dispose()
    store = open_store(db_url)
    try:
        assert club_settings(store, 7).autostart_timer is True
        assert set_club_settings(store, 7, autostart_timer=False).autostart_timer is False
        assert club_settings(store, store.create_club("New")).autostart_timer is True
    finally:
        store.close()

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
    from alembic import command

    from sportmafia.store.migrate import alembic_config

    upgrade(db_url)
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "base")
        assert not {"clubs", "games", "game_events"} & set(inspect(engine).get_table_names())
        upgrade(engine)
        assert schema_diff(db_url) == []
    finally:
        engine.dispose()

"""Run the shipped Alembic migrations from code (the app calls :func:`upgrade` when it starts)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from .db import IMMEDIATE, make_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_PG_LOCK = 0x5D0A_F1A0
"""PostgreSQL advisory lock key: two processes starting at once migrate one after the other."""


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config pointing at the migrations inside the package (no alembic.ini needed)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None for a database never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def stored_revision(engine: Engine) -> str | None:
    """The revision the database is at, in one trivial query (the readiness check, ``web.health``); raises when
    the database does not answer or was never migrated."""
    with engine.connect() as conn:
        value = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        return None if value is None else str(value)


def upgrade(engine_or_url: Engine | str | None = None, revision: str = "head") -> None:
    """Bring the database up to ``revision`` in one transaction. Safe to call on every start, and from
    several processes at once (they take a lock and run one after the other)."""
    _migrate(engine_or_url, lambda cfg: command.upgrade(cfg, revision))


def downgrade(engine_or_url: Engine | str | None, revision: str) -> None:
    """Take the database back down to ``revision`` in one transaction (an operator's step, never the app's)."""
    _migrate(engine_or_url, lambda cfg: command.downgrade(cfg, revision))


def _migrate(engine_or_url: Engine | str | None, run: Callable[[Config], None]) -> None:
    """Run the migrations on one connection in one transaction. On SQLite the foreign keys are off meanwhile:
    batch mode rebuilds a table by copying it and dropping the old one, and with them on that drop deletes
    every row that refers to it (a game's events, by cascade). Off only outside a transaction, so set on the
    driver's connection before it begins; every reference is checked before the commit."""
    owned = not isinstance(engine_or_url, Engine)
    engine = make_engine(engine_or_url) if not isinstance(engine_or_url, Engine) else engine_or_url
    try:
        with engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            driver = conn.connection.dbapi_connection
            if sqlite and driver is not None:
                driver.execute("PRAGMA foreign_keys=OFF")  # the driver's: no transaction is begun for it
            try:
                with conn.execution_options(**{IMMEDIATE: True}).begin():
                    if conn.dialect.name == "postgresql":
                        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK})")
                    cfg = alembic_config()
                    cfg.attributes["connection"] = conn
                    run(cfg)
                    if sqlite:
                        broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                        if broken:
                            raise RuntimeError(f"a migration left rows that refer to no row: {broken[:5]}")
            finally:
                if sqlite and driver is not None:
                    driver.execute("PRAGMA foreign_keys=ON")
    finally:
        if owned:
            engine.dispose()

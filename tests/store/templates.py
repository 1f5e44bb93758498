"""A migrated database for each test without running the migrations for each test.

Alembic's upgrade of an empty database takes 0.1 to 0.2 s on SQLite and about 0.4 s on PostgreSQL (some 120 DDL
statements, each a round trip, and as many files made by the server); the store and web tests need one for each
of about a thousand tests. So each test process migrates once per backend and then:

- SQLite: every test gets a copy of the migrated file (the migrations' own result, byte for byte);
- PostgreSQL: a test gets a migrated schema from the process's pool and gives it back when it ends; then every row
  is deleted and every sequence restarted (one round trip), which leaves the schema as the migrations made it. A
  schema whose tables, columns, indexes or constraints the test changed is dropped instead of reused.

In both, the one row a migration writes (the installation's id, drawn at random by 0012) is written anew with a
new id, so that no two tests' databases share it (it keeps their limits apart in a shared Redis). The migrations
themselves are tested as they run, on both backends, in ``tests/store/test_migrations.py``, on databases that
do not come from here."""

from __future__ import annotations

import atexit
import secrets
import shutil
import sqlite3
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import psycopg

from sportmafia.store import upgrade

_lock = threading.Lock()
_sqlite_template: Path | None = None


@contextmanager
def migrated_sqlite(folder: Path) -> Iterator[str]:
    """The URL of a migrated SQLite database in ``folder``."""
    global _sqlite_template
    with _lock:
        if _sqlite_template is None:
            template = Path(tempfile.mkdtemp(prefix="sm-template-")) / "migrated.db"
            upgrade(f"sqlite:///{template}")
            with sqlite3.connect(template) as conn:  # all in the main file: nothing left in a -wal beside it
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            _sqlite_template = template
    target = folder / "store.db"
    shutil.copyfile(_sqlite_template, target)
    with sqlite3.connect(target) as conn:
        conn.execute("UPDATE installation SET value = ? WHERE name = 'id'", (secrets.token_hex(16),))
    conn.close()
    yield f"sqlite:///{target}"


_SHAPE = """
SELECT (SELECT array_agg(c.relname || ':' || c.relkind::text ORDER BY c.relname)
          FROM pg_class c WHERE c.relnamespace = %(ns)s::regnamespace),
       (SELECT array_agg(c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':'
                         || a.attnotnull || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
                         ORDER BY c.relname, a.attname)
          FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE c.relnamespace = %(ns)s::regnamespace AND a.attnum > 0 AND NOT a.attisdropped),
       (SELECT array_agg(conname || ':' || pg_get_constraintdef(oid) ORDER BY conname)
          FROM pg_constraint WHERE connamespace = %(ns)s::regnamespace)
"""
"""What a schema is made of (its relations, columns with types and defaults, constraints): a schema is reused only
while this is what the migrations left."""


class PostgresPool:
    """Migrated schemas of one database, kept for the life of the test process and lent one test at a time."""

    def __init__(self, dsn: str, url_of: Callable[[str], str]) -> None:
        self.dsn = dsn
        self.url_of = url_of
        self.free: list[tuple[str, Any]] = []
        self.made: set[str] = set()
        self.lock = threading.Lock()

    def _make(self) -> tuple[str, Any]:
        schema = f"sm_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        self.made.add(schema)
        upgrade(self.url_of(schema))
        with psycopg.connect(self.dsn) as conn:
            shape = conn.execute(_SHAPE, {"ns": f'"{schema}"'}).fetchone()
        return schema, shape

    def _reset(self, schema: str, shape: Any) -> bool:
        """Every row deleted, every sequence restarted and the installation's row written anew; False (and nothing
        done) when the schema is no longer what the migrations made."""
        with psycopg.connect(self.dsn) as conn:
            if conn.execute(_SHAPE, {"ns": f'"{schema}"'}).fetchone() != shape:
                return False
            tables = [r[0] for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename <> 'alembic_version'",
                (schema,))]
            sequences = [r[0] for r in conn.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = %s", (schema,))]
            script = ["SET LOCAL session_replication_role = replica"]  # no foreign key checks while emptying
            script += [f'DELETE FROM "{schema}"."{t}"' for t in tables]
            script += [f'ALTER SEQUENCE "{schema}"."{s}" RESTART' for s in sequences]
            conn.execute(";\n".join(script).encode())
            conn.execute(f"INSERT INTO \"{schema}\".installation (name, value) VALUES ('id', %s)",
                         (secrets.token_hex(16),))
        return True

    @contextmanager
    def lend(self) -> Iterator[str]:
        """The URL of a migrated schema of its own for the block."""
        with self.lock:
            taken = self.free.pop() if self.free else None
        schema, shape = taken if taken is not None else self._make()
        try:
            yield self.url_of(schema)
        finally:
            if self._reset(schema, shape):
                with self.lock:
                    self.free.append((schema, shape))
            else:
                self.drop(schema)

    def drop(self, schema: str) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        self.made.discard(schema)

    def close(self) -> None:
        for schema in list(self.made):
            with suppress(psycopg.Error):
                self.drop(schema)


_pools: dict[str, PostgresPool] = {}


def postgres_pool(dsn: str, url_of: Callable[[str], str]) -> PostgresPool:
    """The process's pool for the database ``dsn`` (dropped when the process ends)."""
    with _lock:
        pool = _pools.get(dsn)
        if pool is None:
            pool = _pools[dsn] = PostgresPool(dsn, url_of)
            atexit.register(pool.close)
    return pool

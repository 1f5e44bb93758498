"""Services' tests run on the store's backends (SQLite and PostgreSQL), with the store tests' fixtures."""

from tests.store.conftest import db_url, store

__all__ = ["db_url", "store"]

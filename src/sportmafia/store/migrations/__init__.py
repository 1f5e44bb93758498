"""Alembic migrations of the store, shipped with the package and run by :func:`sportmafia.store.upgrade`."""

"""Users and club rosters (the accounts and names the web console works with)."""

from __future__ import annotations

import pytest

from sportmafia.store import ClubNotFound, LoginTaken, Store


def test_create_and_find_users(store: Store) -> None:
    club = store.create_club("Club")
    assert store.count_users() == 0
    user = store.create_user(club, "host1", "$argon2id$fake", "host")
    assert (user.club_id, user.login, user.role) == (club, "host1", "host")
    assert store.find_user("host1") == user
    assert store.get_user(user.id) == user
    assert store.find_user("nobody") is None
    assert store.get_user(user.id + 100) is None
    assert store.count_users() == 1
    with pytest.raises(LoginTaken):
        store.create_user(club, "host1", "x", "judge")
    with pytest.raises(ValueError):
        store.create_user(club, "other", "x", "king")
    with pytest.raises(ClubNotFound):
        store.create_user(club + 100, "other", "x", "host")


def test_club_roster(store: Store) -> None:
    club = store.create_club("Club")
    other = store.create_club("Other")
    ids = store.add_club_players(club, ["Ворон", "Лиса"])
    store.add_club_players(other, ["Граф"])
    roster = store.club_players(club)
    assert [(p.id, p.name) for p in roster] == list(zip(ids, ["Ворон", "Лиса"], strict=True))
    with pytest.raises(ClubNotFound):
        store.add_club_players(other + 100, ["x"])

"""Who hosts a game and who sits in it (store.access), on both databases: a game's facts in one query, kept
in memory; an account linked to a roster player; the migration's matching of older games' seats."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from sportmafia.rules import get_ruleset
from sportmafia.store import Store, tournaments
from sportmafia.store.access import (
    PlayerNotFound,
    PlayerTaken,
    UserNotFound,
    club_game_facts,
    game_facts,
    link_player,
    seated,
)
from sportmafia.store.tournaments import NewParticipant


def test_who_hosts_and_who_sits(store: Store) -> None:
    club = store.create_club("Club")
    roster = store.add_club_players(club, [f"P{i}" for i in range(1, 13)])
    host = store.create_user(club, "host", "$argon2id$fake", "host")
    judge = store.create_user(club, "judge", "$argon2id$fake", "judge")
    account = store.create_user(club, "account", "$argon2id$fake", "host")
    game = store.create_game(club, "club", 10, [f"P{i}" for i in range(1, 11)], host_id=host.id,
                             seat_players=[*roster[:9], None])
    with pytest.raises(ValueError):
        store.create_game(club, "club", 10, host_id=host.id, seat_players=roster[:3])
    assert not seated(store, game, judge)
    judge = link_player(store, club, judge.id, roster[4])
    assert judge.player_id == roster[4] and store.get_user(judge.id) == judge  # the kept row too
    assert seated(store, game, judge)
    with pytest.raises(PlayerTaken):
        link_player(store, club, host.id, roster[4])
    other = store.create_club("Other")
    with pytest.raises(PlayerNotFound):
        link_player(store, club, host.id, store.add_club_players(other, ["X"])[0])
    with pytest.raises(UserNotFound):
        link_player(store, other, host.id, None)
    judge = link_player(store, club, judge.id, None)
    assert judge.player_id is None and not seated(store, game, judge)

    # a tournament game: its participants' accounts sit in it
    tour = tournaments.create_tournament(store, club, "Cup", ruleset="tournament",
                                         ruleset_options=get_ruleset("tournament").options(),
                                         scoring={"name": "regulation"}, tie_breaks=[], final_settings={})
    people = tournaments.add_participants(store, tour.id, [NewParticipant(f"N{i}", user_id=account.id if i == 2
                                                                          else None) for i in range(13)])
    tgame = store.create_game(club, "tournament", 12, [p.nickname for p in people[:12]], host_id=host.id)
    tournaments.link_games(store, tour.id, "main", [(tgame, 1, 1, host.id, [p.id for p in people[:12]])])
    facts = game_facts(store, tgame)
    assert (facts.club_id, facts.host_id, facts.tournament_id) == (club, host.id, tour.id)
    assert facts.seated_users == {account.id} and seated(store, tgame, account)
    assert game_facts(store, game).players == set(roster[:9]) and game_facts(store, game).tournament_id is None
    assert club_game_facts(store, club) == {game: game_facts(store, game), tgame: facts}

    # kept: asking again reads nothing
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    assert game_facts(store, tgame) == facts
    assert statements == []


def test_the_migration_records_the_hosts_and_seats_of_older_games(db_url: str) -> None:
    """0008 on a database with games: a tournament game gets its table's host; another game keeps no host,
    and its seats are matched by name to the roster (a name on it once)."""
    from alembic import command
    from sqlalchemy import text

    from sportmafia.store import make_engine, open_store
    from sportmafia.store.migrate import alembic_config

    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0006")
            conn.execute(text("INSERT INTO clubs (id, name, created_at) VALUES (1, 'C', '2026-01-01')"))
            conn.execute(text("INSERT INTO club_players (id, club_id, name) VALUES (1, 1, 'Anna'), (2, 1, 'Bob'), "
                              "(3, 1, 'Bob')"))
            conn.execute(text("INSERT INTO users (id, club_id, login, password_hash, role, created_at) VALUES "
                              "(1, 1, 'h', 'x', 'host', '2026-01-01')"))
            for gid, names in (("g1", '["Anna", "Bob", "Carl"]'), ("g2", '["Anna", "Bob", "Carl"]')):
                conn.execute(text("INSERT INTO games (id, club_id, ruleset, ruleset_options, players, names, status, "
                                  "next_seq, created_at, updated_at) VALUES (:id, 1, 'club', '{}', 3, :names, "
                                  "'dealing', 0, '2026-01-01', '2026-01-01')"), {"id": gid, "names": names})
            conn.execute(text("INSERT INTO tournaments (id, club_id, name, ruleset, ruleset_options, scoring, "
                              "tie_breaks, final_settings, status, published, created_at, updated_at) VALUES "
                              "(1, 1, 'T', 'tournament', '{}', '{}', '[]', '{}', 'running', false, '2026-01-01', "
                              "'2026-01-01')"))
            conn.execute(text("INSERT INTO tournament_games (game_id, tournament_id, stage, round, table_no, host_id, "
                              "seats) VALUES ('g2', 1, 'main', 1, 1, 1, '[]')"))
    finally:
        engine.dispose()
    store = open_store(db_url, migrate=True)
    try:
        old, tour = game_facts(store, "g1"), game_facts(store, "g2")
        assert (old.host_id, old.players) == (None, {1})  # Bob is on the roster twice: not matched
        assert (tour.host_id, tour.tournament_id) == (1, 1)
    finally:
        store.close()

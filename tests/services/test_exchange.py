"""Games imported into a club and exported from it (docs/exchange.md): each game kept whole in one transaction or
refused whole with its reason; an imported game counts in the statistics it supports; importing twice keeps one;
a club's games exported and imported into another club give the same facts."""

from __future__ import annotations

import json

from sportmafia.bots.plausible import play_plausible
from sportmafia.engine import to_record
from sportmafia.rules import get_ruleset
from sportmafia.services import seasons
from sportmafia.services.exchange import export_games, import_text
from sportmafia.store import Store
from sportmafia.store import seasons as db
from tests.exchange.test_files import fixture


def counts(store: Store, club: int) -> tuple[int, int]:
    with store.read() as s:
        from sqlalchemy import func, select

        from sportmafia.store import GameIndex, StoredGame
        return (int(s.scalar(select(func.count()).select_from(GameIndex).where(GameIndex.club_id == club)) or 0),
                int(s.scalar(select(func.count()).select_from(StoredGame).where(StoredGame.club_id == club)) or 0))


def test_real_games_are_imported_whole_or_refused_whole_and_a_second_import_keeps_one(store: Store) -> None:
    club = store.create_club("Club")
    text = json.dumps([fixture("mafiaratings_documented.json"), fixture("polemica_334187.json"),
                       fixture("polemica_333915.json")])
    lines = import_text(store, club, text)
    assert [(x.source, x.status, x.detail) for x in lines] == [
        ("mafiaratings", "imported", True), ("polemica", "imported", False), ("polemica", "refused", False)]
    assert lines[2].clause == "A.win" and lines[2].reason is not None and lines[2].reason.render("ru")
    assert counts(store, club) == (2, 1)  # the result-only game has no stored log
    whole = store.game(lines[0].game_id or "")
    assert whole.status == "over" and whole.signed_at is not None  # nothing may be appended to an import
    store.load(lines[0].game_id or "")  # its log folds again
    again = import_text(store, club, text)
    assert [x.status for x in again] == ["already", "already", "refused"]
    assert counts(store, club) == (2, 1)


def test_a_refused_game_writes_nothing_and_the_others_are_kept(store: Store) -> None:
    club = store.create_club("Club")
    bad = fixture("mafiaratings_documented.json")
    bad["players"][0]["role"] = "sheriff"  # type: ignore[index]  # two Sheriffs
    lines = import_text(store, club, json.dumps([bad, fixture("polemica_334187.json")]))
    assert [x.status for x in lines] == ["refused", "imported"]
    assert lines[0].clause and lines[0].event
    assert counts(store, club) == (1, 0)


def test_a_game_not_kept_adds_no_one_to_the_roster(store: Store) -> None:
    """The persons of a game are made in its transaction: a refused game (not over in its source) and a game
    kept already (its players renamed since) add no one, and a kept game adds its new players."""
    club = store.create_club("Club")
    [line] = import_text(store, club, json.dumps(fixture("polemica_333915.json")))
    assert line.status == "refused" and line.clause == "A.win"
    assert store.club_players(club) == [] and counts(store, club) == (0, 0)
    game = fixture("mafiaratings_documented.json")
    [line] = import_text(store, club, json.dumps(game))
    assert line.status == "imported"
    roster = [p.name for p in store.club_players(club)]
    assert len(roster) == 10
    game["players"][0]["name"] = "Совсем Другой"  # type: ignore[index]
    [again] = import_text(store, club, json.dumps(game))
    assert again.status == "already" and [p.name for p in store.club_players(club)] == roster


def test_a_result_only_game_counts_in_wins_but_not_in_votes_or_checks(store: Store) -> None:
    club = store.create_club("Club")
    [line] = import_text(store, club, json.dumps(fixture("polemica_334187.json")))
    assert line.status == "imported"
    game = db.index_games(store, club)[0]
    assert not game.facts.detail and game.facts.winner == "red"
    person = game.people[0]
    assert person is not None
    page = seasons.profile(store, person)
    assert page is not None and page.stats.games["all"] == 1 and page.stats.detailed == 0
    assert page.stats.votes_red.n == 0 and page.stats.sheriff_checks.n == 0
    assert str(person) in seasons.club_ratings(store, club).elo.history  # rated: the result is known


def test_a_clubs_games_exported_and_imported_into_another_club_give_the_same_facts(store: Store) -> None:
    first, second = store.create_club("First"), store.create_club("Second")
    records = [to_record(play_plausible(get_ruleset("fiim"), 10, seed)) for seed in range(3)]
    assert all(x.status == "imported" for x in import_text(store, first, json.dumps(records)))
    for fmt in ("sportmafia", "polemica", "mafiaratings"):
        club = store.create_club(f"Copy {fmt}")
        games, skipped = export_games(store, first, fmt)
        assert len(games) == 3 and skipped == []
        lines = import_text(store, club, json.dumps({"games": games}))
        assert [x.status for x in lines] == ["imported"] * 3, [x.reason for x in lines]
        theirs = [g.facts for g in db.index_games(store, club)]
        ours = [g.facts for g in db.index_games(store, first)]
        assert [(f.winner, [(s.role, s.left, s.left_day, s.fouls, s.checks) for s in f.seats]) for f in theirs] == \
               [(f.winner, [(s.role, s.left, s.left_day, s.fouls, s.checks) for s in f.seats]) for f in ours]
    assert counts(store, second) == (0, 0)

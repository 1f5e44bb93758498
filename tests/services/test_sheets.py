"""Result sheets (B.sheet, services/sheets.py): signing a finished game once, the lock that follows, the judge's
corrections (checked against the sheet, kept in order, applied), on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import uuid

import pytest
from sqlalchemy import func, select

from sportmafia.bots import play_random
from sportmafia.engine import Award, DealCards, Game, Undo, view
from sportmafia.engine.record import command_for
from sportmafia.rules import get_ruleset
from sportmafia.services import sheets
from sportmafia.services.sheets import SheetRefused, participant_ids
from sportmafia.store import GameEvent, GameLocked, Store
from sportmafia.store.models import SheetCorrection
from sportmafia.store.sheets import corrections
from sportmafia.tournament.results import RULE_RESULTS

NAMES = [f"Ник {i}" for i in range(1, 11)]


def cid() -> str:
    return str(uuid.uuid4())


def count(store: Store, table: type, game_id: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(table).where(table.game_id == game_id)) or 0)


def setup(store: Store) -> tuple[int, int, int, int]:
    """A club with a host and a judge, and another club's user: (club, host, judge, stranger)."""
    club = store.create_club("Клуб")
    host = store.create_user(club, "host", "x", "host").id
    judge = store.create_user(club, "judge", "x", "judge").id
    other = store.create_club("Other")
    stranger = store.create_user(other, "stranger", "x", "admin").id
    return club, host, judge, stranger


def awarded(store: Store, club: int, winner: str = "red") -> str:
    """A game over quickly: the deal, then the judge awards the win."""
    game_id = store.create_game(club, "club", 10, NAMES)
    store.append(game_id, DealCards(), expected_seq=0, command_id=cid(), rng=random.Random(4))
    head = store.game(game_id).next_seq
    store.append(game_id, Award(winner, "judge's decision"), expected_seq=head, command_id="award")
    assert store.game(game_id).status == "over"
    return game_id


def played(store: Store, club: int, seed: int) -> tuple[str, Game]:
    """A whole random game, appended command by command as the engine played it."""
    game = play_random(get_ruleset("club"), 10, seed, NAMES)
    game_id = store.create_game(club, "club", 10, NAMES)
    seq = 0
    for ev in game.log:
        if ev.action:
            seq = store.append(game_id, command_for(ev), expected_seq=seq, command_id=cid()).next_seq
    assert seq == len(game.log)
    return game_id, game


@pytest.mark.clause("B.sheet")
def test_only_a_finished_game_is_signed_and_only_once(store: Store) -> None:
    club, host, judge, stranger = setup(store)
    game_id = store.create_game(club, "club", 10, NAMES)
    store.append(game_id, DealCards(), expected_seq=0, command_id=cid(), rng=random.Random(1))
    with pytest.raises(SheetRefused) as info:
        sheets.sign(store, game_id, host)
    assert info.value.code == "not-over" and info.value.message_ru
    assert store.game(game_id).signed_at is None
    with pytest.raises(SheetRefused) as info:
        sheets.sheet(store, game_id)  # no sheet (and no roles) while the game goes on
    assert info.value.code == "not-over"
    head = store.game(game_id).next_seq
    store.append(game_id, Award("black", "judge's decision"), expected_seq=head, command_id=cid())
    with pytest.raises(ValueError):
        sheets.sign(store, game_id, stranger)  # a user of another club
    assert store.game(game_id).signed_at is None
    summary = sheets.sign(store, game_id, host)
    assert summary.signed_by == host and summary.signed_at is not None and summary.signed_at.tzinfo is not None
    assert store.game(game_id) == summary
    assert [(g.id, g.signed_by) for g in store.list_games(club)] == [(game_id, host)]
    with pytest.raises(SheetRefused) as info:
        sheets.sign(store, game_id, judge)
    assert info.value.code == "signed"
    assert store.game(game_id).signed_by == host and store.game(game_id).signed_at == summary.signed_at


@pytest.mark.clause("B.sheet")
def test_a_signed_game_is_locked(store: Store) -> None:
    club, host, _judge, _stranger = setup(store)
    game_id = awarded(store, club)
    before = store.game(game_id)
    sheets.sign(store, game_id, host)
    events = count(store, GameEvent, game_id)
    # the undo that would reopen the game, and any new command: refused
    for command, command_id in ((Undo(), cid()), (DealCards(), cid())):
        with pytest.raises(GameLocked) as info:
            store.append(game_id, command, expected_seq=before.next_seq, command_id=command_id)
        assert info.value.game_id == game_id and info.value.signed_at == store.game(game_id).signed_at
    # the retry of a command applied before signing gets its first answer again, and nothing is applied
    retry = store.append(game_id, Award("red", "judge's decision"), expected_seq=0, command_id="award")
    assert retry.replayed and retry.head_seq == before.next_seq
    assert count(store, GameEvent, game_id) == events
    after = store.game(game_id)
    assert (after.next_seq, after.status, after.winner) == (before.next_seq, "over", "red")
    assert store.load(game_id).over


@pytest.mark.clause("B.sheet")
def test_the_sheet_of_a_whole_game(store: Store) -> None:
    club, host, _judge, _stranger = setup(store)
    game_id, game = played(store, club, seed=3)
    sheet = sheets.sheet(store, game_id)
    after = view(game, "after")
    result = sheet.result
    assert (result.winner, result.result, result.game_id) == (after["winner"], after["result"], game_id)
    assert [(p.seat, p.name, p.participant, p.role, p.fouls) for p in result.players] == \
        [(s["seat"], s["name"], s["name"], s["role"], s["fouls"]) for s in after["seats"]]
    assert [p.left for p in result.players] == [s["left"]["how"] if s["left"] else None for s in after["seats"]]
    assert any(p.left for p in result.players)
    assert sheet.roles == ("civilian", "sheriff", "mafia", "don") and sheet.max_fouls == 4
    assert sheet.game.signed_at is None and sheet.signed_by_login is None and sheet.corrections == ()
    sheets.sign(store, game_id, host)
    assert sheets.sheet(store, game_id).signed_by_login == "host"


@pytest.mark.clause("B.sheet")
def test_corrections_are_checked_kept_in_order_and_applied(store: Store) -> None:
    club, host, judge, stranger = setup(store)
    game_id = awarded(store, club, "red")
    with pytest.raises(SheetRefused) as info:
        sheets.correct(store, game_id, judge, "wrong team", [{"field": "winner", "new": "black"}])
    assert info.value.code == "unsigned"
    sheets.sign(store, game_id, host)
    role1 = sheets.sheet(store, game_id).result.by_seat(1).role
    new_role = "don" if role1 != "don" else "mafia"
    first = sheets.correct(store, game_id, judge, "  the host marked the wrong team ",
                          [{"field": "winner", "new": "black"}, {"field": "role", "seat": 1, "new": new_role}])
    assert first.reason == "the host marked the wrong team" and first.login == "judge"
    assert first.changes == ({"field": "winner", "seat": None, "old": "red", "new": "black"},
                             {"field": "role", "seat": 1, "old": role1, "new": new_role})
    second = sheets.correct(store, game_id, judge, "fouls were missed",
                           [{"field": "fouls", "seat": 2, "new": 3}, {"field": "winner", "new": None}])
    assert second.changes[1]["old"] == "black"  # checked against the sheet as corrected so far
    listed = corrections(store, game_id)
    assert [c.id for c in listed] == [first.id, second.id]
    assert [c.reason for c in listed] == ["the host marked the wrong team", "fouls were missed"]
    sheet = sheets.sheet(store, game_id)
    assert sheet.result.winner is None
    assert sheet.result.by_seat(1).role == new_role and sheet.result.by_seat(1).team == "black"
    assert sheet.result.by_seat(2).fouls == 3
    assert [c.reason for c in sheet.result.corrections] == [c.reason for c in listed]
    assert [c.by for c in sheet.result.corrections] == ["judge", "judge"]
    # the game's own record is untouched: corrections live on the sheet
    assert store.game(game_id).winner == "red"

    bad = [
        ("", [{"field": "winner", "new": "red"}]),                          # no reason
        ("   ", [{"field": "winner", "new": "red"}]),
        ("typo", []),                                                         # nothing to change
        ("typo", [{"field": "role", "seat": 11, "new": "don"}]),             # no such seat
        ("typo", [{"field": "role", "seat": 0, "new": "don"}]),
        ("typo", [{"field": "role", "new": "don"}]),                          # a seat's field without a seat
        ("typo", [{"field": "winner", "seat": 1, "new": "red"}]),            # a sheet's field with a seat
        ("typo", [{"field": "charm", "seat": 1, "new": 3}]),                  # no such field
        ("typo", [{"field": "role", "seat": 1, "new": "king"}]),              # no such role
        ("typo", [{"field": "role", "seat": 1, "new": "commissar"}]),         # not a role of this rule set
        ("typo", [{"field": "fouls", "seat": 1, "new": 5}]),                  # more than the removing foul
        ("typo", [{"field": "fouls", "seat": 1, "new": -1}]),
        ("typo", [{"field": "fouls", "seat": 1, "new": "2"}]),
        ("typo", [{"field": "fouls", "seat": 1, "new": True}]),
        ("typo", [{"field": "winner", "new": "green"}]),
        ("typo", [{"field": "result", "new": "we won"}]),
        ("typo", [{"field": "removed", "seat": 3, "new": "forever"}]),
        ("typo", [{"field": "first_killed", "new": 11}]),
        ("typo", [{"field": "winner", "new": None}]),                         # changes nothing
        ("typo", [{"field": "fouls", "seat": 4, "new": 1}, {"field": "fouls", "seat": 4, "new": 2}]),
        ("typo", [{"field": "fouls", "seat": 4, "new": 1, "old": 0}]),      # an unknown key
    ]
    for reason, changes in bad:
        with pytest.raises(SheetRefused) as info:
            sheets.correct(store, game_id, judge, reason, changes)
        assert info.value.code == "bad-correction", (reason, changes)
        assert info.value.message_en and info.value.message_ru
    with pytest.raises(ValueError):
        sheets.correct(store, game_id, stranger, "typo", [{"field": "winner", "new": "red"}])
    assert count(store, SheetCorrection, game_id) == 2
    assert sheets.sheet(store, game_id).result == sheet.result


def test_participant_ids_are_the_names_unless_a_name_repeats() -> None:
    assert participant_ids(["Лиса", "Граф"]) == ["Лиса", "Граф"]
    assert participant_ids(["Лиса", "Граф", "Лиса", "winner"]) == ["#1 Лиса", "Граф", "#3 Лиса", "#4 winner"]


@pytest.mark.clause("B.sheet")
def test_correcting_only_the_winner_of_a_game_won_by_the_rules_records_the_judges_decision(store: Store) -> None:
    """A game that ended by the rules ("no black player is left", ...): a correction of its winner alone also
    changes its "how it ended" to the judge's decision, listed with the correction; one that sets the result
    itself keeps what it sets."""
    club, host, judge, _stranger = setup(store)
    game_id, game = next((g, game) for g, game in (played(store, club, seed) for seed in range(40))
                         if game.result in RULE_RESULTS and game.winner is not None)
    sheets.sign(store, game_id, host)
    other = "black" if game.winner == "red" else "red"
    first = sheets.correct(store, game_id, judge, "the host mixed up the teams", [{"field": "winner", "new": other}])
    assert first.changes == ({"field": "winner", "seat": None, "old": game.winner, "new": other},
                             {"field": "result", "seat": None, "old": game.result, "new": "override"})
    sheet = sheets.sheet(store, game_id).result
    assert (sheet.winner, sheet.result) == (other, "override")
    # the judge's decision stands with any winner; a correction that names the result keeps it
    second = sheets.correct(store, game_id, judge, "back as it was", [{"field": "winner", "new": game.winner},
                                                              {"field": "result", "new": game.result}])
    assert [c["field"] for c in second.changes] == ["winner", "result"]
    assert (sheets.sheet(store, game_id).result.winner, sheets.sheet(store, game_id).result.result) == (game.winner, game.result)

"""The claims kept beside a game's log and the bots of a table (store/claims.py; migration 0015), on SQLite and
PostgreSQL: a claim is checked on the game as it stands under the game's lock and numbered in order; the log is
never touched (A.speech.order: only the speaker speaks)."""

from __future__ import annotations

import uuid

import pytest

from sportmafia.bots.claims import Claim, Said, check_claim, speaker
from sportmafia.engine import Advance, RuleViolation
from sportmafia.store import GameLocked, GameNotFound, Store, online
from sportmafia.store import claims as db

from .test_store import dealt_game, event_count


def to_speech(store: Store, game_id: str) -> int:
    """Advance the stored game to its first speech; the speaker."""
    for _ in range(20):
        game = store.load(game_id)
        now = speaker(game)
        if now is not None:
            return now
        store.append(game_id, Advance(), expected_seq=len(game.log), command_id=str(uuid.uuid4()))
    raise AssertionError("no speech")


def keep(store: Store, game_id: str, claim: Claim) -> tuple[int, Said]:
    return db.add_claim(store, game_id, claim, lambda game: check_claim(game, claim))


def test_the_speakers_claims_are_numbered_and_kept_beside_the_log(store: Store) -> None:
    game_id = dealt_game(store)
    seat = to_speech(store, game_id)
    other = seat % 10 + 1
    events = event_count(store, game_id)
    at = len(store.load(game_id).log)
    assert keep(store, game_id, Claim(seat, "role", role="sheriff")) == (0, Said(at, Claim(seat, "role", role="sheriff")))
    assert keep(store, game_id, Claim(seat, "check", target=other, color="black"))[0] == 1
    # said again at the same moment (a retry): kept once, its first number
    assert keep(store, game_id, Claim(seat, "role", role="sheriff"))[0] == 0
    assert db.claims(store, game_id) == [Said(at, Claim(seat, "role", role="sheriff")),
                                         Said(at, Claim(seat, "check", target=other, color="black"))]
    assert db.claims(store, game_id, 1) == [Said(at, Claim(seat, "check", target=other, color="black"))]
    assert db.claim_counts(store, [game_id, "no-such-game"]) == {game_id: 2}
    assert event_count(store, game_id) == events  # the engine's log is untouched


def test_a_claim_out_of_turn_is_refused_naming_the_rule_and_nothing_is_kept(store: Store) -> None:
    game_id = dealt_game(store)
    seat = to_speech(store, game_id)
    other = seat % 10 + 1
    with pytest.raises(RuleViolation) as caught:
        keep(store, game_id, Claim(other, "suspect", target=seat))
    assert caught.value.code == "not-your-word" and caught.value.clause == "A.speech.order"
    with pytest.raises(RuleViolation) as caught:  # no Commissar at a club table
        keep(store, game_id, Claim(seat, "role", role="commissar"))
    assert caught.value.clause == "A.setup"
    assert db.claims(store, game_id) == []
    with pytest.raises(GameNotFound):
        keep(store, "no-such-game", Claim(seat, "suspect", target=other))


def test_a_signed_game_takes_no_claim(store: Store) -> None:
    from sqlalchemy import update

    from sportmafia.store.models import StoredGame, utcnow

    game_id = dealt_game(store)
    seat = to_speech(store, game_id)
    with store.write() as s:
        s.execute(update(StoredGame).where(StoredGame.id == game_id).values(signed_at=utcnow()))
    with pytest.raises(GameLocked):
        keep(store, game_id, Claim(seat, "suspect", target=seat % 10 + 1))


def test_a_tables_bots_are_set_replaced_and_cleared(store: Store) -> None:
    game_id = dealt_game(store)
    assert db.bots_of(store, game_id) is None
    db.set_bots(store, game_id, {3: "baseline", 5: "random"}, runs_table=False, pace="normal", seed=7)
    got = db.bots_of(store, game_id)
    assert got is not None and got.agents == {3: "baseline", 5: "random"} and not got.runs_table and got.seed == 7
    db.set_bots(store, game_id, {4: "belief"}, runs_table=True, pace="fast", seed=8)
    got = db.bots_of(store, game_id)
    assert got is not None and got.agents == {4: "belief"} and got.runs_table and got.pace == "fast"
    assert [r.game_id for r in db.tables_with_bots(store)] == [game_id]
    assert db.clear_bots(store, game_id) and db.bots_of(store, game_id) is None
    assert not db.clear_bots(store, game_id)
    with pytest.raises(GameNotFound):
        db.set_bots(store, "no-such-game", {}, runs_table=True, pace="normal", seed=0)


def test_one_process_holds_a_tables_bots_until_its_lease_runs_out(store: Store) -> None:
    game_id = dealt_game(store)
    db.set_bots(store, game_id, {3: "baseline"}, runs_table=True, pace="normal", seed=1)
    assert db.take_lease(store, game_id, "a", now=100.0, seconds=15)
    assert not db.take_lease(store, game_id, "b", now=110.0, seconds=15)
    assert db.take_lease(store, game_id, "a", now=110.0, seconds=15)  # renewed
    assert db.take_lease(store, game_id, "b", now=126.0, seconds=15)  # a stopped renewing
    db.drop_lease(store, game_id, "b")
    assert db.take_lease(store, game_id, "a", now=127.0, seconds=15)


def test_the_practice_club_is_made_once(store: Store) -> None:
    first = db.practice_club(store)
    assert db.practice_club(store) == first
    game_id = store.create_game(first, "club", 10)
    assert store.game_club(game_id) == first
    assert online.table(store, game_id) is None

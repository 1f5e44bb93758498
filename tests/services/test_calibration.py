"""A club's own games in the bots' calibration figures (``services.calibration``, ``sportmafia calibrate``): the
first round's single votes of every whole game the club keeps, played here or imported."""

from __future__ import annotations

import json

import pytest

from sportmafia.bots.calibration import REAL, single_votes
from sportmafia.bots.plausible import play_plausible
from sportmafia.engine import to_record
from sportmafia.rules import get_ruleset
from sportmafia.services.calibration import club_single_votes, whole_games
from sportmafia.services.exchange import import_text
from sportmafia.store import Store
from tests.exchange.test_files import fixture


def test_a_clubs_whole_games_counted_as_the_bots_are(store: Store) -> None:
    club = store.create_club("Club")
    played = [play_plausible(get_ruleset("club"), 10, seed) for seed in range(6)]
    records = [to_record(g) for g in played]
    lines = import_text(store, club, json.dumps([fixture("mafiaratings_documented.json"),
                                                 fixture("polemica_334187.json"), *records]))
    whole = [x for x in lines if x.status == "imported" and x.detail]
    assert len(whole) == 7 and [x.detail for x in lines].count(False) == 1  # a Polemica game kept by its result
    expected = single_votes(store.load(x.game_id or "") for x in whole).figures()
    got = club_single_votes(store, club)
    assert got["round1_single_votes"] == expected and expected["games"] == 7
    assert expected["single_votes"] > 0 and got["real_round1_single_votes"] == REAL
    # by source: the real platforms' games (the one kept by its result only is left out), and this one's records
    assert club_single_votes(store, club, "mafiaratings")["round1_single_votes"]["games"] == 1
    assert club_single_votes(store, club, "polemica")["round1_single_votes"]["games"] == 0
    assert club_single_votes(store, club, "sportmafia")["round1_single_votes"]["games"] == 6
    with pytest.raises(ValueError):
        list(whole_games(store, club, "nowhere"))
    assert club_single_votes(store, store.create_club("Empty"))["round1_single_votes"]["games"] == 0

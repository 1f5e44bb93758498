"""RuleSet: presets, validation of custom rule sets, options as data."""

from __future__ import annotations

import dataclasses

import pytest

from sportmafia.rules import CLUB, FIIM, PRESETS, TOURNAMENT, RuleSet, RuleSetError, get_ruleset


def test_registry_has_the_three_presets() -> None:
    assert PRESETS == ("club", "tournament", "fiim")
    assert get_ruleset("club") is CLUB
    assert get_ruleset("tournament") is TOURNAMENT
    assert get_ruleset("fiim") is FIIM
    with pytest.raises(RuleSetError) as info:
        get_ruleset("mafia-online")
    assert "mafia-online" in info.value.message_ru


@pytest.mark.clause("A.setup")
def test_club_deck_is_six_civilians_sheriff_two_mafia_don() -> None:
    """A.setup: 10 seats, 6 civilians + Sheriff, 2 mafia + Don."""
    deck = CLUB.roles_for(10)
    assert sorted(deck) == sorted(["civilian"] * 6 + ["sheriff", "mafia", "mafia", "don"])


@pytest.mark.clause("B.setup")
def test_tournament_decks_by_table_size() -> None:
    """B.setup: 3 mafia for 12-14, 4 for 15-16, the host may pick 3 or 4 for 13-15; one Commissar."""
    expected_default = {12: 3, 13: 3, 14: 3, 15: 4, 16: 4}
    for n, black in expected_default.items():
        deck = TOURNAMENT.roles_for(n)
        assert deck.count("mafia") == black
        assert deck.count("commissar") == 1
        assert 9 <= n - black <= 12
    assert TOURNAMENT.roles_for(13, 4).count("mafia") == 4
    assert TOURNAMENT.roles_for(15, 3).count("mafia") == 3
    for n, black in ((12, 4), (16, 3), (14, 5)):
        with pytest.raises(RuleSetError):
            TOURNAMENT.roles_for(n, black)


@pytest.mark.clause("B.table")
def test_table_sizes_outside_the_range_are_refused() -> None:
    """B.table: 12 to 16 players; 4 mafia at a table of 10 under tournament cannot work."""
    with pytest.raises(RuleSetError) as info:
        TOURNAMENT.roles_for(10, 4)
    assert "12-16" in info.value.message_en and "12-16" in info.value.message_ru
    with pytest.raises(RuleSetError):
        CLUB.check_table(11)


def test_a_custom_rule_set_that_cannot_work_is_refused() -> None:
    with pytest.raises(RuleSetError) as info:
        CLUB.variant("broken", black_counts=((10, (5,)),))
    assert "5 black" in info.value.message_en
    with pytest.raises(RuleSetError):
        CLUB.variant("sizes", min_players=9)  # black_counts do not list 9
    with pytest.raises(RuleSetError):
        CLUB.variant("rounds", speech_rounds=())
    with pytest.raises(RuleSetError):
        CLUB.variant("kill", night_kill="poison")  # type: ignore[arg-type]
    with pytest.raises(RuleSetError):
        CLUB.variant("draw-and-misses", draw_cycles=3)
    with pytest.raises(RuleSetError):
        TOURNAMENT.variant("default-vote", default_vote=True)
    with pytest.raises(RuleSetError):
        CLUB.variant("negative", tie_speech_seconds=-5)


def test_a_club_variant_is_checked_and_keeps_the_rest() -> None:
    big = CLUB.variant("big-club", min_players=10, max_players=12,
                       black_counts=((10, (3,)), (11, (3,)), (12, (4, 3))))
    assert big.roles_for(12).count("mafia") + big.roles_for(12).count("don") == 4
    assert big.withdrawal == CLUB.withdrawal


@pytest.mark.parametrize("preset", PRESETS)
def test_options_round_trip_as_json_data(preset: str) -> None:
    rs = get_ruleset(preset)
    assert RuleSet.from_options(rs.options()) == rs
    with pytest.raises(RuleSetError):
        RuleSet.from_options({**rs.options(), "no_such_option": 1})


def test_every_option_names_its_clauses() -> None:
    for f in dataclasses.fields(RuleSet):
        if f.name == "name":
            continue
        assert f.metadata["clauses"], f.name
        assert f.metadata["doc"], f.name
    assert RuleSet.clauses_of("lift_two_at_four") == ("A.tie.four",)

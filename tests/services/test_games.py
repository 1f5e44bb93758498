"""A game's or a tournament's rule set is assembled in one place (services/games.py) for both."""

from __future__ import annotations

import pytest

from sportmafia.rules import get_ruleset
from sportmafia.services.errors import Refusal
from sportmafia.services.games import assemble_rules, changed_rules
from sportmafia.store import Store


def test_a_preset_a_changed_preset_and_a_saved_variant(store: Store) -> None:
    club = store.create_club("Клуб")
    assert assemble_rules(store, club, preset="club", variant=None, options=None) == get_ruleset("club")
    assert assemble_rules(store, club, preset=None, variant=None, options=None).name == "tournament"
    changed = assemble_rules(store, club, preset="club", variant=None, options={"defence_seconds": 45})
    assert (changed.name, changed.defence_seconds) == ("club-variant", 45)
    saved = store.save_variant(club, "Наш", {**get_ruleset("club").options(), "defence_seconds": 45})
    mine = assemble_rules(store, club, preset="fiim", variant=saved.id, options={"defence_seconds": 50})
    assert (mine.name, mine.defence_seconds) == ("Наш", 50)
    assert changed_rules(mine.options(), {"defence_seconds": 45}, "Наш") == assemble_rules(
        store, club, preset=None, variant=saved.id, options=None)


def test_what_cannot_be_assembled_is_refused_with_the_callers_code(store: Store) -> None:
    club = store.create_club("Клуб")
    other = store.create_club("Other")
    theirs = store.save_variant(other, "Their", get_ruleset("club").options())
    refused: list[tuple[dict[str, object], str]] = [
        ({"preset": "club", "variant": theirs.id, "options": None}, "has no saved variant"),
        ({"preset": "club", "variant": None, "options": {"no_such_option": 1}}, ""),
        ({"preset": "club", "variant": None, "options": None, "players": 7}, ""),
    ]
    for kwargs, words in refused:
        with pytest.raises(Refusal) as info:
            assemble_rules(store, club, code="bad-game", **kwargs)  # type: ignore[arg-type]
        assert (info.value.kind, info.value.code) == ("invalid", "bad-game")
        assert words in info.value.message_en and info.value.message_ru

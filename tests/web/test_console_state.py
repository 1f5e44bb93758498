"""The console's state (GET /api/games/{id}): "Next" names the step it leads to, "Undo" names what it undoes,
the decks while the cards are not dealt; and the console's script has a control for every command type."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from sportmafia.engine import (
    BLACK_ROLES,
    COMMANDS,
    Advance,
    BestMove,
    DealCards,
    Foul,
    Game,
    Nominate,
    Undo,
    Vote,
)
from sportmafia.engine.rules.judge import BEST_MOVE_GUESSES
from sportmafia.engine.state import SPEECH_STEPS
from sportmafia.rules import get_ruleset
from sportmafia.store import Store, UserRecord
from sportmafia.store.access import GameFacts
from sportmafia.web import pages
from sportmafia.web.access import GameAccess
from sportmafia.web.games import _state as state_for

from .conftest import Api
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""

CLUB_ROLES = ("civilian", "civilian", "sheriff", "civilian", "mafia", "civilian", "don", "civilian", "mafia",
              "civilian")


JUDGE = GameAccess(cast(Store, None), UserRecord(1, 1, "judge", "", "judge", datetime(2026, 1, 1, tzinfo=UTC)),
                   GameFacts("g", 1, None, None, frozenset(), frozenset()), "judge")
"""A judge of the club who does not play in the game: offered every command the engine lists."""


def _state(game_id: str, game: Game) -> dict[str, Any]:
    return state_for(game_id, game, JUDGE)


def club_game() -> Game:
    game = Game.new(get_ruleset("club"), 10)
    game.execute(DealCards(CLUB_ROLES))
    return game


def test_before_the_deal_the_decks_and_no_next() -> None:
    game = Game.new(get_ruleset("tournament"), 13)
    state = _state("g", game)
    assert state["next"] is None and state["back"] is None
    assert state["rules"] == {"fouls": False, "sanctions": True, "last_word_seconds": 40, "foul_remove": 4,
                              "black_roles": ["don", "mafia"], "speech_steps": ["defence", "last_word", "muted", "speech", "tie_speech"],
                              "best_move_max": 3, "checker": "commissar"}
    assert state["deal"]["black_options"] == [3, 4]
    assert sorted(state["deal"]["decks"]["4"]) == sorted(["mafia"] * 4 + ["commissar"] + ["civilian"] * 8)
    game.execute(DealCards(black=4), random.Random(1))
    state = _state("g", game)
    assert state["deal"] is None
    assert game.step == "first_speaker" and state["next"] is None  # a draw, not Next
    assert state["back"]["type"] == "dealt"
    # the deal's cards are not written on the Undo button
    assert state["back"]["text"] == {"en": "The deal", "ru": "Раздача карт"}
    assert "mafia" not in str(state["back"]) and "мафия" not in str(state["back"])


def test_next_names_the_step_it_leads_to() -> None:
    game = club_game()
    assert game.step == "meet_black"
    state = _state("g", game)
    assert state["next"]["label"] == {"en": "The Don meeting the host", "ru": "Знакомство Дона"}
    game.execute(Advance())
    game.execute(Advance())
    state = _state("g", game)  # the Sheriff's meeting: morning and the first speech come next
    assert state["next"]["step"] == "speech" and state["next"]["seat"] == 1 and state["next"]["day"] == 1
    assert state["next"]["label"]["ru"] == "Наступает утро · Речь игрока 1"
    assert state["next"]["banner"]["ru"] == "День 1 · речь игрока 1"
    game.execute(Advance())
    state = _state("g", game)
    assert state["next"]["label"] == {"en": "A speech of player 2", "ru": "Речь игрока 2"}
    # the state itself did not move: the copy was advanced, not the game
    assert game.step == "speech" and game.seat == 1 and state["view"]["seat"] == 1


def test_next_through_voting_and_night() -> None:
    game = club_game()
    for _ in range(3):
        game.execute(Advance())
    game.execute(Nominate(1, 5))
    game.execute(Advance())
    game.execute(Nominate(2, 7))
    for _ in range(8):
        game.execute(Advance())
    assert game.step == "speech" and game.seat == 10
    assert _state("g", game)["next"]["label"]["ru"] == "Голосование · кандидат 5"
    game.execute(Advance())
    assert game.step == "voting"
    for voter in (1, 2, 3, 4, 6, 8):
        game.execute(Vote(voter, 5))
    state = _state("g", game)  # closing candidate 5: the last candidate gets the rest, #5 leaves
    assert state["next"]["step"] == "last_word" and state["next"]["seat"] == 5
    assert state["next"]["label"]["en"] == "A last word of player 5"
    game.execute(Advance())
    state = _state("g", game)
    assert state["next"]["label"] == {"en": "Night falls · The night shooting", "ru": "Наступает ночь · Стрельба"}
    # Undo names the step "Next" left
    assert state["back"]["type"] == "advanced"
    assert state["back"]["text"]["en"] == "Day 1 · the vote · candidate 5"


def test_back_names_the_last_action_in_effect() -> None:
    game = club_game()
    for _ in range(3):
        game.execute(Advance())
    game.execute(Nominate(1, 4))
    assert _state("g", game)["back"]["text"] == {"en": "#1 nominates #4", "ru": "№1 выставляет №4"}
    game.execute(Foul(6, "gestures"))
    assert _state("g", game)["back"]["text"]["ru"] == "№6: фол 1 — излишняя жестикуляция"
    game.execute(Undo())
    back = _state("g", game)["back"]  # the foul is undone: the nomination is next in line
    assert back["type"] == "nominated" and back["text"]["en"] == "#1 nominates #4"
    game.execute(Undo())
    assert _state("g", game)["back"]["text"]["en"] == "Night 0 · the Sheriff meeting the host"


def test_best_move_on_the_button_without_the_count_of_black() -> None:
    game = Game.new(get_ruleset("fiim"), 10)
    game.execute(DealCards(CLUB_ROLES))
    while game.step != "shooting":
        game.execute(Advance())
    for shooter in (5, 7, 9):
        game.execute(next(c for c in game.legal_commands() if c.type == "shoot" and c.shooter == shooter
                          and c.target == 1))
    while game.step != "last_word":
        game.execute(Advance())
    game.execute(BestMove(1, (5, 7, 2)))
    back = _state("g", game)["back"]
    assert back["text"] == {"en": "Best move of #1: #5, #7, #2", "ru": "Лучший ход №1: №5, №7, №2"}


def test_the_api_serves_next_and_back(api: Api) -> None:
    game_id = api.new_game()
    state = api.get(f"/api/games/{game_id}").json()
    assert state["next"] is None and state["back"] is None and state["deal"]["black_options"] == [3]
    assert state["rules"] == {"fouls": True, "sanctions": False, "last_word_seconds": 60, "foul_remove": 4,
                              "black_roles": ["don", "mafia"], "speech_steps": ["defence", "last_word", "muted", "speech", "tie_speech"],
                              "best_move_max": 3, "checker": "sheriff"}
    assert api.command(game_id, {"type": "deal"}, 0, "d").status_code == 200
    state = api.get(f"/api/games/{game_id}").json()
    assert state["deal"] is None and state["back"]["type"] == "dealt"
    assert state["next"]["label"]["ru"] == "Знакомство Дона"


def test_the_pages_get_the_rule_sets_foul_limit(api: Api) -> None:
    """A.foul.four: the console's state and the table page carry the rule set's removing foul (the foul dots of
    both screens), and the black roles (a physical deal's count), never constants of the scripts."""
    game_id = api.new_game(options={"foul_remove": 5})
    rules = api.get(f"/api/games/{game_id}").json()["rules"]
    assert rules["foul_remove"] == 5 and rules["black_roles"] == ["don", "mafia"]
    page = api.get(f"/games/{game_id}/table").text
    found = re.search(r'<script type="application/json" id="table-rules">(.*?)</script>', page)
    assert found and '"foul_remove": 5' in found.group(1)
    for name in ("console-render.js", "table.js"):
        script = (pages.STATIC / name).read_text(encoding="utf-8")
        assert "MAX_FOULS" not in script and "foul_remove" in script, name


def test_the_scripts_take_the_speeches_the_best_move_and_the_black_roles_from_the_server(api: Api) -> None:
    """F.bestmove, the speaker's mark, the black roles: the console's state and the table page carry the engine's
    values (the steps that are a speech, the most players a best move names, the black roles), and no script
    under static/ holds a copy of them (or of the removing foul's four dots)."""
    game_id = api.new_game()
    rules = api.get(f"/api/games/{game_id}").json()["rules"]
    assert rules["speech_steps"] == sorted(SPEECH_STEPS) and rules["best_move_max"] == BEST_MOVE_GUESSES
    assert rules["black_roles"] == sorted(BLACK_ROLES)
    page = api.get(f"/games/{game_id}/table").text
    found = re.search(r'<script type="application/json" id="table-rules">(.*?)</script>', page)
    assert found and json.loads(found.group(1))["speech_steps"] == sorted(SPEECH_STEPS)
    copies = re.compile(r'"tie_speech"|\["(don|mafia)", "(don|mafia)"\]|Math\.min\(f, 4\)|4 - f|length < 3')
    for script in sorted(Path(pages.STATIC).glob("*.js")):
        assert not copies.search(script.read_text(encoding="utf-8")), script.name
    assert "best_move_max" in (pages.STATIC / "console.js").read_text(encoding="utf-8")
    for name in ("console-render.js", "table.js", "watch.js", "overlay.js"):
        assert "speech_steps" in (pages.STATIC / name).read_text(encoding="utf-8"), name


def test_the_console_script_handles_every_command_type() -> None:
    """Completeness: each command the engine knows has an entry in console.js's table of controls."""
    script = (pages.STATIC / "console.js").read_text(encoding="utf-8")
    table = re.search(r"const CONTROLS = \{(.*?)\n  \};", script, re.S)
    assert table, "console.js has no CONTROLS table"
    handled = set(re.findall(r"^\s+(\w+):", table.group(1), re.M))
    assert handled == set(COMMANDS), (set(COMMANDS) - handled, handled - set(COMMANDS))
    template = (Path(pages.TEMPLATES) / "console.html").read_text(encoding="utf-8")
    for element in ("sheet-link", "timeline-link", "table-link", "reveal", "physical-deal"):
        assert f'id="{element}"' in template

"""The black team's choice at a table the server runs (docs/bots.md, "Bots at an online table"): the tournament's
agreed kill (B.night), a host's command, is made from the phone of the seat that leads the black team (the lowest
living black seat a person holds; the bots follow), recorded as the host would; every other seat is refused in the
same words, a table a person hosts refuses it, and a retry gets its first answer."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from sportmafia.engine import DealCards, DrawFirstSpeaker, DrawLot, Game, feed_length
from sportmafia.engine.events import KillChosen
from sportmafia.live import driver
from sportmafia.store import claims as db
from sportmafia.web import online

from ..waiting import wait_until
from .conftest import Api
from .server_chance import seed_tables
from .test_online import issue, open_table, player_post, stranger

SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
ROLES = ("civilian", "mafia", "civilian", "mafia", "civilian", "commissar", "civilian", "mafia", "civilian",
         "civilian", "civilian", "civilian")
"""Seats 2, 4 and 8 black, 6 the Commissar."""


def night_kill(api: Api) -> str:
    """A tournament game for 12 dealt as ``ROLES`` and moved on by the host to night 1's choice of victim (seat 12
    left by lot on day 1)."""
    game_id = api.new_game(12, preset="tournament")
    open_table(api, game_id)
    assert api.command(game_id, DealCards(roles=ROLES).to_json(), 0, uuid.uuid4().hex).status_code == 200
    while True:
        game = api.store.load(game_id)
        if game.step == "kill":
            return game_id
        legal = game.legal_commands(None, extras=False)
        pick = next((c for c in legal if c.type == "advance"), None) or legal[0]
        if pick.type == "draw_lot":
            pick = DrawLot(seat=12)  # who leaves by lot: seat 12 (the host enters the lot's result)
        elif pick.type == "draw_first_speaker":
            pick = DrawFirstSpeaker(seat=1)  # the day's first speaker, as the host draws it: seat 1
        assert api.command(game_id, pick.to_json(), len(game.log), uuid.uuid4().hex).status_code == 200


def kill(api: Api, token: str, game_id: str, target: int, seat: int, command_id: str | None = None) -> Any:
    game = api.store.load(game_id)
    return player_post(stranger(api), token, game_id, {"type": "kill", "target": target}, feed_length(game, seat),
                       command_id or uuid.uuid4().hex)


@SQLITE
def test_the_leading_person_of_the_black_team_chooses_its_victim(api: Api) -> None:
    game_id = night_kill(api)
    tokens = {seat: issue(api, game_id, seat) for seat in (1, 4, 8)}
    # a person hosts the table: he records the mafia's choice himself; from a phone it is a host's command
    r = kill(api, tokens[4], game_id, 6, 4)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not-yours"
    # the server runs it, bots at every seat without a link: seat 4 is the lowest black seat a person holds
    # (seat 2, lower, is a bot's)
    db.set_bots(api.store, game_id, {s: "baseline" for s in range(1, 13) if s not in tokens}, runs_table=True,
                pace="normal", seed=1)
    before = len(api.store.load(game_id).log)
    refusals = []
    for seat in (1, 8):  # a red seat, and a black one that does not lead: the same words
        r = kill(api, tokens[seat], game_id, 6, seat)
        assert r.status_code == 403, r.text
        refusals.append(r.json()["error"])
    assert refusals[0] == refusals[1] and refusals[0]["code"] == "not-yours"
    assert len(api.store.load(game_id).log) == before  # nothing written
    command_id = uuid.uuid4().hex
    victim = next(s for s in api.store.load(game_id).living() if ROLES[s - 1] != "mafia" and s != 1)
    r = kill(api, tokens[4], game_id, victim, 4, command_id)
    assert r.status_code == 200 and not r.json()["replayed"], r.text
    game: Game = api.store.load(game_id)
    assert game.log[-1].type == "kill_chosen" and getattr(game.log[-1], "target", None) == victim
    # the same command again (a retry after a lost answer): its first answer, nothing applied twice
    r = kill(api, tokens[4], game_id, victim, 4, command_id)
    assert r.status_code == 200 and r.json()["replayed"]
    assert len(api.store.load(game_id).log) == len(game.log)
    # a second choice the same night: the rule refuses it
    r = kill(api, tokens[4], game_id, 1, 4)
    assert r.status_code == 409 and "B.night" in r.text, r.text


@SQLITE
def test_the_bots_lead_when_no_black_person_lives_and_a_phone_is_told_who_plays(api: Api) -> None:
    game_id = night_kill(api)
    token = issue(api, game_id, 1)
    db.set_bots(api.store, game_id, {s: "baseline" for s in range(2, 13)}, runs_table=True, pace="normal", seed=1)
    me = stranger(api).get("/api/play/me", headers={online.TOKEN_HEADER: token}).json()
    assert me["server_runs"] and me["bots"] == list(range(2, 13))
    r = kill(api, token, game_id, 6, 1)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not-yours"


DON_AT_ONE = ("mafia", "civilian", "civilian", "mafia", "civilian", "commissar", "civilian", "mafia", "civilian",
              "civilian", "civilian", "civilian")
"""Seats 1, 4 and 8 black, 6 the Commissar."""


@SQLITE
def test_when_the_leader_lets_the_night_pass_the_black_bots_choose(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 (black, a person, so the team's leader) never answers: when the night's step ends, the black bots
    choose the victim (a red seat), not the first seat the rules offer (seat 1 himself)."""
    monkeypatch.setenv(driver.PACE_SCALE_ENV, "0.05")
    seed_tables(monkeypatch, 12)  # the bots' chance: the same night every run
    game_id = api.new_game(12, preset="tournament")
    open_table(api, game_id)
    assert api.command(game_id, DealCards(roles=DON_AT_ONE).to_json(), 0, uuid.uuid4().hex).status_code == 200
    issue(api, game_id, 1)
    r = api.client.put(f"/api/games/{game_id}/online/bots", headers={"X-CSRF-Token": api.csrf or ""},
                       json={"agents": {str(s): "baseline" for s in range(2, 13)}, "runs_table": True, "pace": "fast"})
    assert r.status_code == 200, r.text
    chosen = wait_until(lambda: [e for e in api.store.load(game_id).log if isinstance(e, KillChosen)],
                        "a victim chosen on night 1")
    assert DON_AT_ONE[chosen[0].target - 1] != "mafia", chosen

"""A club's saved rule set variants: who may save them, validation through RuleSet.from_options (bilingual 422),
duplicate names (409), another club's variant (404), and a game created from a variant plays by its options."""

from __future__ import annotations

import dataclasses

import pytest
from fastapi.testclient import TestClient

from sportmafia.rules import RuleSet, get_ruleset
from sportmafia.web.security import hash_password
from tests.catalogs import catalog_entries

from .conftest import Api
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""


def _other(api: Api, app_client: tuple[TestClient, int], login: str, role: str, same_club: bool = False) -> Api:
    club = api.club_id if same_club else api.store.create_club(f"Club of {login}")
    api.store.create_user(club, login, hash_password(f"{login}-password"), role)
    other = Api(TestClient(app_client[0].app), api.store, club)
    other.login(login, f"{login}-password")
    return other


def test_save_list_and_read(api: Api) -> None:
    assert api.get("/api/variants").json() == {"variants": []}
    r = api.post("/api/variants", {"name": "Наш клуб", "preset": "club",
                                   "options": {"speech_rounds": [45], "misses_win": 0, "checker_first": True}})
    assert r.status_code == 201, r.text
    saved = r.json()
    assert saved["name"] == "Наш клуб" and saved["min_players"] == 10 and saved["max_players"] == 10
    expected = {**get_ruleset("club").options(), "speech_rounds": [45], "misses_win": 0, "checker_first": True,
                "name": "Наш клуб"}
    assert saved["options"] == expected
    r = api.post("/api/variants", {"name": "Big", "preset": "tournament", "options": {}})
    assert r.status_code == 201 and r.json()["min_players"] == 12 and r.json()["max_players"] == 16
    names = [v["name"] for v in api.get("/api/variants").json()["variants"]]
    assert names == ["Big", "Наш клуб"]  # by name
    assert api.get(f"/api/variants/{saved['id']}").json() == saved
    assert api.get("/api/variants/999999").status_code == 404


def test_validation_is_bilingual_and_writes_nothing(api: Api) -> None:
    bad = [
        ({"name": "x", "options": {"no_such_option": 1}}, "no_such_option"),
        ({"name": "x", "options": {"min_players": 12}}, None),  # 12..10: a range that cannot work
        ({"name": "x", "options": {"fouls": "yes"}}, "fouls"),
        ({"name": "x", "options": {"misses_win": -1}}, "misses_win"),
        ({"name": "x", "options": {"night_kill": "poison"}}, None),
        ({"name": "x", "preset": "no-such-preset"}, None),
        ({"name": "x", "options": {"black_counts": "nope"}}, "black_counts"),
    ]
    for body, word in bad:
        r = api.post("/api/variants", body)
        assert r.status_code == 422, (body, r.text)
        err = r.json()["error"]
        assert err["code"] == "bad-variant" and err["en"] and err["ru"] and err["en"] != err["ru"], body
        if word:
            assert word in err["en"] and word in err["ru"], (body, err)
    for body in ({"name": "", "options": {}}, {"name": "y" * 65}, {"options": {}}, {"name": "z", "extra": 1}):
        assert api.post("/api/variants", body).status_code == 422, body
    assert api.get("/api/variants").json() == {"variants": []}


def test_duplicate_name_is_409(api: Api, app_client: tuple[TestClient, int]) -> None:
    assert api.post("/api/variants", {"name": "Fast", "options": {"speech_rounds": [30]}}).status_code == 201
    r = api.post("/api/variants", {"name": "Fast", "preset": "fiim"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "variant-taken"
    assert "Fast" in r.json()["error"]["ru"]
    assert len(api.get("/api/variants").json()["variants"]) == 1
    # another club may use the same name
    other = _other(api, app_client, "otherhost", "host")
    assert other.post("/api/variants", {"name": "Fast"}).status_code == 201


def _anon(api: Api, app_client: tuple[TestClient, int]) -> Api:
    return Api(TestClient(app_client[0].app), api.store, api.club_id)  # a client of its own: no session


def test_who_may_save(api: Api, app_client: tuple[TestClient, int]) -> None:
    anon = _anon(api, app_client)
    assert anon.get("/api/variants").status_code == 401
    assert anon.post("/api/variants", {"name": "x"}).status_code in (401, 403)
    judge = _other(api, app_client, "judge1", "judge", same_club=True)
    r = judge.post("/api/variants", {"name": "Judge's"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    host = _other(api, app_client, "host1", "host", same_club=True)
    r = host.post("/api/variants", {"name": "Host's", "options": {"foul_remove": 5}})
    assert r.status_code == 201
    assert [v["name"] for v in judge.get("/api/variants").json()["variants"]] == ["Host's"]  # judges read them


def test_another_clubs_variant_is_not_found(api: Api, app_client: tuple[TestClient, int]) -> None:
    mine = api.post("/api/variants", {"name": "Mine"}).json()
    other = _other(api, app_client, "stranger", "admin")
    assert other.get(f"/api/variants/{mine['id']}").status_code == 404
    assert other.get("/api/variants").json() == {"variants": []}
    r = other.post("/api/games", {"variant": mine["id"], "players": 10})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad-game"
    assert other.get("/api/games").json()["games"] == []


def test_a_game_from_a_variant_uses_its_options(api: Api) -> None:
    v = api.post("/api/variants", {"name": "Short club", "preset": "club",
                                   "options": {"speech_rounds": [42], "last_word_seconds": 17}}).json()
    r = api.post("/api/games", {"variant": v["id"], "players": 10})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    record = api.get(f"/api/games/{game_id}/record").json()
    assert record["ruleset"]["name"] == "Short club"
    assert record["ruleset"]["options"]["speech_rounds"] == [42]
    assert record["ruleset"]["options"]["last_word_seconds"] == 17
    summary = api.get("/api/games").json()["games"][0]
    assert summary["ruleset"] == "Short club"
    # the first speech gets the variant's 42 seconds
    state = api.get(f"/api/games/{game_id}").json()
    seq = state["next_seq"]
    for n in range(60):
        legal = [c for c in state["legal"] if c["type"] in ("deal", "advance", "draw_first_speaker")]
        if state["view"]["step"] == "speech":
            break
        r = api.command(game_id, legal[0], seq, f"v{n}")
        assert r.status_code == 200, r.text
        state = api.get(f"/api/games/{game_id}").json()
        seq = state["next_seq"]
    assert state["view"]["step"] == "speech" and state["view"]["seconds"] == 42
    # a variant's table range is checked; options on top of a variant change it further
    r = api.post("/api/games", {"variant": v["id"], "players": 12})
    assert r.status_code == 422 and "10" in r.json()["error"]["en"]
    r = api.post("/api/games", {"variant": v["id"], "players": 10, "options": {"misses_win": 0}})
    assert r.status_code == 201
    options = api.get(f"/api/games/{r.json()['id']}/record").json()["ruleset"]["options"]
    assert options["misses_win"] == 0 and options["speech_rounds"] == [42]
    assert api.post("/api/games", {"variant": 0, "players": 10}).status_code == 422
    assert api.post("/api/games", {"variant": "1", "players": 10}).status_code == 422  # strict types


def test_rules_lists_the_options(api: Api, app_client: tuple[TestClient, int]) -> None:
    assert _anon(api, app_client).get("/api/rules").status_code == 401
    body = api.get("/api/rules").json()
    assert set(body["presets"]) == {"club", "tournament", "fiim"}
    fields = {f["name"]: f for f in body["fields"]}
    assert "name" not in fields
    assert fields["fouls"]["type"] == "bool" and fields["foul_remove"]["type"] == "int"
    assert fields["night_kill"] == {**fields["night_kill"], "type": "choice", "choices": ["shoot", "agree"]}
    assert fields["speech_rounds"]["type"] == "list[int]" and fields["black_counts"]["type"] == "black_counts"
    assert fields["first_night_meetings"]["type"] == "list[str]"
    assert set(fields) == set(get_ruleset("club").options()) - {"name"}
    # each option described in both languages: the Russian page shows the Russian description
    assert all(f["doc"] and f["doc_ru"] and f["doc_ru"] != f["doc"] for f in fields.values())
    assert all(any("а" <= ch <= "я" for ch in f["doc_ru"].lower()) for f in fields.values())


def test_every_option_has_a_russian_description() -> None:
    """The catalog's "rule option" messages are exactly the rule set's options' helps (a new option needs its
    Russian description), each translated."""
    fields = dataclasses.fields(RuleSet)
    entries, _problems = catalog_entries("ru")
    described = {msgid: texts[0] for (context, msgid), texts in entries.items() if context == "rule option"}
    assert set(described) == {f.metadata["doc"] for f in fields}
    texts = [RuleSet.doc_of(f.name).render("ru") for f in fields]
    assert texts == [described[f.metadata["doc"]] for f in fields]
    assert all(text.strip() and text.rstrip().endswith(".") for text in texts)

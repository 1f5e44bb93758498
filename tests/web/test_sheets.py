"""Result sheets through the API and the page (B.sheet): the sheet of a game played to its end, signing and
the lock, the judge's corrections and who may make them, the CSV and the record downloads."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sportmafia.bots import play_random
from sportmafia.engine import Game, replay, view
from sportmafia.engine import events as E
from sportmafia.engine.record import command_for
from sportmafia.rules import get_ruleset
from sportmafia.web.access import JUDGE_COMMANDS
from sportmafia.web.security import hash_password

from .conftest import Api
from .seeded_draws import seeded_server

pytestmark = pytest.mark.usefixtures(seeded_server.__name__)
"""The server's draws (a deal without roles, a first speaker drawn) are seeded: the same course every run."""

PASSWORD = "a long enough password"


def user(api: Api, app_client: tuple[TestClient, int], login: str, role: str, club_id: int | None = None) -> Api:
    """A new user of the club (the admin's by default), logged in on a client of his own."""
    club = api.club_id if club_id is None else club_id
    api.store.create_user(club, login, hash_password(PASSWORD), role)
    other = Api(TestClient(app_client[0].app), api.store, club)
    other.login(login, PASSWORD)
    return other


def play_to_the_end(api: Api, seed: int, judge: Api | None = None) -> tuple[str, Game]:
    """A club game played by the random bot, every command posted through the API as the bot played it: by
    ``api`` (the game's host), the judge's commands by ``judge`` when he is not the judge himself."""
    game_id = api.new_game()
    names = api.get(f"/api/games/{game_id}").json()["view"]["seats"]
    game = play_random(get_ruleset("club"), 10, seed, [s["name"] for s in names])
    seq = 0
    for n, ev in enumerate(game.log):
        if ev.action:
            cmd = command_for(ev)
            by = judge if judge is not None and cmd.type in JUDGE_COMMANDS else api
            r = by.command(game_id, cmd.to_json(), seq, f"c{n}")
            assert r.status_code == 200, r.text
            seq = r.json()["next_seq"]
    assert seq == len(game.log) and game.over
    return game_id, game


@pytest.fixture
def finished(api: Api) -> tuple[str, Game]:
    return play_to_the_end(api, seed=7)


def sheet_of(api: Api, game_id: str) -> dict[str, Any]:
    r = api.get(f"/api/games/{game_id}/sheet")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def error(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    err: dict[str, Any] = r.json()["error"]
    assert err["en"] and err["ru"]
    if code:
        assert err["code"] == code, err
    return err


@pytest.mark.clause("B.sheet")
def test_the_sheet_lists_every_seat_and_the_winner(api: Api, finished: tuple[str, Game]) -> None:
    game_id, game = finished
    after = view(game, "after")
    sheet = sheet_of(api, game_id)
    assert (sheet["game_id"], sheet["winner"], sheet["result"]) == (game_id, after["winner"], after["result"])
    assert [r["seat"] for r in sheet["rows"]] == list(range(1, 11))
    for row, seat in zip(sheet["rows"], after["seats"], strict=True):
        assert (row["nick"], row["role"], row["fouls"], row["removed"]) == \
            (seat["name"], seat["role"], seat["fouls"], seat["removed"])
        assert row["team"] == ("black" if seat["role"] in ("mafia", "don") else "red")
        assert row["left"] == (None if seat["left"] is None else {"how": seat["left"]["how"], "day": seat["left"]["day"]})
        assert row["won"] == (after["winner"] is not None and row["team"] == after["winner"])
    assert sheet["signed"] is None and sheet["corrections"] == []
    assert sheet["choices"]["roles"] == ["civilian", "sheriff", "mafia", "don"]


@pytest.mark.clause("B.sheet")
def test_no_sheet_before_the_end(api: Api, app_client: tuple[TestClient, int]) -> None:
    host = user(api, app_client, "host1", "host")
    game_id = host.new_game()  # the game's host signs its sheet
    assert api.command(game_id, {"type": "deal"}, 0, "deal").status_code == 200
    error(api.get(f"/api/games/{game_id}/sheet"), 409, "not-over")  # the roles stay hidden
    error(api.get(f"/api/games/{game_id}/sheet.csv"), 409, "not-over")
    error(host.post(f"/api/games/{game_id}/sheet/sign"), 409, "not-over")
    assert api.get("/api/games").json()["games"][0]["signed_at"] is None


@pytest.mark.clause("B.sheet")
def test_signing_locks_the_game(api: Api, app_client: tuple[TestClient, int]) -> None:
    host = user(api, app_client, "host1", "host")
    game_id, game = play_to_the_end(host, seed=7, judge=api)  # the game's host signs its sheet
    judge = user(api, app_client, "judge1", "judge")
    error(judge.post(f"/api/games/{game_id}/sheet/sign"), 403, "forbidden")
    r = host.post(f"/api/games/{game_id}/sheet/sign")
    assert r.status_code == 200, r.text
    signed = r.json()["signed"]
    assert signed["by"]["login"] == "host1" and signed["at"]
    assert sheet_of(api, game_id)["signed"] == signed
    error(host.post(f"/api/games/{game_id}/sheet/sign"), 409, "signed")
    error(api.post(f"/api/games/{game_id}/sheet/sign"), 409, "signed")
    listed = api.get("/api/games").json()["games"][0]
    assert listed["signed_at"] == signed["at"] and listed["signed_by"] == signed["by"]["id"]
    # every command is refused now, an undo included, and nothing is written
    head = len(game.log)
    for command in ({"type": "undo"}, {"type": "protest", "outcome": "annul", "voters": [1, 2, 3]}):
        err = error(api.command(game_id, command, head, "after-sign"), 409, "locked")
        assert "подписан" in err["ru"]
    state = api.get(f"/api/games/{game_id}").json()
    assert state["next_seq"] == head and state["view"]["over"]
    assert len(api.get(f"/api/games/{game_id}/events").json()["events"]) == head


@pytest.mark.clause("B.sheet")
def test_corrections_by_the_judge(api: Api, app_client: tuple[TestClient, int]) -> None:
    host = user(api, app_client, "host1", "host")
    game_id, _game = play_to_the_end(host, seed=7, judge=api)  # the game's host signs its sheet
    path = f"/api/games/{game_id}/sheet/corrections"
    judge = user(api, app_client, "judge1", "judge")
    before = sheet_of(api, game_id)
    new_winner = "black" if before["winner"] != "black" else "red"
    fix = {"reason": "the host marked the wrong team", "changes": [{"field": "winner", "new": new_winner}]}
    error(judge.post(path, fix), 409, "unsigned")
    assert host.post(f"/api/games/{game_id}/sheet/sign").status_code == 200
    error(host.post(path, fix), 403, "forbidden")
    other_club = api.store.create_club("Other club")
    stranger = user(api, app_client, "stranger", "judge", other_club)
    error(stranger.post(path, fix), 404, "not-found")
    error(stranger.get(f"/api/games/{game_id}/sheet"), 404, "not-found")

    r = judge.post(path, fix)
    assert r.status_code == 201, r.text
    first = r.json()["correction"]
    assert first["by"]["login"] == "judge1" and first["reason"] == fix["reason"] and first["at"]
    assert first["changes"] == [{"field": "winner", "seat": None, "old": before["winner"], "new": new_winner}]
    assert r.json()["sheet"]["winner"] == new_winner
    role3 = before["rows"][2]["role"]
    new_role = "don" if role3 != "don" else "civilian"
    second = {"reason": "cards were swapped", "changes": [{"field": "role", "seat": 3, "new": new_role},
                                                            {"field": "fouls", "seat": 4, "new": 2
                                                             if before["rows"][3]["fouls"] != 2 else 1}]}
    assert api.post(path, second).status_code == 201  # an admin corrects too

    bad: list[tuple[Any, str]] = [
        ({"changes": fix["changes"]}, "invalid"),                                        # no reason
        ({"reason": "   ", "changes": fix["changes"]}, "invalid"),                       # a blank one
        ({"reason": "x" * 1001, "changes": fix["changes"]}, "invalid"),
        ({"reason": "typo", "changes": []}, "invalid"),
        ({"reason": "typo", "changes": [{"field": "charm", "seat": 1, "new": 1}]}, "invalid"),
        ({"reason": "typo", "changes": [{"field": "role", "seat": 99, "new": "don"}]}, "invalid"),
        ({"reason": "typo", "changes": [{"field": "role", "seat": 1, "new": "x" * 300}]}, "invalid"),
        ({"reason": "typo", "changes": [{"field": "role", "seat": 11, "new": "don"}]}, "bad-correction"),
        ({"reason": "typo", "changes": [{"field": "role", "seat": 1, "new": "king"}]}, "bad-correction"),
        ({"reason": "typo", "changes": [{"field": "fouls", "seat": 1, "new": 7}]}, "bad-correction"),
        ({"reason": "typo", "changes": [{"field": "fouls", "seat": 1, "new": "2"}]}, "bad-correction"),
        ({"reason": "typo", "changes": [{"field": "winner", "new": "green"}]}, "bad-correction"),
        ({"reason": "typo", "changes": [{"field": "role", "new": "don"}]}, "bad-correction"),
        ({"reason": "typo", "changes": [{"field": "winner", "new": new_winner}]}, "bad-correction"),
        ({"reason": "typo", "changes": fix["changes"], "by": "someone"}, "invalid"),
    ]
    for body, code in bad:
        err = error(judge.post(path, body), 422, code)
        assert err["code"] == code, body
    sheet = sheet_of(judge, game_id)
    assert [c["reason"] for c in sheet["corrections"]] == ["the host marked the wrong team", "cards were swapped"]
    assert [c["by"]["login"] for c in sheet["corrections"]] == ["judge1", "admin"]
    assert sheet["corrections"][1]["changes"][0] == {"field": "role", "seat": 3, "old": role3, "new": new_role}
    assert sheet["winner"] == new_winner
    assert sheet["rows"][2]["role"] == new_role
    assert sheet["rows"][2]["team"] == ("black" if new_role == "don" else "red")
    assert sheet["rows"][3]["fouls"] == second["changes"][1]["new"]
    assert all(row["won"] == (row["team"] == new_winner) for row in sheet["rows"])
    # the game itself is as it was played
    assert api.get("/api/games").json()["games"][0]["winner"] == before["winner"]


@pytest.mark.clause("B.sheet")
def test_csv_and_record_downloads(api: Api, app_client: tuple[TestClient, int], finished: tuple[str, Game]) -> None:
    game_id, game = finished
    assert api.post(f"/api/games/{game_id}/sheet/sign").status_code == 200
    sheet = sheet_of(api, game_id)
    for lang, delimiter, head, yes in (("ru", ";", "Ник", "да"), ("en", ",", "Nickname", "yes")):
        r = api.get(f"/api/games/{game_id}/sheet.csv", params={"lang": lang})
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/csv")
        assert r.headers["content-disposition"] == f'attachment; filename="sheet-{game_id}.csv"'
        assert r.content.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads the file as UTF-8
        rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig")), delimiter=delimiter))
        assert rows[0][1] == game_id
        start = rows.index([]) + 1
        header, lines = rows[start], rows[start + 1:]
        assert header[1] == head and len(lines) == 10
        for line, row in zip(lines, sheet["rows"], strict=True):
            assert (int(line[0]), line[1], int(line[4])) == (row["seat"], row["nick"], row["fouls"])
            assert (line[8] == yes) == row["won"]
    ru = api.get(f"/api/games/{game_id}/sheet.csv", headers={"Accept-Language": "ru"}).content.decode("utf-8-sig")
    assert "Ворон" in ru and "Победитель" in ru and ";" in ru.splitlines()[-1]

    r = api.get(f"/api/games/{game_id}/record.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"] == f'attachment; filename="game-{game_id}.json"'
    record = json.loads(r.content)
    again = replay(record)
    assert again.log == game.log and again.winner == game.winner and record["meta"]["game_id"] == game_id

    other_club = api.store.create_club("Other club")
    stranger = user(api, app_client, "stranger", "admin", other_club)
    for path in ("sheet.csv", "record.json", "sheet"):
        error(stranger.get(f"/api/games/{game_id}/{path}"), 404, "not-found")
    error(stranger.post(f"/api/games/{game_id}/sheet/sign"), 404, "not-found")


@pytest.mark.clause("B.sheet")
def test_departures_are_dated_by_the_day_or_the_night_as_the_console_numbers_them(api: Api) -> None:
    """A night kill is "killed, night N" (night N follows day N: the engine's and the console's numbering), a
    vote "voted out, day N": on the sheet's JSON, its CSV in both languages; the seat's column is "№"."""
    seed = next(seed for seed in range(100)  # the first bot game with a night kill and a vote
                if {"kill", "vote"} <= {how for how, _day, _night in play_random(get_ruleset("club"), 10, seed).left.values()})
    game_id, game = play_to_the_end(api, seed=seed)
    nights = {ev.killed: ev.night for ev in game.log if isinstance(ev, E.NightResult) and ev.killed}
    console = {s["seat"]: s["left"] for s in api.get(f"/api/games/{game_id}").json()["view"]["seats"]}
    rows = {r["seat"]: r for r in sheet_of(api, game_id)["rows"]}
    killed = [s for s, r in rows.items() if r["left"] and r["left"]["how"] == "kill"]
    voted = [s for s, r in rows.items() if r["left"] and r["left"]["how"] == "vote"]
    assert killed and voted and set(killed) == set(nights)
    for seat in killed:
        assert rows[seat]["left"] == {"how": "kill", "day": nights[seat], "phase": "night"} == console[seat]
    for seat in voted:
        assert rows[seat]["left"]["phase"] == "day" and rows[seat]["left"] == console[seat]
    words = {"ru": ("№", "убит, ночь %s", "заголосован, день %s", ";"),
             "en": ("#", "killed, night %s", "voted out, day %s", ",")}
    for lang, (seat_head, kill, vote, delimiter) in words.items():
        text = api.get(f"/api/games/{game_id}/sheet.csv", params={"lang": lang}).content.decode("utf-8-sig")
        lines = list(csv.reader(io.StringIO(text), delimiter=delimiter))
        table = lines[lines.index([]) + 1:]
        assert table[0][0] == seat_head
        departures = {int(line[0]): line[6] for line in table[1:]}
        for seat in killed:
            assert departures[seat] == kill % nights[seat]
        for seat in voted:
            assert departures[seat] == vote % rows[seat]["left"]["day"]
    ru = api.get(f"/games/{game_id}/sheet", headers={"Accept-Language": "ru"}).text
    assert '<th scope="col">№</th>' in ru and "Место" not in ru.split("<thead>")[1].split("</thead>")[0]
    strings = json.loads(re.search(r'id="sheet-i18n">(.*?)</script>', ru, re.S).group(1))  # type: ignore[union-attr]
    assert (strings["killed"], strings["left_night"], strings["left"]) == \
        ("убит, ночь %(night)s", "%(how)s, ночь %(night)s", "%(how)s, день %(day)s")


def test_not_logged_in(anon: Api) -> None:
    for method, path in (("GET", "/api/games/x/sheet"), ("GET", "/api/games/x/sheet.csv"),
                         ("GET", "/api/games/x/record.json"), ("POST", "/api/games/x/sheet/sign"),
                         ("POST", "/api/games/x/sheet/corrections")):
        r = anon.client.request(method, path, json={"reason": "r", "changes": []} if method == "POST" else None)
        assert r.status_code == 401, path
    r = anon.get("/games/x/sheet", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/games/x/sheet"


def labels(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="sheet-labels">(.*?)</script>', page, re.S)
    assert found
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_sheet_page(api: Api, app_client: tuple[TestClient, int]) -> None:
    game_id = api.new_game()
    ru = api.get(f"/games/{game_id}/sheet", headers={"Accept-Language": "ru"})
    assert ru.status_code == 200 and 'lang="ru"' in ru.text
    assert "Лист результатов игры" in ru.text and "Подписать лист результатов" in ru.text
    assert f'href="/api/games/{game_id}/sheet.csv?lang=ru"' in ru.text and "/static/sheet.js" in ru.text
    assert 'data-can-sign="yes"' in ru.text and 'data-can-correct="yes"' in ru.text  # an admin does both
    en = api.get(f"/games/{game_id}/sheet", headers={"Accept-Language": "en"})
    assert en.status_code == 200 and "Game result sheet" in en.text and "Save the correction" in en.text
    # the engine's names of roles, teams and departures, in the page's language
    assert labels(en.text)["roles"]["civilian"] == "civilian" and labels(ru.text)["roles"]["civilian"] == "мирный"
    assert labels(ru.text)["how"]["vote"] == "заголосован"
    judge = user(api, app_client, "judge1", "judge")
    page = judge.get(f"/games/{game_id}/sheet").text
    assert 'data-can-sign="no"' in page and 'data-can-correct="yes"' in page
    host = user(api, app_client, "host1", "host")
    page = host.get(f"/games/{host.new_game()}/sheet").text  # his own game
    assert 'data-can-sign="yes"' in page and 'data-can-correct="no"' in page
    assert api.get("/games/not-a-game/sheet").status_code == 404
    other = api.store.create_club("Другой клуб")
    foreign = api.store.create_game(other, get_ruleset("club"), 10, None)
    assert api.get(f"/games/{foreign}/sheet").status_code == 404
    for name in ("sheet.js", "sheet.css"):
        assert api.get(f"/static/{name}").status_code == 200

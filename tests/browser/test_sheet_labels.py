"""What the pages print of the data, in the page's language (Russian and English): a night kill on the result
sheet dated by its night, the seat's column "№"; the rule sets, the scoring systems and the dates on the games
list, the sheet, the tournaments list, the judge's desk and the public standings (never "club", "regulation" or
"2026-12-02"). Screenshots at a tablet's and a phone's size: test-artifacts/labels-<screen>-<lang>-<w>x<h>.png."""

from __future__ import annotations

import re
from typing import Any

from sportmafia.bots import play_random
from sportmafia.engine.record import command_for
from sportmafia.rules import get_ruleset

from .conftest import log_in_as_admin, screenshots

ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
WORDS = {
    "ru": {"club": "Клубные", "fiim": "ФИИМ", "regulation": "по регламенту", "custom": "своя таблица очков",
           "month": "дек", "kill": "убит, ночь %s", "vote": "заголосован, день %s", "seat": "№",
           "rules": "правила: %s", "scoring": "подсчёт: %s"},
    "en": {"club": "Club", "fiim": "FIIM", "regulation": "regulation", "custom": "with points by role",
           "month": "Dec", "kill": "killed, night %s", "vote": "voted out, day %s", "seat": "#",
           "rules": "rules: %s", "scoring": "scoring: %s"},
}


def shoot(page: Any, name: str) -> None:
    screenshots(page, f"labels-{name}", full_page=True)


def api(page: Any, server: str, method: str, path: str, body: Any = None) -> Any:
    token = page.get_attribute('meta[name="csrf-token"]', "content")
    r = page.request.fetch(server + path, method=method, data=body if body is not None else None,
                           headers={"X-CSRF-Token": token, "Content-Type": "application/json"})
    assert r.status in (200, 201), f"{path}: {r.status} {r.text()}"
    return r.json()


def finished_game(page: Any, server: str) -> tuple[str, dict[int, int], dict[int, int]]:
    """A club game of the roster played to its end by the bot (the first seed whose game has a night kill and a
    vote); the killed seats with their night and the voted-out seats with their day."""
    roster = [p["id"] for p in api(page, server, "GET", "/api/players")["players"]][:10]
    game_id = api(page, server, "POST", "/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]
    names = [s["name"] for s in api(page, server, "GET", f"/api/games/{game_id}")["view"]["seats"]]
    game = next(g for g in (play_random(get_ruleset("club"), 10, seed, names) for seed in range(100))
                if {"kill", "vote"} <= {how for how, _day, _night in g.left.values()})
    seq = 0
    for n, ev in enumerate(game.log):
        if ev.action:
            seq = api(page, server, "POST", f"/api/games/{game_id}/commands",
                      {"command": command_for(ev).to_json(), "expected_seq": seq, "command_id": f"c{n}"})["next_seq"]
    left = {s["seat"]: s["left"] for s in api(page, server, "GET", f"/api/games/{game_id}")["view"]["seats"]}
    killed = {s: v["day"] for s, v in left.items() if v and v["how"] == "kill"}
    voted = {s: v["day"] for s, v in left.items() if v and v["how"] == "vote"}
    assert killed and voted
    return game_id, killed, voted


def no_raw(text: str, lang: str) -> None:
    """No ISO day; on a Russian page, no internal name of a preset or a scoring system."""
    assert not ISO_DAY.search(text), text
    if lang == "ru":
        assert not re.search(r"\b(club|tournament|regulation|fiim|custom|variant)\b", text, re.I), text


def test_sheet_and_labels_in_the_pages_language(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in_as_admin(page, server)
        game_id, killed, voted = finished_game(page, server)
        autumn = api(page, server, "POST", "/api/tournaments", {
            "name": "Autumn Cup", "preset": "club", "scoring": "regulation",
            "starts_on": "2026-12-02", "ends_on": "2026-12-04"})["id"]
        api(page, server, "PATCH", f"/api/tournaments/{autumn}", {"published": True})
        api(page, server, "POST", "/api/tournaments", {
            "name": "Open", "preset": "fiim", "starts_on": "2026-12-15",
            "scoring": {"base": "regulation", "table": {"civilian": {"win": 1.25}}}})
        for lang, w in WORDS.items():
            context.add_cookies([{"name": "lang", "value": lang, "url": server}])

            # the result sheet: the night kill by its night, the vote by its day, the seat's column "№"
            page.goto(f"{server}/games/{game_id}/sheet")
            page.wait_for_selector("#sheet-table:not([hidden])")
            if lang == "ru":  # the host signs: it is told once (the signed line), not again in a notice under it
                page.once("dialog", lambda dialog: dialog.accept())
                page.click("#sign")
                page.wait_for_selector("#sheet-signed.is-signed")
                assert page.inner_text("#sheet").count("Игра закрыта для действий") == 1, page.inner_text("#sheet")
                assert page.is_hidden("#sheet-notice")
            assert page.inner_text("#sheet-table thead th >> nth=0").strip() == w["seat"]
            cells = {int(page.inner_text(f"#sheet-rows tr:nth-child({n}) td.num")): page.inner_text(
                f"#sheet-rows tr:nth-child({n}) td.departure") for n in range(1, 11)}
            for seat, night in killed.items():
                assert cells[seat] == w["kill"] % night
            for seat, day in voted.items():
                assert cells[seat] == w["vote"] % day
            head = page.inner_text("#sheet-game")
            assert w["club"] in head
            no_raw(head + page.inner_text("#sheet-signed"), lang)
            shoot(page, f"sheet-{lang}")

            # the games list
            page.goto(server + "/")
            page.wait_for_selector(".game-item")
            games = page.inner_text("#games")
            assert w["club"] in games
            no_raw(games, lang)
            shoot(page, f"games-{lang}")

            # the tournaments list: dates in words, the rule sets named
            page.goto(server + "/tournaments")
            page.wait_for_selector(".t-item")
            listed = page.inner_text("#tournament-list")
            assert w["rules"] % w["club"] in listed and w["rules"] % w["fiim"] in listed and w["month"] in listed
            no_raw(listed, lang)
            shoot(page, f"tournaments-{lang}")

            # the judge's desk: its summary line
            page.goto(f"{server}/tournaments/{autumn}")
            page.wait_for_function("() => document.getElementById('t-summary').textContent.includes('·')")
            summary = page.inner_text("#t-summary")
            assert w["rules"] % w["club"] in summary and w["scoring"] % w["regulation"] in summary, summary
            assert w["month"] in summary
            no_raw(summary, lang)
            shoot(page, f"desk-{lang}")

            # the public standings: the dates
            page.goto(f"{server}/t/{autumn}")
            dates = page.inner_text("#st-dates")
            assert w["month"] in dates and "2026" in dates
            no_raw(dates, lang)
            shoot(page, f"standings-{lang}")
        other = next(t for t in api(page, server, "GET", "/api/tournaments")["tournaments"] if t["name"] == "Open")
        page.goto(f"{server}/tournaments/{other['id']}")
        page.wait_for_function("() => document.getElementById('t-summary').textContent.includes('·')")
        summary = page.inner_text("#t-summary")
        assert WORDS["en"]["custom"] in summary and WORDS["en"]["fiim"] in summary
        no_raw(summary, "en")
        assert errors == []
    finally:
        context.close()

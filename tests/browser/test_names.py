"""Players' names on phones (390x844), in Russian and English: on the console's seats, the table view, a
player's page and the spectators' page, a name is whole or hyphenated where the page's language allows (CSS
``hyphens: auto`` under ``<html lang>``), never broken inside a word without a hyphen; a word too wide for its
tile gets a smaller font (``SM.fitNames``). The demo roster's longest names. Screenshots in test-artifacts/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sportmafia.web

from .conftest import ARTIFACTS, drawn
from .test_online_game import host_in

NAMES = """(sel) => Array.from(document.querySelectorAll(sel), (e) => {
  const s = getComputedStyle(e);
  return {text: e.textContent, sw: e.scrollWidth, cw: e.clientWidth, sh: e.scrollHeight, ch: e.clientHeight,
          hyphens: s.hyphens, wordBreak: s.wordBreak, overflowWrap: s.overflowWrap, cut: e.classList.contains('fit-cut'),
          size: parseFloat(s.fontSize)};
})"""


def test_long_names_are_never_broken_inside_a_word(browser: Any, server: str) -> None:
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "ru-RU")
    demo = set(json.loads((Path(sportmafia.web.__file__).parent / "demo.json").read_text("utf-8"))["roster"])
    # the demo roster's own players: other tests of the session's server import games whose persons join it
    roster = [p for p in host.page.request.get(server + "/api/players").json()["players"] if p["name"] in demo]
    longest = sorted(roster, key=lambda p: -len(p["name"]))[:10]  # Кардинал, Маэстро, Феникс, ...
    game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": [p["id"] for p in longest]})["id"]
    code = host.post(f"/api/games/{game_id}/online", {})["code"]
    play = host.post(f"/api/games/{game_id}/online/seats/1/link", {})["url"]
    pages = {"console": (f"/games/{game_id}", "#seats .seat .name"), "table": (f"/games/{game_id}/table", ".t-name"),
             "play": (play, "#o-seats .o-name"), "watch": (f"/watch/{code}", "#o-seats .o-name")}
    state = host_ctx.storage_state()
    ARTIFACTS.mkdir(exist_ok=True)
    for what, (path, selector) in pages.items():  # one phone for each screen, read in one language then the other
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  storage_state=state if what in ("console", "table") else None)
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc, what=what: errors.append(f"{what}: {exc}"))
        for lang in ("ru", "en"):
            ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
            page.goto(path if path.startswith("http") else server + path)
            page.wait_for_function("(sel) => document.querySelectorAll(sel).length === 10", arg=selector)
            page.evaluate("() => document.fonts.ready.then(() => true)")  # the names' font, if one is loading
            drawn(page)  # and the names laid out and fitted (SM.fitNames) on the screen
            assert page.evaluate("() => document.documentElement.lang") == lang  # what hyphenation follows
            names = page.evaluate(NAMES, selector)
            assert sorted(n["text"] for n in names) == sorted(p["name"] for p in longest)
            for n in names:
                where = f"{what} ({lang}): {n}"
                # no rule that breaks a word without a hyphen
                assert n["wordBreak"] not in ("break-all", "break-word") and n["overflowWrap"] == "normal", where
                assert n["hyphens"] == "auto", where
                # so a word wider than its tile would stick out of it: none does, and every line is shown
                assert n["sw"] <= n["cw"] and n["sh"] <= n["ch"] + 1 and not n["cut"], where
                assert n["size"] >= 8, where  # still readable
            page.screenshot(path=str(ARTIFACTS / f"names-{what}-{lang}-390x844.png"))
        ctx.close()
    assert not errors, errors
    host_ctx.close()
    host.close()

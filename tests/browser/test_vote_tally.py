"""Every vote's count on every screen, in the browser: a club day with a 5:5 tie, the revote tying again and the
lift question (4 of 10: they stay), the host acting through his API as his console does, while his console, the
projector's table view, seat 1's phone and the spectators' page follow it live. Each screen shows the running
count while the hands are raised and keeps the result through the tie's speeches and the revote (the lift's at
night). The cards are stated (seat 1, the phone, a civilian). Screenshots of the four screens at a tablet's and a phone's size go to test-artifacts/
(votes-<lang>-<screen>-<moment>-<w>x<h>.png)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import screenshots
from .test_games_full import CLUB_DEAL
from .test_online_game import host_in

TEXTS = {
    "ru": {"vote_start": "Голосование: №3 — 0, №6 — 0",
           "vote_running": "Голосование: №3 — 3, №6 — 0",
           "vote_tie": "Голосование: №3 — 5, №6 — 5: перестрелка",
           "revote_running": "Повторное голосование: №3 — 2, №6 — 0",
           "revote_tie": "Повторное голосование: №3 — 5, №6 — 5: перестрелка",
           "lift_running": "Подъём: 3 из 10",
           "lift_stay": "Подъём: 4 из 10 — остаются",
           "revote_banner": "День 1 · повторное голосование · кандидат 3"},
    "en": {"vote_start": "Vote: #3 — 0, #6 — 0",
           "vote_running": "Vote: #3 — 3, #6 — 0",
           "vote_tie": "Vote: #3 — 5, #6 — 5: tie",
           "revote_running": "Revote: #3 — 2, #6 — 0",
           "revote_tie": "Revote: #3 — 5, #6 — 5: tie",
           "lift_running": "Lift: 3 of 10",
           "lift_stay": "Lift: 4 of 10 — they stay",
           "revote_banner": "Day 1 · the revote · candidate 3"},
}
SCREENS = {"console": ("votes", "banner"), "table": ("t-votes", "t-banner"), "phone": ("o-votes", "o-banner"),
           "watch": ("o-votes", "o-banner")}
"""Each screen's element of the vote's count and of its banner."""


def shows(pages: dict[str, Any], lines: list[str]) -> None:
    """Every screen comes to show these count lines (one a line) by itself."""
    for name, page in pages.items():
        page.wait_for_function("([id, text]) => document.getElementById(id).innerText.trim() === text",
                               arg=[SCREENS[name][0], "\n".join(lines)])


def shoot(pages: dict[str, Any], lang: str, moment: str) -> None:
    for name, page in pages.items():
        screenshots(page, f"votes-{lang}-{name}-{moment}")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_count_of_a_tie_the_revote_and_the_lift_on_every_screen(browser: Any, server: str, lang: str) -> None:
    t = TEXTS[lang]
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "ru-RU" if lang == "ru" else "en-GB")
    contexts = [host_ctx]
    try:
        roster = [p["id"] for p in host.page.request.get(server + "/api/players").json()["players"]][:10]
        game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]
        code = host.post(f"/api/games/{game_id}/online", {})["code"]
        link = host.post(f"/api/games/{game_id}/online/seats/1/link", {})["url"]
        host.command(game_id, {"type": "deal", "roles": list(CLUB_DEAL)})

        def opened(url: str, width: int, height: int, ready: str, login: bool = False) -> Any:
            phone = width < 700
            ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone,
                                      storage_state=host_ctx.storage_state() if login else None)
            ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
            contexts.append(ctx)
            page = ctx.new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc: errors.append(f"{url}: {exc}"))
            page.goto(url)
            page.wait_for_selector(ready)
            return page

        pages = {
            "console": opened(f"{server}/games/{game_id}", 1024, 768, "#console[data-phase]:not([data-phase=''])",
                              login=True),
            "table": opened(f"{server}/games/{game_id}/table", 1024, 768, "#t-link[data-state=live]", login=True),
            "phone": opened(link, 390, 844, "#o-link[data-state=live]"),
            "watch": opened(f"{server}/watch/{code}", 1024, 768, "#o-link[data-state=live]"),
        }
        while host.state(game_id)["view"]["step"] != "speech":
            host.command(game_id, {"type": "advance"})
        host.command(game_id, {"type": "nominate", "by": 1, "target": 3})
        host.command(game_id, {"type": "advance"})
        host.command(game_id, {"type": "nominate", "by": 2, "target": 6})
        while host.state(game_id)["view"]["step"] != "voting":
            host.command(game_id, {"type": "advance"})
        shows(pages, [t["vote_start"]])  # nothing closed yet: the running count only

        # the first vote: the count runs as the hands are tapped
        for voter in (1, 2, 4):
            host.command(game_id, {"type": "vote", "voter": voter, "candidate": 3})
        shows(pages, [t["vote_running"]])
        shoot(pages, lang, "vote")
        for voter in (5, 7):
            host.command(game_id, {"type": "vote", "voter": voter, "candidate": 3})
        host.command(game_id, {"type": "advance"})  # the rest go to #6 by default: 5:5

        # the tie's speeches: the count that tied stays to be read
        shows(pages, [t["vote_tie"]])
        shoot(pages, lang, "tie")
        host.command(game_id, {"type": "advance"})
        host.command(game_id, {"type": "advance"})

        # the revote: named as such, its count under the first vote's
        for voter in (1, 2):
            host.command(game_id, {"type": "vote", "voter": voter, "candidate": 3})
        shows(pages, [t["vote_tie"], t["revote_running"]])
        for name, page in pages.items():
            assert page.inner_text(f"#{SCREENS[name][1]}") == t["revote_banner"], name
        shoot(pages, lang, "revote")
        for voter in (4, 5, 7):
            host.command(game_id, {"type": "vote", "voter": voter, "candidate": 3})
        host.command(game_id, {"type": "advance"})  # 5:5 again: the lift question

        for voter in (1, 2, 3):
            host.command(game_id, {"type": "lift_vote", "voter": voter})
        shows(pages, [t["vote_tie"], t["revote_tie"], t["lift_running"]])
        shoot(pages, lang, "lift")
        host.command(game_id, {"type": "lift_vote", "voter": 4})
        host.command(game_id, {"type": "advance"})  # 4 of 10: they stay; night falls

        shows(pages, [t["lift_stay"]])
        shoot(pages, lang, "night")
        assert errors == []
    finally:
        for ctx in reversed(contexts):
            ctx.close()
        host.close()

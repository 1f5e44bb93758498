"""B.observers in Chromium: the host closes his table to observers on the online panel; the spectators' page
(a phone, Russian) shows the notice and none of the game; the host opens it again and the page follows the
game again, with what was played meanwhile. Screenshots in test-artifacts/observers-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS
from .test_online_game import PHONE, host_in


@pytest.mark.clause("B.observers")
def test_the_host_closes_and_reopens_the_table_to_observers(browser: Any, server: str) -> None:
    errors: list[str] = []
    hctx, host = host_in(browser, server, errors, "en-GB")
    wctx = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        roster = [p["id"] for p in host.page.request.get(server + "/api/players").json()["players"]][:10]
        game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]
        code = host.post(f"/api/games/{game_id}/online", {})["code"]
        panel = host.page
        panel.goto(f"{server}/games/{game_id}/online")
        watch = wctx.new_page()
        watch.set_default_timeout(10_000)
        watch.on("pageerror", lambda exc: errors.append(f"watch: {exc}"))
        watch.goto(f"{server}/watch/{code}")
        watch.wait_for_selector("#o-seats .seat, #o-seats > *")
        assert watch.locator("#o-closed").is_hidden()
        before = watch.locator("#o-banner").inner_text()

        tablet = hctx.new_page()  # the spectators' page on a tablet, in English
        tablet.on("pageerror", lambda exc: errors.append(f"tablet: {exc}"))
        tablet.goto(f"{server}/watch/{code}")
        tablet.wait_for_selector("#o-seats > *")

        panel.get_by_role("button", name="Close to observers").click()
        watch.wait_for_selector("#o-closed:not([hidden])")
        tablet.wait_for_selector("#o-closed:not([hidden])")
        assert tablet.locator("#o-closed").inner_text() == "The judge has closed this table to observers"
        assert watch.locator("#o-link").is_hidden()
        assert watch.locator("#o-closed").inner_text() == "Наблюдение за столом закрыто судьёй"
        assert watch.locator("#o-seats").inner_text() == "" and watch.locator("#o-seats").is_hidden()
        panel.wait_for_selector("#p-observers .observers-closed")
        ARTIFACTS.mkdir(exist_ok=True)
        watch.screenshot(path=str(ARTIFACTS / "observers-ru-closed-390x844.png"))
        panel.screenshot(path=str(ARTIFACTS / "observers-en-panel-1024x768.png"))
        tablet.screenshot(path=str(ARTIFACTS / "observers-en-closed-1024x768.png"))

        # meanwhile the game goes on: the cards are dealt
        host.command(game_id, {"type": "deal"})
        panel.get_by_role("button", name="Open to observers again").click()
        watch.wait_for_selector("#o-closed[hidden]", state="attached")
        watch.wait_for_selector("#o-seats > *")
        assert watch.locator("#o-seats").is_visible()
        # the view of the game as it is now: dealt while the page was closed
        watch.wait_for_function("(b) => document.getElementById('o-banner').textContent !== b", arg=before)
        watch.screenshot(path=str(ARTIFACTS / "observers-ru-reopened-390x844.png"))
        tablet.wait_for_selector("#o-closed[hidden]", state="attached")
        assert watch.locator("#o-link").is_visible()
        assert errors == []
    finally:
        wctx.close()
        hctx.close()
        host.close()

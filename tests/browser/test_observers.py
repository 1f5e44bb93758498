"""B.observers in Chromium: the host closes his table to observers on the online panel; the spectators' page
(a phone, Russian) shows the notice and none of the game; the host opens it again and the page follows the
game again, with what was played meanwhile. Screenshots in test-artifacts/observers-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS
from .test_games_full import CLUB_DEAL
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
        host.command(game_id, {"type": "deal", "roles": list(CLUB_DEAL)})
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


@pytest.mark.clause("B.announce")
def test_the_desk_closes_a_table_and_asks_the_reason_for_a_rule_change(browser: Any, server: str) -> None:
    """The judge's desk: a round's table closed to observers and opened again from its card; after round 1
    the Settings tab asks the reason for a change of the tie-breaks and lists the change, as the public page
    does."""
    errors: list[str] = []
    ctx, judge = host_in(browser, server, errors, "ru-RU")
    try:
        h = judge.http
        tid = judge.post("/api/tournaments", {"name": "Кубок наблюдателей", "preset": "club"})["id"]
        judge.post(f"/api/tournaments/{tid}/participants", {"text": "\n".join(f"Игрок {i}" for i in range(1, 11))})
        me = h.get("/api/me").json()["user"]["id"]
        assert h.put(f"/api/tournaments/{tid}/staff", json={"staff": [{"user_id": me, "role": "host"}]}).status_code == 200
        judge.post(f"/api/tournaments/{tid}/seating", {"rounds": 1, "hosts": [me]})
        game_id = judge.post(f"/api/tournaments/{tid}/rounds/1/open", {})["games"][0]["game_id"]
        judge.post(f"/api/games/{game_id}/online", {})
        assert h.patch(f"/api/tournaments/{tid}", json={"published": True}).status_code == 200
        page = judge.page
        page.goto(f"{server}/tournaments/{tid}")
        page.click(".tab[data-tab=rounds]")
        page.get_by_role("button", name="Закрыть для наблюдателей").click()
        page.wait_for_selector(".observers-slot .observers-closed")
        assert h.get(f"/api/games/{game_id}/online").json()["watch_open"] is False
        page.get_by_role("button", name="Снова открыть для наблюдателей").click()
        page.get_by_role("button", name="Закрыть для наблюдателей").wait_for()
        assert h.get(f"/api/games/{game_id}/online").json()["watch_open"] is True

        page.click(".tab[data-tab=settings]")
        page.wait_for_selector("#settings-reason-box:not([hidden])")
        page.locator("#tie-breaks input[type=checkbox]").nth(1).click()  # one criterion less (or more)
        page.click("#save-settings")
        page.wait_for_selector("#settings-error:not([hidden])")
        assert "Первый тур начался" in page.locator("#settings-error").inner_text()
        page.fill("#settings-reason", "Объявлено игрокам перед вторым туром")
        page.click("#save-settings")
        page.wait_for_selector("#rule-changes:not([hidden]) li")
        assert "Объявлено игрокам перед вторым туром" in page.locator("#rule-changes-list").inner_text()
        page.screenshot(path=str(ARTIFACTS / "observers-ru-desk-settings-1024x768.png"), full_page=True)
        public = ctx.new_page()
        public.goto(f"{server}/t/{tid}")
        public.wait_for_selector("#rule-changes:not([hidden]) li")
        assert "Изменения правил после начала турнира" in public.locator("#rule-changes h2").inner_text()
        assert errors == []
    finally:
        ctx.close()
        judge.close()

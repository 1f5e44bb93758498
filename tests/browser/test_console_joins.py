"""The host's console shows the join requests made with the table code, live, with Confirm / Refuse in place:
the host never leaves the game (docs/console.md, "Join requests"). Tablet (1024x768) in English, phone (390 px)
in Russian; screenshots in test-artifacts/."""

from __future__ import annotations

from typing import Any

import httpx2 as httpx

from .conftest import ARTIFACTS
from .test_online_game import host_in


def test_the_console_shows_join_requests_live_and_decides_them_in_place(browser: Any, server: str) -> None:
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "en-US")
    roster = [p["id"] for p in host.page.request.get(server + "/api/players").json()["players"]][:10]
    game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]
    code = host.post(f"/api/games/{game_id}/online", {})["code"]
    console = host.page
    console.goto(f"{server}/games/{game_id}")
    console.wait_for_selector("#seats .seat")
    assert console.is_hidden("#join-requests") and console.is_hidden("#online-badge")
    ARTIFACTS.mkdir(exist_ok=True)
    with httpx.Client(base_url=server, timeout=10) as phone:
        asked = phone.post(f"/api/join/{code}", json={"seat": 4, "name": "Guest"})
        assert asked.status_code == 200, asked.text
        # over the host's socket at once (no reload, no polling)
        console.wait_for_selector("#join-requests li .join-approve", timeout=5000)
        assert "Seat 4: Guest" in console.inner_text("#join-requests")
        assert console.inner_text("#online-badge") == "1"
        console.screenshot(path=str(ARTIFACTS / "console-join-request-1024x768-en.png"))
        console.click("#join-requests li .join-approve")
        console.wait_for_selector("#join-requests", state="hidden", timeout=5000)
        claimed = phone.post("/api/join/claim", headers={"X-Join-Secret": asked.json()["secret"]}).json()
        assert claimed["status"] == "claimed" and claimed["token"]

    # a phone-sized console in Russian: a second request, refused in place
    phone_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU", is_mobile=True,
                                    has_touch=True, storage_state=host_ctx.storage_state())
    page = phone_ctx.new_page()
    page.on("pageerror", lambda exc: errors.append(f"phone console: {exc}"))
    page.set_default_timeout(10_000)
    page.context.add_cookies([{"name": "lang", "value": "ru", "url": server}])
    page.goto(f"{server}/games/{game_id}")
    page.wait_for_selector("#seats .seat")
    with httpx.Client(base_url=server, timeout=10) as phone:
        assert phone.post(f"/api/join/{code}", json={"seat": 7, "name": "Лиса"}).status_code == 200
    page.wait_for_selector("#join-requests li .join-deny", timeout=5000)
    text = page.inner_text("#join-requests")
    assert "Место 7: Лиса" in text and "Отклонить" in text
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the console is {width} px wide on a phone"
    page.screenshot(path=str(ARTIFACTS / "console-join-request-390-ru.png"))
    page.click("#join-requests li .join-deny")
    page.wait_for_selector("#join-requests", state="hidden", timeout=5000)
    console.wait_for_selector("#join-requests", state="hidden", timeout=5000)  # the tablet's too
    assert not errors, errors
    phone_ctx.close()
    host_ctx.close()
    host.http.close()


def test_no_errors_in_the_browsers_console_before_the_table_is_opened(browser: Any, server: str) -> None:
    """The console asks for the online table (its join requests) when its socket opens and at each keepalive, and
    the online panel every 3 s: before the table is opened the answer is its state ({"open": false}), not a 404
    that the browser logs as an error; the site's icon is there too."""
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "ru-RU")
    game_id = host.post("/api/games", {"preset": "club", "players": 10})["id"]
    logged: list[str] = []
    asked: list[int] = []
    # the console asks once its socket opens; the panel at once and then every 3 s (its clock, Playwright's, is
    # moved on 3 s for the second time rather than waited for)
    for path, times in ((f"/games/{game_id}", 1), (f"/games/{game_id}/online", 2)):
        page = host_ctx.new_page()
        page.on("console", lambda m: logged.append(f"{m.type}: {m.text} {m.location}") if m.type == "error" else None)
        page.on("response", lambda r: asked.append(r.status) if r.url.endswith(f"/api/games/{game_id}/online") else None)
        page.clock.install()
        seen = len(asked)
        with page.expect_response(lambda r: r.url.endswith(f"/api/games/{game_id}/online")):
            page.goto(server + path)
        if times == 2:
            with page.expect_response(lambda r: r.url.endswith(f"/api/games/{game_id}/online")):
                page.clock.fast_forward(3000)
        page.evaluate("() => true")  # whatever the browser logged of the answers has reached the test
        assert len(asked) >= seen + times, (path, asked)
        page.close()
    assert asked and set(asked) == {200}, asked
    assert not logged, logged
    icon = host.http.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon"
    assert not errors, errors
    host_ctx.close()
    host.http.close()

"""The games page in a browser: seats picked from the roster and typed, reordered by dragging a handle (mouse
at 1024x768, touch at 390x844, both through pointer events) and shuffled; the games created with exactly
the order shown; a saved variant offered with the presets; the history filtered by a player."""

from __future__ import annotations

import re
import uuid
from typing import Any

from .conftest import ADMIN_PASSWORD, ARTIFACTS, SIZES, seed_chance


def login(page: Any, server: str, lang: str) -> None:
    page.goto(server + "/login")
    with page.expect_navigation(timeout=30_000):  # the switch reloads the page (slow on a busy machine)
        page.click(f".lang-switch[data-lang={lang}]")
    page.wait_for_selector(f"html[lang={lang}]")
    page.fill("#login", "admin")
    page.fill("#password", ADMIN_PASSWORD)
    page.click("#login-submit")
    page.wait_for_url(server + "/")


def seat_names(page: Any) -> list[str]:
    names: list[str] = page.eval_on_selector_all("#seats .seat-name", "els => els.map(e => e.textContent)")
    return names


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def drag(page: Any, source: int, target: int, touch: bool, cdp: Any) -> None:
    """Drag the seat at index ``source`` by its handle onto the place of the seat at index ``target``."""
    items = page.locator("#seats .seat-item")
    items.nth(min(source, target)).scroll_into_view_if_needed()
    items.nth(max(source, target)).scroll_into_view_if_needed()
    handle = items.nth(source).locator(".handle").bounding_box()
    goal = items.nth(target).bounding_box()
    viewport = page.viewport_size
    assert handle["y"] >= 0 and goal["y"] + goal["height"] <= viewport["height"], (handle, goal, viewport)
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    gy = goal["y"] + (goal["height"] * 0.25 if target < source else goal["height"] * 0.75)
    steps = 12
    if touch:
        def point(py: float) -> list[dict[str, float]]:
            return [{"x": x, "y": py, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point(y)})
        for i in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": point(y + (gy - y) * i / steps)})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        page.mouse.move(x, y)
        page.mouse.down()
        for i in range(1, steps + 1):
            page.mouse.move(x, y + (gy - y) * i / steps)
        page.mouse.up()
    page.wait_for_function("() => !document.querySelector('#seats .dragging')")


def record_names(page: Any, server: str, game_id: str) -> list[str]:
    record = page.request.get(f"{server}/api/games/{game_id}/record").json()
    return [s["name"] for s in record["seats"]]


def test_new_game_drag_shuffle_variant_history(browser: Any, server: str) -> None:
    for (width, height), lang in zip(SIZES, ("en", "ru"), strict=True):
        touch = width < 700
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US",
                                      has_touch=touch, is_mobile=touch)
        seed_chance(context, width)  # the page's shuffle draws the same order on every run
        page = context.new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        cdp = context.new_cdp_session(page)
        tag = f"{lang}-%s-{width}x{height}"
        try:
            login(page, server, lang)
            page.wait_for_selector("#roster .chip")
            # nothing wider than the screen (the Russian labels made the cards 4 px too wide at 390 px)
            assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
            # eight from the roster, two typed: the seats in the order given
            roster = page.eval_on_selector_all("#roster .chip .label", "els => els.map(e => e.textContent)")[:8]
            for name in roster:
                page.click(f"#roster .chip:has-text('{name}')")
            typed = [f"Guest {width}", f"Гость {width}"]
            for name in typed:
                page.fill("#typed-name", name)
                page.press("#typed-name", "Enter")
            assert seat_names(page) == roster + typed
            assert page.get_attribute(f"#roster .chip:has-text('{roster[2]}')", "aria-pressed") == "true"
            # the same name twice is refused with a message
            page.fill("#typed-name", roster[0])
            page.click("#add-name")
            assert page.is_visible("#new-game-error") and len(seat_names(page)) == 10
            # drag the last seat up to the sixth place, then the second down to the fourth
            drag(page, 9, 5, touch, cdp)
            order = [*roster[:5], typed[1], *roster[5:], typed[0]]
            assert seat_names(page) == order
            drag(page, 1, 3, touch, cdp)
            order = [order[0], order[2], order[3], order[1], *order[4:]]
            assert seat_names(page) == order
            assert page.inner_text("#seats .seat-item:nth-child(4) .seat-no") == "4"
            shoot(page, tag % "seats")
            page.click("#create-game")
            page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
            dragged_game = page.url.rsplit("/", 1)[1]
            assert record_names(page, server, dragged_game) == order

            # shuffle: the seats shown are the seats created
            page.goto(server + "/")
            page.wait_for_selector("#roster .chip")
            picks = page.eval_on_selector_all("#roster .chip .label", "els => els.map(e => e.textContent)")[:10]
            for name in picks:
                page.click(f"#roster .chip:has-text('{name}')")
            assert seat_names(page) == picks
            for _ in range(5):
                page.click("#shuffle")
                if seat_names(page) != picks:
                    break
            shuffled = seat_names(page)
            assert shuffled != picks and sorted(shuffled) == sorted(picks)
            shoot(page, tag % "shuffled")
            page.click("#create-game")
            page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
            assert record_names(page, server, page.url.rsplit("/", 1)[1]) == shuffled

            # a saved variant, offered with the presets; a game of it, unnamed seats
            page.goto(server + "/")
            page.click("#variant-card summary")
            page.wait_for_selector("#variant-fields input[name='speech_rounds']")
            variant = f"V{width}-{uuid.uuid4().hex[:4]}"
            page.fill("#variant-name", variant)
            page.fill("#variant-fields input[name='speech_rounds']", "45")
            box = "#variant-fields input[name='checker_first']"
            checker_first = not page.is_checked(box)
            page.set_checked(box, checker_first)
            page.click("#save-variant")
            page.wait_for_selector("#variant-saved:not([hidden])")
            shoot(page, tag % "variant")
            page.wait_for_selector(f"#preset option:has-text('{variant}')", state="attached")
            page.select_option("#preset", label=variant)
            seat_word = "Игрок" if lang == "ru" else "Player"  # unnamed seats, named in the page's language
            assert f"{seat_word} 1, {seat_word} 2" in page.inner_text("#new-game")  # as the form's note says
            page.click("#create-game")
            page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
            record = page.request.get(f"{server}/api/games/{page.url.rsplit('/', 1)[1]}/record").json()
            assert record["ruleset"]["name"] == variant and record["ruleset"]["options"]["speech_rounds"] == [45]
            assert record["ruleset"]["options"]["checker_first"] is checker_first
            assert [s["name"] for s in record["seats"]] == [f"{seat_word} {i}" for i in range(1, len(record["seats"]) + 1)]

            # the history: filtered by a typed player, the game in progress opens its console
            page.goto(server + "/")
            page.wait_for_selector("#games .game-item")
            page.fill("#filter-player", typed[0])
            page.wait_for_function("(id) => { const items = document.querySelectorAll('#games .game-item');"
                                   " return items.length === 1 && items[0].dataset.id === id; }", arg=dragged_game)
            assert page.get_attribute("#games .game-item a.open", "href") == f"/games/{dragged_game}"
            shoot(page, tag % "history")
            page.click("#games .game-item a.timeline")
            page.wait_for_url(f"{server}/games/{dragged_game}/timeline")
            assert order[0] in page.inner_text(".timeline-head")
            assert errors == []
        finally:
            context.close()

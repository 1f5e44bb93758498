"""Cards on physical screens (docs/security.md, "Cards on the screens"): what a glance across the table at a
player's phone or at the host's tablet can tell.

- The player's card lies face down on load, the same for every role (box, colours, text); a tap turns it over
  in the same box (nothing else on the page moves), and it turns face down again after 5 s (the page's clock held
  still by Playwright and moved on by the test: not a moment sooner), at a change of step, and when the page goes
  to the background. His teammates and his checks are part of it.
- The host's private reveal shows every role's card with the same colours and the same boxes of text; the roles
  he holds up on the seat tiles are one small tag for every role; the projector's table view shows none; the
  Sheriff's check answered on the tablet has one frame for black and red.

Screenshots (phone 390x844 and tablet 1024x768, Russian and English) go to /tmp/sportmafia-cards (or
``SPORTMAFIA_CARD_SHOTS``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import feed_seq
from .test_online_game import PHONE, Host, host_in, synced

SHOTS = Path(os.environ.get("SPORTMAFIA_CARD_SHOTS", "/tmp/sportmafia-cards"))
DEAL = ("civilian", "sheriff", "civilian", "don", "civilian", "mafia", "civilian", "mafia", "civilian", "civilian")
PHONES = {1: "ru-RU", 6: "ru-RU", 2: "en-US", 4: "en-US"}  # a red and a black player in each language
CARD_SHOW_MS = 5000  # play.js

FACE_DOWN = {"ru": "Нажмите, чтобы увидеть карту", "en": "Tap to see your card"}

LOOK = """(sels) => Object.fromEntries(sels.map((sel) => {
  const e = document.querySelector(sel);
  if (!e) return [sel, null];
  const r = e.getBoundingClientRect();
  const c = getComputedStyle(e);
  return [sel, {box: [r.x, r.y, r.width, r.height].map((x) => Math.round(x)), display: c.display,
    background: c.backgroundColor + ' ' + c.backgroundImage, color: c.color, border: c.border,
    shadow: c.boxShadow, font: c.fontSize + ' ' + c.fontWeight, visible: !!(r.width && r.height)}];
}))"""
"""The boxes and the computed looks of the selected elements."""

BACKGROUND = """(state) => {
  Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""

CARD_PARTS = ["#o-cardbox", ".o-card-sheet", "#o-card"]
PAGE_PARTS = ["#o-actions", "#o-seats", "#o-feedback"]  # what is below the card: it must not move


def snap(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def look(page: Any, sels: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(LOOK, sels)
    return out


def face_down(page: Any) -> dict[str, Any]:
    """The card as the page shows it face down, after checking that the page holds none of its text."""
    assert page.get_attribute("#o-card", "aria-expanded") == "false"
    assert page.evaluate("['o-role-icon', 'o-role', 'o-team', 'o-mates', 'o-check-list']"
                         ".map((id) => document.getElementById(id).textContent).join('')") == ""
    assert page.is_hidden("#o-card-face")
    lang = page.evaluate("document.documentElement.lang")
    assert page.inner_text("#o-cardbox").strip() == FACE_DOWN[lang]
    return look(page, CARD_PARTS + PAGE_PARTS)


def hold_still(page: Any) -> None:
    """The page's clock (Playwright's, installed before the page loaded) stops where it stands: from now on its
    timers run only when the test moves it on (``page.clock.run_for``). It stops a few seconds ahead of the page's
    present, so that the moment named is never in the past when the call arrives."""
    page.clock.pause_at((page.evaluate("() => Date.now()") + 5000) / 1000)  # Playwright's Python takes seconds


def turn_over(page: Any) -> dict[str, Any]:
    page.tap("#o-card")
    assert page.get_attribute("#o-card", "aria-expanded") == "true"
    assert page.is_visible("#o-role")
    return look(page, CARD_PARTS + PAGE_PARTS)


@pytest.fixture(scope="module")
def table(browser: Any, server: str) -> Iterator[dict[str, Any]]:
    """A club game of 10 dealt with known cards, open online, with the host and four phones on their links."""
    errors: list[str] = []
    host_ctx, host = host_in(browser, server, errors, "ru-RU")
    roster = [p["id"] for p in host.page.request.get(server + "/api/players").json()["players"]][:10]
    game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]
    host.post(f"/api/games/{game_id}/online", {})
    links = {x["seat"]: x["url"] for x in host.post(f"/api/games/{game_id}/online/links", {"seats": list(PHONES)})["links"]}
    host.command(game_id, {"type": "deal", "roles": list(DEAL)})
    phones: dict[int, Any] = {}
    contexts = []
    try:
        for seat, locale in PHONES.items():
            ctx = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
            contexts.append(ctx)
            page = ctx.new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc, s=seat: errors.append(f"seat {s}: {exc}"))
            page.clock.install()  # time flows as usual until the test holds it still (hold_still)
            url = links[seat] if links[seat].startswith("http") else server + links[seat]
            page.goto(url)
            page.wait_for_selector("#o-link[data-state=live]")
            synced(page, feed_seq(host.page, seat, game_id))
            phones[seat] = page
        yield {"host": host, "game": game_id, "phones": phones, "errors": errors, "server": server}
    finally:
        for ctx in contexts:
            ctx.close()
        host.close()
        host_ctx.close()


def advance(t: dict[str, Any], command: dict[str, Any] | None = None) -> None:
    """The host's command (Next by default); every phone shows its result."""
    host: Host = t["host"]
    host.command(t["game"], command or {"type": "advance"})
    for seat, page in t["phones"].items():
        synced(page, feed_seq(host.page, seat, t["game"]))


def same_but_text(looks: dict[int, dict[str, Any]], page_too: bool = True) -> None:
    """Every phone's card looks the same (boxes, colours, fonts), and so does the page below it on the phones of
    one language (a red and a black player's) unless ``page_too`` is false (at night a checker has his buttons)."""
    first = looks[1]
    for seat, other in looks.items():
        assert {k: other[k] for k in CARD_PARTS} == {k: first[k] for k in CARD_PARTS}, (seat, other, first)
    for red, black in ((1, 6), (2, 4)) if page_too else ():
        assert looks[red] == looks[black], (red, black, looks[red], looks[black])


def test_the_players_card_lies_face_down_alike_and_hides_itself(table: dict[str, Any]) -> None:
    phones: dict[int, Any] = table["phones"]
    # face down on load, alike for every role
    down = {seat: face_down(page) for seat, page in phones.items()}
    same_but_text(down)
    for seat, page in phones.items():
        if seat in (1, 2):
            snap(page, f"phone-{'ru' if seat == 1 else 'en'}-face-down-390x844")

    # a tap turns it over in the same box: nothing below it moves, and every role's open card has one size. The
    # phones' clocks stand still from here to the end: a card turns face down only when the test moves them on
    for page in phones.values():
        hold_still(page)
    up = {seat: turn_over(page) for seat, page in phones.items()}
    same_but_text(up)
    for seat in phones:
        for sel in CARD_PARTS[:1] + PAGE_PARTS:
            assert up[seat][sel]["box"] == down[seat][sel]["box"], (seat, sel)
    assert phones[1].inner_text("#o-role") == "Ваша роль: мирный"
    assert phones[1].is_hidden("#o-mates")
    assert phones[6].inner_text("#o-role") == "Ваша роль: мафия"
    assert "№4" in phones[6].inner_text("#o-mates") and "№8" in phones[6].inner_text("#o-mates")
    assert phones[4].inner_text("#o-role") == "You are: Don"
    assert phones[2].inner_text("#o-role") == "You are: Sheriff"
    snap(phones[6], "phone-ru-mafia-open-390x844")
    snap(phones[1], "phone-ru-civilian-open-390x844")
    snap(phones[4], "phone-en-don-open-390x844")

    # it turns face down by itself 5 s after the tap (not a millisecond sooner), and a second tap turns it down at
    # once
    for p in phones.values():
        p.clock.run_for(CARD_SHOW_MS - 1)
        assert p.get_attribute("#o-card", "aria-expanded") == "true"
    for seat, p in phones.items():
        p.clock.run_for(1)
        p.wait_for_selector('#o-card[aria-expanded="false"]')
        assert face_down(p) == down[seat]
    page = phones[6]
    page.tap("#o-card")
    page.tap("#o-card")
    assert face_down(page) == down[6]

    # the page going to the background turns it face down (headless Chromium keeps every page visible, so the
    # page is told what a phone's browser tells it: visibilityState "hidden" and a visibilitychange event)
    page.tap("#o-card")
    page.evaluate(BACKGROUND, "hidden")
    assert face_down(page) == down[6]
    page.evaluate(BACKGROUND, "visible")
    assert face_down(page) == down[6]  # and stays face down when the page comes back

    # the next step turns every card face down: day 0's meetings, then the first speech
    for p in phones.values():
        p.tap("#o-card")
    advance(table)
    for seat, p in phones.items():
        assert face_down(p) == down[seat], seat
    for _ in range(2):
        advance(table)
    assert phones[1].get_attribute("#play", "data-step") == "speech"

    # night 1: the Don's and the Sheriff's checks are on their cards, hidden with them, and change nothing in size
    for _ in range(10):
        advance(table)
    assert phones[1].get_attribute("#play", "data-step") == "shooting"
    advance(table)  # nobody shot: a miss
    advance(table, {"type": "check", "checker": 4, "target": 2})
    advance(table)
    advance(table, {"type": "check", "checker": 2, "target": 6})
    night = {seat: face_down(p) for seat, p in phones.items()}
    same_but_text(night, page_too=False)
    night_up = {seat: turn_over(p) for seat, p in phones.items()}
    same_but_text(night_up, page_too=False)
    for seat in phones:
        for sel in CARD_PARTS[:1] + PAGE_PARTS:
            assert night_up[seat][sel]["box"] == night[seat][sel]["box"], (seat, sel)
    assert phones[2].inner_text("#o-check-list") == "Night 1: #6 is black"
    assert phones[4].inner_text("#o-check-list") == "Night 1: #2 is the sheriff"
    assert phones[1].is_hidden("#o-checks") and phones[6].is_hidden("#o-checks")
    snap(phones[2], "phone-en-sheriff-check-open-390x844")
    snap(phones[6], "phone-ru-night-open-390x844")
    advance(table)  # morning: face down again, alike (seat 2 speaks first: he has his buttons)
    same_but_text({seat: face_down(p) for seat, p in phones.items()}, page_too=False)
    snap(phones[2], "phone-en-sheriff-face-down-390x844")
    assert table["errors"] == []


ROLE_WORDS = ("мафия", "дон", "шериф", "мирный", "mafia", "don", "sheriff", "civilian", "♠", "♥", "♛", "★")
REVEAL_PARTS = ["#reveal-card", "#reveal-card .card-frame", "#reveal-card-seat", "#reveal-card-symbol",
                "#reveal-card-role", "#reveal-card .card-hint"]


def test_the_private_reveal_looks_the_same_for_every_role(browser: Any, server: str) -> None:
    errors: list[str] = []
    ctx, host = host_in(browser, server, errors, "ru-RU")
    try:
        roster = [p["id"] for p in host.page.request.get(server + "/api/players").json()["players"]][:10]
        game_id = host.post("/api/games", {"preset": "club", "players": 10, "roster": roster})["id"]
        host.command(game_id, {"type": "deal", "roles": list(DEAL)})
        page = host.page
        for lang in ("ru", "en"):
            ctx.add_cookies([{"name": "lang", "value": lang, "url": server}])
            page.goto(f"{server}/games/{game_id}")
            page.wait_for_selector("#reveal:not([hidden])")
            for w, h in ((1024, 768), (390, 844)):
                page.set_viewport_size({"width": w, "height": h})
                looks = {}
                # every role at the first size, a red and a black card at the others
                for seat in (1, 2, 4, 6) if (lang, w) == ("ru", 1024) else (1, 6):
                    page.click(f"#reveal-seats .reveal-seat[data-seat='{seat}']")
                    page.wait_for_selector("#reveal-card:not([hidden])")
                    looks[seat] = look(page, REVEAL_PARTS)
                    assert page.inner_text("#reveal-card-role").lower() == {
                        "ru": {1: "мирный", 2: "шериф", 4: "дон", 6: "мафия"},
                        "en": {1: "civilian", 2: "sheriff", 4: "don", 6: "mafia"}}[lang][seat]
                    if seat in (1, 6):
                        snap(page, f"tablet-{lang}-reveal-{DEAL[seat - 1]}-{w}x{h}")
                    page.click("#reveal-card")
                    page.wait_for_selector("#reveal-card", state="hidden")
                # the seat's line holds the seat's number and name (not its role): its box is the same width
                first = looks[1]
                for seat, other in looks.items():
                    assert other == first, (lang, w, seat, other, first)
                assert first["#reveal-card-role"]["visible"] and first["#reveal-card-symbol"]["visible"]
                # the symbol is small beside the word
                assert first["#reveal-card-symbol"]["box"][3] < first["#reveal-card-role"]["box"][3]
            page.set_viewport_size({"width": 1024, "height": 768})

        # the roles the host holds up on his seat tiles: one small tag, one look, for every role
        page.click("#reveal-done")
        page.wait_for_selector("#reveal", state="hidden")
        page.dispatch_event("#roles", "pointerdown")
        page.wait_for_selector(".seat .role")
        tags = page.evaluate("""() => Array.from(document.querySelectorAll('.seat'), (t) => {
            const r = t.querySelector('.role'); const c = getComputedStyle(r); const tc = getComputedStyle(t);
            return {tile: t.className + ' ' + tc.backgroundColor + ' ' + tc.border, tag: r.className,
                    look: [c.color, c.backgroundColor, c.border, c.fontSize, c.fontWeight].join(' ')};
        })""")
        assert len(tags) == 10
        assert all(t == tags[0] for t in tags), tags
        snap(page, "tablet-en-roles-held-1024x768")
        page.dispatch_event("#roles", "pointerup")
        page.wait_for_selector(".seat .role", state="detached")

        # the projector's table view shows no role at all, and every seat's tile alike
        page.goto(f"{server}/games/{game_id}/table")
        page.wait_for_selector("#t-link[data-state=live]")
        text = page.inner_text("body").lower()
        for word in ROLE_WORDS:
            assert not re.search(rf"(^|\W){re.escape(word)}($|\W)", text), word
        tiles = page.evaluate("() => Array.from(document.querySelectorAll('.t-seat'), (t) => t.className + ' '"
                              " + getComputedStyle(t).backgroundColor)")
        assert len(tiles) == 10 and len(set(tiles)) == 1, tiles

        # the Sheriff's check answered on the host's tablet: the same frame for black and for red
        for _ in range(15):  # to night 1, the Sheriff's check
            host.command(game_id, {"type": "advance"})
        page.goto(f"{server}/games/{game_id}")
        answers = {}
        for target in (6, 1):  # mafia, civilian
            page.wait_for_selector(f"#console[data-step=check_sheriff] .seat.actionable[data-seat='{target}']")
            page.click(f".seat[data-seat='{target}']")
            page.wait_for_selector("#answer:not([hidden])")
            answers[target] = {k: {x: y for x, y in v.items() if x != "box"}
                               for k, v in look(page, ["#answer", "#answer-text"]).items()}
            snap(page, f"tablet-en-check-{DEAL[target - 1]}-1024x768")
            page.click("#answer-close")
            host.command(game_id, {"type": "undo"})  # the console follows it (live sync)
        assert answers[6] == answers[1], answers
        assert errors == []
    finally:
        host.close()
        ctx.close()

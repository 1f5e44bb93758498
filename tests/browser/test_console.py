"""The console's parts beyond a plain game (whole games are in test_games_full.py): a physical deal, the best
move, a judge's decision, and bad Wi-Fi: a lost answer, an outbox kept across a reload while offline, a stale
queue, a refusal."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from .conftest import ADMIN_PASSWORD, ARTIFACTS


def settled(page: Any) -> None:
    page.wait_for_function("() => { const c = document.getElementById('console');"
                           " return c && c.dataset.step && !c.dataset.saving; }")


def act(page: Any, selector: str) -> None:
    """Click and wait until the command is saved and the new state shown."""
    before = page.get_attribute("#console", "data-next-seq")
    page.click(selector)
    page.wait_for_function("(seq) => { const c = document.getElementById('console');"
                           " return c.dataset.nextSeq !== seq && !c.dataset.saving; }", arg=before)


def state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("""() => {
        const c = document.getElementById('console');
        const seats = Array.from(document.querySelectorAll('.seat'), (t) => ({
            seat: Number(t.dataset.seat), alive: t.dataset.alive === '1', actionable: t.classList.contains('actionable'),
            role: (t.querySelector('.role') || {}).className || ''}));
        return {step: c.dataset.step, day: Number(c.dataset.day), seat: Number(c.dataset.seat),
                over: c.dataset.over === '1', seats};
    }""")
    return result


try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # pragma: no cover - the tests are skipped without playwright (conftest)
    PlaywrightError = Exception  # type: ignore[misc,assignment]


def login(page: Any, server: str) -> None:
    page.goto(server + "/login")
    page.fill("#login", "admin")
    page.fill("#password", ADMIN_PASSWORD)
    page.click("#login-submit")
    page.wait_for_url(server + "/")


def new_game(page: Any, preset: str = "club") -> str:
    page.select_option("#preset", preset)
    page.click("#create-game")  # no names: Player 1 … Player 10
    page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
    settled(page)
    return str(page.url.rsplit("/", 1)[1])


def test_a_physical_deal_the_best_move_and_a_judges_decision(browser: Any, server: str) -> None:
    """F.bestmove, A.judge: a deal entered from physical cards (the counts checked against the rule set), the
    first-night victim's best move, and an override with its reason, all by taps."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        login(page, server)
        game_id = new_game(page, "fiim")
        api = f"{server}/api/games/{game_id}"
        page.click("#physical-deal")
        deal = {7: "don", 5: "mafia", 9: "mafia", 3: "sheriff"}
        for n in range(1, 11):
            page.click(f"#choices .role-chip[data-role='{deal.get(n, 'civilian')}']")
            page.click(f".seat[data-seat='{n}']")
            if n == 9:
                assert page.is_disabled("#deal-confirm")  # seat 10 has no card yet
        # one mafia card too many: refused by the counts, then put right
        page.click("#choices .role-chip[data-role='mafia']")
        page.click(".seat[data-seat='1']")
        assert "3/2" in page.inner_text("#choices .role-chip.over")
        assert page.is_disabled("#deal-confirm")
        page.click("#choices .role-chip[data-role='civilian']")
        page.click(".seat[data-seat='1']")
        assert page.is_enabled("#deal-confirm")
        page.click("#deal-confirm")
        act(page, "#modal-ok")
        roles = {s["seat"]: s["role"] for s in page.request.get(api).json()["view"]["seats"]}
        assert roles == {n: deal.get(n, "civilian") for n in range(1, 11)}
        page.click("#reveal-done")
        # each action is one request: the command's answer carries the state shown next (no GET after it)
        requests: list[str] = []
        page.on("request", lambda r: requests.append(f"{r.method} {r.url.removeprefix(server)}")
                if r.url.startswith(api) else None)
        for _ in range(60):
            s = state(page)
            if s["step"] == "shooting":
                break
            act(page, "#next")
        assert requests and all(r == f"POST /api/games/{game_id}/commands?state=true" for r in requests), requests
        act(page, ".seat[data-seat='1']")  # all shoot seat 1
        while state(page)["step"] != "last_word":
            act(page, "#next")
        assert "best move" in page.inner_text("#context").lower()
        for n in (5, 7, 2, 9):  # F.bestmove: up to three (the state's best_move_max), the fourth tap is not taken
            page.click(f".seat[data-seat='{n}']")
        assert "#5, #7, #2" in page.inner_text("#context") and "#9" not in page.inner_text("#context")
        act(page, "#choices .primary-chip")
        assert page.inner_text("#undo-label") == "Best move of #1: #5, #7, #2"
        view = page.request.get(api).json()["view"]
        assert view["best_move"] == {"seat": 1, "guesses": [5, 7, 2], "black": 2}

        page.click("#judge")
        page.click("#choices .chip:has-text('Override the result: red')")
        page.wait_for_selector("#modal-input:visible")
        page.fill("#modal-input", "a hint from the audience")
        act(page, "#modal-ok")
        assert page.inner_text("#banner") == "Winner: red (the town)"
        assert page.is_visible("#sheet-link") and page.is_visible("#timeline-link")
        events = page.request.get(api + "/events").json()["events"]
        assert [e["reason"] for e in events if e["type"] == "overridden"] == ["a hint from the audience"]
        assert errors == []
    finally:
        context.close()


def test_the_outbox_survives_a_reload_while_offline(browser: Any, server: str) -> None:
    """Bad Wi-Fi: actions tapped offline wait in the outbox (localStorage), a reload while offline keeps them,
    and back online they are sent in order with their ids: each applied exactly once."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        login(page, server)
        game_id = new_game(page)
        console_url = page.url
        act(page, "#deal")
        page.click("#reveal-done")
        assert state(page)["step"] == "meet_black"
        assert page.inner_text("#next-label") == "▶ The Don meeting the host"

        context.set_offline(True)
        page.click("#next")
        page.click("#next")
        page.wait_for_function("() => document.getElementById('saving').textContent.includes('Offline: 2 waiting')")
        assert page.is_visible("#saving")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "en-offline-390x844.png"))
        waiting = page.evaluate(f"JSON.parse(localStorage.getItem('sm-outbox-{game_id}'))")
        assert [w["command"]["type"] for w in waiting] == ["advance", "advance"]
        ids = [w["command_id"] for w in waiting]
        with contextlib.suppress(PlaywrightError):  # the browser's "no connection" page
            page.reload()
        context.set_offline(False)
        page.goto(console_url)
        page.wait_for_function("() => { const c = document.getElementById('console');"
                               " return c && c.dataset.step === 'meet_sheriff' && !c.dataset.saving; }")
        events = page.request.get(f"{server}/api/games/{game_id}/events").json()["events"]
        assert sum(1 for e in events if e["type"] == "advanced") == 2
        assert page.evaluate(f"localStorage.getItem('sm-outbox-{game_id}')") is None
        assert page.is_hidden("#saving")
        # the same ids again change nothing: the server answers them as replays
        csrf = page.get_attribute('meta[name="csrf-token"]', "content")
        r = page.request.post(f"{server}/api/games/{game_id}/commands", headers={"X-CSRF-Token": csrf},
                              data={"command": {"type": "advance"}, "expected_seq": 0, "command_id": ids[0]})
        assert r.status == 200 and r.json()["replayed"] is True
    finally:
        context.close()


def test_a_stale_outbox_is_dropped_with_a_message(browser: Any, server: str) -> None:
    """A queued action decided on a state another device has since moved on is not applied: the rest of the
    queue is dropped, the host is told, and the state is reloaded."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        login(page, server)
        game_id = new_game(page)
        act(page, "#deal")
        page.click("#reveal-done")
        seq = int(page.get_attribute("#console", "data-next-seq"))
        context.set_offline(True)
        page.click("#next")
        page.click("#next")
        page.wait_for_function("() => document.getElementById('saving').textContent.includes('2')")
        # meanwhile another device moves the game on
        other = browser.new_context()
        other.add_cookies(context.cookies())
        csrf = page.get_attribute('meta[name="csrf-token"]', "content")
        r = other.request.post(f"{server}/api/games/{game_id}/commands", headers={"X-CSRF-Token": csrf},
                               data={"command": {"type": "advance"}, "expected_seq": seq, "command_id": "other"})
        assert r.status == 200
        other.close()
        context.set_offline(False)
        page.wait_for_selector("#message.warn:not([hidden])")
        assert "unsent actions were dropped" in page.inner_text("#message")
        settled(page)
        events = page.request.get(f"{server}/api/games/{game_id}/events").json()["events"]
        assert sum(1 for e in events if e["type"] == "advanced") == 1
        assert state(page)["step"] == "meet_don"
    finally:
        context.close()


def test_bad_network_live_moves_and_refusals(browser: Any, server: str) -> None:
    """A lost answer is retried with the same command id and applied once; a move made on another device reaches
    the console (the live link's `sm-moved`); a refusal shows the engine's message in the page's language."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(server + "/login")
        page.fill("#login", "admin")
        page.fill("#password", ADMIN_PASSWORD)
        page.click("#login-submit")
        page.wait_for_url(server + "/")
        page.click("#create-game")  # no names: Player 1 … Player 10
        page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
        settled(page)
        game_url = page.url.replace("/games/", "/api/games/")

        sent: list[dict[str, Any]] = []
        lost = {"n": 0}

        def lose_first_answer(route: Any) -> None:
            sent.append(route.request.post_data_json)
            if lost["n"] == 0:
                lost["n"] += 1
                route.fetch()  # the server applies it, and the answer is lost on the way back
                route.abort()
            else:
                route.continue_()

        page.route("**/commands?state=true", lose_first_answer)
        act(page, "#deal")
        assert len(sent) == 2 and sent[0] == sent[1] and sent[0]["command"] == {"type": "deal"}
        record = page.request.get(game_url + "/record").json()
        assert sum(1 for e in record["events"] if e["type"] == "dealt") == 1
        page.unroute("**/commands?state=true")
        page.click("#reveal-done")

        # another device moves the game on: the live link's `sm-moved` reloads this console's state
        seq = int(page.get_attribute("#console", "data-next-seq"))
        csrf = page.get_attribute('meta[name="csrf-token"]', "content")
        r = page.request.post(game_url + "/commands", headers={"X-CSRF-Token": csrf},
                              data={"command": {"type": "advance"}, "expected_seq": seq, "command_id": "other"})
        assert r.status == 200
        page.wait_for_function("(seq) => document.getElementById('console').dataset.nextSeq === String(seq)",
                               arg=r.json()["next_seq"])
        assert state(page)["step"] == "meet_don"

        # a refusal: the engine's own sentence, in English
        page.route("**/commands?state=true", lambda route: route.continue_(post_data=json.dumps(
            {**route.request.post_data_json, "command": {"type": "nominate", "by": 5, "target": 6, "also": []}})))
        page.click("#next")
        page.wait_for_selector("#message.error:not([hidden])")
        assert page.inner_text("#message").startswith("Refused:")
    finally:
        context.close()

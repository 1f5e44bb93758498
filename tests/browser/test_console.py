"""The console's parts beyond a plain game (whole games are in test_games_full.py): a physical deal, the best
move, a judge's decision, and bad Wi-Fi: a lost answer, an outbox kept across a reload while offline, a stale
queue, a refusal."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from .conftest import ARTIFACTS, SIZES, admin_state, drawn, screenshots


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


EVENING_DEAL = ("civilian", "civilian", "don", "mafia", "civilian", "sheriff", "mafia", "civilian", "civilian",
                "civilian")
"""The games' cards (sent with the console's "Deal"): the Don at 3, the mafia at 4 and 7, the Sheriff at 6."""


def deal_as(page: Any, roles: tuple[str, ...]) -> None:
    """The console's next deal (its "Deal" button's command, as the page sends it) carries ``roles``: the game's
    course is the test's, not the server's random deal."""

    def with_roles(route: Any) -> None:
        body = route.request.post_data_json
        if body["command"]["type"] == "deal":
            body = {**body, "command": {**body["command"], "roles": list(roles)}}
        route.continue_(post_data=json.dumps(body))

    page.route("**/commands?state=true", with_roles, times=1)


def new_game(page: Any, preset: str = "club") -> str:
    page.select_option("#preset", preset)
    page.click("#create-game")  # no names: Player 1 … Player 10
    page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
    settled(page)
    return str(page.url.rsplit("/", 1)[1])


def test_a_physical_deal_the_best_move_and_a_judges_decision(browser: Any, server: str) -> None:
    """F.bestmove, A.judge: a deal entered from physical cards (the counts checked against the rule set), the
    first-night victim's best move, and an override with its reason, all by taps."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US",
                                  storage_state=admin_state(browser, server))
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server + "/")  # the admin, logged in once (admin_state)
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
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                  storage_state=admin_state(browser, server))
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(server + "/")  # the admin, logged in once (admin_state)
        game_id = new_game(page)
        console_url = page.url
        deal_as(page, EVENING_DEAL)
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
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US",
                                  storage_state=admin_state(browser, server))
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(server + "/")  # the admin, logged in once (admin_state)
        game_id = new_game(page)
        deal_as(page, EVENING_DEAL)
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
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US",
                                  storage_state=admin_state(browser, server))
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(server + "/")  # the admin, logged in once (admin_state)
        page.click("#create-game")  # no names: Player 1 … Player 10
        page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
        settled(page)
        game_url = page.url.replace("/games/", "/api/games/")

        sent: list[dict[str, Any]] = []
        lost = {"n": 0}

        def lose_first_answer(route: Any) -> None:
            sent.append(route.request.post_data_json)
            body = route.request.post_data_json  # the deal with the test's cards (EVENING_DEAL)
            dealt = json.dumps({**body, "command": {**body["command"], "roles": list(EVENING_DEAL)}})
            if lost["n"] == 0:
                lost["n"] += 1
                route.fetch(post_data=dealt)  # the server applies it, and the answer is lost on the way back
                route.abort()
            else:
                route.continue_(post_data=dealt)

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


def _shots(page: Any, name: str) -> None:
    """Screenshots of the page at a tablet's and a phone's size: test-artifacts/evening-<name>-<w>x<h>.png."""
    screenshots(page, f"evening-{name}")


def _timer_clear_of_the_bar(page: Any) -> None:
    """The timer is on screen, above the sticky bar (Undo, Next), at a tablet's and a phone's size."""
    first = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        drawn(page)
        timer = page.locator("#timer").bounding_box()
        bar = page.locator(".mainbar").bounding_box()
        assert timer and bar and timer["y"] >= 0 and timer["y"] + timer["height"] <= bar["y"], (w, h, timer, bar)
    page.set_viewport_size(first)


def _put_settings(page: Any, server: str, on: bool) -> None:
    csrf = page.get_attribute('meta[name="csrf-token"]', "content")
    r = page.request.put(f"{server}/api/club/settings", headers={"X-CSRF-Token": csrf}, data={"autostart_timer": on})
    assert r.status == 200 and r.json()["autostart_timer"] is on


WORDS = {
    "ru": {"by": "▲ кандидат от №1", "by_short": "▲ от №1", "table_by": "▲ кандидат от №1", "yes": "Да, отменить",
           "no": "Нет", "undo": "Отменить: №3: фол 1", "volley": "Стреляют все: №5", "reason": "удары по столу",
           "saved": "Сохранено.", "setting": "Запускать таймер речи"},
    "en": {"by": "▲ nominated by #1", "by_short": "▲ by #1", "table_by": "▲ put up by #1", "yes": "Yes, undo",
           "no": "No", "undo": "Undo: #3: foul 1", "volley": "All shoot: #5", "reason": "banging the table",
           "saved": "Saved.", "setting": "Start the speech timer"},
}


def test_a_hosts_evening_fewer_and_safer_taps(browser: Any, server: str) -> None:
    """Issue 17 (group B), in Russian and English, at a tablet's and a phone's size: the club's setting (on by
    default) starts the speech timer when the host's Next begins a speech (the table view follows it), after a
    Next sent offline too, less the time it waited; night 0's black meeting has its minute; the nominee's badge
    says who nominated him; the foul panel preselects no reason and leaves the timer clear of the sticky bar;
    Undo asks "Yes, undo" / "No"; "all shoot" is one command and one Undo takes the whole volley back."""
    for lang in ("ru", "en"):
        w = WORDS[lang]
        context = browser.new_context(viewport={"width": 1024, "height": 768},
                                      storage_state=admin_state(browser, server))
        context.add_cookies([{"name": "lang", "value": lang, "url": server}])
        context.clock.install()  # the pages' clocks run on, and the test moves them on where time is its subject
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        try:
            # the club's settings form: on by default; turned off and on again by its admin
            page.goto(server + "/users")
            page.wait_for_function("() => document.getElementById('autostart-timer').checked")
            assert w["setting"] in page.inner_text("#club-settings-form")
            page.uncheck("#autostart-timer")
            page.click("#club-settings-save")
            page.wait_for_selector("#club-settings-saved:not([hidden])")
            assert page.inner_text("#club-settings-saved") == w["saved"]
            assert page.request.get(server + "/api/club/settings").json()["autostart_timer"] is False
            page.check("#autostart-timer")
            page.click("#club-settings-save")
            page.wait_for_selector("#club-settings-saved:not([hidden])")
            assert page.request.get(server + "/api/club/settings").json()["autostart_timer"] is True
            _shots(page, f"settings-{lang}")

            page.goto(server + "/")
            game_id = new_game(page)
            api = f"{server}/api/games/{game_id}"
            table = context.new_page()
            table.goto(f"{server}/games/{game_id}/table")
            table.wait_for_selector("#t-link[data-state=live]")
            deal_as(page, EVENING_DEAL)
            act(page, "#deal")
            page.click("#reveal-done")
            # A.night0: the black team's meeting has its minute, on the console and on the table view
            assert state(page)["step"] == "meet_black"
            assert page.inner_text("#timer-value") == "1:00" and "running" not in page.get_attribute("#timer", "class")
            table.wait_for_function("() => document.getElementById('t-timer-value').textContent === '1:00'")
            assert table.is_visible("#t-timer")
            _shots(page, f"night0-timer-{lang}")
            for _ in range(3):
                act(page, "#next")
            # the host's Next began seat 1's speech: its timer runs by itself, and the table's follows
            assert state(page)["step"] == "speech" and state(page)["seat"] == 1
            assert "running" in page.get_attribute("#timer", "class")
            table.wait_for_function("() => document.getElementById('t-timer').classList.contains('running')")

            # the nominee's badge says who nominated him, in full and in short
            act(page, ".seat[data-seat='2']")
            assert page.inner_text(".seat[data-seat='2'] .badge.nominated .full") == w["by"]
            assert page.text_content(".seat[data-seat='2'] .badge.nominated .short") == w["by_short"]
            table.wait_for_function("(t) => document.querySelector(\".t-seat[data-seat='2'] .t-badges\")"
                                    ".textContent.includes(t)", arg=w["table_by"])
            _shots(page, f"badges-{lang}")
            _shots(table, f"badges-table-{lang}")
            table.close()  # its part is done: it no longer redraws at each of the host's taps

            # the foul panel: no reason picked, no seat takes a foul until one is; the timer stays clear of the bar
            page.click("#foul")
            assert page.locator("#choices .chip[aria-pressed=true]").count() == 0
            assert not state(page)["seats"][2]["actionable"]
            _timer_clear_of_the_bar(page)
            _shots(page, f"foul-panel-{lang}")
            page.click(f"#choices .chip:has-text('{w['reason']}')")
            act(page, ".seat[data-seat='3']")
            # Undo's question is answered "Yes, undo" / "No"; "No" keeps the foul
            page.click("#undo")
            page.wait_for_selector("#modal:not([hidden])")
            assert w["undo"] in page.inner_text("#modal-text")
            assert page.inner_text("#modal-ok") == w["yes"] and page.inner_text("#modal-cancel") == w["no"]
            _shots(page, f"undo-confirm-{lang}")
            page.click("#modal-cancel")
            assert page.inner_text(".seat[data-seat='3'] .fouls") == "●○○○"
            page.click("#undo")
            act(page, "#modal-ok")
            assert page.inner_text(".seat[data-seat='3'] .fouls") == "○○○○"

            if lang == "ru":
                # a Next sent offline: the speech began at the tap, so its timer starts less the time it waited
                context.set_offline(True)
                page.click("#next")
                context.clock.fast_forward(2500)  # the tap waits 2.5 s in the outbox
                context.set_offline(False)
                page.wait_for_function("() => { const c = document.getElementById('console');"
                                       " return c.dataset.seat === '2' && !c.dataset.saving; }")
                assert "running" in page.get_attribute("#timer", "class")
                left = page.inner_text("#timer-value")
                assert left <= "0:58", left
            else:
                # the club's setting off: the next speech waits for the host's tap on the timer
                _put_settings(page, server, False)
                page.reload()
                settled(page)
                act(page, "#next")
                assert state(page)["seat"] == 2 and "running" not in page.get_attribute("#timer", "class")
                assert page.inner_text("#timer-value") == "1:00"
                _put_settings(page, server, True)
                page.reload()
                settled(page)

            # A.night.shoot: "all shoot" is one command; one Undo takes the whole volley back
            for _ in range(20):
                if state(page)["step"] == "shooting":
                    break
                act(page, "#next")
            assert state(page)["step"] == "shooting"
            seq = int(page.get_attribute("#console", "data-next-seq"))
            act(page, ".seat[data-seat='5']")
            assert int(page.get_attribute("#console", "data-next-seq")) == seq + 1
            assert page.inner_text("#undo-label") == w["volley"]
            shots = page.request.get(api).json()["view"]["night"]["shots"]
            black = [s["seat"] for s in page.request.get(api).json()["view"]["seats"] if s["role"] in ("don", "mafia")]
            assert shots == {str(n): [5] for n in black} and len(black) == 3
            page.click("#undo")
            page.wait_for_selector("#modal:not([hidden])")
            assert w["volley"] in page.inner_text("#modal-text")
            act(page, "#modal-ok")
            assert page.request.get(api).json()["view"]["night"]["shots"] == {}
            assert state(page)["step"] == "shooting"
            assert errors == []
        finally:
            with contextlib.suppress(PlaywrightError):
                _put_settings(page, server, True)
            context.close()

"""The table view (``/games/{id}/table``) in one page and the console in another: every action in the console
reaches the table view live (its socket, never a reload), the host's timer too; the table shows no role while the game runs; dark
at night. The cards are stated (the console's random deal goes out with them: ``stated``). Screenshots of the table view at a tablet's (1024x768) and a phone's (390x844) size in test-artifacts/."""

from __future__ import annotations

import re
from typing import Any

from .conftest import ADMIN_PASSWORD, feed_seq, screenshots
from .test_games_full import CLUB_DEAL, stated

ROLE_WORDS = ("мафия", "дон", "шериф", "mafia", "don", "sheriff", "♠", "♥")


def shoot(page: Any, name: str) -> None:
    screenshots(page, f"table-{name}")


def console_seq(page: Any) -> int:
    return int(page.get_attribute("#console", "data-next-seq") or -1)


def act(console: Any, table: Any, selector: str) -> int:
    """Click in the console, wait until it is saved; the table view comes to the same seq by itself."""
    before = console.get_attribute("#console", "data-next-seq")
    assert console.is_visible(selector), (selector, console.get_attribute("#console", "data-step"))
    console.click(selector)
    console.wait_for_function("(seq) => { const c = document.getElementById('console');"
                              " return c.dataset.nextSeq !== seq && !c.dataset.saving; }", arg=before)
    seq = console_seq(console)
    # the table view is numbered in the spectator's own feed (a move hidden from it sends it nothing)
    table.wait_for_function("(seq) => Number(document.getElementById('table').dataset.nextSeq) >= seq",
                            arg=feed_seq(console, "spectator"))
    return seq


def proceed(console: Any, table: Any) -> int:
    """The console's main button now: deal, draw or next (after the cards were shown to the players)."""
    if console.is_visible("#reveal-done"):
        console.click("#reveal-done")
        console.wait_for_selector("#reveal", state="hidden")
    for selector in ("#deal", "#draw"):
        if console.is_visible(selector):
            return act(console, table, selector)
    return act(console, table, "#next")


def no_roles(table: Any) -> None:
    text = table.inner_text("#t-seats").lower()
    for word in ROLE_WORDS:
        assert not re.search(rf"(^|\W){re.escape(word)}($|\W)", text), (word, text)


def test_the_table_view_follows_the_console(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ru-RU")
    console = context.new_page()
    console.set_default_timeout(10_000)
    errors: list[str] = []
    console.on("pageerror", lambda exc: errors.append(str(exc)))
    stated(console, CLUB_DEAL)  # seat 7, shot at night, is red
    projector: Any = None
    try:
        console.goto(server + "/login")
        console.fill("#login", "admin")
        console.fill("#password", ADMIN_PASSWORD)
        console.click("#login-submit")
        console.wait_for_url(server + "/")
        console.click("#create-game")
        console.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
        game_id = console.url.rsplit("/", 1)[1]
        console.wait_for_function("() => { const c = document.getElementById('console');"
                                  " return c && c.dataset.step && !c.dataset.saving; }")

        # a window of its own, as on a projector (a second tab would put the console in the background,
        # where the browser slows its timers and animation frames)
        projector = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ru-RU",
                                        storage_state=context.storage_state())
        table = projector.new_page()
        table.set_default_timeout(10_000)
        table.on("pageerror", lambda exc: errors.append(str(exc)))
        table.goto(f"{server}/games/{game_id}/table")
        table.wait_for_selector("#t-link[data-state=live]")
        table.wait_for_selector(".t-seat[data-seat='10']")
        assert table.get_attribute("#table", "data-step") == "deal"
        assert table.inner_text("#t-banner") == console.inner_text("#banner")

        act(console, table, "#deal")
        no_roles(table)
        # through the night meetings to the first day, every step followed
        for _ in range(10):
            if console.get_attribute("#console", "data-step") == "speech":
                break
            if console.get_attribute("#console", "data-phase") == "night":
                table.wait_for_function("() => document.body.classList.contains('night')")
            proceed(console, table)
        assert table.get_attribute("#table", "data-step") == "speech"
        assert not table.evaluate("document.body.classList.contains('night')")
        assert table.inner_text("#t-banner") == console.inner_text("#banner")
        speaker = console.get_attribute("#console", "data-seat")
        assert "speaking" in (table.get_attribute(f".t-seat[data-seat='{speaker}']", "class") or "")

        # a nomination, shown on the table with who put the player up
        target = 4
        act(console, table, f".seat[data-seat='{target}']")
        assert "№" + speaker in table.inner_text(f".t-seat[data-seat='{target}'] .t-badges")
        assert "№4" in table.inner_text("#t-info")

        # the host's timer, sent from the console's page, is followed by the table (the timer of its step; one
        # of another step is not shown)
        step_key = console.evaluate("SM.timerStep(SM.console.S.view, SM.console.S.rules).key")
        console.evaluate("SM.live.sendTimer({running: true, left: 45, total: 60, key: 'another step'})")
        console.evaluate("(k) => SM.live.sendTimer({running: true, left: 37, total: 60, key: k})", step_key)
        table.wait_for_function("() => { const t = document.getElementById('t-timer-value').textContent;"
                                " return t === '0:37' || t === '0:36'; }")
        assert "running" in (table.get_attribute("#t-timer", "class") or "")
        console.evaluate("(k) => SM.live.sendTimer({running: false, left: 20, total: 60, key: k})", step_key)
        table.wait_for_function("() => document.getElementById('t-timer-value').textContent === '0:20'")
        no_roles(table)
        shoot(table, "day")

        # on to the night: the table turns dark
        for _ in range(60):
            if console.get_attribute("#console", "data-phase") == "night":
                break
            proceed(console, table)
        table.wait_for_function("() => document.body.classList.contains('night')")
        no_roles(table)
        shoot(table, "night")

        # the night's shot (all shoot seat 7), on to the morning: seat 7 has left, shown how and when
        victim = 7
        for _ in range(20):
            step = console.get_attribute("#console", "data-step")
            if step == "speech":
                break
            if step == "shooting" and console.get_attribute(f".seat[data-seat='{victim}']", "aria-disabled") == "false":
                act(console, table, f".seat[data-seat='{victim}']")
                no_roles(table)  # the shots are not shown on the table
                assert "⊕" not in table.inner_text("#t-seats")
            proceed(console, table)
        assert table.get_attribute(".t-seat[data-seat='7']", "data-alive") == "0"
        assert "✝" in table.inner_text(".t-seat[data-seat='7'] .t-badges")
        assert "ночь 1" in table.inner_text(".t-seat[data-seat='7'] .t-badges")
        assert "Убит ночью: №7" in table.inner_text("#t-info")

        # a foul given in the console shows as a dot on the table
        speaker = console.get_attribute("#console", "data-seat")
        seat = 2 if speaker != "2" else 3
        console.click("#foul")
        console.click("#choices .chip >> nth=0")
        act(console, table, f".seat[data-seat='{seat}']")
        assert table.inner_text(f".t-seat[data-seat='{seat}'] .t-fouls") == "●○○○"

        # the same screen in English (the language is in the host's corner menu: no control in the audience's sight)
        assert table.is_hidden(".topbar") and table.is_hidden("#t-back")
        table.click("#t-menu summary")
        table.click("#t-menu .lang-switch[data-lang=en]")
        table.wait_for_selector("html[lang=en]")
        table.wait_for_selector("#t-link[data-state=live]")
        assert "night 1" in table.inner_text(".t-seat[data-seat='7'] .t-badges")
        no_roles(table)
        shoot(table, "morning-en")
        assert errors == []
    finally:
        if projector is not None:
            projector.close()
        context.close()


def test_the_foul_dots_follow_the_rule_sets_removing_foul(browser: Any, server: str) -> None:
    """A.foul.four: with a rule set whose removing foul is the fifth, the console, the table view and the
    spectators' page draw five foul dots per seat (the limit comes with the state, the page and the socket's first
    message, never from a constant of the scripts), and a foul fills one (at night 0: on the host's console; the
    table sees it in the morning, A.foul.night)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server + "/login")
        page.fill("#login", "admin")
        page.fill("#password", ADMIN_PASSWORD)
        page.click("#login-submit")
        page.wait_for_url(server + "/")
        token = page.get_attribute('meta[name="csrf-token"]', "content")
        r = page.request.post(server + "/api/games", headers={"X-CSRF-Token": token},
                              data={"preset": "club", "players": 10, "options": {"foul_remove": 5}})
        assert r.status == 201, r.text()
        game_id = r.json()["id"]
        page.goto(f"{server}/games/{game_id}")
        page.wait_for_selector(".seat[data-seat='1'] .fouls")
        assert page.inner_text(".seat[data-seat='1'] .fouls") == "○" * 5
        table = context.new_page()
        table.goto(f"{server}/games/{game_id}/table")
        table.wait_for_selector(".t-seat[data-seat='1'] .t-fouls")
        assert table.inner_text(".t-seat[data-seat='1'] .t-fouls") == "○" * 5
        r = page.request.post(f"{server}/api/games/{game_id}/online", headers={"X-CSRF-Token": token})
        assert r.status == 200, r.text()
        watch = context.new_page()
        watch.on("pageerror", lambda exc: errors.append(str(exc)))
        watch.goto(f"{server}/watch/{r.json()['code']}")
        watch.wait_for_selector(".o-seat[data-seat='1'] .o-fouls")
        assert watch.inner_text(".o-seat[data-seat='1'] .o-fouls") == "○" * 5
        r = page.request.post(f"{server}/api/games/{game_id}/commands", headers={"X-CSRF-Token": token},
                              data={"command": {"type": "deal", "roles": list(CLUB_DEAL)}, "expected_seq": 0,
                                    "command_id": "d"})
        assert r.status == 200, r.text()
        seq = r.json()["next_seq"]
        r = page.request.post(f"{server}/api/games/{game_id}/commands", headers={"X-CSRF-Token": token},
                              data={"command": {"type": "foul", "seat": 2, "reason": "gestures"},
                                    "expected_seq": seq, "command_id": "f"})
        assert r.status == 200, r.text()
        page.reload()
        page.wait_for_function("() => document.getElementById('console').dataset.nextSeq === '" + str(seq + 1) + "'")
        assert page.text_content(".seat[data-seat='2'] .fouls") == "●○○○○"  # a night foul: the host's alone
        assert not errors, errors
    finally:
        context.close()

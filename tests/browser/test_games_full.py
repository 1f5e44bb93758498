"""Whole games through the host's console only (taps on seats, chips and buttons): a `club` game of 10 in Russian
and a `tournament` game of 13 in English, from the deal and its private reveal to the end. The state is read
(GET /api/games/{id}) to decide what to tap; every change is a tap. Each game's chance is stated (``stated``): the
console's random deal and the server's draw of the first speaker go out with the cards and the seat the test
names, so every run plays the same game. Screenshots of the key screens at a tablet's and a phone's size go to
test-artifacts/ (full-<lang>-<screen>-<w>x<h>.png)."""

from __future__ import annotations

import json
import re
from typing import Any

from .conftest import ADMIN_PASSWORD, ARTIFACTS, feed_seq, screenshots

BLACK = {"mafia", "don"}
CLUB_DEAL = ("civilian", "sheriff", "civilian", "don", "civilian", "mafia", "civilian", "mafia", "civilian", "civilian")
TOURNAMENT_DEAL = ("civilian", "mafia", "civilian", "civilian", "mafia", "civilian", "commissar", "civilian", "mafia",
                   "civilian", "civilian", "mafia", "civilian")
TOURNAMENT_FIRST_SPEAKER = 3
"""The cards of each game, seat 1 first, and the seat the server's draw names on day 0 of the tournament game."""


def shoot(page: Any, name: str) -> None:
    screenshots(page, f"full-{name}")


def stated(page: Any, roles: tuple[str, ...], first_speaker: int | None = None) -> None:
    """The game's chance stated: the console's commands go out as it makes them, except that its random deal
    carries ``roles`` (as a physical deal entered on the console does) and the server's draw of the first speaker
    names ``first_speaker``."""
    def state(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        command = body.get("command") or {}
        if command.get("type") == "deal" and not command.get("roles"):
            command["roles"] = list(roles)
        elif command.get("type") == "draw_first_speaker" and command.get("seat") is None and first_speaker:
            command["seat"] = first_speaker
        route.continue_(post_data=json.dumps(body))
    page.route(re.compile(r"/api/games/[^/?]+/commands\?state=true$"), state)


def settled(page: Any) -> None:
    page.wait_for_function("() => { const c = document.getElementById('console');"
                           " return c && c.dataset.step && !c.dataset.saving; }")


def act(page: Any, selector: str) -> None:
    """Tap and wait until the command is saved and the new state shown."""
    before = page.get_attribute("#console", "data-next-seq")
    page.click(selector)
    page.wait_for_function("(seq) => { const c = document.getElementById('console');"
                           " return c.dataset.nextSeq !== seq && !c.dataset.saving; }", arg=before)


def tap_seat(page: Any, n: int) -> None:
    act(page, f"#seats .seat[data-seat='{n}']")


def login(page: Any, server: str, lang: str) -> None:
    page.goto(server + "/login")
    if lang == "en":
        with page.expect_navigation(timeout=30_000):  # the switch reloads the page (slow on a busy machine)
            page.click(".lang-switch[data-lang=en]")
        page.wait_for_selector("html[lang=en]")
    page.fill("#login", "admin")
    page.fill("#password", ADMIN_PASSWORD)
    page.click("#login-submit")
    page.wait_for_url(server + "/")


def create(page: Any, preset: str, players: int) -> str:
    page.select_option("#preset", preset)
    page.fill("#players", str(players))
    page.click("#create-game")
    page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
    settled(page)
    return str(page.url.rsplit("/", 1)[1])


def api_state(page: Any, server: str, game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"{server}/api/games/{game_id}").json()
    return data


def reveal_all(page: Any, name: str, roles: dict[int, str]) -> None:
    """The private reveal: each seat's card shown large, then hidden; then "Start the game"."""
    page.wait_for_selector("#reveal:not([hidden])")
    assert page.is_hidden("#seats") and page.is_hidden("#next")
    for n in sorted(roles):
        page.click(f"#reveal-seats .reveal-seat[data-seat='{n}']")
        page.wait_for_selector("#reveal-card:not([hidden])")
        assert page.inner_text("#reveal-card-seat").split(" ")[0].endswith(str(n))
        if n == 1:
            shoot(page, f"{name}-deal-reveal")
        page.click("#reveal-card")
        page.wait_for_selector(f"#reveal-seats .reveal-seat.seen[data-seat='{n}']")
    shoot(page, f"{name}-deal-revealed")
    page.click("#reveal-done")
    page.wait_for_selector("#reveal", state="hidden")
    assert page.is_visible("#seats")


def follows(table: Any, page: Any) -> None:
    """The table view (another page, never reloaded) comes to the console's latest seq by its live socket."""
    # the table view is numbered in the spectator's own feed (a move hidden from it sends it nothing)
    table.wait_for_function("(seq) => Number(document.getElementById('table').dataset.nextSeq) >= seq",
                            arg=feed_seq(page, "spectator"))


def projector_agrees(table: Any, page: Any) -> None:
    """The projector's timer shows what the console's does: none for a step without a timer, else the same state
    (running or paused, in the same words) and the same time (within a second while it runs)."""
    state = page.get_attribute("#timer", "data-state")
    assert state in ("none", "running", "paused"), state
    if state == "none":
        table.wait_for_selector("#t-timer", state="hidden")
        return
    table.wait_for_selector("#t-timer", state="visible")
    table.wait_for_function("(running) => document.getElementById('t-timer').classList.contains('running') === running",
                            arg=state == "running")

    def seconds(p: Any, sel: str) -> int:
        m, s = p.inner_text(sel).split(":")
        return int(m) * 60 + int(s)
    assert abs(seconds(page, "#timer-value") - seconds(table, "#t-timer-value")) <= (1 if state == "running" else 0)
    assert table.inner_text("#t-timer-state") == page.inner_text("#timer-state")


def projector_reconnects(table: Any, page: Any) -> None:
    """The projector's link drops and comes back (the page opened again): it shows the game as it is now."""
    table.reload()
    table.wait_for_selector("#t-link[data-state=live]")
    follows(table, page)


def sign_sheet(page: Any, server: str, game_id: str, name: str, roles: dict[int, str]) -> None:
    """From the console's link to the result sheet: every seat's role is on it; the host signs it; the game is
    locked after that (a command is refused with 409 "locked")."""
    page.click("#sheet-link")
    page.wait_for_url(f"{server}/games/{game_id}/sheet")
    page.wait_for_selector("#sign:not([hidden])")
    rows = page.inner_text("#sheet-rows")
    for n in roles:
        assert str(n) in rows
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#sign")
    page.wait_for_selector("#sheet-signed.is-signed")
    assert page.is_hidden("#sign")
    # the signature is told once (the signed line), not again in a notice under it
    locked = "Игра закрыта для действий" if name == "ru" else "The game is locked"
    assert page.inner_text("#sheet").count(locked) == 1, page.inner_text("#sheet")
    assert page.is_hidden("#sheet-notice")
    shoot(page, f"{name}-sheet-signed")
    sheet = page.request.get(f"{server}/api/games/{game_id}/sheet").json()
    assert sheet["signed"] and {r["seat"]: r["role"] for r in sheet["rows"]} == roles
    head = page.request.get(f"{server}/api/games/{game_id}").json()["next_seq"]
    token = page.evaluate("document.querySelector('meta[name=csrf-token]').content")
    refused = page.request.post(f"{server}/api/games/{game_id}/commands",
                                data={"command": {"type": "undo"}, "expected_seq": head, "command_id": "late-undo"},
                                headers={"X-CSRF-Token": token})
    assert refused.status == 409 and refused.json()["error"]["code"] == "locked"


TIMED_STEPS = ("meet_black", "speech", "last_word", "tie_speech", "defence")
"""The steps whose minute the host times (the black team's meeting and every speech)."""


def count_taps(page: Any) -> tuple[list[int], Any]:
    """From now on every ``page.click`` is counted (a host's tap): the returned list holds the count; the click
    returned with it is not counted (the test's own checks)."""
    taps = [0]
    click = page.click

    def counted(*args: Any, **kwargs: Any) -> Any:
        taps[0] += 1
        return click(*args, **kwargs)

    page.click = counted
    return taps, click


def time_the_step(page: Any, step: str, timed: dict[tuple[str, int, int], bool], key: tuple[str, int, int]) -> None:
    """A host times every speech: when one begins and its timer is not running (the club's autostart is off, or
    the step was not begun by a tap), he taps the timer; ``timed`` says for each timed step whether he had to."""
    if step in TIMED_STEPS and key not in timed:
        timed[key] = page.get_attribute("#timer", "data-state") != "running"
        if timed[key]:
            page.click("#timer")


def roles_of(state: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["role"] for s in state["view"]["seats"]}


def test_a_whole_club_game_in_russian(browser: Any, server: str) -> None:
    """Deal and reveal, a foul undone, a withdrawal, a tie with its revote and the lift vote, shots with "all
    shoot", the Don's and the Sheriff's checks, votes with the default fill, the end and a protest vote."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.clock.install()  # real time flows on the console, until the test moves it on (the paused timer)
    stated(page, CLUB_DEAL)
    projector: Any = None
    try:
        login(page, server, "ru")
        game_id = create(page, "club", 10)
        taps, uncounted_click = count_taps(page)
        timed: dict[tuple[str, int, int], bool] = {}
        # the projector's table view, following live: a window of its own (a second tab would put the console
        # in the background, where the browser slows its timers and animation frames)
        projector = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ru-RU",
                                        storage_state=context.storage_state())
        table = projector.new_page()
        table.set_default_timeout(10_000)
        table.clock.install()
        table.goto(f"{server}/games/{game_id}/table")
        table.wait_for_selector("#t-link[data-state=live]")
        assert page.is_visible("#deal") and page.is_visible("#physical-deal")
        assert "Раздать случайно" in page.inner_text("#deal")
        act(page, "#deal")
        st = api_state(page, server, game_id)
        roles = roles_of(st)
        assert roles == dict(enumerate(CLUB_DEAL, 1))
        assert page.inner_text("#undo-label") == "Раздача карт"
        reveal_all(page, "ru", roles)
        black = sorted(n for n, r in roles.items() if r in BLACK)
        red = sorted(n for n, r in roles.items() if r not in BLACK)
        assert len(black) == 3
        # Next names what comes: the Don's meeting
        assert page.inner_text("#next-label") == "▶ Знакомство Дона"

        seen: set[str] = set()
        for _ in range(300):
            follows(table, page)
            st = api_state(page, server, game_id)
            v = st["view"]
            if v["over"]:
                break
            alive = [s["seat"] for s in v["seats"] if s["alive"]]
            black_alive = [n for n in alive if n in black]
            red_alive = [n for n in alive if n in red]
            step, day, seat = v["step"], v["day"], v["seat"]
            legal = st["legal"]
            assert table.locator(".t-role").count() == 0  # no role on the projector before the end
            if day >= 1 and step == "speech" and "autostart" not in seen:
                # the club's default: the speech that the host's Next began times itself (no tap)
                seen.add("autostart")
                assert page.get_attribute("#timer", "data-state") == "running"
            time_the_step(page, step, timed, (step, day, seat))
            if step == "speech" and any(c["type"] == "nominate" for c in legal):
                if "timer" not in seen:  # the host pauses and restarts the speech timer: the projector follows
                    seen.add("timer")
                    projector_agrees(table, page)
                    uncounted_click("#timer")
                    projector_agrees(table, page)
                    for screen in (page, table):  # time passes on both screens: the paused timers stand still
                        screen.clock.fast_forward(1500)
                    projector_agrees(table, page)
                    shoot(table, "ru-projector-speech")
                    uncounted_click("#timer")
                    projector_agrees(table, page)
                label = st["next"]["label"]["ru"]
                assert page.inner_text("#next-label") == "▶ " + label
                if day == 1 and "foul" not in seen:
                    seen.add("foul")
                    page.click("#foul")
                    # A.foul.reasons: no reason is preselected, and no seat takes a foul before one is picked
                    assert page.locator("#choices .chip[aria-pressed=true]").count() == 0
                    assert "actionable" not in (page.get_attribute(".seat[data-seat='2']", "class") or "")
                    page.click("#choices .chip:has-text('удары по столу')")
                    tap_seat(page, 2)
                    assert page.inner_text(".seat[data-seat='2'] .fouls") == "●○○○"
                    assert page.inner_text("#undo-label") == "№2: фол 1 — удары по столу"
                    page.click("#undo")
                    assert "Отменить: №2: фол 1" in page.inner_text("#modal-text")
                    # the answers name what they do
                    assert page.inner_text("#modal-ok") == "Да, отменить" and page.inner_text("#modal-cancel") == "Нет"
                    act(page, "#modal-ok")
                    assert page.inner_text(".seat[data-seat='2'] .fouls") == "○○○○"
                    continue
                if day == 1 and "withdraw" not in seen:
                    # a nomination withdrawn ("отзываю"), then made again
                    seen.add("withdraw")
                    target = red_alive[-1] if red_alive[-1] != seat else red_alive[-2]
                    tap_seat(page, target)
                    assert "выставляет" in page.inner_text("#undo-label")
                    tap_seat(page, target)
                    assert page.get_attribute(f".seat[data-seat='{target}']", "aria-label").count("▲") == 0
                    continue
                townsfolk = [n for n in red_alive if roles[n] != "sheriff"]  # the Sheriff lives on to check
                want = [black_alive[0]] + ([townsfolk[-1]] if day == 1 else [])
                todo = [t for t in want if t not in v["candidates"] and t != seat]
                if todo and not any(c["type"] == "withdraw" for c in legal):
                    tap_seat(page, todo[0])
                    if "badge" not in seen:  # the nominee's badge says who put him up, on the console and projector
                        seen.add("badge")
                        badge = f".seat[data-seat='{todo[0]}'] .badge.nominated"
                        assert page.inner_text(badge + " .full") == f"▲ кандидат от №{seat}"
                        assert page.text_content(badge + " .short") == f"▲ от №{seat}"
                        table.wait_for_function(
                            "([n, t]) => document.querySelector(`.t-seat[data-seat='${n}'] .t-badges`)"
                            ".textContent.includes(t)", arg=[todo[0], f"кандидат от №{seat}"])
                    if "day" not in seen and len(v["candidates"]) >= 1:
                        seen.add("day")
                        shoot(page, "ru-day")
                    continue
                act(page, "#next")
            elif step == "voting":
                if "projector-vote" not in seen:  # a vote has no timer: none on the console nor the projector
                    seen.add("projector-vote")
                    projector_reconnects(table, page)
                    projector_agrees(table, page)
                    shoot(table, "ru-projector-vote")
                assert page.inner_text("#next-label") == "Спасибо"
                cands = v["vote"]["candidates"]
                voters = [n for n in alive if str(n) not in v["vote"]["votes"]]
                if day == 1 and v["vote"]["kind"] in ("vote", "revote") and seat == cands[0]:
                    for n in voters[:len(alive) // 2]:  # an even split: a tie, then the same tie again
                        tap_seat(page, n)
                    if "voting" not in seen:
                        seen.add("voting")
                        assert "по умолчанию" in page.inner_text("#context")
                        shoot(page, "ru-voting")
                elif seat == cands[0] and seat in black:
                    for n in voters[:len(alive) // 2 + 1]:
                        tap_seat(page, n)
                act(page, "#next")
            elif step == "lift":
                for n in alive[:len(alive) // 2 + 1]:
                    tap_seat(page, n)
                # the day's counts, on the console and the projector: the tie, the revote's tie, the lift's hands
                a, b = v["vote"]["candidates"]
                tie = f"№{a} — 5, №{b} — 5: перестрелка"
                counts = f"Голосование: {tie}\nПовторное голосование: {tie}\nПодъём: 6 из {len(alive)}"
                follows(table, page)
                assert page.inner_text("#votes") == table.inner_text("#t-votes") == counts
                shoot(page, "ru-lift")
                act(page, "#next")
                follows(table, page)
                assert page.inner_text("#votes").endswith(f"Подъём: 6 из {len(alive)} — уходят №{a}, №{b}")
                assert table.inner_text("#t-votes") == page.inner_text("#votes")
            elif step == "shooting":
                if "projector-night" not in seen:
                    seen.add("projector-night")
                    projector_reconnects(table, page)
                    projector_agrees(table, page)
                    shoot(table, "ru-projector-night")
                if not v["night"]["shots"]:
                    assert page.evaluate("document.body.classList.contains('night')")
                    assert page.get_attribute("#choices .chip >> nth=0", "aria-pressed") == "true"  # all shoot
                    seq = st["next_seq"]
                    target = next(n for n in red_alive if roles[n] != "sheriff")
                    tap_seat(page, target)
                    # "all shoot" is one command: one event, and one undo names (and takes back) the volley
                    assert int(page.get_attribute("#console", "data-next-seq")) == seq + 1
                    assert page.inner_text("#undo-label") == f"Стреляют все: №{target}"
                    shots = api_state(page, server, game_id)["view"]["night"]["shots"]
                    assert shots == {str(n): [target] for n in black_alive}
                    if "night" not in seen:
                        seen.add("night")
                        shoot(page, "ru-night")
                act(page, "#next")
            elif step in ("check_don", "check_sheriff") and any(c["type"] == "check" for c in legal):
                target = black_alive[0] if step == "check_sheriff" else red_alive[-1]
                page.click(f".seat[data-seat='{target}']")
                page.wait_for_selector("#answer:not([hidden])")
                assert f"№{target}" in page.inner_text("#answer-text")
                if step == "check_sheriff":
                    assert "ЧЁРНЫЙ" in page.inner_text("#answer-text").upper()
                    if "check" not in seen:
                        seen.add("check")
                        shoot(page, "ru-check")
                page.click("#answer-close")
                settled(page)
                act(page, "#next")
            else:
                act(page, "#next")
        else:
            raise AssertionError("the game did not end")

        assert {"foul", "withdraw", "badge", "day", "voting", "night", "check", "timer", "projector-vote",
                "projector-night"} <= seen
        assert page.inner_text("#banner") == "Победа: красные (город)"
        assert "чёрных не осталось" in page.inner_text("#context")
        assert page.is_visible("#sheet-link") and page.is_visible("#timeline-link") and page.is_visible("#table-link")
        assert page.get_attribute("#sheet-link", "href") == f"/games/{game_id}/sheet"
        # the protest vote (A.protest): one black player only: it fails
        page.click("#choices .chip:has-text('Голосование за протест')")
        page.click(f".seat[data-seat='{black[0]}']")
        page.click("#choices .chip:has-text('Записать')")
        page.wait_for_selector("#modal-input:visible")  # the rule that was broken is asked for
        assert "Какое правило нарушено" in page.inner_text("#modal-text")
        page.fill("#modal-input", "A.award: подсказка зрителя")
        act(page, "#modal-ok")
        assert "Протест отклонён" in page.inner_text("#context")
        assert "Нарушено правило: A.award: подсказка зрителя" in page.inner_text("#context")
        shoot(page, "ru-end")
        follows(table, page)
        assert table.get_attribute("#table", "data-over") == "1"
        assert "Победа" in table.inner_text("#t-banner") or "красн" in table.inner_text("#t-banner").lower()
        # the projector's end: the winner and every role (public now); no stale timer; no host control in sight,
        # the way back to the console in the host's corner menu
        shown = {int(el.get_attribute("data-seat")): el.query_selector(".t-role") for el in table.query_selector_all(".t-seat")}
        assert {n: r.get_attribute("data-role") if r else None for n, r in shown.items()} == roles
        assert "мафия" in table.inner_text("#t-seats").lower() and "шериф" in table.inner_text("#t-seats").lower()
        projector_agrees(table, page)
        for control in ("#logout", ".back-link", ".lang-switch", ".topbar"):
            assert all(not el.is_visible() for el in table.query_selector_all(control)), control
        shoot(table, "ru-projector-end")
        table.click("#t-menu summary")
        assert table.is_visible("#t-back") and table.get_attribute("#t-back", "href") == f"/games/{game_id}"
        table.click("#t-menu summary")
        sign_sheet(page, server, game_id, "ru", roles)
        events = page.request.get(f"{server}/api/games/{game_id}/events").json()["events"]
        assert sum(1 for e in events if e["type"] == "lift_vote_cast") >= 6
        assert [e["rule"] for e in events if e["type"] == "protest_voted"] == ["A.award: подсказка зрителя"]
        assert errors == []
        # the taps of the whole game, from the deal to the signed sheet (the closing note's figure)
        ARTIFACTS.mkdir(exist_ok=True)
        timer_taps = sum(timed.values())
        (ARTIFACTS / "taps-club-ru.json").write_text(json.dumps(
            {"taps": taps[0], "timer_taps": timer_taps, "timed_steps": len(timed), "days": day}))
        print(f"\na club game of 10: {taps[0]} taps ({timer_taps} on the timer) over {day} days, {len(timed)} timed steps")
        # every speech Next began timed itself; the host starts only the black team's minute
        assert [key for key, tapped in timed.items() if tapped] == [("meet_black", 0, 0)], timed
    finally:
        if projector is not None:
            projector.close()
        context.close()


def test_a_whole_tournament_game_in_english(browser: Any, server: str) -> None:
    """13 players, 4 black chosen at the deal; the draws of the first speaker (random and at the table), day 0,
    two rounds, nominations and leaders, the leaders' vote, the lot, a sanction, the Commissar's check and the
    mafia's kill, to the end."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    stated(page, TOURNAMENT_DEAL, TOURNAMENT_FIRST_SPEAKER)
    try:
        login(page, server, "en")
        game_id = create(page, "tournament", 13)
        page.click("#choices .chip:has-text('4 black')")
        act(page, "#deal")
        st = api_state(page, server, game_id)
        roles = roles_of(st)
        assert roles == dict(enumerate(TOURNAMENT_DEAL, 1))
        assert sum(1 for r in roles.values() if r in BLACK) == 4
        reveal_all(page, "en", roles)
        black = sorted(n for n, r in roles.items() if r in BLACK)
        seen: set[str] = set()
        for _ in range(600):
            st = api_state(page, server, game_id)
            v = st["view"]
            if v["over"]:
                break
            alive = [s["seat"] for s in v["seats"] if s["alive"]]
            black_alive = [n for n in alive if n in black]
            red_alive = [n for n in alive if n not in black]
            step, day = v["step"], v["day"]
            legal = st["legal"]
            types = {c["type"] for c in legal}
            if step == "first_speaker":
                if day == 0:
                    act(page, "#draw")  # drawn by the server (the seat stated)
                    assert api_state(page, server, game_id)["view"]["seat"] == TOURNAMENT_FIRST_SPEAKER
                else:
                    tap_seat(page, alive[day % len(alive)])  # the draw made at the table
            elif step == "lot":
                assert page.inner_text("#draw-label") == "Draw the lot"
                tap_seat(page, black_alive[0])
                seen.add("lot")
            elif "nominate" in types:
                if "sanction" not in seen:
                    seen.add("sanction")
                    page.click("#sanction")
                    page.click("#choices .chip:has-text('rudeness')")
                    page.click(f".seat[data-seat='{red_alive[0]}']")
                    act(page, "#modal-ok")
                    assert "warnings: 1" in page.get_attribute(f".seat[data-seat='{red_alive[0]}']", "aria-label")
                    continue
                if day == 2:  # nobody nominates: the lot
                    act(page, "#next")
                    continue
                # the first two speakers nominate the first black player, the third a red one
                order = v["candidates"]
                noms = sum(len(s["nominated_by"]) for s in v["seats"])
                if noms < 3:  # self-nomination is allowed (B.rounds)
                    tap_seat(page, black_alive[0] if noms < 2 else red_alive[-1])
                    if "day" not in seen and order:
                        seen.add("day")
                        shoot(page, "en-day")
                    continue
                act(page, "#next")
            elif step == "voting":
                assert page.inner_text("#next-label") == "Thank you"
                leaders = v["vote"]["candidates"]
                if not v["vote"]["votes"]:
                    target = next((c for c in leaders if c in black), leaders[0])
                    page.click(f"#choices .chip:has-text('#{target}:')")
                    for n in alive[:len(alive) // 2 + 1]:
                        tap_seat(page, n)
                    if "voting" not in seen:
                        seen.add("voting")
                        shoot(page, "en-voting")
                act(page, "#next")
            elif step == "check_commissar" and "check" in types:
                target = black_alive[0]
                page.click(f".seat[data-seat='{target}']")
                page.wait_for_selector("#answer:not([hidden])")
                assert page.inner_text("#answer-text") == f"#{target} is BLACK (mafia)"
                if "check" not in seen:
                    seen.add("check")
                    shoot(page, "en-check")
                page.click("#answer-close")
                settled(page)
                act(page, "#next")
            elif step == "kill" and "kill" in types:
                tap_seat(page, red_alive[0])
                if "night" not in seen:
                    seen.add("night")
                    assert page.evaluate("document.body.classList.contains('night')")
                    shoot(page, "en-night")
                act(page, "#next")
            else:
                assert "advance" in types, (step, types)
                act(page, "#next")
        else:
            raise AssertionError("the game did not end")
        assert {"sanction", "day", "voting", "check", "night", "lot"} <= seen
        assert page.inner_text("#banner") == "Winner: red (the town)"
        assert page.is_visible("#sheet-link") and page.is_visible("#timeline-link")
        shoot(page, "en-end")
        sign_sheet(page, server, game_id, "en", roles)
        assert errors == []
    finally:
        context.close()

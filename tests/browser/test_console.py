"""A whole club game played through the host's pages only (log in, create the game, deal, tap seats and
buttons to the end), once in Russian and once in English, with screenshots of the key screens at a tablet's
and a phone's size in test-artifacts/."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import ADMIN_PASSWORD, ARTIFACTS, SIZES

TEXTS = {
    "ru": {"login": "Вход", "new_game": "Новая игра", "deal": "Раздать карты", "thanks": "Спасибо",
           "winner": "Победа: чёрные (мафия)", "result": "чёрных не меньше, чем красных",
           "day1": "День 1 · речь игрока 1", "foul_reason": "удары по столу", "no": "№"},
    "en": {"login": "Log in", "new_game": "New game", "deal": "Deal the cards", "thanks": "Thank you",
           "winner": "Winner: red (the town)", "result": "no black player is left",
           "day1": "Day 1 · a speech of player 1", "foul_reason": "banging the table", "no": "#"},
}


def shoot(page: Any, lang: str, name: str) -> None:
    """Screenshots of the page now at both sizes: test-artifacts/<lang>-<name>-<w>x<h>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    first = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(60)
        page.screenshot(path=str(ARTIFACTS / f"{lang}-{name}-{w}x{h}.png"))
    page.set_viewport_size(first)


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


def read_roles(page: Any) -> dict[int, str]:
    """Hold the "roles" toggle and read each tile's team."""
    box = page.locator("#roles").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_selector(".seat .role")
    teams = {s["seat"]: ("black" if "black" in s["role"] else "red") for s in state(page)["seats"]}
    page.mouse.up()
    page.wait_for_selector(".seat .role", state="detached")
    return teams


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_whole_club_game_through_the_console(browser: Any, server: str, lang: str) -> None:
    text = TEXTS[lang]
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        # log in (Russian from Accept-Language; English by the switch, which sets the cookie)
        page.goto(server + "/")
        assert page.url.startswith(server + "/login")
        if lang == "en":
            page.click(".lang-switch[data-lang=en]")
            page.wait_for_selector("html[lang=en]")
        assert page.inner_text("h1") == text["login"]
        page.fill("#login", "admin")
        page.fill("#password", "wrong password")
        page.click("#login-submit")
        page.wait_for_selector("#login-error:not([hidden])")
        shoot(page, lang, "login")
        page.fill("#password", ADMIN_PASSWORD)
        page.click("#login-submit")
        page.wait_for_url(server + "/")

        # the games page: 10 players of the club's roster in seat order, a club game
        page.wait_for_selector("#roster .chip")
        assert text["new_game"] in page.inner_text("#new-game h1")
        chips = page.locator("#roster .chip")
        for i in range(10):
            chips.nth(i).click()
        shoot(page, lang, "games")
        page.click("#create-game")
        page.wait_for_url(re.compile(r".*/games/[0-9a-f-]+$"))
        settled(page)

        # the deal
        assert state(page)["step"] == "deal"
        assert page.is_visible("#deal") and text["deal"] in page.inner_text("#deal")
        act(page, "#deal")
        teams = read_roles(page)
        assert sorted(teams.values()).count("black") == 3
        # red wins in English (the town votes out the black players), black wins in Russian
        target_team = "black" if lang == "en" else "red"

        nominated: dict[int, int] = {}
        shots: set[int] = set()
        checked = False
        shot_day = shot_vote = shot_night = False
        for _ in range(400):
            s = state(page)
            if s["over"]:
                break
            alive = {x["seat"] for x in s["seats"] if x["alive"]}
            tiles = {x["seat"]: x for x in s["seats"]}
            if s["step"] == "speech":
                if s["day"] == 1 and s["seat"] == 1 and not shot_day:
                    assert page.inner_text("#banner") == text["day1"]
                    # a foul with a reason, then undone with the confirmation
                    page.click("#foul")
                    page.click(f"#choices .chip:has-text('{text['foul_reason']}')")
                    act(page, ".seat[data-seat='2']")
                    assert page.inner_text(".seat[data-seat='2'] .fouls") == "●○○○"
                    page.click("#undo")
                    assert page.is_visible("#modal")
                    act(page, "#modal-ok")
                    assert page.inner_text(".seat[data-seat='2'] .fouls") == "○○○○"
                want = 2 if s["day"] == 2 else 1
                if nominated.get(s["day"], 0) < want:
                    first = nominated.get(s["day"], 0) == 0
                    pool = [n for n in sorted(alive) if (teams[n] == target_team) == first and tiles[n]["actionable"]]
                    if pool:
                        act(page, f".seat[data-seat='{pool[0]}']")
                        nominated[s["day"]] = nominated.get(s["day"], 0) + 1
                        if not shot_day:
                            shot_day = True
                            shoot(page, lang, "day")
                        continue
                act(page, "#next")
            elif s["step"] == "voting":
                assert text["thanks"] in page.inner_text("#next")
                candidate = s["seat"]
                if teams[candidate] == target_team:
                    voters = [n for n in sorted(alive) if tiles[n]["actionable"]]
                    for n in voters[:-1]:
                        act(page, f".seat[data-seat='{n}']")
                    if not shot_vote:
                        shot_vote = True
                        shoot(page, lang, "voting")
                    act(page, f".seat[data-seat='{voters[-1]}']")
                act(page, "#next")
            elif s["step"] == "shooting" and s["day"] not in shots:
                shots.add(s["day"])
                victim = max(n for n in alive if teams[n] == "red")
                assert page.get_attribute("#choices .chip >> nth=0", "aria-pressed") == "true"  # "all shoot"
                seq = int(page.get_attribute("#console", "data-next-seq"))
                act(page, f".seat[data-seat='{victim}']")
                shooters = sum(1 for n in alive if teams[n] == "black")
                assert int(page.get_attribute("#console", "data-next-seq")) == seq + shooters  # one shot each
                if not shot_night:
                    shot_night = True
                    assert page.evaluate("document.body.classList.contains('night')")
                    shoot(page, lang, "night")
                act(page, "#next")
            elif s["step"] == "check_sheriff" and not checked and any(x["actionable"] for x in s["seats"]):
                checked = True
                target = next(n for n in sorted(alive) if teams[n] == "black")
                page.click(f".seat[data-seat='{target}']")
                page.wait_for_selector("#answer:not([hidden])")
                assert f"{text['no']}{target}" in page.inner_text("#answer-text")
                shoot(page, lang, "check")
                page.click("#answer-close")
                settled(page)
                act(page, "#next")
            else:
                act(page, "#next")
        else:
            raise AssertionError("the game did not end")

        assert page.inner_text("#banner") == text["winner"]
        assert text["result"] in page.inner_text("#context")
        assert not page.evaluate("document.body.classList.contains('night')")
        shoot(page, lang, "end")
        assert errors == []
    finally:
        context.close()


def test_bad_network_stale_state_and_refusals(browser: Any, server: str) -> None:
    """A lost answer is retried with the same command id and applied once; a command on a stale state reloads
    it; a refusal shows the engine's message in the page's language."""
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

        page.route("**/commands", lose_first_answer)
        act(page, "#deal")
        assert len(sent) == 2 and sent[0] == sent[1] and sent[0]["command"] == {"type": "deal"}
        record = page.request.get(game_url + "/record").json()
        assert sum(1 for e in record["events"] if e["type"] == "dealt") == 1
        page.unroute("**/commands")

        # another device moves the game on: this page's Next is stale, and the state is reloaded
        seq = int(page.get_attribute("#console", "data-next-seq"))
        csrf = page.get_attribute('meta[name="csrf-token"]', "content")
        r = page.request.post(game_url + "/commands", headers={"X-CSRF-Token": csrf},
                              data={"command": {"type": "advance"}, "expected_seq": seq, "command_id": "other"})
        assert r.status == 200
        page.click("#next")
        page.wait_for_selector("#message.warn:not([hidden])")
        assert "another device" in page.inner_text("#message")
        settled(page)
        assert int(page.get_attribute("#console", "data-next-seq")) == r.json()["next_seq"]

        # a refusal: the engine's own sentence, in English
        page.route("**/commands", lambda route: route.continue_(post_data=json.dumps(
            {**route.request.post_data_json, "command": {"type": "nominate", "by": 5, "target": 6, "also": []}})))
        page.click("#next")
        page.wait_for_selector("#message.error:not([hidden])")
        assert page.inner_text("#message").startswith("Refused:")
    finally:
        context.close()

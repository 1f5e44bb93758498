"""The practice table in Chromium (docs/bots.md, "The practice table"): a player opens /practice, picks the rules,
the bots' strength, the pace and his seat, and plays a whole game against the bots on the player's page: their
claims shown as their speeches, his own claims from the buttons of his speech, "End my speech" and "Pass", the
game's record at the end. Screenshots of the form and of the game at a phone's and a tablet's size, in both
languages, in test-artifacts/."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sportmafia.live.driver import Pace, drivers_of
from sportmafia.store import open_store
from sportmafia.web import create_app, ensure_demo
from tests.waiting import wait_until

from .conftest import ADMIN_PASSWORD, app_server, log_in_as_admin, open_page, screenshots

PHONE = (390, 844)
TABLET = (1024, 768)


TEST_PACES = {
    # the whole practice games (the form's "fast"): the bots' speeches, the host's beats and the nights short; a
    # person's speech and decisions long (the test ends them at once: "End my speech", "Pass"), so that none of
    # his turns runs out however loaded the machine
    "fast": Pace("fast", factor=1.0, bot_speech=0.05, answer=30.0, beat=0.02, night=0.3),
    # the tables the host hands to the bots at night (seat_one_online): a night long enough for a person to choose
    # on any machine; a test that needs it over ends it as the host
    "normal": Pace("normal", factor=1.0, bot_speech=0.05, answer=30.0, beat=0.02, night=120.0),
}


@pytest.fixture
def practice_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server (with the demo club) whose tables run at ``TEST_PACES`` (a whole game in seconds) and take their
    seeds (the deal, the draws, the bots' choices) from a seeded generator (``Drivers``)."""
    monkeypatch.setenv("SPORTMAFIA_ADMIN_PASSWORD", ADMIN_PASSWORD)
    store = open_store(f"sqlite:///{tmp_path / 'practice.db'}", migrate=True)
    ensure_demo(store)
    app = create_app(store, secret_key="browser-test-secret")
    drivers_of(app).paces = TEST_PACES
    drivers_of(app).seeds = random.Random(2024)
    with app_server(app) as url:
        yield url
    store.close()


def sit_down(page: Any, server: str, seat: int) -> None:
    page.goto(server + "/practice")
    page.check("input[name=preset][value=club]")
    page.check("input[name=agent][value=baseline]")
    page.check("input[name=pace][value=fast]")
    page.select_option("#p-seat", str(seat))
    page.fill("#p-name", "Аня")
    page.click("#p-go")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#o-link[data-state=live]")


def visible(page: Any, selector: str) -> bool:
    return bool(page.eval_on_selector(selector, "el => !el.hidden"))


def tap_if_still_there(page: Any, selector: str) -> bool:
    """Tap a button the game may take away before the tap lands (the turn's clock ran out, the bots moved on):
    False when it went away; a button still shown that cannot be tapped fails the test."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.click(selector, timeout=2000, no_wait_after=True)
    except PlaywrightTimeoutError:
        # still shown on the screen (not only without its hidden attribute: the view that holds it may have been
        # swapped away meanwhile, which the click's "element is not visible" saw)
        if page.is_visible(selector):
            raise
        return False
    return True


SOMETHING_TO_DO = """() => {
  const shown = (id) => !document.getElementById(id).hidden, p = document.getElementById('play');
  return shown('o-end') || shown('o-pass') || (shown('o-say') && p.dataset.spoke !== p.dataset.seq);
}"""
"""The player's page shows the game's end, a turn he can pass or end, or a speech of his not yet spoken in."""


def test_a_whole_practice_game_on_a_phone(browser: Any, practice_server: str) -> None:
    ctx, page, errors = open_page(browser, *PHONE, lang="ru", server=practice_server, accept_downloads=True)
    try:
        page.goto(practice_server + "/practice")
        screenshots(page, "practice-form-ru")
        sit_down(page, practice_server, seat=3)
        said = passed = 0
        shot = False
        for _ in range(1000):  # a game's turns of his, and more
            page.wait_for_function(SOMETHING_TO_DO, timeout=60_000)
            if visible(page, "#o-end"):
                break
            if visible(page, "#o-say") and page.get_attribute("#play", "data-spoke") != page.get_attribute(
                    "#play", "data-seq"):
                page.evaluate("() => { const p = document.getElementById('play'); p.dataset.spoke = p.dataset.seq; }")
                page.click("#o-say-kinds button[data-kind=suspect]")
                page.click("#o-say-seats button[data-target='5']")
                page.wait_for_function("() => document.getElementById('o-feedback').textContent !== 'Отправляем…'")
                said += 1
                if not shot:
                    shot = True
                    page.wait_for_function("() => !document.getElementById('o-said').hidden")
                    screenshots(page, "practice-speech-ru", full_page=True)
            seq = page.get_attribute("#play", "data-seq")
            if visible(page, "#o-pass") and tap_if_still_there(page, "#o-pass"):
                passed += 1
                # until the table moves on from the turn he passed (or the button goes)
                page.wait_for_function("(seq) => document.getElementById('play').dataset.seq !== seq"
                                       " || document.getElementById('o-pass').hidden", arg=seq, timeout=60_000)
        else:
            raise AssertionError("the practice game did not end")
        assert said and passed
        items = page.eval_on_selector_all("#o-said li", "els => els.map(e => e.textContent)")
        assert any(text.startswith("№3: Подозреваю №5") for text in items), items
        screenshots(page, "practice-end-ru", full_page=True)
        with page.expect_download() as download:
            page.click("#o-record")
        record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        assert record["format"] == "sportmafia-game" and record["events"] and any(c["seat"] == 3 for c in record["claims"])
        assert page.is_visible("a[href='/practice']")
        assert not errors, errors
    finally:
        ctx.close()


def test_the_practice_table_in_english_on_a_tablet(browser: Any, practice_server: str) -> None:
    """The form and a speech of the player's in English, at a tablet's size: the claims' buttons name the
    table's checker, and what he says is on his page at once, as the bots' speeches are."""
    ctx, page, errors = open_page(browser, *TABLET, lang="en", server=practice_server)
    try:
        page.goto(practice_server + "/practice")
        assert page.inner_text("#p-go") == "Sit down at the table"
        screenshots(page, "practice-form-en")
        sit_down(page, practice_server, seat=1)  # day 1 opens with seat 1 (A.speech.order)
        page.wait_for_selector("#o-say:not([hidden])", timeout=60_000)
        assert page.inner_text("#o-say-kinds button[data-kind=role-checker]") == "I am the Sheriff"
        page.click("#o-say-kinds button[data-kind=check-black]")
        page.click("#o-say-seats button[data-target='7']")
        page.wait_for_function(
            "() => [...document.querySelectorAll('#o-said li')].some(li => li.textContent === '#1: I checked #7: black.')")
        assert page.inner_text("#o-pass") == "End my speech"
        screenshots(page, "practice-speech-en", full_page=True)
        page.click("#o-pass")
        page.wait_for_selector("#o-say[hidden]", state="attached")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_host_seats_bots_in_the_seats_without_a_link(browser: Any, practice_server: str, lang: str) -> None:
    """The host's panel of an online table: one seat linked, "Bots in every seat without a link" seats the bots in
    the other nine, at the pace chosen; "No bots" takes them away."""
    ctx, page, errors = open_page(browser, *TABLET, lang=lang, server=practice_server)
    try:
        log_in_as_admin(page, practice_server)
        csrf = page.request.get(practice_server + "/api/me").json()["csrf_token"]
        players = page.request.get(practice_server + "/api/players").json()["players"]
        made = page.request.post(practice_server + "/api/games", headers={"X-CSRF-Token": csrf}, data={
            "preset": "club", "players": 10, "roster": [p["id"] for p in players[:10]]}).json()
        game_id = made["id"]
        page.goto(f"{practice_server}/games/{game_id}/online")
        page.click("#p-open")
        page.wait_for_selector("#p-opened:not([hidden])")
        page.request.post(f"{practice_server}/api/games/{game_id}/online/seats/1/link", headers={"X-CSRF-Token": csrf})
        page.select_option("#p-bot", "belief")
        page.check("#p-runs")
        page.select_option("#p-pace", "fast")
        page.click("#p-bots-fill")
        expected = {"ru": "Боты на местах 2, 3, 4, 5, 6, 7, 8, 9, 10. Стол ведёт сервер.",
                    "en": "Bots at seats 2, 3, 4, 5, 6, 7, 8, 9, 10. The server runs the table."}[lang]
        page.wait_for_function(f"() => document.getElementById('p-bots-now').textContent === {json.dumps(expected)}")
        bots = page.request.get(f"{practice_server}/api/games/{game_id}/online/bots").json()
        assert bots["agents"] == {str(s): "belief" for s in range(2, 11)} and bots["runs_table"]
        page.eval_on_selector("#p-bots-card", "el => el.scrollIntoView()")
        screenshots(page, f"online-bots-{lang}")
        page.click("#p-bots-off")
        no_bots = {"ru": "За этим столом ботов нет.", "en": "No bots at this table."}[lang]
        page.wait_for_function(f"() => document.getElementById('p-bots-now').textContent === {json.dumps(no_bots)}")
        assert not errors, errors
    finally:
        ctx.close()


def test_the_hosts_choice_of_bots_outlives_the_panels_refresh(browser: Any, practice_server: str) -> None:
    """The "Bots" card refreshes what the table has every ten seconds; a choice the host has made and not yet
    saved (the bots' strength, whether the server runs the table, the pace) stays as he left it."""
    ctx, page, errors = open_page(browser, *TABLET, lang="en", server=practice_server)
    try:
        log_in_as_admin(page, practice_server)
        csrf = page.request.get(practice_server + "/api/me").json()["csrf_token"]
        players = page.request.get(practice_server + "/api/players").json()["players"]
        game_id = page.request.post(practice_server + "/api/games", headers={"X-CSRF-Token": csrf}, data={
            "preset": "club", "players": 10, "roster": [p["id"] for p in players[:10]]}).json()["id"]
        page.clock.install()
        page.goto(f"{practice_server}/games/{game_id}/online")
        page.click("#p-open")
        page.wait_for_selector("#p-opened:not([hidden])")
        page.clock.fast_forward(1000)
        page.wait_for_function("() => document.getElementById('p-bots-now').textContent === 'No bots at this table.'")
        page.select_option("#p-bot", "belief")
        page.check("#p-runs")
        page.select_option("#p-pace", "fast")
        with page.expect_response(lambda r: r.url.endswith("/online/bots") and r.request.method == "GET"):
            page.clock.fast_forward(10_500)
        assert page.input_value("#p-bot") == "belief"
        assert page.is_checked("#p-runs")
        assert page.input_value("#p-pace") == "fast"
        assert not errors, errors
    finally:
        ctx.close()


def seat_one_online(page: Any, server: str, preset: str, roles: tuple[str, ...], step: str,
                    draws: dict[str, int], bots: bool = True) -> tuple[str, str, Callable[[dict[str, Any]], Any]]:
    """An online table: the admin deals ``roles``, runs the game as its host up to ``step`` ("Next", a draw naming
    the seat ``draws`` gives its type), gives seat 1 a link and, with ``bots``, the other seats to baseline bots
    and the table to the server. Returns the game's id, seat 1's link and the host's command."""
    log_in_as_admin(page, server)
    head = {"X-CSRF-Token": page.request.get(server + "/api/me").json()["csrf_token"]}
    players = page.request.get(server + "/api/players").json()["players"][:len(roles)]
    game_id = page.request.post(server + "/api/games", headers=head, data={
        "preset": preset, "players": len(roles), "roster": [p["id"] for p in players]}).json()["id"]
    page.request.post(f"{server}/api/games/{game_id}/online", headers=head)

    def host(command: dict[str, Any]) -> dict[str, Any]:
        seq = page.request.get(f"{server}/api/games/{game_id}").json()["next_seq"]
        r = page.request.post(f"{server}/api/games/{game_id}/commands", headers=head, data={
            "command": command, "expected_seq": seq, "command_id": f"c{seq}"})
        assert r.status == 200, r.text()
        return dict(page.request.get(f"{server}/api/games/{game_id}").json())

    now = host({"type": "deal", "roles": list(roles)})
    while now["view"]["step"] != step:
        legal = now["legal"]
        pick = next((c for c in legal if c["type"] == "advance"), legal[0])
        now = host({**pick, "seat": draws[pick["type"]]} if pick["type"] in draws else pick)
    url = page.request.post(f"{server}/api/games/{game_id}/online/seats/1/link", headers=head).json()["url"]
    if bots:
        page.request.put(f"{server}/api/games/{game_id}/online/bots", headers=head, data={
            "agents": {str(s): "baseline" for s in range(2, len(roles) + 1)}, "runs_table": True, "pace": "normal"})
    return game_id, url, host


BLACK_AT_ONE = ("mafia", "civilian", "civilian", "mafia", "civilian", "commissar", "civilian", "mafia", "civilian",
                "civilian", "civilian", "civilian")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_black_teams_leader_chooses_the_victim_on_his_phone(browser: Any, practice_server: str,
                                                                lang: str) -> None:
    """A tournament table the server runs, bots in every seat but seat 1 (black, so the team's leader): at night 1
    his phone offers the black team's choice; he picks a red seat and it is recorded as the host would."""
    ctx, page, errors = open_page(browser, *PHONE, lang=lang, server=practice_server)
    try:
        # the host runs day 1 (nobody put up; seat 12 leaves by lot)
        game_id, url, _ = seat_one_online(page, practice_server, "tournament", BLACK_AT_ONE, "kill",
                                          {"draw_lot": 12})
        page.goto(url)
        page.wait_for_selector("#o-link[data-state=live]")
        page.wait_for_function("() => document.getElementById('play').dataset.step === 'kill'", timeout=120_000)
        title = {"ru": "Жертва этой ночи: выбор чёрной команды, решаете вы",
                 "en": "Tonight's victim: the black team's choice, yours to make"}[lang]
        page.wait_for_function(f"() => document.getElementById('o-act-title').textContent === {json.dumps(title)}")
        page.click("#o-act-seats button[data-target='3']")
        assert page.inner_text("#o-act-go") == {"ru": "Мафия убивает №3", "en": "The mafia kills #3"}[lang]
        screenshots(page, f"practice-team-choice-offer-{lang}")
        page.click("#o-act-go")
        done = {"ru": "Принято.", "en": "Done."}[lang]
        page.wait_for_function(f"() => document.getElementById('o-feedback').textContent === {json.dumps(done)}")
        assert page.inner_text("#o-act-title") != title  # chosen: the offer is gone
        screenshots(page, f"practice-team-choice-{lang}")
        log = page.request.get(f"{practice_server}/api/games/{game_id}/events").json()["events"]
        assert [e["target"] for e in log if e["type"] == "kill_chosen"] == [3]
        assert not errors, errors
    finally:
        ctx.close()


SHOOTER_AT_ONE = ("mafia", "civilian", "civilian", "don", "civilian", "sheriff", "civilian", "mafia", "civilian",
                  "civilian")


def shooter_on_phone(page: Any, server: str, lang: str, bots: bool) -> tuple[str, Callable[[dict[str, Any]], Any]]:
    """A club table at night 1's shooting, seat 1 black (SHOOTER_AT_ONE) on the phone of ``page``, which offers
    his shot; ``bots``: the other seats are bots and the server runs the table, else the admin hosts it. Returns
    the game's id and the host's command."""
    game_id, url, host = seat_one_online(page, server, "club", SHOOTER_AT_ONE, "shooting",
                                         {"draw_first_speaker": 1, "draw_lot": 1}, bots=bots)
    page.goto(url)
    page.wait_for_selector("#o-link[data-state=live]")
    wait_title(page, {"ru": "Ваш выстрел", "en": "Your shot"}[lang], timeout=60_000)
    return game_id, host


def wait_title(page: Any, text: str, timeout: float = 10_000) -> None:
    """Until the phone's action box says ``text``."""
    page.wait_for_function(f"() => document.getElementById('o-act-title').textContent === {json.dumps(text)}",
                           timeout=timeout)


def shot_title(lang: str, n: int) -> str:
    return {"ru": f"Ваш выстрел этой ночью: №{n}", "en": f"Your shot tonight: #{n}"}[lang]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_black_player_shoots_once_on_his_phone(browser: Any, practice_server: str, lang: str) -> None:
    """A club table the server runs, bots in every seat but seat 1 (a black player): at night 1 his phone offers
    his shot; once he has shot, it says whom he shot and offers no second one (a second shot of his would make
    the night a miss, A.night.shoot), and the night's shots are one each (the host ends the night's step once
    every black seat has shot)."""
    ctx, page, errors = open_page(browser, *PHONE, lang=lang, server=practice_server)
    try:
        # the host runs day 1 (nobody put up: no vote)
        game_id, host = shooter_on_phone(page, practice_server, lang, bots=True)
        page.click("#o-act-seats button[data-target='3']")
        assert page.inner_text("#o-act-go") == {"ru": "Стреляю в №3", "en": "Shoot #3"}[lang]
        page.click("#o-act-go")
        wait_title(page, shot_title(lang, 3))
        assert page.eval_on_selector("#o-act-go", "el => el.hidden")
        assert page.eval_on_selector_all("#o-act-seats button", "els => els.length") == 0
        screenshots(page, f"practice-shot-{lang}")
        page.reload()  # read again from his feed, not from what the page remembered
        page.wait_for_selector("#o-link[data-state=live]")
        wait_title(page, shot_title(lang, 3))  # still the shooting: the night lasts until the host ends it

        def shots() -> list[tuple[int, int]]:
            log = page.request.get(f"{practice_server}/api/games/{game_id}/events").json()["events"]
            return [(e["shooter"], e["target"]) for e in log if e["type"] == "shot_fired"]
        black = {seat for seat, role in enumerate(SHOOTER_AT_ONE, 1) if role in ("mafia", "don")}
        wait_until(lambda: {s for s, _ in shots()} >= black, "every black seat's shot")
        host({"type": "advance"})
        page.wait_for_function("() => document.getElementById('play').dataset.step !== 'shooting'")
        fired = shots()
        assert (1, 3) in fired and len(fired) == len({s for s, _ in fired}), fired
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_after_the_hosts_all_shoot_the_phone_offers_no_shot(browser: Any, practice_server: str, lang: str) -> None:
    """A club table a person hosts, seat 1 black on his phone: the host records "all shoot" at #3 (one shot for
    every black player); the phone then says whom he shot and offers no shot of his own."""
    ctx, page, errors = open_page(browser, *PHONE, lang=lang, server=practice_server)
    try:
        _, host = shooter_on_phone(page, practice_server, lang, bots=False)
        host({"type": "volley", "target": 3})
        wait_title(page, shot_title(lang, 3))
        assert page.eval_on_selector_all("#o-act-seats button", "els => els.length") == 0
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_shot_the_host_undoes_is_offered_again_and_a_step_undone_brings_the_shot_back(
        browser: Any, practice_server: str, lang: str) -> None:
    """A club table a person hosts, seat 1 black on his phone. He shoots #3; the host undoes it: the phone offers
    his shot again (it said "Your shot tonight: #3" before). He shoots #5; the host ends the step and undoes
    that: the shooting step is back with his shot in it, and the phone says so and offers no second shot (it
    offered one before, and a second shot of his makes the night a miss, A.night.shoot)."""
    ctx, page, errors = open_page(browser, *PHONE, lang=lang, server=practice_server)
    try:
        game_id, host = shooter_on_phone(page, practice_server, lang, bots=False)
        page.click("#o-act-seats button[data-target='3']")
        page.click("#o-act-go")
        wait_title(page, shot_title(lang, 3))
        host({"type": "undo"})
        wait_title(page, {"ru": "Ваш выстрел", "en": "Your shot"}[lang])  # offered again
        page.click("#o-act-seats button[data-target='5']")
        page.click("#o-act-go")
        wait_title(page, shot_title(lang, 5))
        host({"type": "advance"})
        page.wait_for_function("() => document.getElementById('play').dataset.step !== 'shooting'")
        host({"type": "undo"})
        page.wait_for_function("() => document.getElementById('play').dataset.step === 'shooting'")
        wait_title(page, shot_title(lang, 5))
        assert page.eval_on_selector_all("#o-act-seats button", "els => els.length") == 0
        screenshots(page, f"practice-shot-back-{lang}")
        log = page.request.get(f"{practice_server}/api/games/{game_id}/events").json()["events"]
        assert [(e["shooter"], e["target"]) for e in log if e["type"] == "shot_fired"] == [(1, 3), (1, 5)]
        assert not errors, errors
    finally:
        ctx.close()

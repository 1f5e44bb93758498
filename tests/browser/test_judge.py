"""The tournament judge's flow in the browser, in Russian: create a tournament; add participants from a CSV
file and a pasted list (a file with an empty name and a list with a repeated name are refused with the line);
make two users the hosts; generate the seating of two rounds; open each round, the tables' games played to the
end by the random bot through the API and signed; in the inbox one sheet accepted as it is and another
corrected (refused without a reason, then with one) and accepted; a disqualification; publish. The public page
(no login, English and Russian) shows the leaders the accepted sheets give, the corrected winner included, and
the disqualified last; then the final (a shared place at the cut picked by the judge), its standings, closing
the tournament, the print view, and the desk as a host sees it. Screenshots at a tablet's and a phone's size
go to test-artifacts/ (judge-<screen>-<w>x<h>.png)."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import httpx2 as httpx

from sportmafia.bots.random_play import random_command
from sportmafia.engine import Command, command_from_json

from .conftest import ARTIFACTS, SIZES, drawn, log_in_as_admin, seed_chance, short_seating_searches

NAMES = ["Ворон", "Сова", "Лиса", "Барсук", "Ёж", "Волк", "Рысь", "Олень", "Заяц", "Бобр",
         "Куница", "Филин", "Сокол", "Медведь", "Крот", "Хорёк", "Выдра", "Лось", "Кабан", "Белка"]
HOST_PASSWORD = "host password 1"


def shoot(page: Any, name: str, at: str | None = None) -> None:
    """Screenshots at each size, scrolled to ``at`` (a selector) when given."""
    ARTIFACTS.mkdir(exist_ok=True)
    first = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        drawn(page)
        if at:
            page.locator(at).first.scroll_into_view_if_needed()
            page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start', inline: 'nearest'})", at)
        page.screenshot(path=str(ARTIFACTS / f"judge-{name}-{w}x{h}.png"))
    page.set_viewport_size(first)


def csrf(page: Any) -> str:
    token: str = page.get_attribute('meta[name="csrf-token"]', "content")
    return token


def api_post(page: Any, server: str, path: str, body: Any = None) -> Any:
    r = page.request.post(server + path, data=body if body is not None else {},
                          headers={"X-CSRF-Token": csrf(page), "Content-Type": "application/json"})
    assert r.status in (200, 201), f"{path}: {r.status} {r.text()}"
    return r.json()


def api_get(page: Any, server: str, path: str) -> Any:
    r = page.request.get(server + path)
    assert r.status == 200, f"{path}: {r.status} {r.text()}"
    return r.json()


class _Legal:
    def __init__(self, commands: list[Command]) -> None:
        self.commands = commands

    def legal_commands(self) -> list[Command]:
        return self.commands


def _http(page: Any, server: str) -> httpx.Client:
    """An HTTP client with the page's session (its cookies and CSRF token): the bot's requests go straight to
    the server rather than each through the browser's driver."""
    client = httpx.Client(base_url=server, timeout=20, headers={"X-CSRF-Token": csrf(page)})
    for cookie in page.context.cookies(server):
        client.cookies.set(cookie["name"], cookie["value"])
    return client


def stated(command: dict[str, Any], state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``command`` with its chance drawn from ``rng`` (the server would draw it from the system's randomness):
    a deal with its cards (the game's deck, shuffled), a draw with its seat (among the living)."""
    if command["type"] == "deal" and not command.get("roles"):
        decks = state["deal"]["decks"]
        roles = list(decks[min(decks)])
        rng.shuffle(roles)
        return {**command, "roles": roles}
    if command["type"] in ("draw_first_speaker", "draw_lot") and command.get("seat") is None:
        return {**command, "seat": rng.choice([s["seat"] for s in state["view"]["seats"] if s["alive"]])}
    return command


def play_out(page: Any, server: str, game_id: str, seed: int) -> None:
    """The random bot over the game's legal commands (nothing beyond the game), to the end, its chance and the
    game's seeded (``stated``); each command's answer carries the state it leads to (``?state=true``)."""
    rng = random.Random(seed)
    with _http(page, server) as http:
        r = http.get(f"/api/games/{game_id}")
        assert r.status_code == 200, f"/api/games/{game_id}: {r.status_code} {r.text}"
        state = r.json()
        for n in range(5000):
            if state["view"]["over"]:
                return
            legal = [command_from_json(c) for c in state["legal"]]
            legal = [c for c in legal if c.type not in ("sanction", "remove", "award", "team_defeat", "override")]
            cmd = random_command(_Legal(legal), rng)  # type: ignore[arg-type]
            r = http.post(f"/api/games/{game_id}/commands?state=true",
                          json={"command": stated(cmd.to_json(), state, rng), "expected_seq": state["next_seq"],
                                "command_id": f"bot-{seed}-{n}"})
            assert r.status_code == 200, r.text
            state = r.json()["state"]
    raise AssertionError("the game did not end")


def tablet(browser: Any) -> tuple[Any, Any, list[str]]:
    """A judge's tablet (1024x768, Russian): its context, its page, and the page's script errors as they come
    (the page's chance seeded, its seating searches short: ``seed_chance``, ``short_seating_searches``)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="ru-RU")
    seed_chance(context, 11)
    short_seating_searches(context)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def tab(page: Any, name: str) -> None:
    page.click(f".tab[data-tab={name}]")
    page.wait_for_selector(f"#tab-{name}:not([hidden])")


def finish_round(page: Any, server: str, tid: int, number: int) -> list[str]:
    """Open round ``number`` in the UI, play its games to the end through the API and sign them."""
    tab(page, "rounds")
    page.click(f".round-card[data-round='{number}'] .open-round")
    page.wait_for_selector(f".round-card[data-round='{number}'] .game-card")
    games = [g for g in api_get(page, server, f"/api/tournaments/{tid}/games")["games"] if g["round"] == number]
    assert len(games) == 2 and {g["table"] for g in games} == {1, 2}
    assert all(len(g["seats"]) == 10 for g in games)
    if number == 1:
        shoot(page, "round-open")
    for g in games:
        play_out(page, server, g["game_id"], seed=number * 10 + g["table"])
        api_post(page, server, f"/api/games/{g['game_id']}/sheet/sign")
    return [g["game_id"] for g in sorted(games, key=lambda g: g["table"])]


def accept_in_ui(page: Any, game_id: str) -> None:
    card = f".sheet-card-t[data-game='{game_id}']"
    page.click(f"{card} .accept")
    page.wait_for_selector(card, state="detached")


def test_the_judges_flow(browser: Any, server: str) -> None:
    context, page, errors = tablet(browser)
    dialogs: list[str] = []

    def on_dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.accept()

    page.on("dialog", on_dialog)
    try:
        log_in_as_admin(page, server)
        hosts = [api_post(page, server, "/api/users", {"login": f"host{i}", "password": HOST_PASSWORD,
                                                        "role": "host"})["id"] for i in (1, 2)]

        # --- a new tournament ---
        page.goto(server + "/tournaments")
        page.wait_for_selector("#new-tournament-form")
        page.click("#create-tournament")
        assert page.inner_text("#new-tournament-error") == "Укажите название турнира."
        page.fill("#t-name", "Кубок осени")
        page.fill("#t-starts", "2026-11-28")
        page.fill("#t-ends", "2026-11-29")
        page.select_option("#t-rules", "preset:club")
        shoot(page, "new")
        page.check("input[name=scoring][value=custom]")
        page.wait_for_selector("#custom-table:not([hidden])")
        assert page.locator("#custom-rows tr").count() == 5
        shoot(page, "new-custom", "#custom-table")
        page.check("input[name=scoring][value=regulation]")
        assert page.is_hidden("#custom-table")
        page.click("#create-tournament")
        page.wait_for_url(re.compile(r".*/tournaments/\d+$"))
        tid = int(page.url.split("#")[0].rsplit("/", 1)[1])
        page.wait_for_selector("#t-summary:has-text('Клубные')")  # the preset and the dates in the page's language
        assert "28–29 нояб. 2026" in page.inner_text("#t-summary"), page.inner_text("#t-summary")

        # --- participants: a repeated name is refused with its line, nothing added ---
        page.fill("#paste-text", "Ворон\nСова\n\nворон")
        page.click("#add-pasted")
        page.wait_for_selector("#people-error:not([hidden])")
        assert "Строка 4" in page.inner_text("#people-error") and "строку 1" in page.inner_text("#people-error")
        assert page.locator("#people-rows tr").count() == 0
        # a CSV file with an empty nickname on line 3 is refused whole; a good one is taken
        page.set_input_files("#csv-file", files=[{"name": "bad.csv", "mimeType": "text/csv",
                                                   "buffer": "nickname,club\nВорон,Север\n,Юг\n".encode()}])
        page.click("#add-csv")
        page.wait_for_selector("#people-error:not([hidden])")
        assert page.inner_text("#people-error") == "Строка 3: ник не указан."
        assert page.locator("#people-rows tr").count() == 0
        good = "nickname;club\n" + "\n".join(f"{n};Север" for n in NAMES[:4]) + "\n"
        page.set_input_files("#csv-file", files=[{"name": "good.csv", "mimeType": "text/csv", "buffer": good.encode()}])
        page.click("#add-csv")
        page.wait_for_selector("#people-rows tr:nth-child(4)")
        assert page.inner_text("#people-rows tr:first-child").count("Север") == 1
        page.fill("#paste-text", "\n".join(NAMES[4:]))
        page.click("#add-pasted")
        page.wait_for_selector("#people-rows tr:nth-child(20)")
        assert page.is_hidden("#people-error")
        assert page.inner_text("#count-people") == "(20)"
        # hosts: the two users
        for uid in hosts:
            page.select_option(f"#staff-rows select[data-user='{uid}']", "host")
        page.click("#save-staff")
        page.wait_for_selector("#t-notice:has-text('Состав сохранён')")
        shoot(page, "participants", "#tab-people")

        # --- seating: two rounds, two tables of 10, each with its host ---
        tab(page, "seating")
        for uid in hosts:
            page.click(f"#seat-hosts .chip[data-user='{uid}']")
        page.fill("#seat-rounds", "2")
        page.click("#generate")
        page.wait_for_selector("#seating-view:not([hidden])")
        quality = page.inner_text("#quality")
        assert "Встречи каждой пары" in quality and "Баланс мест" in quality
        assert page.locator("#round-tables .table-card").count() == 2
        assert page.locator("#round-tables .table-card").first.locator("li").count() == 10
        page.select_option("#view-player", label="Лиса")
        assert page.locator("#player-seats li").count() == 2
        shoot(page, "seating", "#seating-view")

        # --- round 1: played, signed, one sheet accepted, the other corrected then accepted ---
        first, second = finish_round(page, server, tid, 1)
        tab(page, "inbox")
        page.wait_for_selector(f".sheet-card-t[data-game='{second}']")
        assert page.inner_text("#count-inbox") == "(2)"
        shoot(page, "inbox")
        accept_in_ui(page, first)
        before = api_get(page, server, f"/api/tournaments/{tid}/games/{second}/sheet")["sheet"]["winner"]
        flipped = {"red": "black", "black": "red", None: "red"}[before]
        card = f".sheet-card-t[data-game='{second}']"
        page.click(f"{card} .correct")
        page.select_option(f"{card} .corr-field", "winner")
        page.select_option(f"{card} .corr-value", flipped)
        page.click(f"{card} .correction-form button[type=submit]")
        assert page.inner_text(f"{card} p.error") == "Укажите причину для исправления." or \
            "причин" in page.inner_text(f"{card} p.error")
        assert api_get(page, server, f"/api/tournaments/{tid}/games/{second}/sheet")["corrections"] == []
        page.fill(f"{card} .corr-reason", "Ведущий перепутал команду-победителя")
        page.click(f"{card} .correction-form button[type=submit]")
        page.wait_for_selector(f"{card} .corrections li")
        assert "Ведущий перепутал команду-победителя" in page.inner_text(f"{card} .corrections")
        shoot(page, "corrected")
        accept_in_ui(page, second)
        corrected = api_get(page, server, f"/api/tournaments/{tid}/games/{second}/sheet")
        assert corrected["sheet"]["winner"] == flipped and corrected["accepted_at"]
        assert corrected["corrections"][0]["reason"] == "Ведущий перепутал команду-победителя"

        # --- round 2: both accepted ---
        third, fourth = finish_round(page, server, tid, 2)
        tab(page, "inbox")
        page.wait_for_selector(f".sheet-card-t[data-game='{fourth}']")
        accept_in_ui(page, third)
        accept_in_ui(page, fourth)
        assert page.is_visible("#inbox-empty")
        tab(page, "rounds")
        page.wait_for_selector(".round-card[data-round='2'] .pill.ok")
        shoot(page, "rounds-done")

        # the standings the accepted sheets give: 1 point to each player of the winning team (tables of 10)
        points: Counter[str] = Counter()
        for gid in (first, second, third, fourth):
            sheet = api_get(page, server, f"/api/tournaments/{tid}/games/{gid}/sheet")["sheet"]
            for p in sheet["players"]:
                points[p["nickname"]] += 1 if sheet["winner"] and p["team"] == sheet["winner"] else 0
        best = max(points.values())
        leaders = {n for n, v in points.items() if v == best}
        assert best >= 1
        # a disqualification (B.sanctions) of a player without points: refused without a reason, then recorded
        out = sorted(n for n, v in points.items() if v == 0)[0]
        tab(page, "sanctions")
        page.select_option("#sanction-who", label=out)
        page.select_option("#sanction-kind", "disqualification")
        assert page.is_hidden("#sanction-round-label")
        page.click("#add-sanction")
        assert page.inner_text("#sanction-error") == "Укажите причину санкции."
        page.fill("#sanction-reason", "Неспортивное поведение")
        page.click("#add-sanction")
        page.wait_for_selector("#sanction-list li")
        assert out in page.inner_text("#sanction-list") and "Неспортивное поведение" in page.inner_text("#sanction-list")
        shoot(page, "sanctions")

        # --- publish ---
        tab(page, "standings")
        page.wait_for_selector("#standings-table tbody tr:nth-child(20)")
        page.click("#publish")
        page.wait_for_selector("#public-link:not([hidden])")
        shoot(page, "standings")
        assert not errors, errors

        # --- the public page, without login ---
        for lang in ("en", "ru"):
            public = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
            public.add_cookies([{"name": "lang", "value": lang, "url": server}])
            pp = public.new_page()
            pp.set_default_timeout(20_000)
            pp.on("pageerror", lambda exc: errors.append(str(exc)))
            pp.goto(f"{server}/t/{tid}")
            pp.wait_for_selector("#st-main tbody tr:nth-child(20)")
            rows = pp.locator("#st-main tbody tr")
            shown = {rows.nth(i).locator(".c-nickname").inner_text(): rows.nth(i).locator(".c-points").inner_text()
                     for i in range(20)}
            assert {n: float(v) for n, v in shown.items()} == {n: float(v) for n, v in points.items()}
            assert rows.first.locator(".c-nickname").inner_text() in leaders
            assert rows.first.locator(".place").inner_text().split("–")[0] == "1"  # "1", or a shared "1–3"
            # the prize winners, or (a tie across place 3) those the judge decides among
            top = pp.locator("#st-main tbody tr.top .c-nickname, #st-main tbody tr.prize-tie .c-nickname").all_inner_texts()
            assert leaders <= set(top)
            assert ("Updated" if lang == "en" else "Обновлено") in pp.inner_text("#st-live")
            shoot(pp, f"public-{lang}")
            last = rows.nth(19)
            assert last.locator(".c-nickname").inner_text() == out and last.locator(".place").inner_text() == "—"
            assert "dq" in (last.get_attribute("class") or "")
            leader = rows.first.locator(".c-nickname").inner_text()
            pp.click("#st-main tbody tr:first-child .c-nickname a")
            pp.wait_for_selector("#p-rows tr:nth-child(2)")
            assert pp.inner_text("#p-name") == leader
            shoot(pp, f"player-{lang}")
            public.close()

        # --- the final: the top 10 (the judge picks among those sharing the place at the cut), 3 games each ---
        tab(page, "final")
        page.wait_for_selector("#final-form:not([hidden])")
        assert page.input_value("#final-k") == "12"
        page.fill("#final-k", "10")
        page.click(f"#final-hosts .chip[data-user='{hosts[0]}']")
        page.click("#start-final")
        page.wait_for_function("() => !document.getElementById('final-view').hidden"
                               " || !document.getElementById('tie-pick').hidden")
        if page.is_visible("#tie-pick"):
            need = int(re.findall(r"\d+", page.inner_text("#tie-pick-legend"))[-1])
            shoot(page, "final-tie")
            for i in range(need):
                page.locator("#tie-pick-list .chip").nth(i).click()
            page.click("#start-final")
        page.wait_for_selector("#final-view:not([hidden])")
        finalists = api_get(page, server, f"/api/tournaments/{tid}")["finalists"]
        assert len(finalists) == 10
        final_rounds = api_get(page, server, f"/api/tournaments/{tid}/seating")["final"]["rounds"]
        assert final_rounds == 3
        for number in range(1, final_rounds + 1):
            page.click(f"#final-rounds .round-card[data-round='{number}'] .open-round")
            page.wait_for_selector(f"#final-rounds .round-card[data-round='{number}'] .game-card")
            games = [g for g in api_get(page, server, f"/api/tournaments/{tid}/games")["games"]
                     if g["stage"] == "final" and g["round"] == number]
            assert len(games) == 1 and sorted(games[0]["seats"]) == sorted(finalists)
            play_out(page, server, games[0]["game_id"], seed=100 + number)
            api_post(page, server, f"/api/games/{games[0]['game_id']}/sheet/sign")
            api_post(page, server, f"/api/tournaments/{tid}/games/{games[0]['game_id']}/accept")
        page.reload()
        # the winners, and those sharing a place across the prize places (then the judge decides, T.judge; a tie
        # at the top leaves no winner to name)
        page.wait_for_selector("#final-winners:not(:empty)")
        final = api_get(page, server, f"/api/tournaments/{tid}/standings")["final"]
        assert final["complete"]
        named = [r for r in final["standings"] if r["top_three"] or r["prize_tie"]]
        assert named and [r["nickname"] for r in final["winners"]] == [r["nickname"] for r in named if r["top_three"]]
        for r in named:
            assert r["nickname"] in page.inner_text("#final-winners")
        shoot(page, "final", "#final-view")
        shoot(page, "final-standings", "#final-standings-title")
        page.click("#finish")
        page.wait_for_selector("#finish", state="hidden")
        assert api_get(page, server, f"/api/tournaments/{tid}")["status"] == "finished"
        public = browser.new_context(viewport={"width": 390, "height": 844})
        pp = public.new_page()
        pp.goto(f"{server}/t/{tid}")
        pp.wait_for_selector("#st-final-card:not([hidden]) #st-final tbody tr")
        assert pp.locator("#st-final tbody tr").first.locator(".c-nickname").inner_text() == \
            final["standings"][0]["nickname"]
        assert all(r["nickname"] in pp.inner_text("#st-winners") for r in named)
        shoot(pp, "public-final")
        public.close()

        # --- the judge's print view ---
        page.goto(f"{server}/tournaments/{tid}/print")
        page.wait_for_selector("#st-main tbody tr:nth-child(20)")
        page.emulate_media(media="print")
        shoot(page, "print")
        page.emulate_media(media="screen")
        # the desk in English, and as a host sees it (read only, his tables marked)
        page.context.add_cookies([{"name": "lang", "value": "en", "url": server}])
        page.goto(f"{server}/tournaments/{tid}#standings")
        page.wait_for_selector("#standings-table tbody tr:nth-child(20)")
        assert page.inner_text(".tab[data-tab=inbox]").startswith("Sheets")
        shoot(page, "desk-en")
        host = browser.new_context(viewport={"width": 1024, "height": 768})
        hp = host.new_page()
        hp.goto(server + "/login")
        hp.fill("#login", "host1")
        hp.fill("#password", HOST_PASSWORD)
        hp.click("#login-submit")
        hp.wait_for_url(server + "/")
        hp.goto(f"{server}/tournaments/{tid}#rounds")
        hp.wait_for_selector("#round-list .game-card.mine")
        assert hp.is_hidden("#tab-people form#paste-form") and hp.is_hidden("#publish")
        assert hp.locator("#round-list .open-round").count() == 0
        shoot(hp, "desk-host")
        host.close()
        assert not errors, errors
    finally:
        context.close()


def test_the_judge_changes_the_settings_on_the_desk(browser: Any, server: str) -> None:
    """The desk's Settings tab shows the tournament's settings; the judge changes them there and only what he
    changed is sent (``PATCH /api/tournaments/{id}``); saving with nothing changed sends nothing."""
    context, page, errors = tablet(browser)
    patches: list[Any] = []
    page.on("request", lambda r: patches.append(r.post_data_json) if r.method == "PATCH" else None)
    log_in_as_admin(page, server)
    made = api_post(page, server, "/api/tournaments", {"name": "Весенний кубок", "starts_on": "2026-12-05",
                                                       "scoring": "regulation"})
    tid = made["id"]
    page.goto(f"{server}/tournaments/{tid}#settings")
    page.wait_for_function("() => document.getElementById('t-name').value === 'Весенний кубок'")
    assert page.input_value("#t-starts") == "2026-12-05" and page.input_value("#t-ends") == ""
    assert page.input_value("#t-rules") == "preset:tournament"
    assert page.is_checked("input[name=scoring][value=regulation]")
    assert page.input_value("#t-finalists") == str(made["final"]["finalists"])
    page.click("#save-settings")
    page.wait_for_selector("#t-notice:has-text('Ничего не изменено')")
    assert patches == []

    page.fill("#t-name", "Осенний кубок")
    page.fill("#t-ends", "2026-12-06")
    page.select_option("#t-rules", "preset:club")
    page.check("input[name=scoring][value=fiim]")
    page.uncheck(".tie-item[data-key=head_to_head] input")
    page.fill("#t-finalists", "8")
    shoot(page, "settings", "#tab-settings")
    page.click("#save-settings")
    page.wait_for_selector("#t-notice:has-text('Настройки сохранены')")
    assert page.inner_text("#t-title") == "Осенний кубок"
    t = api_get(page, server, f"/api/tournaments/{tid}")
    assert (t["name"], t["starts_on"], t["ends_on"], t["ruleset"]) == ("Осенний кубок", "2026-12-05", "2026-12-06",
                                                                      "club")
    assert t["scoring"]["name"] == "fiim" and "head_to_head" not in t["tie_breaks"] and t["final"]["finalists"] == 8
    assert set(patches[0]) == {"name", "ends_on", "preset", "scoring", "tie_breaks", "final"}, patches

    page.fill("#t-name", "Зимний кубок")
    with page.expect_response(lambda r: r.request.method == "PATCH"):
        page.click("#save-settings")
    page.wait_for_function("() => document.getElementById('t-title').textContent === 'Зимний кубок'")
    assert patches[1] == {"name": "Зимний кубок"}  # only what was changed
    page.fill("#t-ends", "")
    with page.expect_response(lambda r: r.request.method == "PATCH"):
        page.click("#save-settings")
    assert patches[2] == {"ends_on": None}  # a date cleared
    assert api_get(page, server, f"/api/tournaments/{tid}")["ends_on"] is None
    page.fill("#t-name", "")
    page.click("#save-settings")
    page.wait_for_selector("#settings-error:not([hidden])")
    assert len(patches) == 3 and not errors, errors
    context.close()

"""The judge's desk for a host's evening (issue 17), in Russian and English at a tablet's and a phone's size:
the standings with a tie the tie-breaks cannot split and players who have not played yet; the host's line of
his own table; the staff section (a host account made from the desk, the hosts warning, how tables are
formed); the seating's quality in a judge's words and another seating drawn with a new seed. Screenshots go
to test-artifacts/ (desk-<screen>-<lang>-<w>x<h>.png)."""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx2 as httpx

from tests.waiting import wait_until

from .conftest import (
    ADMIN_PASSWORD,
    ARTIFACTS,
    SEARCH_STEPS,
    SIZES,
    admin_state,
    drawn,
    open_page,
    seed_chance,
    short_seating_searches,
)

NAMES = ["Ворон", "Сова", "Лиса", "Барсук", "Ёж", "Волк", "Рысь", "Олень", "Заяц", "Бобр", "Куница", "Филин",
         "Сокол", "Медведь", "Крот", "Хорёк", "Выдра", "Лось", "Кабан", "Белка", "Ласка", "Норка", "Сурок",
         "Тетерев", "Глухарь", "Дятел"]
HOST_PASSWORD = "host password 1"
_logins = itertools.count(1)
_sessions: dict[str, tuple[dict[str, str], str]] = {}
"""The admin's API session on each server (its cookies and CSRF token): logged in once, then reused."""


@contextmanager
def admin(server: str) -> Iterator[httpx.Client]:
    """An API client logged in as the admin (the setup goes straight to the server); the session is the one
    logged in the first time on ``server``."""
    with httpx.Client(base_url=server, timeout=60) as c:
        if server not in _sessions:
            r = c.post("/api/login", json={"login": "admin", "password": ADMIN_PASSWORD})
            assert r.status_code == 200, r.text
            _sessions[server] = (dict(c.cookies), r.json()["csrf_token"])
        cookies, token = _sessions[server]
        for name, value in cookies.items():
            c.cookies.set(name, value)
        c.headers["X-CSRF-Token"] = token
        yield c


_hosts: dict[str, int] = {}
"""The host account of the evenings on each server (made once: an account's password hashing is not cheap)."""


def ok(r: Any) -> Any:
    assert r.status_code in (200, 201), f"{r.request.url}: {r.status_code} {r.text}"
    return r.json()


def evening(server: str, stage: str) -> int:
    """A club evening: preset ``club`` (tables of 10), 26 participants. ``people``: only them; ``seated``: the
    admin and a new host as the staff and a seating of 3 rounds; ``played``: round 1 opened, each table's
    game ended by the judge's award (red wins table 1, black table 2), signed and accepted."""
    with admin(server) as c:
        tid = int(ok(c.post("/api/tournaments", json={"name": "Кубок вечера", "preset": "club"}))["id"])
        ok(c.post(f"/api/tournaments/{tid}/participants", json={"text": "\n".join(NAMES)}))
        if stage == "people":
            return tid
        if server not in _hosts:
            _hosts[server] = ok(c.post("/api/users", json={"login": f"desk-host{next(_logins)}",
                                                           "password": HOST_PASSWORD, "role": "host"}))["id"]
        host = _hosts[server]
        me = ok(c.get("/api/me"))["user"]["id"]
        ok(c.put(f"/api/tournaments/{tid}/staff", json={"staff": [{"user_id": me, "role": "host"},
                                                                  {"user_id": host, "role": "host"}]}))
        ok(c.post(f"/api/tournaments/{tid}/seating", json={"rounds": 3, "seed": 1, "hosts": [me, host],
                                                           "steps": SEARCH_STEPS}))
        if stage == "seated":
            return tid
        games = ok(c.post(f"/api/tournaments/{tid}/rounds/1/open"))["games"]
        for i, g in enumerate(games):
            play(c, g["game_id"], {"type": "award", "winner": "red" if i == 0 else "black", "reason": "решение судьи"})
            ok(c.post(f"/api/tournaments/{tid}/games/{g['game_id']}/accept"))
        return tid


def saved_seating(server: str, tid: int, done: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """Tournament ``tid``'s seating as the server has it, once ``done`` holds for it (a page's request reached
    the server)."""
    with admin(server) as c:
        def read() -> dict[str, Any] | None:
            doc: dict[str, Any] = ok(c.get(f"/api/tournaments/{tid}/seating"))["seating"]
            return doc if done(doc) else None
        found = wait_until(read, what)
    assert found is not None
    return found


def desk(browser: Any, server: str, lang: str, size: tuple[int, int], tid: int) -> tuple[Any, Any, list[str]]:
    """The admin's desk of tournament ``tid`` in ``lang`` at ``size`` (the admin's session logged in once; the
    page's chance seeded, its seating searches short: ``seed_chance``, ``short_seating_searches``)."""
    ctx, page, errors = open_page(browser, *size, lang=lang, server=server, storage_state=admin_state(browser, server))
    seed_chance(ctx, zlib.crc32(f"{lang}-{size[0]}x{size[1]}".encode()))  # each desk of a test draws its own
    short_seating_searches(ctx)
    page.goto(f"{server}/tournaments/{tid}")
    page.wait_for_selector("#people-rows tr")
    return ctx, page, errors


def tab(page: Any, name: str) -> None:
    page.click(f".tab[data-tab={name}]")
    page.wait_for_selector(f"#tab-{name}:not([hidden])")


def shoot(page: Any, name: str, lang: str, at: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})", at)
    drawn(page)
    page.screenshot(path=str(ARTIFACTS / f"desk-{name}-{lang}-{w}x{h}.png"))


WORDS = {
    "ru": {"no_games": "ещё не играл", "prize_tie": "делят 1–10 места на границе призовых", "prize": "призёр",
           "host": "Ведущий: admin ваш стол"},
    "en": {"no_games": "no game yet", "prize_tie": "shares places 1–10 across the prize places", "prize": "top three",
           "host": "Host: admin your table"},
}


def test_standings_share_ranges_and_leave_players_without_games_unplaced(browser: Any, server: str) -> None:
    tid = evening(server, "played")
    with admin(server) as c:
        rows = ok(c.get(f"/api/tournaments/{tid}/standings"))["standings"]
    # 10 winners (7 red at table 1, 3 black at table 2) whom no tie-break splits, 10 losers, 6 who sat out
    assert [(r["place"], r["place_to"]) for r in rows] == [(1, 10)] * 10 + [(11, 20)] * 10 + [(None, None)] * 6
    assert [r["games"] for r in rows[20:]] == [0] * 6 and not any(r["top_three"] for r in rows)
    assert all(r["prize_tie"] for r in rows[:10]) and not any(r["prize_tie"] for r in rows[10:])
    for lang in ("ru", "en"):
        w = WORDS[lang]
        for size in SIZES:
            ctx, page, errors = desk(browser, server, lang, size, tid)
            try:
                tab(page, "standings")
                page.wait_for_selector("#standings-table tbody tr")
                trs = page.locator("#standings-table tbody tr")
                assert trs.count() == 26
                places = [trs.nth(i).locator("td.c-place").inner_text().strip() for i in range(26)]
                assert places == ["1–10"] * 10 + ["11–20"] * 10 + ["—"] * 6
                # nobody is labelled a prize winner: the tie straddles place 3, the judge decides
                assert page.locator("#standings-table tr.top").count() == 0
                assert page.locator("#standings-table .medal").count() == 0
                notes = [trs.nth(i).locator("td.c-notes").text_content() or "" for i in range(26)]
                assert all(w["prize_tie"] in n for n in notes[:10])
                assert all(w["prize"] not in n for n in notes)
                assert all(n == "" for n in notes[10:20])
                assert all(w["no_games"] in n for n in notes[20:])
                if size[0] < 700:  # on a phone the notes of the tie and of the waiting rows show too
                    assert trs.nth(0).locator("td.c-notes").is_visible()
                    assert trs.nth(25).locator("td.c-notes").is_visible()
                shoot(page, "standings", lang, "#tab-standings")
                tab(page, "rounds")
                line = page.locator(".game-card.mine p.note").first
                assert " ".join((line.text_content() or "").split()) == w["host"]
                assert (line.inner_text() or "").replace("\n", " ").split() == w["host"].split()
                shoot(page, "round-host", lang, "#round-list")
                assert not errors, errors
            finally:
                ctx.close()


TABLES = {"ru": "26 игроков, столы по 10: в каждом туре 2 стола, 6 отдыхают",
          "en": "26 players, tables of 10: 2 tables each round, 6 sit out"}


def test_the_admin_adds_a_host_on_the_desk_and_is_warned_of_too_few_hosts(browser: Any, server: str) -> None:
    for lang in ("ru", "en"):
        for size in SIZES:
            tid = evening(server, "people")
            ctx, page, errors = desk(browser, server, lang, size, tid)
            try:
                # how tables are formed, with the plural right, and that there are no hosts for them
                assert TABLES[lang] in (page.text_content("#staff-tables") or "")
                assert page.is_visible("#staff-warning")
                shoot(page, "staff", lang, "#staff-form")
                # a login the server refuses is said, and nothing is added
                page.fill("#new-staff-login", "bad login")
                page.fill("#new-staff-password", "long enough 1")
                page.click("#create-staff")
                assert page.is_visible("#new-staff-error")
                login = f"desk{next(_logins)}"
                page.fill("#new-staff-login", login)
                page.fill("#new-staff-password", "short")
                page.click("#create-staff")
                assert page.is_visible("#new-staff-error")
                page.fill("#new-staff-password", HOST_PASSWORD)
                page.click("#create-staff")
                page.wait_for_selector(f'#staff-rows select[aria-label="{login}"]')
                assert page.input_value(f'#staff-rows select[aria-label="{login}"]') == "host"
                with admin(server) as c:
                    staff = ok(c.get(f"/api/tournaments/{tid}"))["staff"]
                    assert [(s["login"], s["role"]) for s in staff] == [(login, "host")]
                    # a club account with a hashed password: its owner logs in with it
                    other = httpx.post(server + "/api/login", json={"login": login, "password": HOST_PASSWORD})
                    assert other.status_code == 200 and other.json()["user"]["role"] == "host"
                    assert HOST_PASSWORD not in (ok(c.get("/api/users")) and c.get("/api/users").text)
                # one host for two tables: still warned, on the seating form too, before composing it
                assert page.is_visible("#staff-warning")
                tab(page, "seating")
                assert TABLES[lang] in (page.text_content("#seat-tables") or "")
                page.click(f'#seat-hosts .chip[data-user]:has-text("{login}")')
                warning = page.text_content("#hosts-warning") or ""
                assert page.is_visible("#hosts-warning") and "2" in warning and "1" in warning
                shoot(page, "hosts-warning", lang, "#seating-form")
                asked: list[str] = []

                def dismiss(dialog: Any, asked: list[str] = asked) -> None:
                    asked.append(dialog.message)
                    dialog.dismiss()
                page.once("dialog", dismiss)
                with page.expect_event("dialog"):
                    page.click("#generate")
                assert asked and "2" in asked[0]  # asked first; dismissed: no seating made
                with admin(server) as c:
                    assert ok(c.get(f"/api/tournaments/{tid}/seating"))["seating"] is None
                assert not errors, errors
            finally:
                ctx.close()


def test_a_judge_who_is_not_an_admin_is_told_to_ask_for_accounts(browser: Any, server: str) -> None:
    tid = evening(server, "people")
    login = f"judge{next(_logins)}"
    with admin(server) as c:
        uid = ok(c.post("/api/users", json={"login": login, "password": HOST_PASSWORD, "role": "judge"}))["id"]
        ok(c.put(f"/api/tournaments/{tid}/staff", json={"staff": [{"user_id": uid, "role": "judge"}]}))
    ctx, page, errors = open_page(browser, 1024, 768, lang="ru", server=server)
    try:
        page.goto(server + "/login")
        page.fill("#login", login)
        page.fill("#password", HOST_PASSWORD)
        page.click("#login-submit")
        page.wait_for_url(server + "/")
        page.goto(f"{server}/tournaments/{tid}")
        page.wait_for_selector("#people-rows tr")
        assert page.locator("#new-staff-form").count() == 0 and page.is_visible("#new-staff-ask")
        # and the server refuses him an account all the same
        r = page.request.post(server + "/api/users", data={"login": "sneaky", "password": HOST_PASSWORD,
                                                           "role": "host"},
                              headers={"X-CSRF-Token": page.get_attribute('meta[name="csrf-token"]', "content")})
        assert r.status == 403
        assert not errors, errors
    finally:
        ctx.close()


QUALITY = {
    "ru": ("пары игроков встречаются за столом от ", "в среднем", "на одном и том же месте игрок сидит не больше"),
    "en": ("pairs of players meet ", "on average", "each player sits in the same seat at most"),
}


def test_the_seating_quality_in_a_judges_words_and_another_seating(browser: Any, server: str) -> None:
    tid = evening(server, "seated")
    for lang in ("ru", "en"):
        for size in SIZES:
            ctx, page, errors = desk(browser, server, lang, size, tid)
            try:
                tab(page, "seating")
                page.wait_for_selector("#seating-view:not([hidden])")
                words = page.text_content("#quality") or ""
                for part in QUALITY[lang]:
                    assert part in words
                # no statistics jargon in sight; the figures and the seed wait in closed details
                for jargon in ("ср.-кв.", "RMS", "Зерно", "Seed"):
                    assert jargon not in (page.inner_text("#tab-seating") or "")
                assert not page.is_visible("#seat-seed") and not page.is_visible("#quality-more")
                shoot(page, "seating-quality", lang, "#seating-form")
                page.click("#quality-figures summary")
                assert page.is_visible("#quality-more")
                with admin(server) as c:
                    old = ok(c.get(f"/api/tournaments/{tid}/seating"))["seating"]
                page.click("#reseat")
                page.wait_for_function("(s) => document.getElementById('seat-seed').value !== String(s)",
                                       arg=old["seed"])
                def reseated(doc: dict[str, Any], seed: Any = old["seed"]) -> bool:
                    return bool(doc["seed"] != seed)
                new = saved_seating(server, tid, reseated, "another seating saved")
                assert new["seed"] != old["seed"]
                # the same request otherwise: the hosts and the rounds stay
                assert new["request"]["hosts"] == old["request"]["hosts"] and new["rounds"] == old["rounds"]
                page.wait_for_function("(s) => document.getElementById('seat-seed').value === String(s)",
                                       arg=new["seed"])
                page.click("#seed-box summary")
                assert page.input_value("#seat-seed") == str(new["seed"])
                assert not errors, errors
            finally:
                ctx.close()


def play(c: httpx.Client, gid: str, end: dict[str, Any]) -> None:
    """Deal game ``gid``, end it by the judge's ``end`` (an award or an override) and sign its sheet."""
    for n, cmd in enumerate(({"type": "deal"}, end)):
        seq = ok(c.get(f"/api/games/{gid}"))["next_seq"]
        ok(c.post(f"/api/games/{gid}/commands", json={"command": cmd, "expected_seq": seq,
                                                      "command_id": f"{gid[:8]}-{n}"}))
    ok(c.post(f"/api/games/{gid}/sheet/sign"))


SHARED_TOP = {"ru": "Места 1–7 делят {names}: решает судья.",
              "en": "Places 1–7 are shared by {names}: the judge decides."}


def test_a_final_whose_prize_places_are_shared_names_those_the_judge_decides_among(browser: Any, server: str) -> None:
    """A final of 10 whose games all ended without a winner (the judge's override): the points carried over
    from the one main game (7 reds won) leave places 1-7 shared across the prize places, so there are no
    winners yet (T.total) and the judge decides (T.judge). The desk and the public page say who shares them,
    not nothing."""
    with admin(server) as c:
        tid = int(ok(c.post("/api/tournaments", json={"name": "Финал вничью", "preset": "club"}))["id"])
        ok(c.post(f"/api/tournaments/{tid}/participants", json={"text": "\n".join(NAMES[:10])}))
        me = ok(c.get("/api/me"))["user"]["id"]
        ok(c.put(f"/api/tournaments/{tid}/staff", json={"staff": [{"user_id": me, "role": "host"}]}))
        ok(c.post(f"/api/tournaments/{tid}/seating", json={"rounds": 1, "seed": 1, "hosts": [me]}))
        (game,) = ok(c.post(f"/api/tournaments/{tid}/rounds/1/open"))["games"]
        play(c, game["game_id"], {"type": "award", "winner": "red", "reason": "решение судьи"})
        ok(c.post(f"/api/tournaments/{tid}/games/{game['game_id']}/accept"))
        ok(c.post(f"/api/tournaments/{tid}/final", json={"k": 10, "hosts": [me]}))
        rounds = ok(c.get(f"/api/tournaments/{tid}/seating"))["final"]["rounds"]
        for number in range(1, rounds + 1):
            (game,) = ok(c.post(f"/api/tournaments/{tid}/final/rounds/{number}/open"))["games"]
            play(c, game["game_id"], {"type": "override", "winner": None, "reason": "ничья по решению судьи"})
            ok(c.post(f"/api/tournaments/{tid}/games/{game['game_id']}/accept"))
        ok(c.patch(f"/api/tournaments/{tid}", json={"published": True}))
        final = ok(c.get(f"/api/tournaments/{tid}/standings"))["final"]
    assert final["complete"] and final["winners"] == []
    tied = [r["nickname"] for r in final["standings"] if r["prize_tie"]]
    assert len(tied) == 7 and all((r["place"], r["place_to"]) == (1, 7) for r in final["standings"][:7])
    for lang in ("ru", "en"):
        for size in SIZES:
            ctx, page, errors = desk(browser, server, lang, size, tid)
            try:
                tab(page, "final")
                page.wait_for_selector("#final-winners:not(:empty)")
                assert page.inner_text("#final-winners") == SHARED_TOP[lang].format(names=", ".join(tied))
                shoot(page, "final-shared", lang, "#final-winners")
                page.goto(f"{server}/t/{tid}")
                page.wait_for_selector("#st-final tbody tr:nth-child(10)")
                assert page.inner_text("#st-winners") == SHARED_TOP[lang].format(names=", ".join(tied))
                shoot(page, "public-final-shared", lang, "#st-final-card")
                assert not errors, errors
            finally:
                ctx.close()

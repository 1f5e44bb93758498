"""The judge's seating constraints on the desk (issue 22), in Russian and English at a tablet's and a phone's
size: the judge composes them (pairs kept apart, a cap on meetings, a round sat out, a host's conflict, ratings,
a seat wish once the regulation allows it), is told what is wrong before anything is saved, saves them and
draws a seating that keeps them; after round 1 a late participant joins and the remaining rounds are seated
anew: first the preview of who moves where, kept or published. Screenshots go to test-artifacts/
(desk-<screen>-<lang>-<w>x<h>.png)."""

from __future__ import annotations

from typing import Any

from .conftest import ARTIFACTS, SIZES
from .test_judge_desk import admin, desk, evening, ok, saved_seating, shoot, tab

WORDS = {
    "ru": {"two": "Выберите двух разных игроков.", "tolerance": "рейтинг", "saved": "Ограничения сохранены",
           "cost": "ограничения", "none": "пока нет", "late": "не играет"},
    "en": {"two": "Choose two different players.", "tolerance": "rating", "saved": "Constraints saved",
           "cost": "constraints", "none": "none yet", "late": "sits out"},
}


def _ids(server: str, tid: int) -> dict[str, int]:
    with admin(server) as c:
        return {p["nickname"]: p["id"] for p in ok(c.get(f"/api/tournaments/{tid}/participants"))["participants"]}


def _choose(page: Any, select: str, value: int | str) -> None:
    page.select_option(select, str(value))


def test_the_judge_sets_the_constraints_on_the_desk_and_the_seating_keeps_them(browser: Any, server: str) -> None:
    for lang in ("ru", "en"):
        for size in SIZES:
            tid = evening(server, "seated")
            ids = _ids(server, tid)
            with admin(server) as c:
                me = ok(c.get("/api/me"))["user"]["id"]
            ctx, page, errors = desk(browser, server, lang, size, tid)
            w = WORDS[lang]
            try:
                tab(page, "seating")
                assert w["none"] in page.inner_text("#cons-summary")
                page.click("#cons-card > summary")
                page.wait_for_selector("#cons-form", state="visible")
                # one player twice is refused in place, nothing added
                _choose(page, "#never-a", ids["Ворон"])
                _choose(page, "#never-b", ids["Ворон"])
                page.click("#never-add")
                assert page.inner_text("#cons-error") == w["two"]
                assert page.locator("#never-list li").count() == 0
                _choose(page, "#never-b", ids["Сова"])
                page.click("#never-add")
                assert page.locator("#never-list li").count() == 1 and page.is_hidden("#cons-error")
                _choose(page, "#atmost-a", ids["Лиса"])
                _choose(page, "#atmost-b", ids["Барсук"])
                page.fill("#atmost-k", "1")
                page.click("#atmost-add")
                _choose(page, "#sitout-who", ids["Ёж"])
                page.fill("#sitout-rounds", "2")
                page.click("#sitout-add")
                _choose(page, "#conflict-host", me)
                _choose(page, "#conflict-player", ids["Волк"])
                page.click("#conflict-add")
                page.check("#wishes-allowed")
                _choose(page, "#wish-who", ids["Рысь"])
                page.fill("#wish-seats", "1, 2")
                page.click("#wish-add")
                # ratings for two players and tables balanced: every player needs one, the server says so
                # the club's ratings with one tap: every active participant gets one (the unrated their start)
                page.click("#ratings-elo")
                page.wait_for_function("() => document.getElementById('ratings-note').textContent !== ''")
                assert page.inner_text("#ratings-count").count(str(len(ids))) == 2  # n of n players
                with admin(server) as c:
                    taken = ok(c.get(f"/api/tournaments/{tid}/seating/ratings?source=elo"))
                assert set(taken["ratings"]) == {str(i) for i in ids.values()}
                names = {i: n for n, i in ids.items()}
                note = page.inner_text("#ratings-note")
                assert all(names[pid] in note for pid in taken["unrated"])
                page.click("#ratings-clear")
                page.click("#ratings-box summary")
                page.fill(f"#ratings-rows input[data-pid='{ids['Олень']}']", "1600")
                page.press(f"#ratings-rows input[data-pid='{ids['Олень']}']", "Tab")
                page.check("#balance-on")
                page.fill("#tolerance", "50")
                page.press("#tolerance", "Tab")
                assert page.is_visible("#cons-dirty")
                shoot(page, "constraints", lang, "#cons-card")
                w_, h_ = size
                page.locator("#cons-card").screenshot(path=str(ARTIFACTS / f"desk-constraints-card-{lang}-{w_}x{h_}.png"))
                page.click("#cons-save")
                page.wait_for_selector("#cons-error:not([hidden])")
                assert w["tolerance"] in page.inner_text("#cons-error").lower()
                with admin(server) as c:
                    assert ok(c.get(f"/api/tournaments/{tid}"))["seating_constraints"] is None
                # without the tables' balance the ratings only even out the opponents' strength: saved
                page.uncheck("#balance-on")
                page.click("#cons-save")
                page.wait_for_selector("#t-notice:not([hidden])")
                assert w["saved"] in page.inner_text("#t-notice") and page.is_hidden("#cons-dirty")
                with admin(server) as c:
                    stored = ok(c.get(f"/api/tournaments/{tid}"))["seating_constraints"]
                assert stored["never"] == [[ids["Ворон"], ids["Сова"]]]
                assert stored["at_most"] == [{"players": [ids["Лиса"], ids["Барсук"]], "times": 1}]
                assert stored["sit_out"] == {str(ids["Ёж"]): [2]}
                assert stored["host_conflicts"] == [{"host": me, "club": None, "players": [ids["Волк"]]}]
                assert stored["seat_wishes"] == {str(ids["Рысь"]): [1, 2]} and stored["seat_wishes_allowed"]
                assert stored["ratings"] == {str(ids["Олень"]): 1600.0} and stored["tolerance"] is None
                summary = page.inner_text("#cons-summary")
                assert "1" in summary and w["none"] not in summary
                # a new seating keeps them, and the desk says what they cost
                page.click("#reseat")
                page.wait_for_selector("#seating-busy", state="hidden")  # the page has its answer
                assert page.is_hidden("#seating-error"), page.inner_text("#seating-error")
                seating = saved_seating(server, tid, lambda doc: bool(doc["words"].get("constraints")),
                                        "a seating under the constraints saved")
                assert seating["words"]["constraints"]
                page.wait_for_function("() => document.getElementById('quality').textContent.includes("
                                       f"{w['cost']!r})")
                met = 0
                for rnd in seating["plan"]:
                    for t in rnd["tables"]:
                        seats = t["seats"]
                        assert not {ids["Ворон"], ids["Сова"]} <= set(seats)
                        met += {ids["Лиса"], ids["Барсук"]} <= set(seats)
                        assert rnd["round"] != 2 or ids["Ёж"] not in seats
                        assert t["table"] != 1 or ids["Волк"] not in seats  # table 1 is the admin's
                        assert ids["Рысь"] not in seats[2:]
                assert met <= 1
                shoot(page, "constraints-seating", lang, "#seating-view")
                assert not errors, errors
            finally:
                ctx.close()


def test_after_round_1_the_judge_previews_the_remaining_rounds_anew_then_keeps_or_publishes(
        browser: Any, server: str) -> None:
    for lang in ("ru", "en"):
        for size in SIZES:
            tid = evening(server, "played")
            with admin(server) as c:
                ok(c.post(f"/api/tournaments/{tid}/participants", json={"text": "Опоздавший"}))
                before = ok(c.get(f"/api/tournaments/{tid}/seating"))["seating"]
            late = _ids(server, tid)["Опоздавший"]
            ctx, page, errors = desk(browser, server, lang, size, tid)
            try:
                tab(page, "seating")
                assert page.is_hidden("#reseat") and page.is_visible("#regenerate")
                page.click("#regenerate")
                page.wait_for_selector("#regen-preview:not([hidden])")
                # first the fewest changes: the late arrival takes places, nobody else but those he replaces moves
                page.wait_for_selector("#regen-changes li")
                assert page.get_attribute("#regen-fewest", "aria-pressed") == "true"
                moves = page.inner_text("#regen-changes")
                assert "Опоздавший" in moves and WORDS[lang]["late"] in moves
                few = page.locator("#regen-changes li").count()
                assert few <= 2 * (len(before["plan"]) - 1)
                assert str(few) in page.inner_text("#regen-summary")
                shoot(page, "regenerate-preview", lang, "#regen-preview")
                # the best balance: more places change
                page.click("#regen-balance")
                page.wait_for_function("(n) => document.querySelectorAll('#regen-changes li').length > n", arg=few)
                assert page.get_attribute("#regen-balance", "aria-pressed") == "true"
                shoot(page, "regenerate-balance", lang, "#regen-preview")
                page.click("#regen-fewest")
                page.wait_for_function("(n) => document.querySelectorAll('#regen-changes li').length === n", arg=few)
                # kept: nothing saved
                page.click("#regen-cancel")
                assert page.is_hidden("#regen-preview")
                with admin(server) as c:
                    assert ok(c.get(f"/api/tournaments/{tid}/seating"))["seating"] == before
                # published: round 1 as it was, the late participant in the remaining rounds
                page.click("#regenerate")
                page.wait_for_selector("#regen-changes li")
                page.click("#regen-publish")
                page.wait_for_selector("#regen-preview", state="hidden")
                def changed(doc: dict[str, Any], before: dict[str, Any] = before) -> bool:
                    return doc != before
                after = saved_seating(server, tid, changed, "the rounds seated anew saved")
                assert after["plan"][0]["tables"] == before["plan"][0]["tables"]
                assert any(late in t["seats"] for rnd in after["plan"][1:] for t in rnd["tables"])
                # what was published is what the preview showed: the fewest changes
                def places(doc: dict[str, Any]) -> dict[tuple[int, int], tuple[int, int]]:
                    return {(rnd["round"], p): (t["table"], i) for rnd in doc["plan"] for t in rnd["tables"]
                            for i, p in enumerate(t["seats"])}
                a, b = places(before), places(after)
                assert sum(1 for k in set(a) | set(b) if a.get(k) != b.get(k)) == few
                page.select_option("#view-player", str(late))
                assert page.locator("#player-seats li").count() == len(after["plan"])
                assert not errors, errors
            finally:
                ctx.close()

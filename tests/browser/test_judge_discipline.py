"""The judge's desk, Sanctions tab (B.sanctions): each participant's offences across games with the steps
applied, the club's banned players, and a banned player refused on the Participants tab until the judge gives
a reason. In English and Russian; screenshots at a tablet's and a phone's size in
test-artifacts/judge-discipline-<lang>-<w>x<h>.png."""

from __future__ import annotations

from typing import Any

from .conftest import ARTIFACTS, SIZES, log_in_as_admin
from .test_judge import api_post, tab


def test_the_desk_shows_offences_and_bans_and_refuses_a_banned_player(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in_as_admin(page, server)
    tid = api_post(page, server, "/api/tournaments", {"name": "Discipline cup", "preset": "tournament"})["id"]
    added = api_post(page, server, f"/api/tournaments/{tid}/participants", {"text": "Eyes\nRowdy\nCalm"})["added"]
    eyes, rowdy = added[0]["id"], added[1]["id"]
    base = f"/api/tournaments/{tid}/offences"
    first = api_post(page, server, base, {"participant_id": eyes, "offence": "eyes_open", "reason": "peeked"})
    second = api_post(page, server, base, {"participant_id": eyes, "offence": "eyes_open", "reason": "again"})
    assert (first["step"], second["step"]) == ("round", "disqualification")
    assert api_post(page, server, base, {"participant_id": rowdy, "offence": "disruption",
                                         "reason": "threw the cards"})["ban"]["nickname"] == "Rowdy"
    for lang, words in (("en", ("opening eyes at night", "disqualification", "Discipline cup")),
                        ("ru", ("открыл глаза ночью", "дисквалификация", "Discipline cup"))):
        context.add_cookies([{"name": "lang", "value": lang, "url": server}])
        page.goto(f"{server}/tournaments/{tid}?lang={lang}#sanctions")  # another address: a new load
        page.wait_for_selector("#offence-list .offence-block")
        page.wait_for_selector("#ban-list li")
        offences = page.inner_text("#offence-list")
        assert "Eyes" in offences and "Rowdy" in offences and "Calm" not in offences
        assert words[0] in offences and words[1] in offences
        assert words[2] in page.inner_text("#ban-list")
        ARTIFACTS.mkdir(exist_ok=True)
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            page.locator("#discipline").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"judge-discipline-{lang}-{w}x{h}.png"))
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= w + 1, f"{lang} {w}px: the page scrolls sideways ({width}px)"
        page.set_viewport_size({"width": 1024, "height": 768})
    # a later tournament refuses Rowdy until the judge gives a reason
    later = api_post(page, server, "/api/tournaments", {"name": "Next cup", "preset": "tournament"})["id"]
    page.goto(f"{server}/tournaments/{later}#people")
    page.fill("#paste-text", "Rowdy")
    page.click("#add-pasted")
    page.wait_for_selector("#people-error:not([hidden])")
    assert "дальнейших турнирах" in page.inner_text("#people-error")
    page.fill("#ban-override", "the board lifted it for this cup")
    page.click("#add-pasted")
    page.wait_for_selector("#people-rows >> text=Rowdy")
    tab(page, "sanctions")
    assert errors == []
    context.close()

"""The season pages in a browser, as a club's judge and a visitor use them: a file of games imported from the
club's players page (a line per game), the club's players and a player's profile at a phone's and a tablet's
size in both languages: no script error, no policy violation, nothing wider than the screen, every chart drawn."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import admin_state, drawn, open_page, screenshots
from tests.exchange.test_files import FIXTURES

WIDE = "document.documentElement.scrollWidth > window.innerWidth + 1"
CHARTS_DRAWN = "[...document.querySelectorAll('.season-chart img')].every(i => i.complete && i.naturalWidth > 0)"


def import_games(page: Any, server: str, tmp_path: Any) -> int:
    """Import the mafiaratings fixture and a plausible set of records through the club page's form; the club's
    id."""
    club = page.request.get(server + "/api/me").json()["user"]["club_id"]
    page.goto(f"{server}/clubs/{club}/players")
    games = [json.loads((FIXTURES / n).read_text(encoding="utf-8"))
             for n in ("mafiaratings_documented.json", "polemica_334187.json", "polemica_333915.json")]
    file = tmp_path / "games.json"
    file.write_text(json.dumps(games), encoding="utf-8")
    page.set_input_files("#import input[type=file]", str(file))
    page.click("#import button")
    page.wait_for_selector("#import-report li.refused")
    report = page.inner_text("#import-report")
    assert report.count("\n") == 2 and "A.win" in report
    return int(club)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_judge_imports_games_and_everyone_reads_the_players_pages(browser: Any, server: str, tmp_path: Any,
                                                                    lang: str) -> None:
    ctx, page, errors = open_page(browser, 1024, 768, lang=lang, server=server,
                                  storage_state=admin_state(browser, server))  # the judge, logged in once
    try:
        club = import_games(page, server, tmp_path)
        assert page.is_visible("#import-summary")
        page.goto(f"{server}/clubs/{club}/players")
        first = page.get_attribute(".season-table tbody a", "href")
        assert first and first.startswith("/players/")
        for path, name in ((f"/clubs/{club}/players", "club-players"), (first, "profile")):
            page.goto(server + path, wait_until="load")  # drawn by the server: the tables are in the page
            for width, height in ((390, 844), (820, 1180)):
                page.set_viewport_size({"width": width, "height": height})
                drawn(page)
                assert not page.evaluate(WIDE), f"{path} is wider than {width} px"
                # each chart's address names the club's index version: fetched anew after the import. The
                # charts load lazily: the reader scrolls to them (below a long roster at a phone's size)
                for chart in page.locator(".season-chart img").all():
                    chart.scroll_into_view_if_needed()
                page.wait_for_function("() => " + CHARTS_DRAWN, timeout=15_000)  # a function: no eval under the CSP
            screenshots(page, f"seasons-{name}-{lang}", full_page=True)
        heading = page.inner_text("h2")
        assert heading == {"ru": "Рейтинг", "en": "Rating"}[lang]
        # the club's statistics narrowed by its filter: the rules chosen and shown, the games counted again
        page.goto(f"{server}/clubs/{club}/players")
        page.select_option(".season-filter select[name=ruleset]", "fiim")
        page.click(".season-filter button[type=submit]")
        page.wait_for_url("**ruleset=fiim**")
        assert page.input_value(".season-filter select[name=ruleset]") == "fiim"
        assert page.locator(".season-table").first.is_visible()
        assert not errors
    finally:
        ctx.close()

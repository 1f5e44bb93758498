"""The rules lab's page in a browser, as a club's judge uses it (docs/lab.md, "The judge's page"): a run of a
preset against one option changed started from the form, followed by its progress bar to its results and the
report's links, in both languages at a phone's and a tablet's size: no script error, no policy violation,
nothing wider than the screen. The page asks for its run's progress every 2 s: the tests move its clock on to ask
at once (``polled``) rather than wait for it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import admin_state, drawn, open_page, screenshots
from tests.waiting import wait_until

WIDE = "document.documentElement.scrollWidth > window.innerWidth + 1"
STATUS_HAS = "(words) => words.every(w => document.getElementById('lab-run-status').textContent.includes(w))"


def opened_lab(browser: Any, server: str, width: int, height: int, lang: str) -> tuple[Any, Any, list[str]]:
    """The lab's page for the admin (logged in once for the session), its clock Playwright's (``polled``)."""
    ctx, page, errors = open_page(browser, width, height, lang=lang, server=server,
                                  storage_state=admin_state(browser, server))
    page.clock.install()  # time flows as usual; ``polled`` moves it on to the page's next poll
    page.goto(server + "/lab")
    return ctx, page, errors


def polled(page: Any, condition: str, arg: Any, what: str) -> None:
    """Until ``condition`` (a function of ``arg``) holds on the page: each time it does not, the page's clock is
    moved on 2 s, so that its poll of the run (every 2 s) asks the server now."""
    def ready() -> bool:
        if page.evaluate(condition, arg):
            return True
        page.clock.fast_forward(2000)
        return False
    wait_until(ready, what, timeout=90, every=0.1)


WORDS = {"ru": ("Лаборатория правил", "завершён", "Доля побед красных"),
         "en": ("The rules lab", "finished", "Red's win rate")}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_judge_runs_the_lab_and_reads_its_results(browser: Any, server: str, lang: str) -> None:
    ctx, page, errors = opened_lab(browser, server, 390, 844, lang)
    try:
        assert page.inner_text("h1") == WORDS[lang][0]
        page.click("#lab-add")
        page.select_option("#lab-changes select[name=option]", "misses_win")
        page.fill("#lab-changes input[name=value]", "0")
        page.select_option("#lab-form select[name=agent]", "random")
        page.fill("#lab-form input[name=games]", "30")
        page.fill("#lab-form input[name=seed]", "11")
        screenshots(page, f"lab-form-{lang}", full_page=True)
        before = page.evaluate("() => [...document.querySelectorAll('#lab-runs button')].map(b => b.dataset.id)")
        page.click("#lab-form button[type=submit]")
        page.wait_for_function("(old) => { const b = document.querySelector('#lab-runs button[aria-current=true]');"
                               " return b && !old.includes(b.dataset.id); }", arg=before)
        polled(page, "() => !document.getElementById('lab-report').hidden", None, "the run's report")
        assert WORDS[lang][1] in page.inner_text("#lab-run-status")
        assert page.get_attribute("#lab-bar", "value") == page.get_attribute("#lab-bar", "max") == "60"
        assert page.locator("#lab-results tbody tr").count() == 2
        assert WORDS[lang][2] in page.inner_text("#lab-results thead")
        assert "club+misses_win=0" in page.inner_text("#lab-results").replace("\u200b", "")
        report = page.request.get(server + page.get_attribute("#lab-report", "href"))
        assert report.status == 200 and WORDS[lang][0] in report.text()
        assert page.locator("#lab-runs button").count() >= 1
        for width, height in ((390, 844), (820, 1180), (1024, 768)):
            page.set_viewport_size({"width": width, "height": height})
            drawn(page)
            assert not page.evaluate(WIDE), f"/lab is wider than {width} px"
            box = page.locator("#lab-results")  # the results table whole, not scrolled sideways
            assert box.evaluate("(b) => b.scrollWidth <= b.clientWidth + 1"), f"the results are cut at {width} px"
            # a phone's browser widens its layout to the page: measured against the screen too
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        screenshots(page, f"lab-results-{lang}", full_page=True)
        page.click("#lab-add")  # the same change twice: refused with the reason, nothing started
        page.select_option("#lab-changes li:nth-child(2) select[name=option]", "misses_win")
        page.fill("#lab-changes li:nth-child(2) input[name=value]", "0")
        runs = page.locator("#lab-runs button").count()
        page.click("#lab-form button[type=submit]")
        page.wait_for_selector("#lab-message:not([hidden])")
        assert page.inner_text("#lab-message") == {"ru": "Каждая изменённая опция должна давать свой вариант.",
                                                   "en": "Each option changed must make a variant of its own."}[lang]
        assert page.locator("#lab-runs button").count() == runs
        assert not errors
    finally:
        ctx.close()


RUNNING = {"ru": ("идёт", "игр/с", "осталось около", "остановлен"), "en": ("running", "games/s", "left", "stopped")}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_judge_follows_a_run_stops_and_resumes_it(browser: Any, server: str, lang: str) -> None:
    ctx, page, errors = opened_lab(browser, server, 820, 1180, lang)
    try:
        page.click("#lab-add")
        page.select_option("#lab-changes select[name=option]", "misses_win")
        page.fill("#lab-changes input[name=value]", "0")
        page.fill("#lab-form input[name=games]", "5000")
        before = page.evaluate("() => [...document.querySelectorAll('#lab-runs button')].map(b => b.dataset.id)")
        page.click("#lab-form button[type=submit]")
        page.wait_for_function("(old) => { const b = document.querySelector('#lab-runs button[aria-current=true]');"
                               " return b && !old.includes(b.dataset.id); }", arg=before)
        running, rate, left, stopped = RUNNING[lang]
        polled(page, STATUS_HAS, [running, rate, left], "the run's rate and time left")
        assert 0 < float(page.get_attribute("#lab-bar", "value") or 0) < 10_000
        screenshots(page, f"lab-running-{lang}", full_page=True)
        page.click("#lab-stop")
        polled(page, "() => !document.getElementById('lab-resume').hidden", None, "the run stopped")
        assert page.inner_text("#lab-run-status").startswith(stopped) and page.is_hidden("#lab-report")
        screenshots(page, f"lab-stopped-{lang}", full_page=True)
        page.click("#lab-resume")
        page.wait_for_selector("#lab-stop:not([hidden])")
        page.click("#lab-stop")  # not left playing for the other tests
        polled(page, "() => !document.getElementById('lab-resume').hidden", None, "the run stopped again")
        assert not errors
    finally:
        ctx.close()

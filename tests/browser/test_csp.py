"""The Content-Security-Policy (web/headers.py) holds on every page: each kind of page opened in Chromium
breaks none of it (the shared ``no_csp_violations`` fixture fails any browser test whose pages did), and the
policy is really in force (an inline script put into a page is refused and reported)."""

from __future__ import annotations

from typing import Any

from tests.waiting import wait_until

from .conftest import ADMIN_PASSWORD, drawn, open_page

LIVE = "#o-link[data-state=live], #t-link[data-state=live], #console[data-step]:not([data-step=''])"
"""A page that follows a game: drawn once its socket is live (and, on the console, once its state is shown)."""


def drawn_after_loading(page: Any, pending: set[Any]) -> None:
    """Until what ``page``'s scripts draw after loading is on the screen: every request they made answered, the
    game's socket live on a page that follows one, then two frames drawn."""
    if page.evaluate("() => !!document.querySelector('#o-link, #t-link, #console')"):
        page.wait_for_selector(LIVE)
    # each look asks the page something: Playwright hands the test its events (the requests' ends) meanwhile
    wait_until(lambda: drawn(page) or not pending, f"the requests of {page.url} answered")


def _api(page: Any, server: str, method: str, path: str, body: Any = None) -> Any:
    csrf = page.request.get(server + "/api/me").json()["csrf_token"]
    r = page.request.fetch(server + path, method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert r.ok, (path, r.status, r.text())
    return r.json()


def test_every_page_keeps_the_content_security_policy(browser: Any, server: str,
                                                     no_csp_violations: list[str]) -> None:
    context, page, errors = open_page(browser, 1024, 768, locale="en-US")
    try:
        page.goto(server + "/login")
        page.fill("#login", "admin")
        page.fill("#password", ADMIN_PASSWORD)
        page.click("#login-submit")
        page.wait_for_url(server + "/")
        players = [p["id"] for p in page.request.get(server + "/api/players").json()["players"]][:10]
        game_id = _api(page, server, "POST", "/api/games", {"preset": "club", "players": 10, "roster": players})["id"]
        code = _api(page, server, "POST", f"/api/games/{game_id}/online")["code"]
        link = _api(page, server, "POST", f"/api/games/{game_id}/online/seats/1/link?qr=true")["url"]
        tid = _api(page, server, "POST", "/api/tournaments", {"name": "Cup", "preset": "club"})["id"]
        _api(page, server, "PATCH", f"/api/tournaments/{tid}", {"published": True})
        pages = ["/", f"/games/{game_id}", f"/games/{game_id}/table", f"/games/{game_id}/timeline",
                 f"/games/{game_id}/online", f"/games/{game_id}/sheet", "/tournaments", f"/tournaments/{tid}",
                 f"/tournaments/{tid}/print", f"/t/{tid}", f"/join/{code}", f"/watch/{code}", f"/overlay/{code}",
                 link.removeprefix(server), "/games/no-such-game"]
        pending: set[Any] = set()
        page.on("request", lambda r: pending.add(r) if r.resource_type in ("fetch", "xhr") else None)
        page.on("requestfinished", lambda r: pending.discard(r))
        page.on("requestfailed", lambda r: pending.discard(r))
        for path in pages:
            page.goto(server + path, wait_until="load")
            drawn_after_loading(page, pending)
        assert not no_csp_violations, no_csp_violations
        assert not errors, errors

        # the policy is in force: a script written into the page is refused, and the fixture hears of it
        page.goto(server + "/")
        page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
                      " document.body.appendChild(s); }")
        wait_until(lambda: page.evaluate("() => true") and any("script-src" in v for v in no_csp_violations),
                   "the refused script reported")  # (asking the page lets Playwright hand over its console)
        assert page.evaluate("() => window.ran") is None
        no_csp_violations.clear()
    finally:
        context.close()

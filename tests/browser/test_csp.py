"""The Content-Security-Policy (web/headers.py) holds on every page: each kind of page opened in Chromium
breaks none of it (the shared ``no_csp_violations`` fixture fails any browser test whose pages did), and the
policy is really in force (an inline script put into a page is refused and reported)."""

from __future__ import annotations

from typing import Any

from .conftest import ADMIN_PASSWORD, open_page


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
        for path in pages:
            page.goto(server + path, wait_until="load")
            page.wait_for_timeout(150)  # what the page's scripts draw after loading
        assert not no_csp_violations, no_csp_violations
        assert not errors, errors

        # the policy is in force: a script written into the page is refused, and the fixture hears of it
        page.goto(server + "/")
        page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
                      " document.body.appendChild(s); }")
        page.wait_for_timeout(100)
        assert page.evaluate("() => window.ran") is None
        assert any("script-src" in v for v in no_csp_violations), no_csp_violations
        no_csp_violations.clear()
    finally:
        context.close()

"""The account pages in a browser: a login whose `next` points away stays on this site; the admin creates a
user and disables and enables him on the users page (390x844, Russian); that user changes his password on the
account page, and his other session ends (1024x768, English)."""

from __future__ import annotations

import uuid
from typing import Any

from .conftest import ADMIN_PASSWORD, ARTIFACTS, open_page


def _login(page: Any, server: str, login: str, password: str, next_path: str) -> None:
    page.goto(f"{server}/login?next={next_path}")
    page.fill("#login", login)
    page.fill("#password", password)
    page.click("#login-submit")


def test_users_and_account_pages(browser: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    login = "b" + uuid.uuid4().hex[:8]
    context, page, errors = open_page(browser, 390, 844, lang="ru", server=server)
    try:
        _login(page, server, "admin", ADMIN_PASSWORD, "/%5Cevil.example/phish")
        page.wait_for_url(server + "/")  # not /\evil.example: the server's decision
        page.click("#users-link")
        page.wait_for_selector("#user-list li[data-login=admin]")
        page.fill("#new-login", login)
        page.fill("#new-user-password", "first-password")
        page.click("#create-user")
        item = page.locator(f"#user-list li[data-login={login}]")
        item.wait_for()
        # the account plays as the roster's first player: a game with him at a seat is closed to it (web.access)
        with page.expect_response(lambda r: r.url.endswith("/player") and r.request.method == "PUT") as put:
            item.locator("select[name=player]").select_option(index=1)
        assert put.value.status == 200
        first = page.request.get(server + "/api/players").json()["players"][0]
        users = {u["login"]: u for u in page.request.get(server + "/api/users").json()["users"]}
        assert users[login]["player_id"] == first["id"]
        page.locator(f"#user-list li[data-login={login}] select[name=player]").wait_for()
        assert page.locator(f"#user-list li[data-login={login}] select[name=player]").input_value() == str(first["id"])
        page.once("dialog", lambda d: d.accept())
        item.locator(".user-toggle").click()
        page.wait_for_selector(f"#user-list li.disabled[data-login={login}]")
        assert "отключён" in item.inner_text()
        page.screenshot(path=str(ARTIFACTS / "users-ru-390x844.png"), full_page=True)
        item.locator(".user-toggle").click()
        page.wait_for_selector(f"#user-list li:not(.disabled)[data-login={login}]")
        assert errors == []
    finally:
        context.close()
    other, other_page, _ = open_page(browser, 1024, 768, lang="en", server=server)
    context, page, errors = open_page(browser, 1024, 768, lang="en", server=server)
    try:
        _login(other_page, server, login, "first-password", "/account")
        other_page.wait_for_url(server + "/account")
        _login(page, server, login, "first-password", "/account")
        page.wait_for_url(server + "/account")
        page.fill("#old-password", "not-the-password")
        page.fill("#new-password", "second-password")
        page.fill("#new-password-again", "second-password")
        page.click("#password-submit")
        page.wait_for_selector("#password-error:not([hidden])")
        assert "wrong" in page.inner_text("#password-error")
        page.fill("#old-password", "first-password")
        page.fill("#new-password", "second-password")
        page.fill("#new-password-again", "second-password")
        page.click("#password-submit")
        page.wait_for_selector("#password-done:not([hidden])")
        page.screenshot(path=str(ARTIFACTS / "account-en-1024x768.png"), full_page=True)
        assert page.request.get(server + "/api/me").status == 200  # this session stays
        assert other_page.request.get(server + "/api/me").status == 401  # the other one ended
        assert errors == []
    finally:
        context.close()
        other.close()

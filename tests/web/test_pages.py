"""The host's pages: languages (cookie, Accept-Language, Russian by default; the catalogs themselves are
checked in ``tests/test_catalogs.py``), logins required, the console of one's own games only, static files served from the package."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sportmafia.i18n import pmsg
from sportmafia.rules import get_ruleset
from sportmafia.web import pages
from sportmafia.web.i18n import parse_accept_language, translations

from .conftest import Api


@pytest.mark.parametrize(("header", "lang"), [
    ("", None), ("ru-RU,ru;q=0.9,en;q=0.8", "ru"), ("en-US,en;q=0.9", "en"), ("de-DE,de;q=0.9,en;q=0.5", "en"),
    ("en;q=0.4, ru;q=0.6", "ru"), ("fr", None), ("ru;q=0, en", "en"), ("*", None), ("en;q=abc,ru", "ru"),
])
def test_accept_language(header: str, lang: str | None) -> None:
    assert parse_accept_language(header) == lang


def test_translations_differ() -> None:
    assert translations("ru").gettext("Next") == "Далее"
    assert translations("en").gettext("Next") == "Next"
    assert translations("xx").gettext("Next") == "Далее"  # unknown: the default, Russian


def test_login_page_language(anon: Api) -> None:
    page = anon.get("/login")
    assert page.status_code == 200 and 'lang="ru"' in page.text and "Пароль" in page.text
    page = anon.get("/login", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert 'lang="en"' in page.text and "Password" in page.text
    anon.client.cookies.set("lang", "ru")
    page = anon.get("/login", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert 'lang="ru"' in page.text  # the switch's cookie wins over the browser
    anon.client.cookies.set("lang", "xx")
    assert 'lang="en"' in anon.get("/login", headers={"Accept-Language": "en"}).text


def test_the_language_switch_is_set_by_the_servers_answer(anon: Api) -> None:
    """The switch is a link whose answer sets the cookie and comes back to the page it names, query and tab
    included: no cookie written by the page's script and a reload racing it. Only a path of this site is gone
    back to, and only our languages are set."""
    page = anon.get("/login?next=/games/7", headers={"Accept-Language": "ru"})
    links = dict(re.findall(r'<a class="lang-switch[^"]*" data-lang="(\w+)"[^>]*href="([^"]+)"', page.text))
    assert links == {"ru": "/lang/ru?next=/login%3Fnext%3D/games/7", "en": "/lang/en?next=/login%3Fnext%3D/games/7"}
    r = anon.get(links["en"], follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/games/7"
    assert "lang=en" in r.headers["set-cookie"] and "samesite=lax" in r.headers["set-cookie"].lower()
    page = anon.get(r.headers["location"], headers={"Accept-Language": "ru"})
    assert 'lang="en"' in page.text and "Password" in page.text  # the cookie now wins over the browser
    r = anon.get("/lang/ru?next=%2Ftournaments%2F3%23seating", follow_redirects=False)
    assert r.headers["location"] == "/tournaments/3#seating" and anon.client.cookies.get("lang") == "ru"
    for hostile in ("//evil.example/x", "https://evil.example/", "/%2F%2Fevil.example", "/\\evil.example", ""):
        r = anon.get("/lang/en", params={"next": hostile}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/", hostile
    r = anon.get("/lang/xx?next=/", follow_redirects=False)
    assert r.status_code == 404 and "set-cookie" not in r.headers and anon.client.cookies.get("lang") == "en"
    # the pages' script: a POST answered with the cookie, and the page reloads itself
    r = anon.client.post("/lang/ru")
    assert r.status_code == 204 and anon.client.cookies.get("lang") == "ru"
    assert anon.client.post("/lang/xx").status_code == 404 and anon.client.cookies.get("lang") == "ru"


def test_the_language_switch_of_a_players_page_names_no_address(api: Api) -> None:
    """A page whose address holds a token (a seat's link) sends it in no other request (headers.SECRET_PAGES):
    its switch names no page to come back to, and its script reloads the page itself."""
    game_id = api.new_game()
    assert api.post(f"/api/games/{game_id}/online").status_code == 200
    token = api.post(f"/api/games/{game_id}/online/seats/1/link").json()["token"]
    page = api.get(f"/play/{token}")
    assert page.status_code == 200 and token not in page.text
    assert re.findall(r'<a class="lang-switch[^"]*"[^>]*href="([^"]+)"', page.text) == ["/lang/ru", "/lang/en"]
    assert api.client.post("/lang/en").status_code == 403  # a signed-in page's script sends its token
    r = api.post("/lang/en")
    assert r.status_code == 204 and api.client.cookies.get("lang") == "en"


def test_pages_need_a_login(anon: Api) -> None:
    for path in ("/", "/games/anything"):
        r = anon.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/login?next={path}"


def test_games_and_console_pages(api: Api) -> None:
    home = api.get("/")
    assert home.status_code == 200 and "Новая игра" in home.text
    assert f'content="{api.csrf}"' in home.text  # the CSRF token for the page's fetch calls
    game_id = api.new_game()
    console = api.get(f"/games/{game_id}", headers={"Accept-Language": "en"})
    assert console.status_code == 200 and f'data-game="{game_id}"' in console.text
    assert "banging the table" in console.text and "Undo" in console.text  # the engine's reasons, in English
    assert api.get("/games/not-a-game").status_code == 404
    other = api.store.create_club("Другой клуб")
    foreign = api.store.create_game(other, get_ruleset("club"), 10, None)
    assert api.get(f"/games/{foreign}").status_code == 404


def page_strings(html: str, block: str) -> dict[str, str]:
    """The strings a page gives its script (``<script type="application/json" id=block>``)."""
    found = re.search(rf'<script type="application/json" id="{block}">(.*?)</script>', html, re.S)
    assert found, block
    strings: dict[str, str] = json.loads(found.group(1))
    return strings


@pytest.mark.parametrize(("lang", "name", "other"), [("ru", "Последнее слово", "Финальное слово"),
                                                     ("en", "Last word", "Final words")])
def test_the_last_word_has_one_name_on_every_screen(api: Api, lang: str, name: str, other: str) -> None:
    """A departing player's last word is named alike on the console and the table view (and as its step)."""
    game_id = api.new_game()
    api.client.cookies.set("lang", lang)
    console = page_strings(api.get(f"/games/{game_id}").text, "console-i18n")
    table = page_strings(api.get(f"/games/{game_id}/table").text, "table-i18n")
    assert console["final_words"] == table["last_words"] == name + ": %(s)s"
    assert other not in json.dumps([console, table], ensure_ascii=False)
    assert name.lower() in pmsg("step", "a last word").render(lang)


def test_static_files_and_no_cdn(api: Api) -> None:
    for name in ("app.css", "common.js", "login.js", "games.js", "console.js"):
        r = api.get(f"/static/{name}")
        assert r.status_code == 200, name
    assert api.get("/static/missing.js").status_code == 404
    game_id = api.new_game()
    for path in ("/login", "/", f"/games/{game_id}"):
        html = api.get(path).text
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), path
    for f in Path(pages.STATIC).iterdir():
        data = f.read_bytes().replace(b'xmlns="http://www.w3.org/2000/svg"', b"")  # an SVG's name, not an address
        assert b"http://" not in data and b"https://" not in data, f.name


def test_the_site_has_an_icon(api: Api) -> None:
    """Browsers ask for /favicon.ico: a real icon, not a 404 in the server's log and the browser's console."""
    r = api.client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon", r.text
    assert r.content[:4] == b"\x00\x00\x01\x00" and b"\x89PNG" in r.content  # an ICO holding a PNG
    svg = api.client.get("/static/favicon.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.lstrip().startswith("<svg")
    for path in ("/login", "/", "/join"):
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in api.get(path).text, path


def test_the_api_is_unchanged(api: Api) -> None:
    """The pages add no API routes: the OpenAPI schema lists only /api paths."""
    paths = api.get("/openapi.json").json()["paths"]
    assert all(p.startswith("/api/") for p in paths)


def test_every_operation_documents_the_api_errors(api: Api) -> None:
    """Each operation of the schema may answer each error status with the one error shape (``ErrorOut``), its
    422 too (FastAPI's own validation shape is not used); a route's own answer for a status stays (the lab's
    503). The errors are added to the schema once it is built (web/responses.py), not as response fields of
    every route."""
    schema = api.get("/openapi.json").json()
    ref = {"$ref": "#/components/schemas/ErrorOut"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status in ("400", "401", "403", "404", "405", "409", "413", "422", "429"):
                answer = operation["responses"][status]
                assert answer["content"]["application/json"]["schema"] == ref, (path, method, status)
    assert schema["paths"]["/api/lab/runs"]["post"]["responses"]["503"]["description"] != ""
    shapes = schema["components"]["schemas"]
    assert "HTTPValidationError" not in shapes and "ValidationError" not in shapes
    assert shapes["ErrorOut"]["properties"]["error"] == {"$ref": "#/components/schemas/ErrorDetail"}
    assert set(shapes["ErrorDetail"]["required"]) == {"code", "en", "ru"}


def test_presets_scoring_systems_and_dates_in_the_pages_language(api: Api) -> None:
    """Every page has the names of the presets and scoring systems in its language (common.js names a rule set
    or a scoring system with them, a changed one too); a page written on the server prints days in words."""
    for lang, club, regulation, changed, days in (
            ("ru", "Клубные", "по регламенту", "%(name)s, с изменениями", "2–4 дек. 2026 г."),
            ("en", "Club", "regulation", "%(name)s, changed", "Dec 2 – 4, 2026")):
        page = api.get("/tournaments", headers={"Accept-Language": lang}).text
        found = re.search(r'<script type="application/json" id="common-i18n">(.*?)</script>', page, re.S)
        assert found
        common = json.loads(found.group(1))
        assert common["rulesets"]["club"] == club and common["scorings"]["regulation"] == regulation
        assert common["variant"] == changed and set(common["rulesets"]) == {"club", "tournament", "fiim"}
        r = api.post("/api/tournaments", {"name": f"Cup {lang}", "preset": "club", "starts_on": "2026-12-02",
                                           "ends_on": "2026-12-04"})
        assert r.status_code == 201, r.text
        printed = api.get(f"/tournaments/{r.json()['id']}/print", headers={"Accept-Language": lang}).text
        dates = re.search(r'<p class="note" id="st-dates">(.*?)</p>', printed, re.S)
        assert dates and re.sub(r"[\u00a0\u2009\u202f]", " ", dates.group(1)) == days
        assert "2026-12-02" not in printed

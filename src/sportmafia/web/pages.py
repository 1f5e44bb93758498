"""The host's pages: ``/login``, ``/`` (the club's games and a new game) and ``/games/{id}`` (the console).
Jinja2 templates translated with the Babel catalogs of ``i18n``; the pages talk to the JSON API with fetch."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..engine import FOUL_REASONS, REMOVAL_REASONS, SANCTIONS
from ..engine.describe import HOW_NAMES, REASON_NAMES, RESULT_NAMES, ROLE_NAMES, STEP_NAMES, TEAM_NAMES, t
from ..store import GameSummary, Store, UserRecord
from ..store.clubs import club_settings
from .access import game_summary
from .headers import SECRET_PAGES
from .i18n import LANG_COOKIE, LANGS, days_text, request_lang, translations
from .sessions import safe_next, session_of, session_user

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"

router = APIRouter(include_in_schema=False)
env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]), auto_reload=False)


def page_user(request: Request) -> UserRecord | None:
    """The signed-in user of a page's request (his session's user, not disabled), or None. The pages' own
    lookup: the API's routes take ``auth.current_user``, which answers 401 instead."""
    uid = session_of(request).get("uid")
    if not isinstance(uid, int):
        return None
    store: Store = request.app.state.store
    user = session_user(request) or store.get_user(uid)
    return user if user is not None and user.disabled_at is None else None


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    lang = request_lang(request)
    tr = translations(lang)

    def gettext(message: str, **params: Any) -> str:
        text: str = tr.gettext(message)
        return text % params if params else text

    html = env.get_template(name).render(
        _=gettext, lang=lang, langs=LANGS, lang_cookie=LANG_COOKIE, csrf=session_of(request).get("csrf") or "",
        path=request.url.path, here=_here(request), days=lambda starts, ends=None: days_text(starts, ends, lang), **context)
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


def _here(request: Request) -> str:
    """The page's own path and query, quoted for the language switch's ``next=`` (it comes back here); nothing on
    a page whose address holds a secret (``headers.SECRET_PAGES``: the token is sent in no other request)."""
    if request.url.path.startswith(SECRET_PAGES):
        return ""
    query = request.url.query
    return quote(request.url.path + ("?" + query if query else ""), safe="/")


LANG_SECONDS = 365 * 24 * 3600
LangCode = Annotated[str, PathParam(max_length=8)]


def _lang_cookie(response: Response, code: str) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.set_cookie(LANG_COOKIE, code, max_age=LANG_SECONDS, path="/", samesite="lax")
    return response


@router.get("/lang/{code}")
def switch_lang(request: Request, code: LangCode) -> Response:
    """The language switch of every page as a link: the ``lang`` cookie set by this answer, then back to ``next``
    (a path of this site, ``safe_next``). The cookie is the server's because one written by the page's script
    with a reload at once can race in the browser (the reload's request leaves before the cookie is stored),
    and the page came back in the old language."""
    if code not in LANGS:
        return render(request, "missing.html", status=404, user=page_user(request))
    return _lang_cookie(RedirectResponse(safe_next(request.query_params.get("next")), status_code=303), code)


@router.post("/lang/{code}")
def set_lang(request: Request, code: LangCode) -> Response:
    """The switch as the pages' script uses it: the cookie set by this answer (stored by the browser before the
    script sees it), after which the page reloads itself, its address sent in no other request."""
    if code not in LANGS:
        return Response(status_code=404)
    return _lang_cookie(Response(status_code=204), code)


def to_login(request: Request) -> RedirectResponse:
    """To the login page, coming back to this page once signed in."""
    return RedirectResponse(f"/login?next={quote(request.url.path)}", status_code=303)


@router.get("/login")
def login_page(request: Request) -> Response:
    """The login page; where it goes after the login is decided here (``safe_next``) and by the login's answer,
    never by the page's script alone."""
    return render(request, "login.html", user=page_user(request), next=safe_next(request.query_params.get("next")))


@router.get("/")
def games_page(request: Request) -> Response:
    user = page_user(request)
    if user is None:
        return to_login(request)
    return render(request, "games.html", user=user)


def game_labels(lang: str) -> dict[str, Any]:
    """The engine's own texts every game page shows (roles, teams, results, departures, steps)."""
    return {
        "roles": {k: t(ROLE_NAMES, k, lang) for k in ROLE_NAMES},
        "teams": {str(k).lower(): t(TEAM_NAMES, k, lang) for k in TEAM_NAMES},
        "results": {k: t(RESULT_NAMES, k, lang) for k in RESULT_NAMES},
        "how": {k: t(HOW_NAMES, k, lang) for k in HOW_NAMES},
        "steps": {k: t(STEP_NAMES, k, lang) for k in STEP_NAMES},
    }


def offence_names(lang: str) -> dict[str, str]:
    """The offences of the sanctions table (B.sanctions) named in ``lang``: the console's sanction panel and the
    judge's desk."""
    return {code: t(REASON_NAMES, code, lang) for code in SANCTIONS}


def _labels(lang: str) -> dict[str, Any]:
    """The engine's own texts the console shows (reasons, and :func:`game_labels`)."""
    return {
        "foul_reasons": [[code, t(REASON_NAMES, code, lang)] for code in FOUL_REASONS],
        "removal_reasons": [[code, t(REASON_NAMES, code, lang)] for code in REMOVAL_REASONS],
        "offences": offence_names(lang),
        **game_labels(lang),
    }


def club_game(request: Request, game_id: str) -> tuple[UserRecord, GameSummary] | Response:
    """The logged-in user and the game ``game_id`` he may open (``access.game_summary``: its host, or a judge or
    admin who does not play in it), or the page to answer instead: the login page for a visitor, "not found"
    for a game that is not there or not his to open."""
    user = page_user(request)
    if user is None:
        return to_login(request)
    summary = game_summary(request.app.state.store, user, game_id)
    if summary is None:
        return render(request, "missing.html", status=404, user=user)
    return user, summary


@router.get("/games/{game_id}")
def console_page(request: Request, game_id: Annotated[str, PathParam(max_length=64)]) -> Response:
    found = club_game(request, game_id)
    if isinstance(found, Response):
        return found
    user, _summary = found
    lang = request_lang(request)
    # the club's setting (store/clubs.py): the speech timer starts by itself when the host's Next begins a speech
    autostart = club_settings(request.app.state.store, user.club_id).autostart_timer
    return render(request, "console.html", user=user, game_id=game_id, labels=_labels(lang), autostart=autostart)


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The site's icon where browsers look for it without a ``<link rel=icon>`` (the pages name the SVG one)."""
    return FileResponse(STATIC / "favicon.ico", media_type="image/x-icon",
                        headers={"Cache-Control": "public, max-age=86400"})

"""The language of a request: the ``lang`` cookie, else the browser's Accept-Language, else Russian. The
catalogs themselves are the one translation system of every layer, ``sportmafia.i18n``."""

from __future__ import annotations

from starlette.requests import Request

from ..i18n import DEFAULT_LANG, LANGS, catalog_files, translations

__all__ = ["DEFAULT_LANG", "LANGS", "LANG_COOKIE", "catalog_files", "parse_accept_language", "request_lang",
           "translations"]

LANG_COOKIE = "lang"


def parse_accept_language(header: str) -> str | None:
    """The first of our languages the header accepts, by its q values (``ru-RU,ru;q=0.9,en;q=0.8``)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        if not tag:
            continue
        q = 1.0
        for param in fields[1:]:
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q <= 0:
            continue
        primary = tag.split("-")[0]
        if primary in LANGS:
            ranked.append((-q, i, primary))
    return min(ranked)[2] if ranked else None


def request_lang(request: Request) -> str:
    """The ``lang`` cookie (set by the switch on every page), else Accept-Language, else Russian."""
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGS:
        return cookie
    return parse_accept_language(request.headers.get("accept-language", "")) or DEFAULT_LANG

"""The language of a request: the ``lang`` cookie, else the browser's Accept-Language, else Russian; days as a
person reads them in that language (Babel). The catalogs themselves are the one translation system of every
layer, ``sportmafia.i18n``."""

from __future__ import annotations

from datetime import date

from babel.dates import format_date, format_interval
from starlette.requests import Request

from ..i18n import DEFAULT_LANG, LANGS, catalog_files, translations

__all__ = ["DEFAULT_LANG", "LANGS", "LANG_COOKIE", "catalog_files", "day_text", "days_text", "parse_accept_language",
           "request_lang", "translations"]

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


def day_text(value: date, lang: str) -> str:
    """A day in ``lang``: ``2 дек. 2026 г.`` / ``Dec 2, 2026`` (as the pages' scripts show days)."""
    return format_date(value, "medium", locale=lang)


def days_text(starts: date | None, ends: date | None, lang: str) -> str:
    """A span of days in ``lang`` (``2–4 дек. 2026 г.`` / ``Dec 2 – 4, 2026``), one day, or nothing."""
    if starts and ends and starts != ends:
        # the en dash the pages' scripts write (Intl's formatRange), where CLDR's Russian pattern has an em dash
        return format_interval(starts, ends, "yMMMd", locale=lang).replace("\u2014", "\u2013")
    one = starts or ends
    return day_text(one, lang) if one else ""

"""The pages' languages: Babel catalogs read from the ``.po`` files at import (compiled in memory, no build
step), and the language of a request: the ``lang`` cookie, else the browser's Accept-Language, else Russian."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from starlette.requests import Request

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"
LANGS = ("ru", "en")
DEFAULT_LANG = "ru"
LANG_COOKIE = "lang"


def _compile_file(path: Path, lang: str) -> Translations:
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


def catalog_files(lang: str) -> list[Path]:
    """The .po files of ``lang``: ``messages.po`` first, then one per part of the site (``sheet.po``, ...),
    in name order. A message defined in two files takes the first file's translation."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    main = folder / f"{DOMAIN}.po"
    return [main, *sorted(p for p in folder.glob("*.po") if p != main)]


def _compile(lang: str) -> Translations:
    """The catalog of ``lang``: its .po files read and compiled to .mo in memory, merged into one."""
    first, *rest = catalog_files(lang)
    merged = _compile_file(first, lang)
    for path in rest:
        extra = _compile_file(path, lang)
        for key, value in extra._catalog.items():
            merged._catalog.setdefault(key, value)
    return merged


TRANSLATIONS: dict[str, Translations] = {lang: _compile(lang) for lang in LANGS}


def translations(lang: str) -> Translations:
    return TRANSLATIONS.get(lang, TRANSLATIONS[DEFAULT_LANG])


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

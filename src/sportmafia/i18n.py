"""One translation system for every layer: a message is a :class:`Text` (an English msgid, its parameters and,
where a word needs it, a context or a plural), and its words in each language live only in the catalogs,
``sportmafia/locale/{ru,en}/LC_MESSAGES/*.po``, read and compiled in memory on first use (no build step).

A layer that refuses or describes something builds a :class:`Text` and says nothing about languages; the
layer that shows it (the web, the CLI) renders it in its viewer's language::

    >>> refusal = msg("Player %(seat)s has left the table.", seat=3)
    >>> refusal.render("en")
    'Player 3 has left the table.'
    >>> refusal.render("ru")
    'Игрок 3 уже покинул стол.'

Parameters are ``%(name)s`` placeholders, as in the templates. A parameter may itself be a :class:`Text`; it is
rendered in the same language first (a step's name inside "Not now: …"). Code tables use a context
(:func:`pmsg`) so that one English word may take different Russian words in different places; counts use
:func:`nmsg` and the catalogs' plural forms (Russian has three).

The extraction keywords (for ``pybabel extract -k`` and ``tests/test_catalogs.py``) are :data:`KEYWORDS`.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"
LANGS = ("ru", "en")
DEFAULT_LANG = "ru"

KEYWORDS: dict[str, Any] = {
    "msg": None, "N_": None, "pmsg": ((1, "c"), 2), "nmsg": (1, 2), "npmsg": ((1, "c"), 2, 3),
    "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
}
"""Babel's keyword spec of this module's functions: which argument is the msgid, the plural, the context."""


def catalog_files(lang: str) -> list[Path]:
    """The .po files of ``lang``: ``messages.po`` first, then one per part of the product (``engine.po``,
    ``sheet.po``, ...), in name order. A message is defined in one file only (``tests/test_catalogs.py``)."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    main = folder / f"{DOMAIN}.po"
    return [main, *sorted(p for p in folder.glob("*.po") if p != main)]


def _compile_file(path: Path, lang: str) -> Translations:
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


def _compile(lang: str) -> Translations:
    """The catalog of ``lang``: its .po files compiled to .mo in memory and merged into one."""
    first, *rest = catalog_files(lang)
    merged = _compile_file(first, lang)
    for path in rest:
        extra = _compile_file(path, lang)
        for key, value in extra._catalog.items():
            merged._catalog.setdefault(key, value)
    return merged


_TRANSLATIONS: dict[str, Translations] = {}
_TEMPLATES: dict[tuple[str, str | None, str], str] = {}  # (lang, context, msgid) -> the catalog's text
_LOCK = threading.Lock()


def translations(lang: str) -> Translations:
    """The compiled catalog of ``lang`` (an unknown language gets the default, Russian), built once."""
    if lang not in LANGS:
        lang = DEFAULT_LANG
    found = _TRANSLATIONS.get(lang)
    if found is None:
        with _LOCK:
            found = _TRANSLATIONS.get(lang)
            if found is None:
                found = _TRANSLATIONS[lang] = _compile(lang)
    return found


def gettext(lang: str, message: str) -> str:
    """``message`` (an English msgid) in ``lang``."""
    return str(translations(lang).gettext(message))


def pgettext(lang: str, context: str, message: str) -> str:
    """``message`` in ``lang`` as the catalog translates it in ``context``."""
    return str(translations(lang).pgettext(context, message))


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in ``lang``."""
    return str(translations(lang).ngettext(singular, plural, n))


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without translating it (for tables translated later)."""
    return message


def render(value: Any, lang: str) -> Any:
    """A parameter as it goes into a message: a :class:`Text` rendered in ``lang``, anything else as it is."""
    return value.render(lang) if isinstance(value, Text) else value


@dataclass(frozen=True, slots=True)
class Text:
    """A message to show: an English ``msgid`` with ``%(name)s`` placeholders, its ``params``, and optionally a
    ``context`` (msgctxt) and a ``plural`` chosen by the count ``n``. It renders in any language on demand and
    compares by value, so a refusal's reason can be tested without reading either language."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)
    context: str | None = None
    plural: str | None = None
    n: int = 0

    def template(self, lang: str) -> str:
        """The catalog's text of this message in ``lang``, its placeholders not yet filled (looked up once per
        language: the catalogs do not change while the process runs)."""
        if self.plural is None:
            key = (lang, self.context, self.msgid)
            found = _TEMPLATES.get(key)
            if found is None:
                found = _TEMPLATES[key] = self._lookup(lang)
            return found
        return self._lookup(lang)

    def _lookup(self, lang: str) -> str:
        tr = translations(lang)
        if self.plural is not None:
            if self.context is not None:
                return str(tr.npgettext(self.context, self.msgid, self.plural, self.n))
            return str(tr.ngettext(self.msgid, self.plural, self.n))
        if self.context is not None:
            return str(tr.pgettext(self.context, self.msgid))
        return str(tr.gettext(self.msgid))

    def render(self, lang: str) -> str:
        """The message in ``lang`` ("ru" or "en"), its parameters filled (a :class:`Text` parameter in ``lang``
        too)."""
        template = self.template(lang)
        if not self.params:
            return template
        return template % {key: value.render(lang) if type(value) is Text else value
                           for key, value in self.params.items()}

    def __str__(self) -> str:
        return self.render("en")

    def to_json(self) -> dict[str, str]:
        """Both languages, as the API's error bodies carry them."""
        return {"en": self.render("en"), "ru": self.render("ru")}


def msg(msgid: str, /, **params: Any) -> Text:
    """A message: ``msg("Player %(seat)s has left the table.", seat=3)``."""
    return Text(msgid, params)


def pmsg(context: str, msgid: str, /, **params: Any) -> Text:
    """A message translated in ``context`` (``pmsg("role", "Don")``): one English word, several meanings."""
    return Text(msgid, params, context=context)


def nmsg(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A message whose words follow the count ``n`` (given to the placeholders as ``n`` too)."""
    return Text(singular, {"n": n, **params}, plural=plural, n=n)


def npmsg(context: str, singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """:func:`nmsg` in a context."""
    return Text(singular, {"n": n, **params}, context=context, plural=plural, n=n)


def verbatim(text: str) -> Text:
    """A text that is the same in every language (a name, a number): no catalog entry, shown as it is."""
    return Text("%(text)s", {"text": text})


def join(parts: list[Text] | tuple[Text, ...], separator: str = ", ") -> Text:
    """Several messages shown one after another, each in the viewer's language."""
    params = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(separator.join(f"%(p{i})s" for i in range(len(parts))), params)


def reset_cache() -> None:
    """Forget the compiled catalogs (a test that edits a catalog reads it again)."""
    with _LOCK:
        _TRANSLATIONS.clear()
        _TEMPLATES.clear()

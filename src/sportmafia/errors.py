"""The base of the refusals every layer gives (rule sets, the engine, tournaments, the services): a reason as a
:class:`~sportmafia.i18n.Text` (a msgid and its parameters, the words in the catalogs), shown in the viewer's
language by the layer that shows it."""

from __future__ import annotations

from typing import cast

from .i18n import Text


class _Pair:
    """TRANSITIONAL: a reason still written inline in both languages (removed once every caller passes a Text)."""

    def __init__(self, en: str, ru: str) -> None:
        self.en, self.ru = en, ru

    def render(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "ru": self.ru}


def as_text(text: Text | str, ru: str | None = None) -> Text:
    """TRANSITIONAL: a Text (or a pair made before) as it is; an English and a Russian string as a pair."""
    if isinstance(text, Text | _Pair):
        return text
    return cast(Text, _Pair(text, ru if ru is not None else text))


class BilingualError(ValueError):
    """A refusal whose reason is ``text`` (a :class:`Text`); ``str(error)`` is ``prefix`` and the English."""

    def __init__(self, text: Text | str, ru: str | None = None, *, prefix: str = "") -> None:
        self.text = as_text(text, ru)
        self.prefix = prefix
        super().__init__(text)

    def __str__(self) -> str:
        return self.prefix + self.text.render("en")

    def message(self, lang: str = "en") -> str:
        """The reason in ``lang`` ("ru" or "en")."""
        return str(self.text.render(lang))

    @property
    def message_en(self) -> str:
        return self.message("en")

    @property
    def message_ru(self) -> str:
        return self.message("ru")

"""The base of the refusals every layer gives (rule sets, the engine, tournaments, the services): a reason as a
:class:`~sportmafia.i18n.Text` (a msgid and its parameters, the words in the catalogs), shown in the viewer's
language by the layer that shows it."""

from __future__ import annotations

from .i18n import Text


class BilingualError(ValueError):
    """A refusal whose reason is ``text`` (a :class:`Text`, rendered in either language on demand);
    ``str(error)`` is ``prefix`` and the English."""

    def __init__(self, text: Text, *, prefix: str = "") -> None:
        self.text = text
        self.prefix = prefix
        super().__init__(text)

    def __str__(self) -> str:
        return self.prefix + self.text.render("en")

    def message(self, lang: str = "en") -> str:
        """The reason in ``lang`` ("ru" or "en"; another language gets the default, Russian)."""
        return self.text.render(lang)

    @property
    def message_en(self) -> str:
        return self.message("en")

    @property
    def message_ru(self) -> str:
        return self.message("ru")

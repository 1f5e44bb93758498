"""The base of the refusals whose reason is given in English and Russian (rule sets, tournaments)."""

from __future__ import annotations


class BilingualError(ValueError):
    """A refusal with its reason in English (``message_en``, also ``str(error)``) and Russian."""

    def __init__(self, message_en: str, message_ru: str, *, prefix: str = "") -> None:
        super().__init__(prefix + message_en)
        self.message_en = message_en
        self.message_ru = message_ru

    def message(self, lang: str = "en") -> str:
        """The reason in ``lang`` ("ru" or "en")."""
        return self.message_ru if lang == "ru" else self.message_en

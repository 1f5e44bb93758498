"""The services' refusals: a domain error with a kind, a code and the reason in English and Russian. The web
layer answers it with the HTTP status of its kind (``web/errors.py``, ``REFUSAL_STATUS``); a refused request
writes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import BilingualError
from ..i18n import Text

KINDS = ("not-found", "forbidden", "conflict", "invalid", "busy")
"""What a refusal says of the request: what it names does not exist (or is not the user's to see), the user may
not do it, the state does not allow it now, the request itself is not valid, or the server has no room for it
now (the lab's runs)."""


class Refusal(BilingualError):
    """A request a service refuses: its ``kind`` (one of :data:`KINDS`), ``code`` (finer: ``bad-seating``,
    ``pending-sheets``, ...), the reason (a ``Text``, shown in either language), the rulebook ``clause`` if one decides it;
    ``extra`` is added to the error body (e.g. the line number of a bad file)."""

    def __init__(self, kind: str, code: str, text: Text, *,
                 extra: Mapping[str, Any] | None = None, clause: str | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"a refusal's kind is one of {', '.join(KINDS)}, not {kind!r}")
        super().__init__(text)
        self.kind = kind
        self.code = code
        self.extra = dict(extra or {})
        self.clause = clause


def invalid(code: str, text: Text, **extra: Any) -> Refusal:
    """The request is not valid (its data, its settings)."""
    return Refusal("invalid", code, text, extra=extra)


def conflict(code: str, text: Text, **extra: Any) -> Refusal:
    """The state does not allow the request now."""
    return Refusal("conflict", code, text, extra=extra)


def refusal_from(exc: BilingualError, code: str, kind: str = "invalid") -> Refusal:
    """A pure layer's bilingual error (a rule set's, the tournament modules') as a refusal."""
    return Refusal(kind, code, exc.text, clause=getattr(exc, "clause", None))

"""What the OpenAPI schema says of the answers every route may give besides its own: the API's one error shape
(``errors.error_body``) for each status the edge, the session, the checks and the rules answer with, and the
media types of the downloads. The schema describes the real answers, so that clients and the schema-driven
fuzzer (tests/web/test_fuzz.py) can trust it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class ErrorDetail(BaseModel):
    """An error: its code, the rulebook clause when a rule refused, and the reason in English and Russian."""

    model_config = ConfigDict(extra="allow")
    code: str
    clause: str | None = None
    en: str
    ru: str


class ErrorOut(BaseModel):
    """``{"error": {...}}``, with a few errors' own extra fields beside it (``details``, ``line``...)."""

    model_config = ConfigDict(extra="allow")
    error: ErrorDetail


_STATUSES = {
    400: "The request could not be read.",
    401: "Not logged in (or the token is not valid).",
    403: "Not allowed for this account, or the CSRF token is missing or wrong.",
    404: "Not found (or not this club's).",
    405: "The method is not allowed here.",
    409: "Refused by the rules or by the state (a stale seq, a locked game, a name taken).",
    413: "The request body is too large.",
    422: "The request is not valid: the reason, in English and Russian.",
    429: "Too many attempts: wait the Retry-After seconds.",
}

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": description} for status, description in _STATUSES.items()}
"""``FastAPI(responses=...)``: every operation may answer these (its own 422 replaces FastAPI's shape)."""


def download(media_type: str, description: str) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route whose 200 is a file of ``media_type``."""
    return {200: {"description": description, "content": {media_type: {"schema": {"type": "string"}}}}}

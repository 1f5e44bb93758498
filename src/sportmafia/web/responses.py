"""What the OpenAPI schema says of the answers every route may give besides its own: the API's one error shape
(``errors.error_body``) for each status the edge, the session, the checks and the rules answer with, and the
media types of the downloads. The schema describes the real answers, so that clients and the schema-driven
fuzzer (tests/web/test_fuzz.py) can trust it."""

from __future__ import annotations

from collections.abc import Callable
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

_ERROR_REF = {"$ref": "#/components/schemas/ErrorOut"}
_FASTAPI_422 = ("HTTPValidationError", "ValidationError")


def document_errors(build: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` from FastAPI's own ``build``: every operation may answer each of ``_STATUSES`` with
    ``ErrorOut`` (an operation's own answer for a status stays; the 422 replaces FastAPI's shape, whose schemas
    are dropped). Added to the schema once it is built, not as ``FastAPI(responses=...)``: those would be
    response fields of every route (nine pydantic adapters each, some 1,200 an app) built on the app's first
    request, though only the schema reads them."""
    done: dict[str, Any] = {}

    def openapi() -> dict[str, Any]:
        if not done:
            schema = build()
            for operations in schema.get("paths", {}).values():
                for operation in operations.values():
                    answers = operation.setdefault("responses", {})
                    if "HTTPValidationError" in str(answers.get("422")):
                        del answers["422"]
                    for status, description in _STATUSES.items():
                        answers.setdefault(str(status), {
                            "description": description, "content": {"application/json": {"schema": _ERROR_REF}}})
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            for name in _FASTAPI_422:
                schemas.pop(name, None)
            shape = ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}", mode="serialization")
            schemas.update(shape.pop("$defs", {}))  # ErrorDetail
            schemas["ErrorOut"] = shape
            done["schema"] = schema
        out: dict[str, Any] = done["schema"]
        return out

    return openapi


def download(media_type: str, description: str) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route whose 200 is a file of ``media_type``."""
    return {200: {"description": description, "content": {media_type: {"schema": {"type": "string"}}}}}

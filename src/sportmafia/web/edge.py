"""What every request must be at the edge, before a route reads it: ids within the database's integer type, and
text without control characters (docs/api.md, "Ids and text").

- **Ids.** SQLite stores integers of at most 2^63 - 1 and PostgreSQL's ``integer`` columns at most 2^31 - 1: a
  larger id reached the database and answered 500. Every integer id in a path, a query or a body is an ``Id``
  (1 to 2^31 - 1), and no number in a JSON body may be larger than that in size (422 ``out-of-range``).
- **Text.** PostgreSQL refuses a NUL character in a text column (500), and other control characters in a name
  or a command id are never meant. Any C0 control character (U+0000 to U+001F) in a path or a query, and any
  but tab, line feed and carriage return in a JSON body's strings (keys included) or an uploaded file's cells,
  is refused with 422 ``bad-text``.

``check_request`` is an app-wide dependency (``FastAPI(dependencies=...)``); it reads the JSON body that
FastAPI has already read (Starlette keeps it on the request)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import Field
from starlette.requests import HTTPConnection, Request

from ..i18n import msg
from .errors import ApiError

MAX_ID = 2**31 - 1
"""The largest id (PostgreSQL's ``integer``); also the largest number a JSON body may carry."""

Id = Annotated[int, Field(ge=1, le=MAX_ID)]
"""An id in a request body."""


def path_id(description: str) -> Any:
    """``Annotated[int, path_id("...")]``: an id in a path."""
    return Path(ge=1, le=MAX_ID, description=description)


SeatNo = Annotated[int, Path(ge=1, le=MAX_ID, description="The seat's number.")]
RequestNo = Annotated[int, Path(ge=1, le=MAX_ID, description="The join request's id.")]


def query_number(description: str, ge: int = 0) -> Any:
    """A number in a query (a seq, a count): within the same bound as ids."""
    return Query(ge=ge, le=MAX_ID, description=description)


_LINE_CONTROL = re.compile(r"[\x00-\x1f]")
_TEXT_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def bad_text(where: str, char: str) -> ApiError:
    code = f"U+{ord(char):04X}"
    return ApiError(422, "bad-text", msg("%(where)s: the control character %(code)s is not allowed in text.",
                                         where=where, code=code), extra={"where": where})


def out_of_range(where: str) -> ApiError:
    return ApiError(422, "out-of-range", msg("%(where)s: the number is out of range (at most %(max)s in size).",
                                             where=where, max=MAX_ID), extra={"where": where})


def check_line(where: str, value: str) -> None:
    """A one-line text (a path, a query): no control character at all."""
    found = _LINE_CONTROL.search(value)
    if found:
        raise bad_text(where, found.group())


def check_text(where: str, value: str) -> None:
    """A text that may hold tabs and line breaks (a body's strings, a file's cells)."""
    found = _TEXT_CONTROL.search(value)
    if found:
        raise bad_text(where, found.group())


def check_cells(where: str, cells: Iterable[str | None]) -> None:
    for cell in cells:
        if cell is not None:
            check_text(where, cell)


def check_json(value: Any, where: str = "body") -> None:
    """Every string (keys too) and number of a parsed JSON document."""
    if isinstance(value, str):
        check_text(where, value)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int | float):
        if abs(value) > MAX_ID:
            raise out_of_range(where)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(where, key)
            check_json(item, f"{where}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            check_json(item, f"{where}.{n}")


async def check_request(connection: HTTPConnection) -> None:
    """The app-wide dependency: the path, the query and a JSON body (see the module's doc)."""
    for key, value in connection.path_params.items():
        check_line(f"path.{key}", str(value))
    for key, value in connection.query_params.multi_items():
        check_line("query", key)
        check_line(f"query.{key}", value)
    if not isinstance(connection, Request) or connection.method in ("GET", "HEAD"):
        return
    if "json" not in connection.headers.get("content-type", ""):
        return
    body = await connection.body()  # already read by FastAPI for the route's body: kept on the request
    if not body:
        return
    try:
        doc = json.loads(body)
    except ValueError:
        return  # FastAPI answers 422 for a body that is not JSON
    check_json(doc)

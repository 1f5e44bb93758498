"""The one JSON codec of commands and events: frozen dataclasses with a ``type`` to and from plain JSON.

The JSON form is ``{"type": ..., field: value, ...}`` with every field in declaration order; tuples become
lists (a tuple of pairs, a list of pairs). Reading refuses unknown types, unknown fields, missing fields
(those without a default) and values of the wrong kind, with a ``ValueError`` naming what is wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any


class _Spec:
    """One class's fields, worked out once: their names in order, which are tuples of pairs, and per field
    (annotation text, optional?, required?)."""

    __slots__ = ("fields", "names", "pairs")

    def __init__(self, cls: type[Any]) -> None:
        fields = dataclasses.fields(cls)
        self.names = tuple(f.name for f in fields)
        self.pairs = frozenset(f.name for f in fields if str(f.type).startswith("tuple[tuple"))
        self.fields = {
            f.name: (str(f.type), "None" in str(f.type),
                     f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
            for f in fields
        }


_SPECS: dict[type[Any], _Spec] = {}


def _spec(cls: type[Any]) -> _Spec:
    spec = _SPECS.get(cls)
    if spec is None:
        spec = _SPECS[cls] = _Spec(cls)
    return spec


def to_json(value: Any) -> dict[str, Any]:
    """A command's or an event's JSON form."""
    spec = _SPECS.get(type(value)) or _spec(type(value))
    out: dict[str, Any] = {"type": value.type}
    pairs = spec.pairs
    for name in spec.names:
        v = getattr(value, name)
        if isinstance(v, tuple):
            v = [list(p) for p in v] if name in pairs else list(v)
        out[name] = v
    return out


def from_json(kinds: Mapping[str, type[Any]], data: Any, what: str) -> Any:
    """Parse the JSON form of one of ``kinds`` (type name -> class); ``what`` names it in errors."""
    if not isinstance(data, dict):
        raise ValueError(f"{'an' if what[0] in 'aeiou' else 'a'} {what} is a JSON object")
    name = data.get("type")
    cls = kinds.get(name) if isinstance(name, str) else None
    if cls is None or not isinstance(name, str):
        raise ValueError(f"unknown {what} type {name!r}")
    fields = _spec(cls).fields
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        spec = fields.get(key)
        if spec is None:
            raise ValueError(f"{name}: unknown field {key!r}")
        kwargs[key] = _coerce(name, key, spec[0], spec[1], value)
    missing = [f for f, (_, _, required) in fields.items() if required and f not in kwargs]
    if missing:
        raise ValueError(f"{name}: missing field {missing[0]!r}")
    return cls(**kwargs)


def _coerce(kind: str, key: str, text: str, optional: bool, value: Any) -> Any:
    if value is None:
        if optional:
            return None
        raise ValueError(f"{kind}.{key}: must not be null")
    if text.startswith("tuple[tuple"):
        if not isinstance(value, list | tuple) or not all(
            isinstance(p, list | tuple) and len(p) == 2 and all(_is_int(x) for x in p) for p in value
        ):
            raise ValueError(f"{kind}.{key}: expected a list of pairs of whole numbers")
        return tuple((int(a), int(b)) for a, b in value)
    if text.startswith("tuple"):
        if not isinstance(value, list | tuple):
            raise ValueError(f"{kind}.{key}: expected a list")
        want_int = "int" in text
        for v in value:
            if want_int and not _is_int(v):
                raise ValueError(f"{kind}.{key}: expected whole numbers")
            if not want_int and not isinstance(v, str):
                raise ValueError(f"{kind}.{key}: expected strings")
        return tuple(value)
    if text.startswith("int"):
        if not _is_int(value):
            raise ValueError(f"{kind}.{key}: expected a whole number")
        return value
    if text.startswith("bool"):
        if not isinstance(value, bool):
            raise ValueError(f"{kind}.{key}: expected true or false")
        return value
    if not isinstance(value, str):
        raise ValueError(f"{kind}.{key}: expected a string")
    return value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)

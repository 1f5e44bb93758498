"""The handshake's guard of every socket (``/ws/games/{id}``, ``/ws/play``, ``/ws/watch/{code}``): the page that
opens it must be this site's (docs/security.md). What a socket does with its client's messages afterwards,
and its limits, is the live layer's (``sportmafia.live.guard``)."""

from __future__ import annotations

from urllib.parse import urlsplit


def origin_matches(origin: str | None, host: str | None) -> bool:
    """Whether the page that opened the socket is this site: Origin's host and port equal the Host header's."""
    if not origin or not host or origin == "null":
        return False
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    default = 443 if parts.scheme == "https" else 80
    want = f"{parts.hostname}:{port or default}"
    try:
        h = urlsplit("//" + host)
        host_port = h.port
    except ValueError:
        return False
    if not h.hostname:
        return False
    return want.lower() == f"{h.hostname}:{host_port or default}".lower()

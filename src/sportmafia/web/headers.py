"""The security headers of every HTTP answer (docs/deploy.md, "Headers"), from one ASGI middleware.

- ``Content-Security-Policy``: scripts, styles, images, fonts and connections only from the server itself (the
  pages load the vendored scripts and styles under ``/static``; their data travels in ``application/json``
  script blocks, which are never run); no plugins, no ``<base>``, forms post only here; and
  ``frame-ancestors 'none'`` (no other site may frame a page: clickjacking), except the stream overlay
  ``/overlay/{code}``, which streamers embed in OBS and other sites (``frame-ancestors *``, and no
  ``X-Frame-Options``).
- ``X-Frame-Options: DENY`` (the same for older browsers), ``X-Content-Type-Options: nosniff``.
- ``Referrer-Policy: same-origin``; ``no-referrer`` on the pages whose address holds a secret (a seat's link
  ``/play/{token}``, a stream link ``/stream/{token}``), so that the token is not even sent to this server's
  own scripts and styles, where a proxy's access log would keep it."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'")
FRAMEABLE = ("/overlay/",)
"""Pages other sites may frame: the stream overlay."""
SECRET_PAGES = ("/play/", "/stream/")
"""Pages whose address holds a token."""


def _headers(frameable: bool, secret: bool) -> list[tuple[bytes, bytes]]:
    policy = POLICY + ("; frame-ancestors *" if frameable else "; frame-ancestors 'none'")
    out = [(b"content-security-policy", policy.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer" if secret else b"same-origin")]
    if not frameable:
        out.append((b"x-frame-options", b"DENY"))
    return out


_PLAIN = _headers(False, False)
_OVERLAY = _headers(True, False)
_SECRET = _headers(False, True)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    if path.startswith(FRAMEABLE):
        return _OVERLAY
    if path.startswith(SECRET_PAGES):
        return _SECRET
    return _PLAIN


class SecurityHeadersMiddleware:
    """Adds ``security_headers(path)`` to every HTTP answer (replacing any of the same name), except a
    ``Content-Security-Policy`` the route set itself: a chart image's stricter one (``web/charts.py``:
    ``default-src 'none'; sandbox``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                own = message.get("headers", [])
                added = extra
                if any(k.lower() == b"content-security-policy" for k, _ in own):
                    added = [(k, v) for k, v in extra if k != b"content-security-policy"]
                dropped = {name for name, _ in added}
                headers = [(k, v) for k, v in own if k.lower() not in dropped]
                message = {**message, "headers": headers + added}
            await send(message)

        await self.app(scope, receive, send_with_headers)

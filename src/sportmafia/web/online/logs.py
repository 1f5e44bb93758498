"""The access log of online play: the only URLs that hold a token are the pages ``/play/{token}`` and
``/stream/{token}``, and :class:`TokenLogFilter` masks them; :class:`SocketAccessFilter` drops the line per socket
opened (docs/online.md)."""

from __future__ import annotations

import logging
import re

_SECRET_PATH = re.compile(r"(/(?:play|stream)/)[^/?#\s\"]+")


def mask(text: str) -> str:
    """A path or log line with the tokens of ``/play/{token}`` and ``/stream/{token}`` replaced by ``***``."""
    return _SECRET_PATH.sub(r"\1***", text)


class TokenLogFilter(logging.Filter):
    """Masks the tokens in log records (uvicorn's access log prints every request's path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(mask(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        return True


_FILTER = TokenLogFilter()


class SocketAccessFilter(logging.Filter):
    """Drops uvicorn's access line for each socket opened or refused (``'... - "WebSocket /ws/play" [accepted]'``,
    logged at info level on ``uvicorn.error``): every new game of an online table opens one per seat and
    spectator, thousands of lines per round of games, each formatted and written on the event loop. They are
    access-log lines, so the server keeps them only with ``--access-log`` (``sportmafia serve``); the app's own
    warnings about refused links stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno <= logging.INFO and isinstance(record.msg, str)
                    and record.msg.startswith('%s - "WebSocket %s"'))


SOCKET_ACCESS_FILTER = SocketAccessFilter()


def install_log_filter() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


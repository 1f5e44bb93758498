"""The hub's fallback while it has no Redis link (docs/online.md, "The live layer"): Redis restarted or
unreachable, or several processes on one database without Redis. Every ``POLL_SECONDS`` the process reads, for
all the games its sockets follow at once, what Redis would have told it:

- the games' heads (one read for all of them, ``Store.heads``): a game another process moved on wakes its
  sockets here, as a notification through Redis would have;
- the games' claims (one read: a count per game), whose new ones the sockets then read;
- the join requests of the games whose host's console is open here (one read, ``request_marks``): a change
  tells those consoles to ask for the requests again;
- and every socket re-checks its authorisation at once (``Subscriber.recheck``: a seat's link revoked, a login
  session ended, a table code passed to another game), with the reads shared per game, per code and per
  session (``Feeds.shared``, ``Sessions.alive``): one read per game per period per process, however many
  sockets follow the game.

When the link is back (``Hub.linked``), the rounds stop; the hub's listener has every socket re-read its game's
head once (``Hub.wake_all``). A round that fails (the database not answering either) is logged once and tried
again at the next period."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ..store import Store, unavailable
from ..store import online as db
from ..store.claims import claim_counts

if TYPE_CHECKING:
    from .hub import Hub, Subscriber

POLL_SECONDS = 1.0
"""The period of the fallback's reads while the hub has no Redis link."""

log = logging.getLogger("sportmafia.live")


class Poller:
    """The fallback rounds of one hub, on ``store`` (see the module's text)."""

    def __init__(self, hub: Hub, store: Store, period: float = POLL_SECONDS) -> None:
        self.hub, self.store, self.period = hub, store, period
        self.rounds = 0
        self._marks: dict[str, tuple[int, int, int] | None] = {}
        self._failing = False

    async def run(self) -> None:
        """Until cancelled: a round every period while the hub is not linked to Redis."""
        while True:
            await asyncio.sleep(self.period)
            if not self.hub.polling:
                self._marks.clear()
                continue
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self._failing:
                    self._failing = True
                    level = logging.WARNING if unavailable(exc) else logging.ERROR
                    log.log(level, "live: reading the heads of the followed games failed (%s: %s); retrying every"
                            " %.1f s", type(exc).__name__, " ".join(str(exc).split())[:300], self.period)
            else:
                if self._failing:
                    log.info("live: reading the heads of the followed games works again")
                self._failing = False

    async def round(self) -> None:
        """One round: the heads, the join requests, every socket's authorisation re-checked."""
        groups = self.hub.followed()
        if not groups:
            return
        self.rounds += 1
        heads = await asyncio.to_thread(self.store.heads, list(groups))
        for game_id, head in heads.items():
            if head > self.hub.known_head(game_id):
                self.hub.moved_elsewhere(game_id, head)
        for game_id, count in (await asyncio.to_thread(claim_counts, self.store, list(groups))).items():
            self.hub.claims_elsewhere(game_id, count)
        hosts = [game_id for game_id, subs in groups.items() if any(sub.host for sub in subs)]
        marks: dict[str, Any] = await asyncio.to_thread(db.request_marks, self.store, hosts) if hosts else {}
        for game_id in hosts:
            mark = marks.get(game_id)
            if game_id in self._marks and self._marks[game_id] != mark:  # the first read only takes note
                self.hub.tell_hosts_here(game_id, {"type": "requests"})
            self._marks[game_id] = mark
        for game_id in [g for g in self._marks if g not in groups]:
            del self._marks[game_id]
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscriber]] = {}
        for subs in groups.values():
            for sub in subs:
                by_loop.setdefault(sub.loop, []).append(sub)
        for loop, batch in by_loop.items():
            loop.call_soon_threadsafe(_recheck, batch)


def _recheck(subs: list[Subscriber]) -> None:
    for sub in subs:
        sub.recheck = True
        sub.wake.set()

"""The live layer (docs/online.md, "The live layer"): between the services and the web. After an append
commits, a signal wakes that game's connections (:mod:`.hub`, across processes through Redis pub/sub); one
generic socket stack (:mod:`.socket`) renders what each viewer may see (:mod:`.render`) for the host's
console and the table view (:mod:`.console`), the players and the spectators (:mod:`.online`); a
reconnecting client resumes from its own cursor. The log in the database is the truth, the signal only a
wake-up. :mod:`.guard` keeps every socket's limits, :mod:`.writes` the write-concurrency policy.

The web layer authenticates (sessions, cookies, links, table codes) and hands this layer a viewer; nothing
here imports ``sportmafia.web``.
"""

from .hub import Hub, Subscriber, app_state, get_hub
from .render import dumps, feed_message, payload
from .writes import run_batched, run_reader, run_writer

__all__ = ["Hub", "Subscriber", "app_state", "dumps", "feed_message", "get_hub", "payload", "run_batched", "run_reader",
           "run_writer"]

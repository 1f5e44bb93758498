"""The serving process's garbage collector (``sportmafia serve``, its workers, and the benches that stand in
for them): what lives as long as the process moved out of the full collections' walk, young collections made
rarer, and a keeper thread that freezes what lives and collects everything now and then (docs/online.md)."""

from __future__ import annotations

import gc
import threading
import time

GC_YOUNG_THRESHOLD = 50_000
GC_FREEZE_SECONDS = 30
GC_FULL_SECONDS = 3600


def gc_keeper(freeze_every: float = GC_FREEZE_SECONDS, full_every: float = GC_FULL_SECONDS,
              rounds: int | None = None) -> None:
    """Keep full garbage collections short: every ``freeze_every`` seconds what is alive (the open sockets, the
    games followed, the caches) is frozen, so a full collection walks only what lived through the last period;
    the server makes almost no cyclic garbage (a few dozen objects per collection, measured), and once every
    ``full_every`` seconds everything is unfrozen and collected in one pause (~0.1 s per 1,000 open sockets)."""
    last_full = time.monotonic()
    while rounds is None or rounds > 0:
        if rounds is not None:
            rounds -= 1
        time.sleep(freeze_every)
        if time.monotonic() - last_full >= full_every:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        gc.freeze()


def tune_gc() -> None:
    """The garbage collector stops every request and socket while it runs. What is alive now (the modules, the
    app, its routes and templates) lives as long as the process: moved out of its reach, a full collection
    walks only what the games and sockets make. Young collections are made rarer (every 50,000 new objects
    rather than 700): fewer objects of requests in flight are promoted, so full collections, whose pause grows
    with every open socket (~130 ms at 850 sockets), come far more seldom (bench/online.py, docs/online.md).
    Called once per serving process, when its app is built (called again, it freezes what is alive now and
    starts no second keeper)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 10)
    if not any(t.name == "sportmafia-gc" for t in threading.enumerate()):
        threading.Thread(target=gc_keeper, name="sportmafia-gc", daemon=True).start()

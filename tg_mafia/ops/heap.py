"""The process's long-lived objects out of the garbage collector's way.

A bot process is mostly its imports and its applications (PTB, SQLAlchemy, tornado, the
catalogues): hundreds of thousands of objects that live as long as it does and that
every full collection walked again, holding the event loop and a press's answer with
it. Frozen once the bot runs, they are never walked again; what the games make later
(nothing of a game lives in memory between updates) is collected as before.
load.py, 1,000 games, 330 updates/s by webhook: popup p99 766 ms without, 302 with."""

from __future__ import annotations

import gc


def settle() -> int:
    """Collects once, then freezes what is left; returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()

"""The process's long-lived objects out of the garbage collector's way.

A bot process is mostly its imports and its application (PTB, SQLAlchemy, tornado, the
catalogues): hundreds of thousands of objects that live as long as it does and that
every full collection walked again. At 1,000 games such a collection held the event
loop for up to 78 ms, and a press's answer with it (docs/benchmarks.md). Frozen once
the bot runs, they are never walked again; what the games make later (nothing of a game
lives in memory between updates) is collected as before."""

from __future__ import annotations

import gc


def settle() -> int:
    """Collects once, then freezes what is left; returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()

"""The bot's long-lived objects are frozen once it runs (tg_mafia/ops/heap.py)."""

from __future__ import annotations

import gc

from tg_mafia.ops import heap


def test_settle_freezes_what_exists_and_collects_what_comes_after() -> None:
    threshold = gc.get_threshold()
    try:
        before = gc.get_freeze_count()
        frozen = heap.settle()
        assert frozen == gc.get_freeze_count() > before
        assert gc.get_threshold() == (heap.YOUNG, *threshold[1:])
        # A cycle made afterwards is still collected.
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)

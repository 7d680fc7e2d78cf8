"""Inline keyboards that fit a phone: at most three names a row, the seat
number in front of each name. Built as data (ops.Keyboard), to be stored
in the outbox."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Sequence

from tg_mafia.render.calls import ButtonData, Keyboard, callback
from tg_mafia.render.texts.table import Table

ROW = 3
# What a phone shows of a label, in columns (an emoji is 2): beside another
# button on its row, and alone on its row.
SHARED_ROW_COLUMNS = 20
ALONE_COLUMNS = 36


def width(label: str) -> int:
    """How wide a phone draws `label`: grapheme clusters (a letter with its
    accents, an emoji with its variation selector or joined parts), an emoji 2."""
    total, cluster, joined = 0, "", False
    for char in label:
        extends = unicodedata.combining(char) or char in "\ufe0e\ufe0f" or joined
        if cluster and extends:
            cluster += char
        else:
            total += _cluster_width(cluster)
            cluster = char
        joined = char == "\u200d"
    return total + _cluster_width(cluster)


def _cluster_width(cluster: str) -> int:
    if not cluster:
        return 0
    base = cluster[0]
    wide = unicodedata.east_asian_width(base) in ("W", "F") or unicodedata.category(base) == "So"
    return 2 if wide or "\ufe0f" in cluster else 1


def packed(buttons: Sequence[ButtonData], per_row: int) -> Keyboard:
    """Up to `per_row` buttons a row, in order; a label too wide to share
    its row goes alone on one."""
    rows: Keyboard = []
    for button in buttons:
        alone = width(button["text"]) > SHARED_ROW_COLUMNS
        last = rows[-1] if rows else None
        if alone or last is None or len(last) >= per_row or _alone(last):
            rows.append([button])
        else:
            last.append(button)
    return rows


def _alone(row: list[ButtonData]) -> bool:
    return len(row) == 1 and width(row[0]["text"]) > SHARED_ROW_COLUMNS


def grid(buttons: Sequence[ButtonData], width: int = ROW) -> Keyboard:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


MARK = "✅ "  # a chosen name, where several may be chosen


def players(
    table: Table,
    choices: Sequence[str],
    data: Callable[[str], str],
    extra: Sequence[ButtonData] = (),
    marked: Collection[str] = (),
) -> Keyboard:
    rows = grid(
        [callback((MARK if p in marked else "") + table.button(p), data(p)) for p in choices]
    )
    if extra:
        rows.append(list(extra))
    return rows


def row(*buttons: ButtonData) -> Keyboard:
    return [list(buttons)]


def rows(*lines: Sequence[ButtonData]) -> Keyboard:
    return [list(line) for line in lines if line]

"""Inline keyboards that fit a phone: at most three names a row, the seat
number in front of each name. Built as data (ops.Keyboard), to be stored
in the outbox."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from tg_mafia.bot.ops import ButtonData, Keyboard, callback
from tg_mafia.bot.table import Table

ROW = 3


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

"""Inline keyboards that fit a phone: at most three names a row, the seat
number in front of each name."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from tg_mafia.bot.table import Table

ROW = 3


def grid(
    buttons: Sequence[InlineKeyboardButton], width: int = ROW
) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def players(
    table: Table,
    choices: Sequence[str],
    data: Callable[[str], str],
    extra: Sequence[InlineKeyboardButton] = (),
) -> InlineKeyboardMarkup:
    rows = grid([InlineKeyboardButton(table.button(p), callback_data=data(p)) for p in choices])
    if extra:
        rows.append(list(extra))
    return InlineKeyboardMarkup(rows)


def row(*buttons: InlineKeyboardButton) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([list(buttons)])


def rows(*lines: Sequence[InlineKeyboardButton]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([list(line) for line in lines if line])

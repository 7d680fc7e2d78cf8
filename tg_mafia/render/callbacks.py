"""Callback data: one codec for every button of the bot.

`kind:game:step:args…` in at most 64 bytes (Telegram's limit). `kind` is
one of `Kind`; `game` the game's id (0 where no game is meant: the settings
menu); `step` the engine's step the button was made at (`-` for buttons
valid at any moment: the host's panel, the lobby, the timer), so a stale
press is recognised and changes nothing. Anything that does not parse
strictly is not a button of ours."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

MAX_BYTES: Final = 64
ANY_STEP: Final = "-"
_NUMBER = re.compile(r"[0-9]{1,18}")
_ARG = re.compile(r"[A-Za-z0-9_]{1,24}")
MAX_ARGS: Final = 4


class Kind(StrEnum):
    """What a button does; the value is its code on the wire."""

    NIGHT = "nt"  # move, seat (0: do nothing tonight)
    PLAN = "pl"  # seat to add to the Don's list (0: clear it)
    PASS = "ps"
    NOMINATE_MENU = "nm"  # opens the nomination list in private
    NOMINATE = "no"  # seat
    HAND = "hu"
    LOWER = "hd"
    LEAVE = "lt"  # leave the table
    VOTE = "vt"  # seat
    UNVOTE = "uv"
    DECIDE = "dc"  # seat
    BEST = "bm"  # sport's best move: t (toggle) or d (done), the seats chosen ("3_5"; "0": none)
    TIME = "tm"  # the time left, as a popup
    HOST = "ho"  # pause, resume, extend, skip, confirm
    HOST_WARN_MENU = "hw"
    HOST_WARN = "hx"  # seat
    LOBBY = "lb"  # leave, start, cancel, rules
    NEW_GAME = "ng"
    PROTOCOL = "pr"  # the end screen's: the game's protocol, in private
    SETTINGS = "st"  # the settings menu's own path


# Buttons bound to one step of the game: pressed at another, they are stale.
STEPPED: Final = frozenset(
    {
        Kind.NIGHT,
        Kind.PLAN,
        Kind.PASS,
        Kind.NOMINATE_MENU,
        Kind.NOMINATE,
        Kind.HAND,
        Kind.LOWER,
        Kind.LEAVE,
        Kind.VOTE,
        Kind.UNVOTE,
        Kind.DECIDE,
        Kind.BEST,
    }
)
_KINDS: Final = {kind.value: kind for kind in Kind}


@dataclass(frozen=True, slots=True)
class Button:
    kind: Kind
    game: int
    step: int | None  # None: valid at any step
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        step = ANY_STEP if self.step is None else str(self.step)
        data = ":".join((self.kind.value, str(self.game), step, *self.args))
        if len(data.encode()) > MAX_BYTES or decode(data) != self:
            raise ValueError(f"not valid callback data: {data!r}")
        return data

    def seat(self, index: int = 0) -> int | None:
        """The argument at `index` as a seat number (0 included), if it is one."""
        if index >= len(self.args) or not _NUMBER.fullmatch(self.args[index]):
            return None
        return int(self.args[index])


def decode(data: str | None) -> Button | None:
    """The button `data` names, or None for anything that is not one of ours."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split(":")
    if len(parts) < 3 or len(parts) > 3 + MAX_ARGS:
        return None
    kind = _KINDS.get(parts[0])
    game, step, args = parts[1], parts[2], tuple(parts[3:])
    if kind is None or not _NUMBER.fullmatch(game):
        return None
    if step != ANY_STEP and not _NUMBER.fullmatch(step):
        return None
    if not all(_ARG.fullmatch(arg) for arg in args):
        return None
    return Button(kind, int(game), None if step == ANY_STEP else int(step), args)

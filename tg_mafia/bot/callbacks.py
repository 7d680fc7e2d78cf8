"""Callback data: every button names its game and the stage it belongs to,
so a stale or forged press is recognised and changes nothing. Telegram
allows 1 to 64 bytes."""

from __future__ import annotations

from dataclasses import dataclass

from engine import GameState

MAX_BYTES = 64


@dataclass(frozen=True, slots=True)
class Button:
    kind: str  # one letter: what the button does
    game: int
    token: str  # the stage the button was made for ("-" where it does not matter)
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        data = ":".join((self.kind, str(self.game), self.token, *self.args))
        if not 1 <= len(data.encode()) <= MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data


def decode(data: str | None) -> Button | None:
    """None for anything that is not a button of ours."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split(":")
    if len(parts) < 3 or len(parts[0]) != 1 or not parts[1].isdigit():
        return None
    return Button(parts[0], int(parts[1]), parts[2], tuple(parts[3:]))


def stage_token(state: GameState) -> str:
    """Changes whenever the game moves to another stage, floor or count,
    but not when a host extends or pauses the timer."""
    return (
        f"{state.night}.{state.day}.{state.stage.value[:2]}.{state.floor_index}"
        f".{state.count_index}.{state.vote_round.value[0]}{len(state.last_words)}"
    )

"""Who sits where: seat numbers, names as the table shows them (cut to fit a
phone, never blank, never read as another seat: render/texts/names.py), mentions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from html import escape

from tg_mafia.i18n import Translator, translator
from tg_mafia.render.texts.names import seat_name


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]  # player ids (Telegram user ids as text), in seating order
    names: Mapping[str, str]
    # The language of the game: "Player 5" for a blank name, its quotation marks.
    t: Translator = field(default_factory=lambda: translator(None))

    def seat(self, player: str) -> int:
        number = self._numbers.get(player)
        if number is None:
            raise ValueError(f"{player!r} has no seat at this table")
        return number

    def short(self, player: str) -> str:
        self.seat(player)  # one with no seat: ValueError, as seat() says
        return self._shorts[player]

    # A screen names each player several times (the board, its buttons): once is enough.
    @cached_property
    def _numbers(self) -> dict[str, int]:
        return {player: index + 1 for index, player in enumerate(self.seats)}

    @cached_property
    def _shorts(self) -> dict[str, str]:
        return {
            player: str(seat_name(self.names.get(player, ""), number, self.t))
            for player, number in self._numbers.items()
        }

    def label(self, player: str) -> str:
        """`3 · Olga`, escaped for HTML."""
        return f"{self.seat(player)} · {escape(self.short(player))}"

    def button(self, player: str) -> str:
        """A button label: plain text, no markup."""
        return f"{self.seat(player)} · {self.short(player)}"

    def mention(self, player: str) -> str:
        """A mention that rings the player's phone."""
        return f'<a href="tg://user?id={int(player)}">{self.label(player)}</a>'

    def labels(self, players: Sequence[str], t: Translator) -> str:
        """`1 · Ann, 2 · Ben and 3 · Cat`, joined as the reader's language lists."""
        return t.join(self.label(p) for p in players) or "—"

    def player_at(self, seat: int) -> str | None:
        return self.seats[seat - 1] if 1 <= seat <= len(self.seats) else None

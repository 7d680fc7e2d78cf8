"""Who sits where: seat numbers, names cut to fit a phone, mentions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from tg_mafia.bot.names import cut
from tg_mafia.i18n import Translator


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]  # player ids (Telegram user ids as text), in seating order
    names: Mapping[str, str]

    def seat(self, player: str) -> int:
        return self.seats.index(player) + 1

    def short(self, player: str) -> str:
        return cut(self.names.get(player, "?"))

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

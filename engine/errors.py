"""The one error an illegal action raises."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse. `code` is stable and machine-readable; the
    game it was applied to is left unchanged."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class SetupError(ValueError):
    """A game that cannot be set up: wrong player count, deck, or options."""

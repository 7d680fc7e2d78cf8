"""Who at the table is a person, and which stages are theirs: a stage in
which a person has a move runs at real time (the bot's `own_pace`), so that
the person can read and tap, however fast the simulated players' run."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Views
from engine.actions import MafiaChat, Timeout


def has_a_move(views: Views, player: str) -> bool:
    """`player` may act in this stage: a button to press (their legal moves),
    or (a mafioso on a night the family talks) words to write."""
    if any(not isinstance(action, Timeout) for action in views.legal(player)):
        return True
    return views.refusal(MafiaChat(player, "…")) is None


class People:
    """The seats a person plays (the others autoplay). Read from the bot's
    database thread while the page changes it: the set is replaced, never
    changed in place."""

    def __init__(self, user_ids: Iterable[int]) -> None:
        self.ids: frozenset[int] = frozenset(user_ids)

    def set(self, user_id: int, person: bool) -> None:
        self.ids = self.ids | {user_id} if person else self.ids - {user_id}

    def __contains__(self, user_id: object) -> bool:
        return user_id in self.ids

    def own_stage(self, views: Views) -> bool:
        """A person has a move in this stage."""
        people = self.ids
        # Every seat: the dead have moves too (a farewell, a deciding vote).
        return any(int(seat) in people and has_a_move(views, seat) for seat in views.public.seats)

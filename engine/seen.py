"""What the shell is handed of one state: every audience's view of it (the
public view, a seat's, the team's, the host's, the end's), each built the
first time it is asked for, since a render asks for a few; and what the
engine would take now: the legal moves, everyone's or one seat's, and why
it would refuse an action.

The state stays inside. A message is drawn from the view of the audience
it goes to (a night prompt is the legal moves of one seat, rendered), so
that it can hold nothing that audience may not see."""

from __future__ import annotations

from engine.actions import HOST, Action
from engine.errors import IllegalAction, Reason
from engine.game import apply
from engine.legal import legal_actions
from engine.state import GameState
from engine.views import (
    EndView,
    HostView,
    PlayerView,
    PublicView,
    TeamView,
    end_view,
    host_view,
    player_view,
    public_view,
    team_view,
)


class Views:
    __slots__ = ("_everyone", "_host", "_players", "_public", "_seats", "_state", "_team")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._public: PublicView | None = None
        self._seats: dict[str, PlayerView] = {}
        self._team: TeamView | None = None
        self._host: HostView | None = None
        self._players: tuple[Action, ...] | None = None  # the players' moves
        self._everyone: tuple[Action, ...] | None = None  # and the host's

    @property
    def public(self) -> PublicView:
        if self._public is None:
            self._public = public_view(self._state)
        return self._public

    def seat(self, player: str) -> PlayerView:
        """`player`'s own view (KeyError: not a player of this game)."""
        view = self._seats.get(player)
        if view is None:
            view = self._seats[player] = player_view(self._state, player, self.public)
        return view

    @property
    def team(self) -> TeamView:
        if self._team is None:
            self._team = team_view(self._state)
        return self._team

    @property
    def host(self) -> HostView:
        if self._host is None:
            self._host = host_view(self._state, self.public)
        return self._host

    @property
    def end(self) -> EndView | None:
        """Every role and fate once the game is over; None while it runs."""
        return end_view(self._state)

    def legal(self, actor: str | None = None) -> tuple[Action, ...]:
        """The moves the engine takes now (engine/legal.py): the players'
        (the group's buttons: not the host's), or those of `actor` alone
        (a player, or HOST)."""
        if actor == HOST:
            if self._everyone is None:
                self._everyone = tuple(legal_actions(self._state))
            return tuple(a for a in self._everyone if a.actor == HOST)
        if self._players is None:
            self._players = tuple(legal_actions(self._state, include_host=False))
        if actor is None:
            return self._players
        return tuple(a for a in self._players if a.actor == actor)

    def refusal(self, action: Action) -> Reason | None:
        """Why the engine would refuse `action` now (None: it would take it)."""
        try:
            apply(self._state, action)
        except IllegalAction as error:
            return error.code
        return None

"""The rules of Mafia: pure, typed, no I/O, no clock, no Telegram.

`new_game` sets a game up, `apply` plays one action on it and returns the
new state with the events it caused (each naming its audience); an illegal
action raises `IllegalAction` and changes nothing."""

from engine import events
from engine.actions import HOST, Action, action_from_dict
from engine.errors import IllegalAction, Reason, SetupError
from engine.events import Audience, Event
from engine.game import apply, deal, new_game
from engine.legal import legal_actions, legal_for
from engine.options import OPTION_SPECS, option_specs, resolve_options
from engine.played import Game
from engine.replay import GameSetup, replay
from engine.roles import Role, Side
from engine.seen import Views
from engine.state import FLOOR_STAGES, Cause, FloorMode, GameState, Phase, Stage, VoteRound
from engine.variants import VARIANTS, Variant, find_variant
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

__all__ = [
    "FLOOR_STAGES",
    "HOST",
    "OPTION_SPECS",
    "VARIANTS",
    "Action",
    "Audience",
    "Cause",
    "EndView",
    "Event",
    "FloorMode",
    "Game",
    "GameSetup",
    "GameState",
    "HostView",
    "IllegalAction",
    "Phase",
    "PlayerView",
    "PublicView",
    "Reason",
    "Role",
    "SetupError",
    "Side",
    "Stage",
    "TeamView",
    "Variant",
    "Views",
    "VoteRound",
    "action_from_dict",
    "apply",
    "deal",
    "end_view",
    "events",
    "find_variant",
    "host_view",
    "legal_actions",
    "legal_for",
    "new_game",
    "option_specs",
    "player_view",
    "public_view",
    "replay",
    "resolve_options",
    "team_view",
]

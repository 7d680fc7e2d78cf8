"""What players, the host and the clock can do: small frozen dataclasses.

Every action can be turned into a JSON-able dict and back (`to_dict` /
`from_dict`), so a game is stored as its setup plus its action log."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from engine.errors import Reason
from engine.variants import NightMove

HOST = "host"  # the actor name of a human host
# The actor name of what the chat the game is played in does to it (a suspension).
CHAT = "chat"


@dataclass(frozen=True, slots=True)
class Action:
    verb: ClassVar[str] = ""
    # The reason given when the stage the game is in takes no action of this kind.
    refused: ClassVar[Reason] = Reason.NOT_NOW
    actor: str

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["verb"] = self.verb
        return data


@dataclass(frozen=True, slots=True)
class NightChoice(Action):
    """kill / check / heal / block; `target` None is an explicit skip."""

    verb: ClassVar[str] = "night"
    refused: ClassVar[Reason] = Reason.NOT_NIGHT
    move: NightMove
    target: str | None


@dataclass(frozen=True, slots=True)
class Plan(Action):
    """The Don's ordered kill list for later nights (acquaintance night)."""

    verb: ClassVar[str] = "plan"
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MafiaChat(Action):
    """A private message of a mafioso, relayed to the family at night."""

    verb: ClassVar[str] = "chat"
    text: str


@dataclass(frozen=True, slots=True)
class Say(Action):
    """A post in the group chat."""

    verb: ClassVar[str] = "say"
    text: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    verb: ClassVar[str] = "pass"
    refused: ClassVar[Reason] = Reason.NOT_YOUR_FLOOR


@dataclass(frozen=True, slots=True)
class Nominate(Action):
    verb: ClassVar[str] = "nominate"
    refused: ClassVar[Reason] = Reason.NOT_YOUR_FLOOR
    target: str


@dataclass(frozen=True, slots=True)
class Leave(Action):
    verb: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """The classic live vote and the party ballot."""

    verb: ClassVar[str] = "vote"
    refused: ClassVar[Reason] = Reason.NO_VOTE_NOW
    target: str


@dataclass(frozen=True, slots=True)
class Unvote(Action):
    verb: ClassVar[str] = "unvote"
    refused: ClassVar[Reason] = Reason.NO_VOTE_NOW


@dataclass(frozen=True, slots=True)
class Hand(Action):
    verb: ClassVar[str] = "hand"
    refused: ClassVar[Reason] = Reason.NO_COUNT


@dataclass(frozen=True, slots=True)
class Lower(Action):
    verb: ClassVar[str] = "lower"
    refused: ClassVar[Reason] = Reason.NO_COUNT


@dataclass(frozen=True, slots=True)
class Decide(Action):
    verb: ClassVar[str] = "decide"
    refused: ClassVar[Reason] = Reason.NOT_DECIDER
    target: str


@dataclass(frozen=True, slots=True)
class Best(Action):
    """sport: the best move, one to three players named during the farewell
    of the player killed on night 2."""

    verb: ClassVar[str] = "best"
    refused: ClassVar[Reason] = Reason.NO_BEST_MOVE
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HostWarn(Action):
    verb: ClassVar[str] = "warn"
    target: str


@dataclass(frozen=True, slots=True)
class HostPause(Action):
    verb: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class HostResume(Action):
    verb: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class HostExtend(Action):
    verb: ClassVar[str] = "extend"


@dataclass(frozen=True, slots=True)
class HostSkip(Action):
    verb: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class HostConfirm(Action):
    verb: ClassVar[str] = "confirm"


@dataclass(frozen=True, slots=True)
class Depart(Action):
    """The player left the group, or was removed from it: they leave the
    game at once, as a player out by warnings (no role shown)."""

    verb: ClassVar[str] = "depart"


@dataclass(frozen=True, slots=True)
class Suspend(Action):
    """The game cannot be played where it is (its forum topic was closed, and
    the bot may not reopen it): it stands still until `Unsuspend`, or ends at
    the suspension's limit (engine/suspension.py): `limit` seconds, after
    which the shell's timer fires, as it times every stage."""

    verb: ClassVar[str] = "suspend"
    limit: int


@dataclass(frozen=True, slots=True)
class Unsuspend(Action):
    verb: ClassVar[str] = "unsuspend"


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """The running timer fired. `timer` is the timer's id (state.clock.timer_id)
    when known, so a late timer for a stage the game has left is refused."""

    verb: ClassVar[str] = "timeout"
    timer: int | None = None


ACTION_TYPES: tuple[type[Action], ...] = (
    NightChoice,
    Plan,
    MafiaChat,
    Say,
    Pass,
    Nominate,
    Leave,
    Vote,
    Unvote,
    Hand,
    Lower,
    Decide,
    Best,
    HostWarn,
    HostPause,
    HostResume,
    HostExtend,
    HostSkip,
    HostConfirm,
    Depart,
    Suspend,
    Unsuspend,
    Timeout,
)


def action_from_dict(data: dict[str, Any]) -> Action:
    """The inverse of `Action.to_dict`; a malformed dict raises ValueError."""
    verb = data.get("verb")
    for kind in ACTION_TYPES:
        if kind.verb == verb:
            names = {f.name for f in fields(kind)}
            args = {k: v for k, v in data.items() if k in names}
            if "move" in args:
                args["move"] = NightMove(args["move"])
            if "targets" in args:
                args["targets"] = tuple(args["targets"])
            try:
                return kind(**args)
            except TypeError as error:
                raise ValueError(f"malformed {verb} action: {error}") from None
    raise ValueError(f"unknown action verb {verb!r}")

"""What one render needs and gathers: the game as the bot shows it, the
engine's views of the state before and after an action (engine/seen.py:
never the state itself), and the calls it decides to make.

Group calls come only from public events and the public view; everything
else goes to the private chats of the players the event names (drawn from
their own view), the living mafia (the team's), or the human host. Nothing
else can reach the group: this is how roles stay secret."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine import Views
from engine.events import Event
from tg_mafia.i18n import Translator
from tg_mafia.render.callbacks import Button, Kind
from tg_mafia.render.calls import DEADLINE, RELATIVE_DEADLINE, Op, Priority, Send, Timer
from tg_mafia.render.texts.table import Table
from tg_mafia.render.texts.timefmt import ABSOLUTE, RELATIVE, deadline_html


@dataclass(frozen=True)
class GameView:
    """What the renderers know about a game besides the engine's views."""

    game_id: int
    chat_id: int
    topic: int  # the forum topic the game lives in (0: none)
    title: str
    table: Table
    t: Translator
    host_id: int | None
    can_delete: bool
    deadline: float | None  # the stored deadline of the running stage
    speed: float = 1.0  # the speed of the clock the stage's timer runs on (clock.py)
    mask: str = "chat"  # what the masked night closes: chat, forum (the players'), topic, none
    app_url: str | None = None  # the table's Mini App page (webhook mode); None: no button


@dataclass(frozen=True)
class Outgoing:
    chat_id: int
    op: Op
    priority: int = Priority.GAME
    topic: int = 0


@dataclass
class Scene:
    game: GameView
    views: Views
    before: Views | None = None
    post_message_id: int | None = None  # the player's post that caused this action
    out: list[Outgoing] = field(default_factory=list)
    # Night choices made by this action ("actor:move" -> target): the choice that ends
    # the night is in no state's `choices` (dawn clears them), yet its prompt must keep it.
    chosen: dict[str, str | None] = field(default_factory=dict)

    @property
    def t(self) -> Translator:
        return self.game.t

    @property
    def table(self) -> Table:
        return self.game.table

    # ----- where calls go ----------------------------------------------------------

    def group(self, op: Op) -> None:
        self.out.append(Outgoing(self.game.chat_id, op, topic=self.game.topic))

    def say(self, text: str) -> None:
        """A plain announcement in the group (it may merge with its neighbours)."""
        self.group(Send(text))

    def private(self, player: str | int, op: Op) -> None:
        self.out.append(Outgoing(int(player), op))

    def to_host(self, text: str) -> None:
        if self.game.host_id is not None:
            self.private(self.game.host_id, Send(text))

    def recipients(self, event: Event) -> list[int]:
        """The players a private event is for: named ones, and the living mafia."""
        ids = [int(p) for p in sorted(event.audience.players)]
        if event.audience.mafia:
            ids += [int(p) for p in self.views.team.living]
        return list(dict.fromkeys(ids))

    # ----- buttons and deadlines ----------------------------------------------------

    def data(self, kind: Kind, *args: str | int) -> str:
        """Callback data bound to the game's current step."""
        return Button(
            kind, self.game.game_id, self.views.public.step, tuple(map(str, args))
        ).encode()

    def any_step(self, kind: Kind, *args: str | int) -> str:
        """Callback data valid at any step (the host's panel, the timer)."""
        return Button(kind, self.game.game_id, None, tuple(map(str, args))).encode()

    def seat_data(self, kind: Kind, *prefix: str) -> Callable[[str], str]:
        def data(player: str) -> str:
            return self.data(kind, *prefix, self.table.seat(player))

        return data

    def timer(self) -> Timer | None:
        """The running stage's timer, started by the message that carries it."""
        view = self.views.public
        if view.timer_seconds is None or view.paused:  # paused: by the host, or suspended
            return None
        return Timer(self.game.game_id, str(view.timer_id), view.timer_seconds, self.game.speed)

    def until(self, style: str = ABSOLUTE) -> str:
        """The running stage's deadline as the reader's own time (RELATIVE:
        the time left, which the app keeps counting down): filled in by the
        sender for a message that starts the stage (`timer()`), from the
        stored deadline otherwise."""
        if self.opens_stage():
            return RELATIVE_DEADLINE if style == RELATIVE else DEADLINE
        return self.stored_until(style)

    def stored_until(self, style: str = ABSOLUTE) -> str:
        """The deadline stored with the game (a stage that is over, or goes on)."""
        return deadline_html(self.game.deadline, style) if self.game.deadline else "—"

    def opens_stage(self) -> bool:
        before = self.before
        return before is None or before.public.step != self.views.public.step

"""Renderers of sport Mafia's own events (joined into presenter.RENDERERS):
the zero night's sheriff, fouls, a cancelled vote, the farewell and its
best move, the lift vote and the draw. Group calls come from public events
only; the best-move menu lives in the holder's private chat."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from engine import events as ev
from engine.events import Event
from engine.vocab import CancelledVote
from tg_mafia.render import screens
from tg_mafia.render.calls import Clear, Delete, Edit, Method, Send
from tg_mafia.render.scene import Scene
from tg_mafia.render.texts import sport as sport_texts


def sheriff_seen(scene: Scene, event: ev.SheriffSeen) -> None:
    scene.private(event.player, Send(sport_texts.sheriff_seen(scene.t)))


def fouled(scene: Scene, event: ev.Fouled) -> None:
    scene.say(
        sport_texts.fouled(
            scene.t,
            scene.table,
            event.player,
            event.count,
            event.limit,
            event.reason,
            event.effect,
        )
    )


def vote_cancelled(scene: Scene, event: ev.VoteCancelled) -> None:
    if event.when is CancelledVote.NOW:
        # The running count, re-speech or lift is over: its buttons go.
        for key in (screens.COUNT, screens.LIFT, screens.FLOOR):
            scene.group(Clear(key))
    scene.say(sport_texts.vote_cancelled(scene.t, event.when))


def farewell_given(scene: Scene, event: ev.FarewellGiven) -> None:
    before = scene.before
    if before is not None and before.public.speaker is not None:
        scene.private(before.public.speaker, Clear(screens.NOMINATE))
    scene.group(Delete(key=screens.FLOOR))
    scene.group(screens.floor(scene))


def best_move_asked(scene: Scene, event: ev.BestMoveAsked) -> None:
    op, _ = screens.best_move_menu(scene, event.player, (), Method.SEND)
    if op is not None:
        scene.private(event.player, op)


def best_move_made(scene: Scene, event: ev.BestMoveMade) -> None:
    t, table = scene.t, scene.table
    recorded = sport_texts.best_move_recorded(t, table, event.targets)
    scene.private(event.player, Edit(recorded, key=screens.BEST))
    scene.say(sport_texts.best_move_made(t, table, event.player, event.targets))


def best_move_lapsed(scene: Scene, event: ev.BestMoveLapsed) -> None:
    text = sport_texts.best_move_lapsed(scene.t)
    scene.private(event.player, Edit(text, key=screens.BEST))


def lift_started(scene: Scene, event: ev.LiftStarted) -> None:
    scene.group(Delete(key=screens.FLOOR))
    scene.group(screens.lift(scene, Method.SEND))


def lift_hand_changed(scene: Scene, event: ev.LiftHandChanged) -> None:
    """The presser's popup says it; the group's budget is kept for the result."""


def lift_ended(scene: Scene, event: ev.LiftEnded) -> None:
    text = sport_texts.lift_result(
        scene.t, scene.table, event.candidates, event.voters, event.living, event.leave
    )
    scene.group(Edit(text, key=screens.LIFT))


def drawn(scene: Scene, event: ev.Drawn) -> None:
    scene.say(sport_texts.drawn(scene.t, event.nights))


RENDERERS: Mapping[type[Event], Callable[[Scene, Any], None]] = MappingProxyType(
    {
        ev.SheriffSeen: sheriff_seen,
        ev.Fouled: fouled,
        ev.VoteCancelled: vote_cancelled,
        ev.FarewellGiven: farewell_given,
        ev.BestMoveAsked: best_move_asked,
        ev.BestMoveMade: best_move_made,
        ev.BestMoveLapsed: best_move_lapsed,
        ev.LiftStarted: lift_started,
        ev.LiftHandChanged: lift_hand_changed,
        ev.LiftEnded: lift_ended,
        ev.Drawn: drawn,
    }
)

"""A game whose group became a supergroup: what it showed in the old chat, said again
in the new one with its buttons, at once (not at the next change of each message).

The messages left in the old chat keep their old (chat id, message id), and their
buttons keep acting: a press there, like a join link with the old id, is followed to
the new chat (`Database.moved_to`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import FLOOR_STAGES, PublicView, Stage
from tg_mafia.render import screens
from tg_mafia.render.calls import Edit, Message, Method, Op
from tg_mafia.render.scene import Scene
from tg_mafia.runtime.gameview import game_view, views_of
from tg_mafia.runtime.runner import LOBBY_KEY
from tg_mafia.storage import GameRecord, GameStatus

# What a living group message shows, drawn again from the game as it stands.
Drawing = Callable[[Scene], Message]
DRAWINGS: dict[str, tuple[Callable[[PublicView], bool], Drawing]] = {
    screens.FLOOR: (
        lambda s: s.stage in FLOOR_STAGES and s.speaker is not None,
        lambda scene: screens.floor(scene, Method.EDIT),
    ),
    screens.COUNT: (
        lambda s: s.stage is Stage.VOTE,
        lambda scene: screens.count(scene, Method.EDIT),
    ),
    screens.LIFT: (
        lambda s: s.stage is Stage.LIFT,
        lambda scene: screens.lift(scene, Method.EDIT),
    ),
    screens.BOARD: (
        lambda s: s.stage in (Stage.DISCUSSION, Stage.BALLOT),
        lambda scene: screens.vote_board(scene, Method.EDIT),
    ),
}


def said_again(
    record: GameRecord, keys: Sequence[str], lobby: Callable[[GameRecord], Op], speed: float
) -> list[Op]:
    """The ops that show `record`'s living group messages (`keys`) in its chat again:
    edits of messages the chat does not have, so each is sent anew (and becomes the
    living one). A redraw starts no timer: the stage's stored deadline stands."""
    if record.status is GameStatus.LOBBY:
        return [lobby(record)] if LOBBY_KEY in keys else []
    if record.status is not GameStatus.RUNNING:
        return []
    views = views_of(record)
    scene = Scene(game_view(record, speed), views, before=views)  # opens no stage
    ops: list[Op] = []
    for key in keys:
        drawing = DRAWINGS.get(key)
        if drawing is not None and drawing[0](views.public):
            drawn = drawing[1](scene)
            ops.append(Edit(drawn.text, keyboard=drawn.keyboard, key=drawn.key))
    return ops

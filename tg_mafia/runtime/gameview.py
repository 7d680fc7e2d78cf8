"""A stored game as the shell sees it: the engine's views of its state
(the one place where a stored state becomes views: everything that
renders, answers or shows a game reads these, never the state), and its
table (seats, names, language, rights)."""

from __future__ import annotations

from engine import GameState, Views
from tg_mafia.i18n import translator
from tg_mafia.render.scene import GameView
from tg_mafia.render.texts.table import Table
from tg_mafia.storage import GameRecord


def state_of(record: GameRecord) -> GameState:
    """The whole state, for the move that changes it (runner.py) alone."""
    assert record.state is not None, "a running game has a state"
    return GameState.from_dict(record.state)


def views_of(record: GameRecord) -> Views:
    """What each audience sees of the stored game."""
    return Views(state_of(record))


def table_of(record: GameRecord) -> Table:
    names = {str(p.user_id): p.name for p in record.players}
    return Table(tuple(str(p.user_id) for p in record.players), names, translator(record.language))


def game_view(record: GameRecord, speed: float = 1.0, app_url: str | None = None) -> GameView:
    return GameView(
        game_id=record.id,
        chat_id=record.chat_id,
        topic=record.topic,
        title=record.title,
        table=table_of(record),
        t=translator(record.language),
        host_id=record.host_user_id,
        can_delete=record.bot_rights.get("can_delete_messages", False),
        deadline=record.stage_deadline,
        speed=speed,
        mask=mask_of(record),
        app_url=f"{app_url}?game={record.id}" if app_url else None,
    )


def mask_of(record: GameRecord) -> str:
    """What the night can close in this game's chat, with the bot's rights."""
    rights = record.bot_rights
    if rights.get("forum"):
        if rights.get("can_restrict_members"):
            return "forum"  # the players may post in no topic
        return "topic" if rights.get("can_manage_topics") else "none"
    if rights.get("can_restrict_members") and record.saved_permissions is not None:
        return "chat"
    return "none"

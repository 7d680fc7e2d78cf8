"""/forget: in private, a user has the bot erase what it keeps about them
(storage/erasure.py, docs/privacy.md) and is told what went; in a group,
they are told to send it in private. Refused, with nothing changed, while
they take part in a game that has not ended: the game needs their seat."""

from __future__ import annotations

from html import escape

from telegram import Update
from telegram.constants import ChatType

from tg_mafia.i18n import Translator
from tg_mafia.records import Forgotten, GameStatus, StillPlaying
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import group_translator, reply, service_of, user_translator


async def on_forget(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    if chat.type != ChatType.PRIVATE:
        t = await group_translator(context, chat.id)
        await reply(context, update, in_private(t))
        return
    outcome = await service_of(context).queries.forget(user.id)
    await reply(context, update, forget_text(user_translator(user), outcome))


def in_private(t: Translator) -> str:
    return t.gettext(
        "🔒 /forget works in a private chat with me: send it there, and I will erase "
        "what I keep about you."
    )


def forget_text(t: Translator, outcome: Forgotten | StillPlaying) -> str:
    if isinstance(outcome, StillPlaying):
        title = escape(outcome.title)
        if outcome.status is GameStatus.LOBBY:
            return t.gettext(
                "You are in the lobby of a game in «{title}». Leave it, or wait until that "
                "game is over, then send /forget again."
            ).format(title=title)
        return t.gettext(
            "You take part in a game still running in «{title}». Send /forget again once "
            "it has ended."
        ).format(title=title)
    if not outcome.total:
        return t.gettext("🧹 I keep nothing about you: there was nothing to erase.")
    lines = [t.gettext("🧹 Done. What I kept about you is erased:")]
    n = outcome.games
    if n:
        lines.append(
            t.ngettext(
                "• {n} finished game: your name and user id are out of it",
                "• {n} finished games: your name and user id are out of them",
                n,
            ).format(n=n)
        )
    n = outcome.results
    if n:
        lines.append(
            t.ngettext(
                "• {n} result: no longer tied to you, your rating is gone",
                "• {n} results: no longer tied to you, your rating is gone",
                n,
            ).format(n=n)
        )
    n = outcome.watches
    if n:
        lines.append(
            t.ngettext("• {n} /nextgame subscription", "• {n} /nextgame subscriptions", n).format(
                n=n
            )
        )
    n = outcome.messages
    if n:
        lines.append(
            t.ngettext(
                "• {n} record of a message I sent you", "• {n} records of messages I sent you", n
            ).format(n=n)
        )
    lines.append(
        t.gettext(
            "Messages already posted in groups stay in those chats. If you play again, I "
            "will keep what a game needs, for as long as before."
        )
    )
    return "\n".join(lines)

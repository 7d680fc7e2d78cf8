"""The crash test's "no message lost" comparison (messages.py) finds what it must:
a lost message, a repeated one, a living message left in the wrong state."""

from __future__ import annotations

from telegram import Bot
from telegram.constants import ParseMode

from tests.crash.messages import compare, expected_messages
from tg_mafia.render.calls import DEADLINE, Clear, Edit, Send
from tg_mafia.render.scene import Outgoing
from tg_mafia.render.texts.timefmt import deadline_html
from tg_mafia.runtime.outbox.methods import markup
from tg_mafia.sandbox import Sandbox

GROUP_RIGHTS = {"can_delete_messages": True, "can_pin_messages": True}
BUTTONS = [[{"text": "Pass", "data": "pa:1:3"}]]


async def _chat() -> tuple[Sandbox, Bot, int]:
    sb = Sandbox()
    users = sb.add_users(2)
    group = sb.add_group("Club", members=users, owner=users[0], bot_rights=GROUP_RIGHTS)
    bot = sb.bot()
    await bot.initialize()
    return sb, bot, group.id


def _reference(chat: int) -> list[Outgoing]:
    ops = [
        Send("<b>Day 1</b> ends at " + DEADLINE),
        Send("Anna passes."),
        Send("Anna speaks", key="floor", keyboard=BUTTONS),
        Edit("Boris speaks", key="floor", keyboard=BUTTONS),
        Send("Votes: none", key="board", keyboard=BUTTONS),
        Clear("board"),
    ]
    return [Outgoing(chat, op) for op in ops]


async def _deliver(bot: Bot, chat: int, floor_text: str = "Boris speaks") -> None:
    """As the sender would: the two announcements merged, the deadline filled in."""
    html = ParseMode.HTML
    await bot.send_message(chat, f"<b>Day 1</b> ends at {deadline_html(1e9)}\n\nAnna passes.", html)
    floor = await bot.send_message(chat, "Anna speaks", html, reply_markup=markup(BUTTONS))
    await bot.edit_message_text(floor_text, chat, floor.message_id, reply_markup=markup(BUTTONS))
    board = await bot.send_message(chat, "Votes: none", html, reply_markup=markup(BUTTONS))
    await bot.edit_message_reply_markup(chat, board.message_id, reply_markup=None)


async def test_everything_delivered_once_is_the_same() -> None:
    sb, bot, chat = await _chat()
    await _deliver(bot, chat)
    verdict = compare(sb, expected_messages(_reference(chat)))
    assert (verdict.expected, verdict.missing, verdict.duplicates) == (6, [], 0)
    assert verdict.other == []


async def test_a_lost_send_and_a_repeated_one_are_found() -> None:
    sb, bot, chat = await _chat()
    await bot.send_message(chat, "Lobby: 2 players")  # before the game: not counted
    await _deliver(bot, chat)
    await bot.send_message(chat, "Votes: none")  # a call repeated after a crash
    reference = _reference(chat)
    reference.insert(2, Outgoing(chat, Send("Nobody heard this")))
    verdict = compare(sb, expected_messages(reference))
    assert verdict.missing == [f"chat {chat}: 'Nobody heard this'"]
    assert verdict.duplicates == 1 and verdict.other == []


async def test_a_living_message_in_another_state_is_missing() -> None:
    sb, bot, chat = await _chat()
    await _deliver(bot, chat, floor_text="Anna speaks still")  # the last edit lost
    verdict = compare(sb, expected_messages(_reference(chat)))
    (missing,) = verdict.missing
    # Named, and followed by what the chat has instead: the message still in its old state.
    assert missing.startswith(f"chat {chat}, living: 'Boris speaks' (buttons ")
    assert "alike: []" in missing and "'editMessageText'" in missing

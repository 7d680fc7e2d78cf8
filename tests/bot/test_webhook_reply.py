"""The webhook answer's one call (tg_mafia/telegram/webhook_reply.py)."""

from __future__ import annotations

import asyncio

from tg_mafia.telegram import webhook_reply


def test_outside_a_delivery_a_call_is_made_as_usual() -> None:
    assert not webhook_reply.claim("answerCallbackQuery", {"callback_query_id": "1"})


async def test_a_delivery_carries_one_call_until_its_answer_is_written() -> None:
    slot, token = webhook_reply.open_slot()
    assert webhook_reply.claim("answerCallbackQuery", {"callback_query_id": "1", "text": "ok"})
    assert slot.call == {"method": "answerCallbackQuery", "callback_query_id": "1", "text": "ok"}
    assert not webhook_reply.claim("answerCallbackQuery", {"callback_query_id": "2"})  # full

    async def later() -> bool:  # a task the handling left behind, as its answer is written
        await asyncio.sleep(0)
        return webhook_reply.claim("sendMessage", {"chat_id": 1, "text": "hi"})

    left_behind = asyncio.ensure_future(later())  # it sees the slot: tasks copy the context
    slot.call = None  # room again, yet the answer is written now: too late for it
    webhook_reply.close_slot(slot, token)
    assert not await left_behind
    assert slot.call is None
    assert not webhook_reply.claim("answerCallbackQuery", {"callback_query_id": "3"})

"""A press's popup goes out as soon as its move is decided, and only once: the
handler's last word (after the commit) sends it only when nothing was given early."""

from __future__ import annotations

import asyncio

from tg_mafia.bot.handlers.common import EarlyAnswer


class Query:
    def __init__(self) -> None:
        self.answers: list[str | None] = []

    async def answer(self, text: str | None = None) -> None:
        await asyncio.sleep(0)
        self.answers.append(text)


async def test_the_popup_given_early_is_the_one_sent_and_sent_once() -> None:
    query = Query()
    popup = EarlyAnswer(query)
    popup.give("Vote counted")
    await asyncio.sleep(0.01)
    assert query.answers == ["Vote counted"]  # before the handler's end
    popup.give("again")
    await popup.finish("Vote counted")
    assert query.answers == ["Vote counted"]


async def test_without_an_early_popup_the_last_word_is_sent() -> None:
    query = Query()
    popup = EarlyAnswer(query)
    await popup.finish("This button is no longer valid")
    assert query.answers == ["This button is no longer valid"]

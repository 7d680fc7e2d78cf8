"""A call made again after a crash (Telegram took it, the process died before
writing it down) leaves the same world as the call made once."""

from __future__ import annotations

from pathlib import Path

from tg_mafia.render.calls import Clear, Delete, Op, Send
from tg_mafia.render.calls_json import to_json
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.outbox.sender import Sender
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.virtual_time import current_time_source
from tg_mafia.storage import open_database

KEY = "floor"


async def test_a_clear_made_twice_ends_the_living_message_all_the_same(tmp_path: Path) -> None:
    sb = Sandbox()
    (reader,) = sb.add_users(1, started=True)
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    adb = AsyncDb(db)
    bot = sb.bot()
    await bot.initialize()
    with db.transaction() as tx:
        game = tx.create_lobby(-100123, opened_by=reader.id).id
    sender = Sender(bot, adb, BotClock(1.0, current_time_source()))
    sender.start()

    async def calls(*ops: Op) -> None:
        with db.transaction() as tx:
            for op in ops:
                tx.enqueue(reader.id, to_json(op), now=0.0, game_id=game)
        await sender.drain()

    def living() -> int | None:
        with db.transaction() as tx:
            return tx.living_id(game, reader.id, KEY)

    try:
        button = [[{"text": "Pass", "data": "pa:1:3"}]]
        await calls(Send("Anna speaks", key=KEY, keyboard=button))
        message_id = living()
        assert message_id is not None
        await calls(Clear(KEY))
        assert living() is None
        # The crash: the clear went out, its write did not; the restart makes it again.
        with db.transaction() as tx:
            tx.set_living(game, reader.id, KEY, message_id)
        await calls(Clear(KEY))  # "message is not modified"
        assert living() is None
        # The next floor takes down the last living one: there is none.
        await calls(Delete(key=KEY), Send("Boris speaks", key=KEY))
    finally:
        await sender.stop()
        await bot.shutdown()
        adb.close()
        db.close()
    kept = sb.world.resolve_chat(reader.id).messages[message_id]
    assert not kept.deleted and not kept.reply_markup
    refused = [r.description for r in sb.log if r.method == "editMessageReplyMarkup" and not r.ok]
    assert refused and "not modified" in (refused[0] or "")

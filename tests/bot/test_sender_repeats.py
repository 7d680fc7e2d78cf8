"""A call made again after a crash (Telegram took it, the process died before
writing it down) leaves the same world as the call made once."""

from __future__ import annotations

from pathlib import Path

from tests.bot.one_sender import one_sender
from tg_mafia.render.calls import Clear, Delete, Send
from tg_mafia.sandbox import Sandbox

KEY = "floor"


async def test_a_clear_made_twice_ends_the_living_message_all_the_same(tmp_path: Path) -> None:
    sb = Sandbox()
    (reader,) = sb.add_users(1, started=True)
    async with one_sender(sb, tmp_path, reader.id, reader.id, lobby_chat=-100123) as one:

        def living() -> int | None:
            with one.db.transaction() as tx:
                return tx.living_id(one.game, reader.id, KEY)

        button = [[{"text": "Pass", "data": "pa:1:3"}]]
        await one.calls(Send("Anna speaks", key=KEY, keyboard=button))
        message_id = living()
        assert message_id is not None
        await one.calls(Clear(KEY))
        assert living() is None
        # The crash: the clear went out, its write did not; the restart makes it again.
        with one.db.transaction() as tx:
            tx.set_living(one.game, reader.id, KEY, message_id)
        await one.calls(Clear(KEY))  # "message is not modified"
        assert living() is None
        # The next floor takes down the last living one: there is none.
        await one.calls(Delete(key=KEY), Send("Boris speaks", key=KEY))
    kept = sb.world.resolve_chat(reader.id).messages[message_id]
    assert not kept.deleted and not kept.reply_markup
    refused = [r.description for r in sb.log if r.method == "editMessageReplyMarkup" and not r.ok]
    assert refused and "not modified" in (refused[0] or "")

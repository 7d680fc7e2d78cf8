"""Telegram delivers an update again when its first delivery got no answer (a
replica killed while handling it, a webhook re-set): the move it made is not
made twice (the update's id is stored with the move, migration 0005)."""

from __future__ import annotations

from pathlib import Path

from telegram import Update

from engine import GameState, Stage
from tests.bot.harness import running_bot
from tg_mafia.playtest.scheduler import ManualScheduler


async def test_an_update_delivered_twice_makes_its_move_once(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        await scheduler.fire(f"game-{game_id}")  # the quiet night ends: free talk by day
        await h.settle()
        record = h.db.get_game(game_id)
        assert record is not None
        state = GameState.from_dict(record.state or {})
        assert state.stage is Stage.DISCUSSION
        speaker = next(u for u in h.users if state.table.is_alive(str(u.id)))
        posted = speaker.send(h.group, "I trust seat 3")  # delivered once, by the sandbox
        await h.settle()
        data = {
            "update_id": 10**9,
            "message": {
                "message_id": posted.message_id,
                "date": 0,
                "chat": {"id": h.group.id, "type": "supergroup", "title": "Friday club"},
                "from": speaker.user.to_api(),
                "text": "I trust seat 3 (again)",
            },
        }
        for _ in range(2):  # the same update twice, as a second delivery brings it
            await h.app.process_update(Update.de_json(data, h.app.bot))
            await h.settle()
        said = [a.action.get("text") for a in h.db.actions(game_id) if a.action["verb"] == "say"]
        assert said.count("I trust seat 3 (again)") == 1
        assert said.count("I trust seat 3") == 1
        # Refused as a duplicate, not by the unique index failing the transaction.
        assert list(h.app.bot_data.errors.records) == []

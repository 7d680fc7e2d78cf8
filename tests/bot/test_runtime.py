"""The runtime's promises, on the sandbox with the bot's own timers running
(on the test's virtual clock): a stage's timer starts when its message is
delivered, however long the chat's queue; what players wrote is not kept
after the game; nothing is held in memory for chats at rest."""

from __future__ import annotations

from pathlib import Path

from engine import GameState, Stage
from tests.bot.harness import running_bot
from tg_mafia.runtime.timers.scheduler import LoopScheduler
from tg_mafia.storage import GameStatus


async def test_every_player_gets_the_full_time_shown_under_a_congested_outbox(
    tmp_path: Path,
) -> None:
    """The group's budget is spent by a flood of announcements queued ahead
    of the floor message: the speech's deadline is set when its message goes
    out, and the timer does not fire before the time that message shows."""
    scheduler = LoopScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(
            h.group.id, variant="moscow", language="en", options={"intro_seconds": 20}
        )
        game_id = await h.open_and_fill()
        # 40 of the game's own announcements wait in the group's outbox before the
        # first floor: nearly three minutes of the group's budget.
        with h.db.transaction() as tx:
            for n in range(40):
                op = {"m": "send", "text": f"(announcement {n})"}
                tx.enqueue(h.group.id, op, now=0.0, game_id=game_id, priority=0)
        await h.press_start()
        await h.settle()
        sent = [
            c
            for c in h.sb.log.calls(method="sendMessage", chat_id=h.group.id)
            if c.ok and "introductions" in str(c.params.get("text", ""))
        ]
        assert sent, "no floor message"
        first = sent[0]
        shown = [e for e in first.result.get("entities", []) if e["type"] == "date_time"]
        assert shown, "the deadline is a date_time entity"
        deadline = shown[0]["unix_time"]
        assert deadline >= first.time + 20 - 1  # the full 20 s from delivery
        # The timer has not fired before the deadline shown.
        record = h.db.get_game(game_id)
        assert record is not None and record.stage_deadline is not None
        assert abs(record.stage_deadline - deadline) < 1
        ended = [c for c in h.sb.log.calls(method="deleteMessage", chat_id=h.group.id) if c.ok]
        assert all(c.time >= deadline - 1 for c in ended), "the floor ended before its time"


async def test_what_players_wrote_is_not_kept_after_the_game(tmp_path: Path) -> None:
    from tests.bot.autoplay import AutoPlayers
    from tg_mafia.playtest.scheduler import ManualScheduler

    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(
            h.group.id, variant="moscow", language="en", options={"thanks_rule": True}
        )
        game_id = await h.open_and_fill()
        await h.press_start()
        players = AutoPlayers(
            h, scheduler, seed=5, chatter=0.2, lines=("my secret plan, thank you",)
        )
        record = await players.play(game_id)
        assert record.status is GameStatus.ENDED
        texts = [a.action.get("text") for a in h.db.actions(game_id) if a.action["verb"] == "say"]
        assert texts and all(t in ("", "thank you") for t in texts), texts[:5]
        # The log still replays to the same end.
        from engine import action_from_dict, apply, new_game

        options = {**record.options, "host": "auto"}
        seats = tuple(str(p.user_id) for p in record.players)
        state, _ = new_game(record.variant, seats, options, record.seed, record.language)
        for entry in h.db.actions(game_id):
            state, _ = apply(state, action_from_dict(dict(entry.action)))
        assert state.to_dict() == GameState.from_dict(record.state or {}).to_dict()
        assert state.stage is Stage.ENDED


async def test_nothing_stays_in_memory_for_chats_at_rest(tmp_path: Path) -> None:
    from tests.bot.autoplay import AutoPlayers
    from tg_mafia.playtest.scheduler import ManualScheduler

    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        await AutoPlayers(h, scheduler, seed=2).play(game_id)
        await h.settle()
        service = h.service
        assert len(service.runner.locks) == 0  # locks go with their last holder
        assert not service.sender._workers  # no chat has a worker at rest
        __import__("asyncio").get_running_loop().advance(600)
        service.sender.forget_idle()
        assert not service.sender.windows.chats  # nor a rate window once it is past

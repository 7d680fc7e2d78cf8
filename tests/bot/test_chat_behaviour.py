"""What players see and can do in the chat: out-of-turn posts, stale and
foreign buttons, players who never started the bot, the group's
permissions, and a bot restarted in the middle of a game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine import GameState, Stage, public_view
from tests.bot.autoplay import AutoPlayers, find_button, prefix, press
from tests.bot.harness import Harness, running_bot
from tests.database_ops import backlog
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.callbacks import Kind
from tg_mafia.runtime.service import GameService
from tg_mafia.sandbox import Sandbox
from tg_mafia.storage import GameRecord, GameStatus


def state_of(h: Harness, game_id: int) -> tuple[GameRecord, GameState]:
    record = h.db.get_game(game_id)
    assert record is not None and record.state is not None
    return record, GameState.from_dict(record.state)


def live_texts(h: Harness) -> list[str]:
    return h.group_texts()


async def start(h: Harness, variant: str, **options: object) -> int:
    h.db.save_settings(h.group.id, variant=variant, language="en", options=dict(options))
    game_id = await h.open_and_fill()
    await h.press_start()
    return game_id


async def test_out_of_turn_and_night_posts_are_deleted_and_warned(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await start(h, "moscow")
        _, state = state_of(h, game_id)
        assert state.stage is Stage.INTRO
        speaker = next(u for u in h.users if str(u.id) == state.day.speaker)
        other = next(u for u in h.users if str(u.id) != state.day.speaker)
        kept = speaker.send(h.group, "Hello, I am a carpenter.")
        dropped = other.send(h.group, "I talk out of turn")
        await h.settle()
        texts = live_texts(h)
        assert "Hello, I am a carpenter." in texts
        assert "I talk out of turn" not in texts
        assert any("warning 1/3" in t for t in texts)
        _, state = state_of(h, game_id)
        assert state.table.warnings == {str(other.id): 1}
        assert kept.message_id != dropped.message_id
        # Through the introductions to the first night: the chat is closed.
        for _ in state.table.seats:
            await scheduler.fire(f"game-{game_id}")
            await h.settle()
        _, state = state_of(h, game_id)
        assert state.stage is Stage.NIGHT
        chat = h.sb.world.resolve_chat(h.group.id)
        assert chat.permissions.get("can_send_messages") is False
        # An administrator who plays can still post at night: deleted and warned.
        h.sb.promote(h.group, h.users[0])
        h.users[0].send(h.group, "psst, who is the don?")
        await h.settle()
        assert "psst, who is the don?" not in live_texts(h)
        _, state = state_of(h, game_id)
        assert state.table.warnings.get(str(h.users[0].id)) == 1


async def test_stale_and_foreign_buttons_change_nothing(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await start(h, "moscow")
        record, state = state_of(h, game_id)
        speaker = next(u for u in h.users if str(u.id) == state.day.speaker)
        other = next(u for u in h.users if str(u.id) != state.day.speaker)
        # Someone else's Pass: a popup, and the floor stays.
        found = find_button(h, h.group.id, prefix(Kind.PASS, record))
        assert found is not None
        message_id, label = found
        pressed = other.press(h.group, label, message_id=message_id)
        await h.settle()
        assert "not your turn" in pressed.answer.get("text", "")
        assert state_of(h, game_id)[0].version == record.version
        # The speaker passes; the old message's button is now stale.
        assert press(h, speaker, h.group.id, prefix(Kind.PASS, record))
        await h.settle()
        record2, _ = state_of(h, game_id)
        # The old floor message lost its buttons; forge its data and press anyway.
        forged = h.sb.inject_update(
            {
                "callback_query": {
                    "id": "forged-1",
                    "from": speaker.user.to_api(),
                    "chat_instance": "x",
                    "data": f"ps:{game_id}:{record.version}",
                    "message": {
                        "message_id": message_id,
                        "date": 0,
                        "chat": {"id": h.group.id, "type": "supergroup", "title": "x"},
                    },
                }
            }
        )
        assert forged
        await h.settle()
        assert state_of(h, game_id)[0].version == record2.version


async def test_a_user_who_never_started_the_bot_cannot_break_the_lobby(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 9) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        stranger = h.users[0]  # never opened the bot
        pressed = stranger.press(h.group, "Leave")
        await h.settle()
        assert pressed.answered
        pressed = stranger.press(h.group, "Start")
        await h.settle()
        assert "Only whoever opened" in pressed.answer.get("text", "")
        record = h.db.active_game(h.group.id)
        assert record is not None and record.status is GameStatus.LOBBY
        assert record.players == ()
        # Start with too few players: refused with a popup.
        pressed = h.admin.press(h.group, "Start")
        await h.settle()
        assert "Not enough players" in pressed.answer.get("text", "")
        # The Join button is a deep link: pressing it opens the private chat and joins.
        stranger.press(h.group, "Join")
        await h.settle()
        record = h.db.active_game(h.group.id)
        assert record is not None and [p.user_id for p in record.players] == [stranger.id]
        assert any("You're in" in t for t in h.private_texts(stranger))


async def test_the_groups_permissions_are_restored_exactly(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, scheduler=scheduler) as h:
        chat = h.sb.world.resolve_chat(h.group.id)
        chat.permissions.update(
            {"can_send_polls": False, "can_invite_users": False, "can_send_photos": True}
        )
        before = dict(chat.permissions)
        game_id = await start(h, "classic")
        assert chat.permissions.get("can_send_messages") is False  # the first night
        await scheduler.fire(f"game-{game_id}")
        await h.settle()
        assert chat.permissions == before  # the morning
        await AutoPlayers(h, scheduler, seed=4).play(game_id)
        assert chat.permissions == before  # the end


async def test_a_restarted_bot_finishes_the_game(tmp_path: Path) -> None:
    """A crash with calls still in the outbox: the new process sends them,
    in order, re-arms the timer, and the game goes on to its end."""
    from engine.simulation import lively_action

    sb = Sandbox()
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    scheduler = ManualScheduler()
    # A fixed deal: with a random one, 15 moves and a stage's end may finish the game.
    async with running_bot(
        tmp_path, 9, sb=sb, database_url=url, scheduler=scheduler, lobby_seed=3
    ) as h:
        game_id = await start(h, "party")
        players = AutoPlayers(h, scheduler, seed=7)
        for _ in range(15):  # a part of the game
            await h.settle()
            record, state = state_of(h, game_id)
            await players.perform(record, public_view(state), lively_action(state, players.rng))
        await h.settle()
        await h.hold_calls()
        await scheduler.fire(f"game-{game_id}")  # a stage ends; its calls are written, not sent
        await h.handled()
        assert state_of(h, game_id)[0].status is GameStatus.RUNNING  # still to finish
        waiting, _ = backlog(h.db)
        assert waiting > 0
        users, admin = h.users, h.admin
        await h.crash()
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 0, sb=sb, database_url=url, scheduler=scheduler) as h2:
        h2.users, h2.admin = users, admin
        h2.group = h.group
        await h2.settle()
        assert f"game-{game_id}" in scheduler.armed  # the timer was re-armed
        assert backlog(h2.db) == (0, None)  # every call the crash left was made
        record = await AutoPlayers(h2, scheduler, seed=8).play(game_id)
        assert record.status is GameStatus.ENDED


async def test_timers_fire_by_themselves(tmp_path: Path) -> None:
    """The real JobQueue: the lobby starts the game at its deadline, and the
    first night ends on its timer (a fast clock)."""
    async with running_bot(tmp_path, 8, speed=40, lobby_seconds=20) as h:
        h.db.save_settings(
            h.group.id, variant="classic", language="en", options={"night_seconds": 20}
        )
        game_id = await h.open_and_fill()
        await h.sb.wait_for(lambda: _status(h, game_id) is GameStatus.RUNNING, timeout=5)
        await h.sb.wait_for(lambda: _stage(h, game_id) is Stage.DISCUSSION, timeout=5)
        await asyncio.sleep(0)


def _status(h: Harness, game_id: int) -> GameStatus | None:
    record = h.db.get_game(game_id)
    return record.status if record else None


def _stage(h: Harness, game_id: int) -> Stage | None:
    record = h.db.get_game(game_id)
    return GameState.from_dict(record.state).stage if record and record.state else None


async def test_the_don_sets_the_kill_list_on_the_acquaintance_night(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await start(h, "moscow")
        record, state = state_of(h, game_id)
        for _ in state.table.seats:
            await scheduler.fire(f"game-{game_id}")
            await h.settle()
        record, state = state_of(h, game_id)
        assert state.stage is Stage.NIGHT and state.night.number == 1
        users = {str(u.id): u for u in h.users}
        don = next(p for p in state.table.seats if state.table.roles[p].value == "don")
        mafioso = next(p for p in state.table.seats if state.table.roles[p].value == "mafia")
        town = [p for p in state.table.seats if not state.table.roles[p].is_mafia]
        for target in town[:2]:
            seat = str(state.table.seats.index(target) + 1)
            assert press(h, users[don], int(don), prefix(Kind.PLAN, record, seat))
            await h.settle()
        _, state = state_of(h, game_id)
        assert state.night.plan == tuple(town[:2])
        seen = h.private_texts(users[mafioso])
        names = [h.sb.world.users[int(p)].first_name for p in town[:2]]
        assert any(all(n in t for n in names) for t in seen), seen[-3:]
        assert press(h, users[don], int(don), prefix(Kind.PLAN, record, "0"))
        await h.settle()
        assert state_of(h, game_id)[1].night.plan == ()


async def test_help_rules_button_and_a_new_game_from_the_end_screen(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.users[0].start()
        h.users[0].command(h.users[0].private_chat, "newgame")
        h.users[0].command(h.users[0].private_chat, "help")
        await h.settle()
        answers = h.private_texts(h.users[0])
        assert any("works in a group" in t for t in answers)
        assert any("/newgame" in t and "/settings" in t for t in answers)
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        record = h.db.get_game(game_id)
        assert record is not None
        # The lobby's Rules button sends the rules in private.
        assert press(h, h.users[1], h.group.id, prefix(Kind.LOBBY, record, "rules"))
        await h.settle()
        assert any("Rules" in t or "Roles" in t for t in h.private_texts(h.users[1]))
        await h.press_start()
        await AutoPlayers(h, scheduler, seed=3).play(game_id)
        # The end screen offers a new game: pressing it opens a new lobby.
        assert press(h, h.users[2], h.group.id, prefix(Kind.NEW_GAME, record))
        await h.settle()
        fresh = h.db.active_game(h.group.id)
        assert fresh is not None and fresh.id != game_id and fresh.status is GameStatus.LOBBY
        # The command menu exists in every language.
        menus = [c for c in h.sb.log.calls(method="setMyCommands") if c.ok]
        assert len(menus) == 5


async def test_a_crash_after_the_final_write_still_shows_the_end(tmp_path: Path) -> None:
    """The last action was written, then the process died before the end
    screen and the permissions went out: the next start sends them, once."""
    from engine.simulation import lively_action
    from tg_mafia.i18n import translator
    from tg_mafia.render import texts

    sb = Sandbox()
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, sb=sb, database_url=url, scheduler=scheduler) as h:
        before = dict(h.sb.world.resolve_chat(h.group.id).permissions)
        game_id = await start(h, "classic")
        players = AutoPlayers(h, scheduler, seed=2)
        while True:
            await h.settle()
            record, state = state_of(h, game_id)
            following, _ = __import__("engine").apply(
                state, action := lively_action(state, players.rng, 0.05)
            )
            if following.outcome.winner is not None:
                break
            await players.perform(record, public_view(state), action)
        await h.hold_calls()
        await players.perform(
            record, public_view(state), action
        )  # the last move: written, not sent
        await h.handled()
        record, _ = state_of(h, game_id)
        assert record.status is GameStatus.ENDED
        winner = following.outcome.winner
        line = texts.winner_line(translator("en"), winner).replace("<b>", "").replace("</b>", "")
        assert not any(line in m for m in h.group_texts())
        users, admin, group = h.users, h.admin, h.group
        await h.crash()
    async with running_bot(tmp_path, 0, sb=sb, database_url=url, scheduler=ManualScheduler()) as h2:
        h2.users, h2.admin, h2.group = users, admin, group
        await h2.settle()
        assert sum(line in m for m in h2.group_texts()) == 1
        assert dict(h2.sb.world.resolve_chat(group.id).permissions) == before
        assert h2.db.get_game(game_id).saved_permissions is None  # type: ignore[union-attr]


async def test_without_admin_rights_the_game_runs_and_only_warns(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    sb = Sandbox(speed=50, privacy_mode=False)  # privacy off in BotFather: it sees posts
    async with running_bot(tmp_path, 9, sb=sb, scheduler=scheduler, rights={}) as h:
        h.sb.set_bot_rights(h.group, None)  # a plain member
        game_id = await start(h, "moscow")
        assert any("not an administrator" in t for t in h.group_texts())
        _, state = state_of(h, game_id)
        other = next(u for u in h.users if str(u.id) != state.day.speaker)
        other.send(h.group, "out of turn")
        await h.settle()
        assert "out of turn" in h.group_texts()  # not deleted: the bot may not
        assert state_of(h, game_id)[1].table.warnings == {str(other.id): 1}
        record = await AutoPlayers(h, scheduler, seed=9).play(game_id)
        assert record.status is GameStatus.ENDED
        assert h.sb.log.count_429() == 0


async def test_a_restart_in_the_middle_of_a_vote_edits_the_same_count(tmp_path: Path) -> None:
    """The ids of the messages edited in place are stored: after a restart
    the count goes on in the same message, and its buttons work."""
    from engine.simulation import lively_action

    sb = Sandbox()
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, sb=sb, database_url=url, scheduler=scheduler) as h:
        game_id = await start(h, "moscow")
        players = AutoPlayers(h, scheduler, seed=21, chatter=0)
        for _ in range(400):
            await h.settle()
            record, state = state_of(h, game_id)
            if (
                state.stage is Stage.VOTE
                and state.vote.count_index == 0
                and len(state.vote.candidates) > 1
            ):
                break
            assert record.status is GameStatus.RUNNING, "the game ended before a vote"
            await players.perform(record, public_view(state), lively_action(state, players.rng))
        else:
            raise AssertionError("no vote with two counts")
        users, admin, group = h.users, h.admin, h.group
        before = find_button(h, group.id, prefix(Kind.HAND, record))
        assert before is not None
        await h.hold_calls()
        await scheduler.fire(f"game-{game_id}")  # the next count: an edit, not sent yet
        await h.handled()
        await h.crash()
    async with running_bot(tmp_path, 0, sb=sb, database_url=url, scheduler=ManualScheduler()) as h2:
        h2.users, h2.admin, h2.group = users, admin, group
        await h2.settle()
        record, state = state_of(h2, game_id)
        assert state.vote.count_index == 1
        again = find_button(h2, group.id, prefix(Kind.HAND, record))
        assert again is not None and again[0] == before[0]  # the same message, edited
        voter = next(
            u for u in users if str(u.id) in state.table.alive and str(u.id) not in state.vote.voted
        )
        assert press(h2, voter, group.id, prefix(Kind.HAND, record))
        await h2.settle()
        assert str(voter.id) in state_of(h2, game_id)[1].vote.hands


async def test_a_restart_at_night_closes_a_chat_the_crash_left_open(tmp_path: Path) -> None:
    sb = Sandbox()
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    async with running_bot(tmp_path, 7, sb=sb, database_url=url, scheduler=ManualScheduler()) as h:
        chat = h.sb.world.resolve_chat(h.group.id)
        before = dict(chat.permissions)
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.hold_calls()
        await h.press_start()  # the first night: written, the chat not closed yet
        assert chat.permissions == before
        users, admin, group = h.users, h.admin, h.group
        await h.crash()
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 0, sb=sb, database_url=url, scheduler=scheduler) as h2:
        h2.users, h2.admin, h2.group = users, admin, group
        await h2.settle()
        assert chat.permissions.get("can_send_messages") is False  # the night is masked
        await scheduler.fire(f"game-{game_id}")
        await h2.settle()
        assert dict(chat.permissions) == before  # and the morning opens it as it was


async def test_a_press_or_a_post_is_read_checked_and_written_in_one_database_call(
    tmp_path: Path,
) -> None:
    """Under load every database call waits for the batch before it to commit: a press
    that read the game in one call and moved in another waited twice."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await start(h, "moscow")
        record, state = state_of(h, game_id)
        speaker = next(u for u in h.users if str(u.id) == state.day.speaker)
        await h.settle()
        calls: list[str] = []  # the game's reads and moves (the sender's calls left out)
        run = h.service.adb.run
        watched = {"Runner._act", "Database.get_game", "Database.active_game"}

        def from_a_notification() -> bool:
            # On PostgreSQL the leader reads a game again when its write's notification
            # arrives, whenever that is: that read is no part of the update's handling.
            task = asyncio.current_task()
            coro = task.get_coro() if task else None
            return getattr(coro, "__qualname__", "") == GameService._arm_one.__qualname__

        async def counted(call: object, *args: object, **kwargs: object) -> object:
            name = getattr(call, "__qualname__", "")
            if name in watched and not from_a_notification():
                calls.append(name)
            return await run(call, *args, **kwargs)  # type: ignore[arg-type]

        h.service.adb.run = counted  # type: ignore[method-assign]
        found = find_button(h, h.group.id, prefix(Kind.PASS, record))
        assert found is not None
        pressed = speaker.press(h.group, found[1], message_id=found[0])
        await h.handled()
        assert pressed.answer.get("text")
        assert state_of(h, game_id)[0].version == record.version + 1
        # Nothing read before the move.
        assert calls[0] == "Runner._act" and calls.count("Runner._act") == 1
        # A post is judged on the read of the chat's running game its move makes.
        calls.clear()
        h.users[0].send(h.group, "a word out of turn, or the speaker's")
        await h.handled()
        assert calls[0] == "Runner._act" and calls.count("Runner._act") == 1
        assert "Database.active_game" not in calls

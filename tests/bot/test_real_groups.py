"""What real groups do to a game, each on the sandbox: a player blocks and
unblocks the bot, the bot is removed and added back, the group becomes a
supergroup, forum topics, albums and media, commands, edits and anonymous
posts out of turn, a player leaves the group, the bot loses its rights."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import GameState, Phase, Stage
from tests.bot.autoplay import AutoPlayers, prefix, press
from tests.bot.harness import BOT_RIGHTS, Harness, running_bot
from tests.database_ops import backlog
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.storage import GameRecord, GameStatus

T = translator("en")
TOPIC_RIGHTS = {**BOT_RIGHTS, "can_manage_topics": True}


def load(h: Harness, game_id: int) -> tuple[GameRecord, GameState]:
    record = h.db.get_game(game_id)
    assert record is not None and record.state is not None
    return record, GameState.from_dict(record.state)


async def start(h: Harness, variant: str) -> int:
    h.db.save_settings(h.group.id, variant=variant, language="en")
    game_id = await h.open_and_fill()
    await h.press_start()
    return game_id


def user_of(h: Harness, player: str):  # type: ignore[no-untyped-def]
    return next(u for u in h.users if str(u.id) == player)


async def test_a_player_who_blocks_the_bot_is_told_later_and_the_group_now(
    tmp_path: Path,
) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        silent = h.users[3]
        silent.block()
        await h.settle()
        await h.press_start()
        record, state = load(h, game_id)
        role = texts.role_name(T, state.table.roles[str(silent.id)])
        assert not any(role in m for m in h.private_texts(silent))
        assert any("I cannot write to" in m and silent.name in m for m in h.group_texts())
        silent.unblock()  # my_chat_member: the role waiting for them goes out
        await h.settle()
        assert any(role in m for m in h.private_texts(silent))
        record = await AutoPlayers(h, scheduler, seed=3).play(game_id)
        assert record.status is GameStatus.ENDED


async def test_the_bot_removed_ends_its_game_and_works_when_added_back(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await start(h, "classic")
        h.sb.remove_bot(h.group, by=h.admin)
        await h.settle()
        record, _ = load(h, game_id)
        assert record.status is GameStatus.ABORTED
        assert all(
            any("I was removed from the group" in m for m in h.private_texts(u)) for u in h.users
        )
        assert backlog(h.db) == (0, None)  # nothing left waiting for a group it cannot reach
        h.sb.add_bot(h.group, by=h.admin, rights=BOT_RIGHTS)
        await h.settle()
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        fresh = h.db.active_game(h.group.id)
        assert fresh is not None and fresh.status is GameStatus.LOBBY
        assert any("Players (0)" in m for m in h.group_texts())


async def test_the_game_goes_on_when_the_group_becomes_a_supergroup(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler, supergroup=False) as h:
        before = dict(h.group.permissions)
        h.db.save_settings(h.group.id, variant="classic", language="fr")
        game_id = await h.open_and_fill()
        await h.press_start()
        old = h.group.id
        new = h.sb.migrate(h.group, by=h.admin)
        await h.settle()
        h.group = new
        record, _ = load(h, game_id)
        assert record.chat_id == new.id and record.status is GameStatus.RUNNING
        assert h.db.get_settings(new.id).language == "fr"
        record = await AutoPlayers(h, scheduler, seed=5).play(game_id)
        await h.settle()
        assert record.status is GameStatus.ENDED
        assert any(
            texts.winner_line(translator("fr"), _winner(record))
            .replace("<b>", "")
            .replace("</b>", "")
            in m
            for m in h.group_texts()
        )
        assert h.db.chat_stats(new.id).games_played == 1 and h.db.chat_stats(old).games_played == 0
        assert dict(new.permissions) == before  # the night's mask lifted in the new chat


def _winner(record: GameRecord):  # type: ignore[no-untyped-def]
    state = GameState.from_dict(record.state or {})
    assert state.outcome.winner is not None
    return state.outcome.winner


async def test_a_game_lives_in_its_forum_topic(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, scheduler=scheduler, forum=True, rights=TOPIC_RIGHTS) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        table = h.sb.create_topic(h.group, "Mafia table", by=h.admin)
        permissions = dict(h.group.permissions)
        h.admin.send(h.group, "/newgame@" + h.sb.bot_username, topic=table)
        await h.settle()
        record = h.db.active_game(h.group.id, table)
        assert record is not None and record.topic == table
        assert h.db.active_game(h.group.id) is None  # General has no game
        for user in h.users[:7]:
            user.open_deep_link(h.sb.deep_link(f"join_{h.group.id}_{table}"))
            await h.settle()
        await h.press_start()
        record = h.db.active_game(h.group.id, table)
        assert record is not None and record.status is GameStatus.RUNNING
        # The first night closes the topic, not the group.
        assert h.group.topics[table].closed
        assert dict(h.group.permissions) == permissions
        # Every message of the game is in its topic; a post elsewhere is left alone.
        bot_posts = [m for m in h.group.messages.values() if m.from_id == h.sb.bot_user.id]
        elsewhere = [(m.message_id, m.text, m.service) for m in bot_posts if m.thread_id != table]
        assert bot_posts and not elsewhere, elsewhere
        h.users[7].send(h.group, "meanwhile in General")
        await h.settle()
        assert "meanwhile in General" in h.group_texts()
        # Another table can open in another topic at the same time.
        other = h.sb.create_topic(h.group, "Second table", by=h.admin)
        h.users[7].send(h.group, "/newgame@" + h.sb.bot_username, topic=other)
        await h.settle()
        assert h.db.active_game(h.group.id, other) is not None
        await scheduler.fire(f"game-{record.id}")  # dawn opens the topic again
        await h.settle()
        assert not h.group.topics[table].closed


async def test_an_album_out_of_turn_is_one_post_and_media_are_posts(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7, scheduler=ManualScheduler()) as h:
        game_id = await start(h, "moscow")
        _, state = load(h, game_id)
        other = next(u for u in h.users if str(u.id) != state.day.speaker)
        sent = other.send_album(h.group, 3, caption="look at these")
        await h.settle()
        _, state = load(h, game_id)
        assert state.table.warnings.get(str(other.id)) == 1  # one album, one warning
        assert all(h.group.live_message(m.message_id) is None for m in sent)
        photo = other.send_photo(h.group, caption="and this")
        await h.settle()
        _, state = load(h, game_id)
        assert state.table.warnings.get(str(other.id)) == 2
        assert h.group.live_message(photo.message_id) is None


async def test_commands_edits_and_anonymous_posts_out_of_turn(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7, scheduler=ManualScheduler()) as h:
        h.sb.promote(h.group, h.users[6], can_delete_messages=True)
        game_id = await start(h, "moscow")
        _, state = load(h, game_id)
        speaker = user_of(h, state.day.speaker or "")
        others = [u for u in h.users if u is not speaker]
        # A command is a post: out of turn, deleted and warned.
        command = others[0].send(h.group, "/psst I am the sheriff, seat 4 is mafia")
        await h.settle()
        assert h.group.live_message(command.message_id) is None
        assert load(h, game_id)[1].table.warnings.get(str(others[0].id)) == 1
        # The speaker's own post stands; edited after the floor passed, it goes.
        mine = speaker.send(h.group, "I am a simple citizen")
        await h.settle()
        assert h.group.live_message(mine.message_id) is not None
        assert press(h, speaker, h.group.id, prefix(Kind.PASS, load(h, game_id)[0]))
        await h.settle()
        speaker.edit(mine, "I am the sheriff, seat 4 is mafia")
        await h.settle()
        assert h.group.live_message(mine.message_id) is None
        assert load(h, game_id)[1].table.warnings.get(str(speaker.id)) == 1
        # An anonymous administrator's post during a floor: deleted, nobody warned.
        anonymous = h.users[6].send(h.group, "psst", anonymous=True)
        await h.settle()
        assert h.group.live_message(anonymous.message_id) is None
        assert str(h.users[6].id) not in load(h, game_id)[1].table.warnings


async def test_a_player_who_leaves_the_group_leaves_the_game(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 10, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en")
        game_id = await h.open_and_fill(h.users[:9])
        h.sb.leave(h.group, h.users[8])  # from the lobby: off the list
        await h.settle()
        record, _ = load(h, game_id) if False else (h.db.get_game(game_id), None)
        assert record is not None and len(record.players) == 8
        await h.press_start()
        _, state = load(h, game_id)
        gone = user_of(h, state.table.seats[4])
        h.sb.leave(h.group, gone)
        await h.settle()
        _, state = load(h, game_id)
        assert str(gone.id) in state.table.dead and str(gone.id) not in state.table.revealed
        assert any("left the group and is out of the game" in m for m in h.group_texts())
        record = await AutoPlayers(h, scheduler, seed=9).play(game_id)
        assert record.status is GameStatus.ENDED


async def test_rights_lost_at_night_and_given_back(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        before = dict(h.group.permissions)
        game_id = await start(h, "classic")
        assert h.group.permissions.get("can_send_messages") is False  # the first night
        h.sb.set_bot_rights(
            h.group, {"can_delete_messages": True, "can_pin_messages": True}, by=h.admin
        )
        await h.settle()
        assert any("no longer restrict members" in m for m in h.group_texts())
        await scheduler.fire(f"game-{game_id}")  # dawn: the bot may not open the chat
        await h.settle()
        _, state = load(h, game_id)
        assert state.stage is not Stage.NIGHT
        assert h.group.permissions.get("can_send_messages") is False
        h.sb.set_bot_rights(h.group, BOT_RIGHTS, by=h.admin)  # given back: the day opens
        await h.settle()
        assert dict(h.group.permissions) == before


async def test_a_forum_night_keeps_the_players_out_of_every_topic(tmp_path: Path) -> None:
    """At night the game's players may post in no topic (restricted until morning),
    while the group's other members keep theirs; a player the bot cannot restrict (an
    administrator) who posts in another topic is deleted and warned as in the game's."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, scheduler=scheduler, forum=True, rights=TOPIC_RIGHTS) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en")
        table = h.sb.create_topic(h.group, "Mafia table", by=h.admin)
        lounge = h.sb.create_topic(h.group, "Lounge", by=h.admin)
        chief = h.users[6]
        h.sb.promote(h.group, chief, can_delete_messages=True)  # a player no one can restrict
        h.admin.send(h.group, "/newgame@" + h.sb.bot_username, topic=table)
        await h.settle()
        for user in h.users[:7]:
            user.open_deep_link(h.sb.deep_link(f"join_{h.group.id}_{table}"))
            await h.settle()
        await h.press_start()
        record = h.db.active_game(h.group.id, table)
        assert record is not None
        for _ in range(30):  # to the first night
            if load(h, record.id)[1].phase is Phase.NIGHT:
                break
            await scheduler.fire(f"game-{record.id}")
            await h.settle()
        player, guest = h.users[0], h.users[7]
        assert load(h, record.id)[1].phase is Phase.NIGHT
        assert any("the players post nowhere" in t for t in h.group_texts())
        for where in ({}, {"topic": lounge}):  # General, another topic
            with pytest.raises(SimulationError, match="may not post"):
                player.send(h.group, "psst, it was Anna", **where)
            guest.send(h.group, "meanwhile, a guest", **where)
        post = chief.send(h.group, "psst, from the chief", topic=lounge)
        await h.settle()
        assert h.group.live_message(post.message_id) is None
        assert load(h, record.id)[1].table.warnings.get(str(chief.id)) == 1
        assert sum("meanwhile, a guest" in t for t in h.group_texts()) == 2
        while load(h, record.id)[1].phase is Phase.NIGHT:  # morning lifts it
            await scheduler.fire(f"game-{record.id}")
            await h.settle()
        player.send(h.group, "good morning", topic=lounge)
        await h.settle()
        assert "good morning" in h.group_texts()
        assert h.sb.log.calls("restrictChatMember", ok=False) == []


async def test_a_forum_lobby_says_which_rights_it_lacks(tmp_path: Path) -> None:
    rights = {**TOPIC_RIGHTS, "can_restrict_members": False}
    async with running_bot(tmp_path, 7, forum=True, rights=rights) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        table = h.sb.create_topic(h.group, "Mafia table", by=h.admin)
        h.admin.send(h.group, "/newgame@" + h.sb.bot_username, topic=table)
        await h.settle()
        notice = next(t for t in h.group_texts() if t.startswith("⚠️"))
        assert "I lack the rights: ban users." in notice
        assert "the players can still post in the other topics" in notice

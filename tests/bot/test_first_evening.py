"""The first evening in a real group, as a new admin lives it: what the bot cannot see
with privacy mode on, the group upgraded under a lobby or a day, topics closed and
deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import GameState, Stage, public_view
from engine.simulation import lively_action
from tests.bot.autoplay import AutoPlayers, find_button, prefix
from tests.bot.harness import BOT_RIGHTS, Harness, running_bot
from tests.database_ops import backlog
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind, decode
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.world.state import Chat
from tg_mafia.storage import GameStatus

T = translator("en")

BLIND = "the floor will not be enforced"
FIX = "make me an administrator of the group"
ONLY_WARN = "I will only warn"


@pytest.mark.parametrize(
    ("privacy", "admin", "says"),
    [
        (True, False, BLIND),  # sees only commands and replies: says so, and how to fix it
        (False, False, ONLY_WARN),  # sees every post, cannot delete them: only warns
        (True, True, None),  # an administrator sees everything and has the rights
    ],
)
async def test_the_lobby_says_what_the_bot_cannot_see(
    tmp_path: Path, privacy: bool, admin: bool, says: str | None
) -> None:
    async with running_bot(tmp_path, 3, sb=Sandbox(privacy_mode=privacy)) as h:
        if not admin:
            h.sb.set_bot_rights(h.group, None, by=h.admin)  # a plain member
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        assert h.db.active_game(h.group.id) is not None
        said = "\n".join(h.group_texts())
        for notice in (BLIND, ONLY_WARN):
            assert (notice in said) == (notice == says), said
        assert (FIX in said) == (says == BLIND)


def lobby_button(h: Harness, chat: Chat, verb: str) -> tuple[int, str]:
    """The newest lobby button `verb` in `chat`: (message id, label)."""
    found = find_button(
        h, chat.id, lambda data: (b := decode(data)) is not None and b.kind is Kind.LOBBY
        and b.args == (verb,)
    )  # fmt: skip
    assert found is not None, f"no lobby {verb} button in {chat.title}"
    return found


async def test_the_first_evening(tmp_path: Path) -> None:
    """A new basic group: the bot added, /newgame, three join, the bot made an admin (the
    group upgrades to a supergroup), five more join through the old link, Start on the
    old chat's lobby message, and the game ends normally with all eight, its nights
    masked in the new chat."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, scheduler=scheduler, supergroup=False) as h:
        old = h.group
        before = dict(old.permissions)
        h.db.save_settings(old.id, variant="classic", language="en")
        h.sb.set_bot_rights(old, None, by=h.admin)  # added as a plain member
        await h.settle()
        h.admin.command(old, "newgame", mention=True)
        await h.settle()
        lobby = h.db.active_game(old.id)
        assert lobby is not None
        link = h.sb.deep_link(f"join_{old.id}")
        for user in h.users[:3]:
            user.open_deep_link(link)
            await h.settle()

        new = h.sb.set_bot_rights(old, BOT_RIGHTS, by=h.admin)  # "so it can close the night"
        assert new is not old and new.type == "supergroup"
        await h.settle()
        moved = h.db.get_game(lobby.id)
        assert moved is not None and moved.chat_id == new.id and len(moved.players) == 3
        assert moved.bot_rights.get("can_restrict_members")
        shown = [m for m in h.admin.view(new) if m.buttons]  # the lobby, with its buttons
        assert shown and "Players (3)" in (shown[-1].text or "")
        h.admin.command(new, "newgame", mention=True)  # finds the lobby: no second one
        await h.settle()
        assert h.db.active_game(new.id) == h.db.get_game(lobby.id)
        assert not any("already open" in t for t in h.group_texts())

        for user in h.users[3:]:
            user.open_deep_link(link)  # the link made before the upgrade
            await h.settle()
            assert not any("Only members" in t for t in h.private_texts(user))
        record = h.db.get_game(lobby.id)
        assert record is not None and len(record.players) == 8

        message_id, label = lobby_button(h, old, "start")  # pressed in the old chat
        h.admin.press(old, label, message_id=message_id)
        await h.settle()
        h.group = new
        record = h.db.get_game(lobby.id)
        assert record is not None and record.status is GameStatus.RUNNING
        assert record.chat_id == new.id
        assert new.permissions.get("can_send_messages") is False  # the first night, masked
        record = await AutoPlayers(h, scheduler, seed=3).play(lobby.id)
        assert record.status is GameStatus.ENDED and record.winner
        assert {p.user_id for p in record.players} == {u.id for u in h.users}
        assert dict(new.permissions) == before  # the group's own again
        assert h.db.chat_stats(new.id).games_played == 1


async def test_an_upgrade_in_the_middle_of_a_day_loses_no_vote(tmp_path: Path) -> None:
    """classic's live vote: some vote before the group becomes a supergroup, the others
    after, on the old chat's board and on the new one's: every vote counts."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, scheduler=scheduler, supergroup=False) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        players = AutoPlayers(h, scheduler, seed=11, chatter=0.0)
        for _ in range(400):
            await h.settle()
            record = h.db.get_game(game_id)
            assert record is not None and record.status is GameStatus.RUNNING
            state = GameState.from_dict(record.state or {})
            if state.stage is Stage.DISCUSSION:
                break
            await players.perform(
                record, public_view(state), lively_action(state, players.rng, 0.0)
            )
        assert state.stage is Stage.DISCUSSION and not state.vote.ballots
        alive = list(state.table.alive)
        # each votes for the next player: one vote each, no majority ends the vote early
        votes = {voter: alive[(i + 1) % len(alive)] for i, voter in enumerate(alive)}
        old, half = h.group, len(alive) // 2

        async def vote(voter: str, chat: Chat) -> None:
            seat = str(state.table.seats.index(votes[voter]) + 1)
            found = find_button(h, chat.id, prefix(Kind.VOTE, record, seat))
            assert found is not None, f"no vote board in {chat.title}"
            press = players.user(voter).press(chat, found[1], message_id=found[0])
            await h.settle()
            assert press.answer.get("text") == texts.popup(T, "voted"), press.answer

        for voter in alive[:half]:
            await vote(voter, old)
        new = h.sb.migrate(old, by=h.admin)
        await h.settle()
        for i, voter in enumerate(alive[half:]):
            await vote(voter, old if i % 2 else new)  # the old board and the new one
        record = h.db.get_game(game_id)
        assert record is not None and record.chat_id == new.id
        state = GameState.from_dict(record.state or {})
        assert dict(state.vote.ballots) == votes


TOPIC_RIGHTS = {**BOT_RIGHTS, "can_manage_topics": True}


async def start_in_topic(h: Harness) -> tuple[int, int]:
    h.db.save_settings(h.group.id, variant="classic", language="en")
    table = h.sb.create_topic(h.group, "Mafia table", by=h.admin)
    game_id = await h.open_and_fill(topic=table)
    await h.press_start()
    return table, game_id


async def until_day(h: Harness, scheduler: ManualScheduler, game_id: int) -> None:
    players = AutoPlayers(h, scheduler, seed=5, chatter=0.0)
    for _ in range(200):
        await h.settle()
        record = h.db.get_game(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        state = GameState.from_dict(record.state or {})
        if state.stage is not Stage.NIGHT:
            return
        await players.perform(record, public_view(state), lively_action(state, players.rng, 0.0))
    raise AssertionError("no day came")


@pytest.mark.parametrize("may_manage", [True, False])
async def test_a_topic_closed_by_an_admin(tmp_path: Path, may_manage: bool) -> None:
    """With the right to manage topics the bot reopens its game's topic; without it, it
    says so in General, once."""
    scheduler = ManualScheduler()
    rights = TOPIC_RIGHTS if may_manage else BOT_RIGHTS
    async with running_bot(tmp_path, 7, scheduler=scheduler, forum=True, rights=rights) as h:
        table, game_id = await start_in_topic(h)
        await until_day(h, scheduler, game_id)
        assert not h.group.topics[table].closed
        h.sb.close_topic(h.group, table, by=h.admin)
        await h.settle()
        general = [m.text or "" for m in h.admin.view(h.group, topic=None) if m.thread_id is None]
        said = [t for t in general if "was closed, and I may not reopen it" in t]
        if may_manage:
            assert not h.group.topics[table].closed and said == []
            record = await AutoPlayers(h, scheduler, seed=2).play(game_id)
            assert record.status is GameStatus.ENDED
        else:
            assert h.group.topics[table].closed and len(said) == 1


async def test_a_deleted_topic_ends_its_game_and_newgame_works(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler, forum=True, rights=TOPIC_RIGHTS) as h:
        table, game_id = await start_in_topic(h)
        await until_day(h, scheduler, game_id)
        h.sb.delete_topic(h.group, table, by=h.admin)
        await scheduler.fire(f"game-{game_id}")  # the game's next call finds the topic gone
        await h.settle()
        record = h.db.get_game(game_id)
        assert record is not None and record.status is GameStatus.ABORTED
        general = [m.text or "" for m in h.admin.view(h.group) if m.thread_id is None]
        assert sum("was deleted: the game has stopped" in t for t in general) == 1
        assert backlog(h.db) == (0, None)  # nothing left trying to reach the topic
        gone = h.sb.log.calls("sendMessage", ok=False)
        assert len(gone) <= 2, [r.description for r in gone]
        h.admin.send(h.group, "/newgame@" + h.sb.bot_username)
        await h.settle()
        lobby = h.db.active_game(h.group.id)
        assert lobby is not None and lobby.status is GameStatus.LOBBY
        assert any("Players (0)" in (m.text or "") for m in h.admin.view(h.group))

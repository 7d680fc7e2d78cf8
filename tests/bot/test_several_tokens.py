"""Several bot tokens served by one process (Werewolf for Telegram's way to scale): each
group plays with the bot it added, each token with its own budget, outbox and timers,
one game a chat whichever bot runs it."""

from __future__ import annotations

from pathlib import Path

from engine import GameState
from tests.bot.autoplay import AutoPlayers
from tests.bot.several import accounts, running_fleet
from tg_mafia.bootstrap import BotOptions, scrape_metrics
from tg_mafia.i18n import translator
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.calls import Send
from tg_mafia.render.calls_json import to_json
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.limits import CHARGED_METHODS
from tg_mafia.storage import GameStatus

SENT = CHARGED_METHODS | {"deleteMessage", "restrictChatMember", "setChatPermissions"}


async def test_two_tokens_two_groups_each_plays_with_its_bot_to_the_end(tmp_path: Path) -> None:
    sb = Sandbox()
    bots = accounts(sb, 2)
    schedulers = [ManualScheduler(), ManualScheduler()]
    async with running_fleet(tmp_path, sb, bots, 7, schedulers=schedulers) as fleet:
        games = []
        for h in fleet.bots:
            games.append(await h.open_and_fill())
            await h.press_start()
        t = translator("en")
        for h, game_id, bot in zip(fleet.bots, games, bots, strict=True):
            record = h.db.get_game(game_id)
            assert record is not None and record.bot_id == bot.id
            state = GameState.from_dict(record.state or {})
            for user in h.users:  # the roles, in the private chat with the game's bot
                role = texts.role_name(t, state.table.roles[str(user.id)])
                assert any(role in m for m in h.private_texts(user))
        for h, game_id, scheduler in zip(fleet.bots, games, schedulers, strict=True):
            ended = await AutoPlayers(h, scheduler, seed=3, chatter=0.1).play(game_id)
            assert ended.status is GameStatus.ENDED and ended.winner
        for h, bot in zip(fleet.bots, bots, strict=True):
            # every call into a group was its own bot's; no private message of another
            into_group = {r.bot_id for r in sb.log.calls(chat_id=h.group.id) if r.ok}
            assert into_group == {bot.id}
            for user in h.users:
                others = [b for b in bots if b is not bot]
                assert all(user.view(user.private_chat_with(b)) == [] for b in others)
        assert sb.log.count_429() == 0


async def test_a_group_with_both_bots_plays_one_game_and_the_other_bot_keeps_quiet(
    tmp_path: Path,
) -> None:
    """A bare command reaches both bots and one answers (the first of them, with no game
    there); a bare /newgame opens one lobby, the other bot says nothing; asked by name,
    the other says once which bot runs the game, and leaves its commands alone."""
    sb = Sandbox()
    bots = accounts(sb, 2)
    async with running_fleet(tmp_path, sb, bots, groups=False) as fleet:
        players = sb.add_users(3)
        admin = sb.add_user("Admin")
        group = sb.add_group(
            "Both", members=[*players, admin], owner=admin, bot_rights=BOT_RIGHTS, bots=bots
        )
        admin.send(group, "/rules")
        await fleet.settle()
        answers = [r.bot_id for r in sb.log.calls("sendMessage", group.id, True)]
        assert answers == [bots[0].id]  # one answer, the first bot's
        admin.send(group, "/newgame")
        await fleet.settle()
        (game,) = fleet.db.unfinished_games()
        runner = next(b for b in bots if b.id == game.bot_id)
        other = next(b for b in bots if b is not runner)
        # nothing said (a look at its own rights, getChatMember, shows nobody anything)
        said = [r for r in sb.log.calls(chat_id=group.id, bot_id=other.id) if r.method in SENT]
        assert said == []
        admin.command(group, "newgame", mention=True, bot=other)
        admin.command(group, "cancel", mention=True, bot=other)
        await fleet.settle()
        said = [r.params["text"] for r in sb.log.calls("sendMessage", group.id, True, other.id)]
        expected = f"A game is already open in this chat, with @{runner.username}."
        assert said == [expected, expected]  # once for each command that named it
        assert fleet.db.active_game(group.id) == fleet.db.get_game(game.id)  # not cancelled
        admin.send(group, "/newgame")  # bare again: the other bot stays quiet
        await fleet.settle()
        assert len(sb.log.calls("sendMessage", group.id, True, other.id)) == 2
        assert [g.id for g in fleet.db.unfinished_games()] == [game.id]


async def test_a_player_who_started_only_one_bot_is_sent_to_the_other(tmp_path: Path) -> None:
    """The hints that ask to start a private chat name the game's bot; a player who
    joins the second bot's lobby gets the role from it, not from the bot they knew."""
    sb = Sandbox()
    first, second = bots = accounts(sb, 2)
    async with running_fleet(tmp_path, sb, bots, 7) as fleet:
        h = fleet.bots[1]  # the second bot's group
        host = h.admin
        host.start(bot=first)  # the first bot only
        await fleet.settle()
        with_first = [m.text for m in host.view(host.private_chat_with(first))]  # its greeting
        await h.open_and_fill()
        host.command(h.group, "host", mention=True, bot=second)
        await fleet.settle()
        asked = sb.log.calls("sendMessage", ok=True, bot_id=second.id)[-1].params["text"]
        assert f"https://t.me/{second.username}" in asked
        assert first.username not in asked
        host.start(bot=second)
        host.command(h.group, "host", mention=True, bot=second)
        await fleet.settle()
        await h.press_start()
        record = h.db.active_game(h.group.id)
        assert record is not None and record.status is GameStatus.RUNNING
        assert record.host_user_id == host.id
        roles = [m.text or "" for m in host.view(host.private_chat_with(second))]
        assert any(m.startswith("🎭 You host this game. The roles:") for m in roles), roles
        assert [m.text for m in host.view(host.private_chat_with(first))] == with_first


async def test_one_bots_backlog_does_not_slow_the_other(tmp_path: Path) -> None:
    """Each token has its own outbox and budget: the first bot holds half a minute of
    calls (500 to 100 private chats, at its 30 a second), the second bot's lobby
    reaches its group at once, as it would not behind a shared budget."""
    sb = Sandbox()
    bots = accounts(sb, 2)
    readers = sb.add_users(100, started=True, prefix="Reader")  # they started the first bot
    async with running_fleet(tmp_path, sb, bots, 7) as fleet:
        busy, free = fleet.bots
        with busy.db.transaction() as tx:
            for n in range(5):
                for reader in readers:  # each too long to be merged with the next
                    op = Send(text=f"news {n} for {reader.name} " + "x" * 3000)
                    tx.enqueue(reader.id, to_json(op), now=0.0)
        busy.service.sender.wake()
        began = sb.clock.now()
        free.admin.command(free.group, "newgame", mention=True, bot=bots[1])
        await free.settle()
        lobby = [r for r in sb.log.calls("sendMessage", free.group.id, True) if r.params.get(
            "reply_markup")]  # fmt: skip
        assert lobby and lobby[0].time - began < 5.0
        busy_sent = [r for r in sb.log.calls(ok=True, bot_id=bots[0].id) if r.chat_id in
                     {u.id for u in readers}]  # fmt: skip
        assert len([r for r in busy_sent if r.time <= lobby[0].time]) < 200  # half or less
        await fleet.settle()  # and the first bot's 500 go out in their own time
        sent = [r for r in sb.log.calls("sendMessage", ok=True, bot_id=bots[0].id)
                if r.chat_id in {u.id for u in readers}]  # fmt: skip
        assert len(sent) == 500 and sb.log.count_429() == 0


async def test_a_restart_with_two_tokens_resumes_both_games(tmp_path: Path) -> None:
    sb = Sandbox()
    bots = accounts(sb, 2)
    url = f"sqlite:///{tmp_path / 'fleet.db'}"
    async with running_fleet(tmp_path, sb, bots, 7, database_url=url) as fleet:
        games = []
        for h in fleet.bots:
            games.append(await h.open_and_fill())
            await h.press_start()
        kept = [(h.group, h.users, h.admin) for h in fleet.bots]
    schedulers = [ManualScheduler(), ManualScheduler()]
    async with running_fleet(
        tmp_path, sb, bots, 0, database_url=url, schedulers=schedulers, groups=False
    ) as again:
        for index, (app, scheduler) in enumerate(zip(again.apps, schedulers, strict=True)):
            game_id = games[index]
            assert f"game-{game_id}" in scheduler.armed  # its timer, from its deadline
            group, users, admin = kept[index]
            h = Harness(sb, app, again.db.for_bot(bots[index].id), group, users, admin, bots[index])
            ended = await AutoPlayers(h, scheduler, seed=5, chatter=0.1).play(game_id)
            assert ended.status is GameStatus.ENDED


async def test_status_and_metrics_show_each_token(tmp_path: Path) -> None:
    """The owner's /status shows each token's games, calls, budget and outbox; /metrics
    labels every bot's samples with its id, in one exposition."""
    sb = Sandbox()
    bots = accounts(sb, 2)
    owner = sb.add_user("Owner", started=True)
    options = BotOptions(lobby_seconds=3600, owner_id=owner.id)
    async with running_fleet(tmp_path, sb, bots, 7, options=options) as fleet:
        await fleet.bots[1].open_and_fill()
        owner.command(owner.private_chat, "status")
        await fleet.settle()
        status = owner.texts()[-1]
        first, second = status.split(f"@{bots[1].username}")
        assert f"@{bots[0].username}" in first and "Open lobbies: 0." in first
        assert "Open lobbies: 1." in second and "Calls to Telegram:" in second
        assert "New games turned away since the start: 0." in second
        samples = [
            line for line in (await scrape_metrics(fleet.apps[0])).decode().splitlines()
            if line.startswith("tg_mafia_games{")
        ]  # fmt: skip
        assert samples == [
            f'tg_mafia_games{{bot="{bots[1].id}",replica="sandbox",stage="lobby",'
            'variant="classic"} 1.0'
        ]

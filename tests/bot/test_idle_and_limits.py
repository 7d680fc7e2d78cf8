"""Idle players, abandoned games and the human host's limits on the sandbox:
a player who never acts is reminded in private, then out; a table where
nobody acts ends abandoned and uncounted; only the opener or an admin may
host; a pause and a confirmation that end by themselves."""

from __future__ import annotations

from pathlib import Path

from engine import GameState, Role, Stage, public_view
from engine.actions import Nominate, Pass
from engine.simulation import lively_action
from engine.state import Cause
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import Harness, running_bot
from tests.bot.test_host_mode import host_press, hosted_game, load, plain
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.storage import GameStatus

T = translator("en")


def role_words() -> list[str]:
    return [texts.role_name(T, role) for role in Role]


async def auto_game(h: Harness, variant: str) -> int:
    h.db.save_settings(h.group.id, variant=variant, language="en")
    game_id = await h.open_and_fill()
    await h.press_start()
    return game_id


async def test_a_player_who_never_acts_is_reminded_then_out(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await auto_game(h, "club")
        record, state = load(h, game_id)
        idle = next(p for p in state.table.seats if state.table.roles[p] is Role.MAFIA)
        idle_user = next(u for u in h.users if str(u.id) == idle)
        players = AutoPlayers(h, scheduler, seed=5, chatter=0.0)
        while state.table.is_alive(idle):
            assert players.steps < 2000 and record.status is GameStatus.RUNNING
            players.steps += 1
            action = lively_action(state, players.rng)
            if isinstance(action, Nominate) and action.target == idle:
                action = Pass(action.actor)  # nobody votes them out first
            if action.actor == idle:  # their turn: they let it run out
                await scheduler.fire(f"game-{game_id}")
            else:
                await players.perform(record, public_view(state), action)
            await h.settle()
            record, state = load(h, game_id)
        assert state.table.dead[idle] is Cause.IDLE
        reminder = texts.idle_reminder(T, record.title, 1)
        assert record.title and reminder in h.private_texts(idle_user)
        name = next(p.name for p in record.players if p.user_id == idle_user.id)
        # (Others may be out too: the timers that ran out this player's turns ran out theirs.)
        (out,) = [m for m in h.group_texts() if "let their turns pass" in m and name in m]
        assert not any(word in out for word in role_words())  # club hides roles on death


async def test_a_table_where_nobody_acts_ends_abandoned_and_uncounted(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, scheduler=scheduler) as h:
        chat = h.sb.world.resolve_chat(h.group.id)
        before = dict(chat.permissions)
        stats = h.db.chat_stats(h.group.id)
        game_id = await auto_game(h, "moscow")
        timers = 0
        while (record := h.db.get_game(game_id)) and record.status is GameStatus.RUNNING:
            # The group learns no role while the game runs.
            assert not any(word in m for m in h.group_texts() for word in role_words())
            timers += 1
            assert timers <= 30, "a dead table went on"
            assert await scheduler.fire(f"game-{game_id}")
            await h.settle()
        assert record is not None and record.status is GameStatus.ABORTED
        state = GameState.from_dict(record.state or {})
        assert state.outcome.abandoned and state.outcome.winner is None and not state.table.dead
        assert any(plain(texts.abandoned_line(T)) in plain(m) for m in h.group_texts())
        assert chat.permissions == before
        assert h.db.chat_stats(h.group.id) == stats
        assert f"game-{game_id}" not in scheduler.armed


async def test_only_the_opener_or_an_admin_may_host(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        member = h.users[0]
        member.start()
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        member.command(h.group, "host", mention=True)
        await h.settle()
        assert h.group_texts()[-1] == texts.popup(T, "only_opener")
        record = h.db.active_game(h.group.id)
        assert record is not None and record.host_user_id is None


async def test_a_pause_ends_by_itself(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await hosted_game(h, "club")
        timer = f"game-{game_id}"
        assert await scheduler.fire(timer)  # the quiet first night
        await h.settle()
        record, state = load(h, game_id)
        speaker = state.day.speaker
        await host_press(h, record, "pause")
        record, state = load(h, game_id)
        assert state.clock.paused and record.paused_left is not None
        left = record.paused_left
        assert await scheduler.fire(timer)  # pause_limit has run out
        await h.settle()
        record, state = load(h, game_id)
        assert not state.clock.paused and state.day.speaker == speaker and timer in scheduler.armed
        assert plain(texts.timer_note(T, "unpaused", 0)) in h.group_texts()
        assert record.stage_deadline is not None
        now = h.service.clock.now()
        assert record.stage_deadline - now <= left + 1  # the time left, not a new floor


async def test_a_silent_host_confirms_by_itself(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await hosted_game(h, "classic")
        players = AutoPlayers(h, scheduler, seed=2)
        record, state = load(h, game_id)
        while state.stage is not Stage.CONFIRM:
            assert players.steps < 3000 and record.status is GameStatus.RUNNING
            players.steps += 1
            await players.perform(
                record, public_view(state), lively_action(state, players.rng, 0.03)
            )
            await h.settle()
            record, state = load(h, game_id)
        winner = state.outcome.pending_winner
        assert winner is not None
        assert await scheduler.fire(f"game-{game_id}")  # confirm_seconds, the host silent
        await h.settle()
        record, state = load(h, game_id)
        assert record.status is GameStatus.ENDED and state.outcome.winner is winner
        assert any(plain(texts.winner_line(T, winner)) in m for m in h.group_texts())

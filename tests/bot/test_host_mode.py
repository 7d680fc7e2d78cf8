"""The human host on the sandbox: /host in the lobby, every role and night
move in the host's private chat, the control panel (pause, resume, +30 s,
skip the speaker, warn) and the confirmation of the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import GameState, Stage, public_view
from engine.actions import NightChoice
from engine.simulation import lively_action
from engine.variants import NightMove
from tests.bot.autoplay import AutoPlayers, prefix, press
from tests.bot.harness import Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.render.texts.table import Table
from tg_mafia.storage import GameRecord, GameStatus

T = translator("en")


def plain(text: str) -> str:
    return text.replace("<b>", "").replace("</b>", "")


async def hosted_game(h: Harness, variant: str) -> int:
    """/newgame and /host by the admin, every player joins, Start."""
    h.db.save_settings(h.group.id, variant=variant, language="en")
    h.admin.start()  # the host's private chat is open, as a player's is
    await h.settle()
    h.admin.command(h.group, "newgame", mention=True)
    await h.settle()
    h.admin.command(h.group, "host", mention=True)
    await h.settle()
    assert "hosts this game" in h.group_texts()[-1]
    for user in h.users:
        user.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
        await h.settle()
    await h.press_start()
    record = h.db.active_game(h.group.id)
    assert record is not None and record.status is GameStatus.RUNNING
    assert record.host_user_id == h.admin.id
    return record.id


def load(h: Harness, game_id: int) -> tuple[GameRecord, GameState]:
    record = h.db.get_game(game_id)
    assert record is not None and record.state is not None
    return record, GameState.from_dict(record.state)


def table_of(record: GameRecord) -> Table:
    return Table(
        tuple(str(p.user_id) for p in record.players),
        {str(p.user_id): p.name for p in record.players},
    )


async def host_press(h: Harness, record: GameRecord, verb: str) -> str:
    assert press(h, h.admin, h.admin.id, prefix(Kind.HOST, record, verb)), f"no {verb} button"
    await h.settle()
    return h.private_texts(h.admin)[-1]


@pytest.mark.parametrize(
    ("variant", "size", "seed"), [("club", 9, 1), ("classic", 7, 2), ("sport", 10, 3)]
)
async def test_a_whole_game_with_a_human_host(
    tmp_path: Path, variant: str, size: int, seed: int
) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, size, scheduler=scheduler) as h:
        game_id = await hosted_game(h, variant)
        record, state = load(h, game_id)
        assert str(h.admin.id) not in state.table.seats and state.human_host
        # The host has every role, in private.
        table = table_of(record)
        roles = next(m for m in h.private_texts(h.admin) if "You host this game" in m)
        for player in state.table.seats:
            assert (
                plain(f"{table.label(player)}: {texts.role_label(T, state.table.roles[player])}")
                in roles
            )
        players = AutoPlayers(h, scheduler, seed)
        confirmed = False
        checks = 0  # the night checks the game took (the deal is random: maybe none)
        while True:
            await h.settle()
            record, state = load(h, game_id)
            if record.status is not GameStatus.RUNNING:
                break
            if state.stage is Stage.CONFIRM:
                # The side has won, but the group sees no end until the host confirms.
                assert state.outcome.pending_winner is not None
                line = plain(texts.winner_line(T, state.outcome.pending_winner))
                assert not any(line in m for m in h.group_texts())
                asked = plain(texts.confirm_request(T, state.outcome.pending_winner))
                assert asked in h.private_texts(h.admin)
                # confirm_seconds ends it if the host stays silent.
                assert "game-" + str(game_id) in scheduler.armed
                confirmed = True
            players.steps += 1
            assert players.steps < 3000
            action = lively_action(state, players.rng, 0.03)
            await players.perform(record, public_view(state), action)
            if isinstance(action, NightChoice) and action.move is NightMove.CHECK and action.target:
                await h.settle()
                checks += load(h, game_id)[0].version > record.version
        assert confirmed and record.status is GameStatus.ENDED and record.winner
        final = GameState.from_dict(record.state or {})
        assert final.outcome.winner is not None
        assert any(plain(texts.winner_line(T, final.outcome.winner)) in m for m in h.group_texts())
        # Every night move reached the host.
        host_private = "\n".join(h.private_texts(h.admin))
        assert ") targets " in host_private or "does nothing tonight" in host_private
        if checks:
            assert ") checks " in host_private


async def test_the_host_panel_pauses_resumes_extends_skips_and_warns(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await hosted_game(h, "club")
        timer = f"game-{game_id}"
        record, state = load(h, game_id)
        assert state.stage is Stage.NIGHT
        assert any("Host panel" in m for m in h.private_texts(h.admin))
        assert await scheduler.fire(timer)  # the quiet first night ends
        await h.settle()
        record, state = load(h, game_id)
        assert state.stage is Stage.SPEECH and state.day.speaker is not None
        speaker = state.day.speaker

        # Pause: the timer stops, the pause's own limit runs; a late timer job changes nothing.
        late = scheduler.armed[timer][1]
        await host_press(h, record, "pause")
        record, state = load(h, game_id)
        assert state.clock.paused and record.stage_deadline is not None and timer in scheduler.armed
        assert plain(texts.timer_note(T, "paused", 0)) in h.group_texts()
        version = record.version
        await late()
        await h.settle()
        record, state = load(h, game_id)
        assert record.version == version and state.day.speaker == speaker and state.clock.paused
        await host_press(h, record, "pause")  # pausing twice is refused
        assert load(h, game_id)[0].version == version

        # Resume: the timer runs again.
        await host_press(h, record, "resume")
        record, state = load(h, game_id)
        assert (
            not state.clock.paused
            and record.stage_deadline is not None
            and timer in scheduler.armed
        )
        assert plain(texts.timer_note(T, "resumed", 0)) in h.group_texts()

        # +30 s: the same floor, a later deadline.
        seconds, deadline = state.clock.timer_seconds or 0, record.stage_deadline
        await host_press(h, record, "extend")
        record, state = load(h, game_id)
        assert state.clock.timer_seconds == seconds + 30 and state.day.speaker == speaker
        assert deadline is not None and record.stage_deadline == pytest.approx(deadline + 30)
        assert plain(texts.timer_note(T, "extended", 30)) in h.group_texts()

        # Skip the speaker: the floor passes on.
        await host_press(h, record, "skip")
        record, state = load(h, game_id)
        assert state.stage is Stage.SPEECH and state.day.speaker not in (None, speaker)

        # Warn: a menu of the living in private, then the warning in the group.
        target = state.table.seats[-1]
        assert press(h, h.admin, h.admin.id, prefix(Kind.HOST_WARN_MENU, record))
        await h.settle()
        assert h.private_texts(h.admin)[-1] == T.gettext("Warn whom?")
        h.admin.press(h.admin.private_chat, table_of(record).button(target))
        await h.settle()
        record, state = load(h, game_id)
        assert state.table.warnings.get(target) == 1
        # Said in the group: its own message, or (during a speech) an edit of the floor's.
        warning = plain(texts.warned(T, table_of(record), target, 1, 3, "host"))
        assert any(warning in text for text in h.group_texts())


async def test_host_needs_an_open_lobby_and_only_one_host(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        for user in (h.admin, h.users[0]):
            user.start()
        h.admin.command(h.group, "host", mention=True)
        await h.settle()
        assert "/newgame first" in h.group_texts()[-1]
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        h.admin.command(h.group, "host", mention=True)
        await h.settle()
        h.users[0].command(h.group, "host", mention=True)
        await h.settle()
        assert "has a host already" in h.group_texts()[-1]
        h.admin.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
        await h.settle()
        assert "the host does not play" in h.private_texts(h.admin)[-1]


async def test_a_host_the_bot_cannot_write_to_is_refused(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        h.admin.command(h.group, "host", mention=True)  # never started the bot
        await h.settle()
        assert "open a private chat with me first" in h.group_texts()[-1]
        record = h.db.active_game(h.group.id)
        assert record is not None and record.host_user_id is None
        h.admin.start()
        await h.settle()
        h.admin.command(h.group, "host", mention=True)
        await h.settle()
        record = h.db.active_game(h.group.id)
        assert record is not None and record.host_user_id == h.admin.id

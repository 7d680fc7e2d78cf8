"""A forum game whose topic an administrator closes, with a bot that may not reopen
it (no can_manage_topics): General hears it once and the game stands still, its
timers with it, until the topic is reopened, when the stage goes on with the time it
had left; or, closed past the limit (CLOSED_TOPIC_SECONDS), the game ends unscored
with its protocol. A restart in the meantime keeps it standing still.

The timers here are the bot's own, on the loop's virtual clock (no ManualScheduler):
a timer armed for the wrong moment would fire as the clock is moved past it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import GameState, Stage
from tests.bot.autoplay import find_button
from tests.bot.harness import BOT_RIGHTS, Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind, decode
from tg_mafia.sandbox import Sandbox
from tg_mafia.storage import GameRecord, GameStatus

T = translator("en")
LIMIT = 1800  # the default CLOSED_TOPIC_SECONDS
PAUSED = "the game is paused until an administrator reopens the topic"
REOPENED = "The topic is open again"
ENDED = "topic stayed closed too long"


def load(h: Harness, game_id: int) -> tuple[GameRecord, GameState]:
    record = h.db.get_game(game_id)
    assert record is not None and record.state is not None
    return record, GameState.from_dict(record.state)


def refused(h: Harness) -> list[str]:
    """Calls Telegram refused (a post into the closed topic would be one); a restart's
    second poller meeting the first one's long poll aside."""
    return [
        f"{r.method}: {r.description}" for r in h.sb.log.calls(ok=False) if r.method != "getUpdates"
    ]


def general(h: Harness) -> list[str]:
    return [m.text or "" for m in h.admin.view(h.group, topic=None) if m.thread_id is None]


def in_topic(h: Harness, table: int) -> list[str]:
    return [m.text or "" for m in h.admin.view(h.group, topic=table) if m.thread_id == table]


async def a_speech(h: Harness) -> tuple[int, int]:
    """A club game in its own topic, at the first speech of day 1 (the zero night
    passes on its timer)."""
    h.db.save_settings(h.group.id, variant="club", language="en")
    table = h.sb.create_topic(h.group, "Mafia table", by=h.admin)
    game_id = await h.open_and_fill(topic=table)
    await h.press_start()
    for _ in range(30):
        _, state = load(h, game_id)
        if state.stage is Stage.SPEECH:
            return table, game_id
        await asyncio.sleep(5)
        await h.settle()
    raise AssertionError("no speech came")


async def closed(h: Harness, table: int, game_id: int) -> tuple[GameRecord, GameState, float]:
    """20 seconds into the speech, the admin closes the topic: the seconds it had left."""
    await asyncio.sleep(20)
    record, _ = load(h, game_id)
    assert record.stage_deadline is not None
    left = record.stage_deadline - h.service.clock.now()
    assert 30 < left < 45  # a 60-second speech, its message's delivery included
    h.sb.close_topic(h.group, table, by=h.admin)
    await h.settle()
    record, state = load(h, game_id)
    assert state.clock.suspended and record.status is GameStatus.RUNNING
    assert record.paused_left == pytest.approx(left, abs=0.5)
    assert record.stage_deadline == pytest.approx(h.service.clock.now() + LIMIT, abs=1)
    assert sum(PAUSED in text for text in general(h)) == 1
    return record, state, left


async def test_a_closed_topic_pauses_the_game_until_it_is_reopened(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7, forum=True) as h:  # no right to manage topics
        table, game_id = await a_speech(h)
        _, before = load(h, game_id)
        _, _, left = await closed(h, table, game_id)

        await asyncio.sleep(left + 600)  # far past the speech's end, short of the limit
        await h.settle()
        _, state = load(h, game_id)
        assert state.clock.suspended
        assert (state.step, state.day.speaker) == (before.step, before.day.speaker)  # nothing fired
        assert not refused(h)  # nothing tried in the closed topic
        assert h.group.topics[table].closed and sum(PAUSED in t for t in general(h)) == 1

        h.sb.reopen_topic(h.group, table, by=h.admin)
        await h.settle()
        record, state = load(h, game_id)
        assert not state.clock.suspended and record.paused_left is None
        assert (state.step, state.day.speaker) == (before.step, before.day.speaker)
        assert record.stage_deadline is not None
        assert record.stage_deadline - h.service.clock.now() == pytest.approx(left, abs=1)
        assert sum(REOPENED in text for text in in_topic(h, table)) == 1

        await asyncio.sleep(left - 3)  # the floor is still the speaker's
        await h.settle()
        assert load(h, game_id)[1].day.speaker == before.day.speaker
        await asyncio.sleep(6)  # and passes on its restored deadline
        await h.settle()
        _, state = load(h, game_id)
        assert state.day.speaker != before.day.speaker and state.step > before.step
        assert sum(PAUSED in text for text in general(h)) == 1
        assert not refused(h)


async def test_a_topic_closed_past_the_limit_ends_the_game_with_its_protocol(
    tmp_path: Path,
) -> None:
    """Closed, the bot restarted meanwhile (still paused: no timer of the stage
    fires), and never reopened: at the limit the game ends unscored, said in General
    with its protocol."""
    sb = Sandbox()
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    async with running_bot(tmp_path, 7, sb=sb, database_url=url, forum=True) as h:
        table, game_id = await a_speech(h)
        record, before, left = await closed(h, table, game_id)
        limit_at = record.stage_deadline
        users, admin, group = h.users, h.admin, h.group
        h.service.keeper.cancel_all()  # the process dies: its timers with it
        await h.crash()
    async with running_bot(tmp_path, 0, sb=sb, database_url=url) as h:
        h.users, h.admin, h.group = users, admin, group
        await h.settle()
        await asyncio.sleep(left + 60)  # the speech would have ended by now
        await h.settle()
        record, state = load(h, game_id)
        assert state.clock.suspended and state.step == before.step
        assert record.stage_deadline == limit_at  # the limit, as stored before the restart

        assert limit_at is not None
        await asyncio.sleep(limit_at - h.service.clock.now() + 1)
        await h.settle()
        record, state = load(h, game_id)
        assert record.status is GameStatus.ABORTED and state.unscored  # not counted
        assert h.db.chat_stats(h.group.id).games_played == 0
        [end] = [m for m in h.admin.view(h.group, topic=None) if ENDED in (m.text or "")]
        assert end.thread_id is None  # in General: the topic is still closed
        assert texts.button(T, "protocol") in [label for row in end.buttons for label in row]
        assert not refused(h)

        player = users[0]
        found = find_button(
            h,
            h.group.id,
            lambda data: (b := decode(data)) is not None and b.kind is Kind.PROTOCOL,
        )
        assert found is not None
        player.press(h.group, found[1], message_id=found[0])
        await h.settle()
        protocol = [t for t in h.private_texts(player) if "Protocol" in t]
        assert protocol and ENDED in protocol[0]
        assert any(m.media == "document" for m in player.view(player.private_chat))  # as data


async def test_given_the_right_the_bot_reopens_the_topic_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """The notice's other way out: an administrator gives the bot the right to manage
    topics; it reopens the topic itself (Telegram does not tell it of its own reopening)
    and the game goes on with the time its stage had left."""
    async with running_bot(tmp_path, 7, forum=True) as h:
        table, game_id = await a_speech(h)
        _, before = load(h, game_id)
        _, _, left = await closed(h, table, game_id)
        await asyncio.sleep(120)
        h.sb.set_bot_rights(h.group, {**BOT_RIGHTS, "can_manage_topics": True}, by=h.admin)
        await h.settle()
        record, state = load(h, game_id)
        assert not h.group.topics[table].closed
        assert not state.clock.suspended and (state.step, state.day.speaker) == (
            before.step,
            before.day.speaker,
        )
        assert record.stage_deadline is not None
        assert record.stage_deadline - h.service.clock.now() == pytest.approx(left, abs=1)
        assert sum(REOPENED in text for text in in_topic(h, table)) == 1
        assert not refused(h)


async def test_a_topic_closed_at_night_pauses_the_night_too(tmp_path: Path) -> None:
    """The bot, which may not close the topic at night, may not reopen it in the morning
    either: closed at night, the game stands still as by day."""
    async with running_bot(tmp_path, 7, forum=True) as h:
        h.db.save_settings(h.group.id, variant="club", language="en")
        table = h.sb.create_topic(h.group, "Mafia table", by=h.admin)
        game_id = await h.open_and_fill(topic=table)
        await h.press_start()
        _, night = load(h, game_id)
        assert night.stage is Stage.NIGHT
        h.sb.close_topic(h.group, table, by=h.admin)
        await h.settle()
        await asyncio.sleep(600)  # far past the zero night's minute
        await h.settle()
        _, state = load(h, game_id)
        assert state.clock.suspended and (state.stage, state.step) == (Stage.NIGHT, night.step)
        assert sum(PAUSED in text for text in general(h)) == 1
        h.sb.reopen_topic(h.group, table, by=h.admin)
        await h.settle()
        await asyncio.sleep(120)  # the night's minute runs out now
        await h.settle()
        _, state = load(h, game_id)
        assert not state.clock.suspended and state.stage is Stage.SPEECH
        assert not refused(h)

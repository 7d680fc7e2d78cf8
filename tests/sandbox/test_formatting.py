"""The date_time entity (HTML <tg-time>, or given in entities), as Telegram parses and
refuses it, and how tests read it back from what users see."""

from __future__ import annotations

import datetime as dtm
import io

import pytest
from PIL import Image
from telegram import MessageEntity
from telegram.constants import ParseMode
from telegram.error import BadRequest

from .conftest import Env

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

DEADLINE = 1_900_000_000


async def test_tg_time_becomes_a_date_time_entity(env: Env) -> None:
    html = f'🌙 Vote until <tg-time unix="{DEADLINE}" format="wDT">22:45</tg-time>, <b>quick</b>'
    sent = await env.bot.send_message(env.group.id, html, parse_mode=ParseMode.HTML)
    assert sent.text == "🌙 Vote until 22:45, quick"
    deadline = sent.entities[0]
    assert deadline.type == "date_time" and deadline.date_time_format == "wDT"
    assert deadline.unix_time == dtm.datetime.fromtimestamp(DEADLINE, dtm.UTC)
    (seen,) = env.users[0].view(env.group)
    (entity,) = seen.entities_of("date_time")
    assert entity["unix_time"] == DEADLINE and seen.entity_text(entity) == "22:45"
    assert seen.entity_text(seen.entities_of("bold")[0]) == "quick"  # UTF-16 offsets
    assert env.sb.render(env.users[0], env.group).endswith(": 🌙 Vote until 22:45, quick")


@pytest.mark.parametrize("fmt", ["", "r", "w", "d", "D", "t", "T", "wd", "dT", "wDt", "wDT"])
async def test_formats_telegram_documents(env: Env, fmt: str) -> None:
    html = f'<tg-time unix="{DEADLINE}" format="{fmt}">soon</tg-time>'
    sent = await env.bot.send_message(env.group.id, html, parse_mode=ParseMode.HTML)
    assert sent.entities[0].date_time_format == fmt


@pytest.mark.parametrize("fmt", ["x", "rt", "tw", "Td", "dD", "tt", "wr"])
async def test_formats_refused(env: Env, fmt: str) -> None:
    html = f'<tg-time unix="{DEADLINE}" format="{fmt}">soon</tg-time>'
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities: Invalid date format used"):
        await env.bot.send_message(env.group.id, html, parse_mode=ParseMode.HTML)


async def test_without_a_unix_time_the_entity_is_dropped(env: Env) -> None:
    # Telegram's parser reads a missing or non-numeric unix as 0 and drops the entity
    for attribute in ("", 'unix="tomorrow"', 'unix="0"'):
        html = f"<tg-time {attribute}>soon</tg-time>!"
        sent = await env.bot.send_message(env.group.id, html, parse_mode=ParseMode.HTML)
        assert sent.text == "soon!" and sent.entities == ()


async def test_date_time_given_as_an_entity(env: Env) -> None:
    when = dtm.datetime.fromtimestamp(DEADLINE, dtm.UTC)
    entity = MessageEntity("date_time", 0, 4, unix_time=when, date_time_format="r")
    sent = await env.bot.send_message(env.group.id, "soon", entities=[entity])
    assert sent.entities[0].unix_time == when
    bad = MessageEntity("date_time", 0, 4, unix_time=when, date_time_format="later")
    with pytest.raises(BadRequest, match=r"(?i)Invalid date-time format specified"):
        await env.bot.send_message(env.group.id, "soon", entities=[bad])
    missing = MessageEntity("date_time", 0, 4)
    with pytest.raises(BadRequest, match=r'(?i)can\'t find field "unix_time"'):
        await env.bot.send_message(env.group.id, "soon", entities=[missing])


async def test_date_time_in_a_caption(env: Env) -> None:
    photo = io.BytesIO()
    Image.new("RGB", (64, 64)).save(photo, "PNG")
    caption = f'Night until <tg-time unix="{DEADLINE}" format="t">23:00</tg-time>'
    sent = await env.bot.send_photo(
        env.group.id, photo.getvalue(), caption=caption, parse_mode=ParseMode.HTML
    )
    assert sent.caption_entities[0].type == "date_time"
    (seen,) = env.users[0].view(env.group)
    assert seen.entity_text(seen.entities_of("date_time")[0]) == "23:00"

"""Media: what users send (captions, albums) and what the bot sends (sendPhoto,
sendDocument) with Telegram's checks, on both transports."""

from __future__ import annotations

import datetime as dtm
import io

import pytest
from PIL import Image
from telegram import ChatPermissions, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, NetworkError

from tests.loopback import loopback_client
from tg_mafia.sandbox import Limits, Sandbox, SimulationError, Upload

from .conftest import TRANSPORTS, Env, connected

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def image(width: int, height: int, fmt: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.new("1", (width, height), 1).save(out, fmt)  # 1 bit a pixel: big sides, small memory
    return out.getvalue()


async def test_users_send_media_with_captions(env: Env) -> None:
    sb, group, user = env.sb, env.group, env.users[0]
    photo = image(1000, 500)
    user.send_photo(group, photo, caption=f"/vote@{sb.bot_username} 3")
    user.send_document(group, b"role list", file_name="roles.txt", caption="roles")
    user.send_sticker(group, emoji="🎲")
    user.send_voice(group, duration=4)
    user.send_video(group, duration=7, caption="clip")
    user.send_animation(group)
    shot, document, sticker, voice, video, animation = [
        u.message for u in await env.bot.get_updates() if u.message is not None
    ]
    assert shot.caption == f"/vote@{sb.bot_username} 3"
    assert shot.caption_entities[0].type == "bot_command"  # Telegram parses captions too
    sizes = [(p.width, p.height) for p in shot.photo]
    assert sizes == [(90, 45), (320, 160), (800, 400), (1000, 500)]
    assert sb.file_bytes(shot.photo[-1].file_id) == photo
    assert all(p.file_size for p in shot.photo)
    assert document.document is not None and document.caption == "roles"
    assert document.document.file_name == "roles.txt"
    assert sb.file_bytes(document.document.file_id) == b"role list"
    assert sticker.sticker is not None and sticker.sticker.emoji == "🎲"
    assert voice.voice is not None and voice.voice.mime_type == "audio/ogg"
    assert voice.voice.duration in (4, dtm.timedelta(seconds=4))  # PTB: int or timedelta
    assert video.video is not None and video.caption == "clip"
    # an animation comes with a document too, as Telegram sends it
    assert animation.animation is not None and animation.document is not None
    assert [m.media for m in user.view(group)] == [
        "photo", "document", "sticker", "voice", "video", "animation",
    ]  # fmt: skip
    with pytest.raises(SimulationError):
        sb.user_send_media(user, group, "sticker", caption="stickers have none")


async def test_albums_are_one_update_each_and_delete_like_messages(env: Env) -> None:
    group, user = env.group, env.users[0]
    sent = user.send_album(group, 3, caption="the night")
    updates = await env.bot.get_updates()
    messages = [u.message for u in updates if u.message is not None]
    assert len(messages) == 3
    assert len({m.media_group_id for m in messages}) == 1 and messages[0].media_group_id
    assert [m.caption for m in messages] == ["the night", None, None]
    user.send_album(group, [("photo", None), ("video", None)])
    with pytest.raises(SimulationError, match="documents only"):
        user.send_album(group, [("photo", None), ("document", b"x")])
    assert await env.bot.delete_messages(group.id, [m.message_id for m in sent])
    assert [m.media for m in user.view(group)] == ["photo", "video"]
    assert await env.bot.delete_message(group.id, user.view(group)[0].message_id)


async def test_privacy_mode_and_captions() -> None:
    sb = Sandbox()
    users = sb.add_users(2)
    group = sb.add_group("Club", members=users, bot_rights=None)
    users[0].send_photo(group, caption="look")
    users[0].send_photo(group, caption=f"/vote@{sb.bot_username}")
    users[0].send_sticker(group)
    assert [u["message"].get("caption") for u in sb.updates.pending] == [f"/vote@{sb.bot_username}"]


async def test_send_photo(env: Env) -> None:
    sb, group = env.sb, env.group
    original = image(800, 600, "JPEG")
    sent = await env.bot.send_photo(
        group.id, original, caption="<b>Night</b> falls", parse_mode=ParseMode.HTML,
        protect_content=True,
    )  # fmt: skip
    assert [(p.width, p.height) for p in sent.photo] == [(90, 68), (320, 240), (800, 600)]
    assert sb.file_bytes(sent.photo[-1].file_id) == original
    assert Image.open(io.BytesIO(sb.file_bytes(sent.photo[0].file_id))).size == (90, 68)
    assert sent.caption == "Night falls" and sent.caption_entities[0].type == "bold"
    assert sent.has_protected_content is True
    (seen,) = env.users[0].view(group)
    assert (seen.media, seen.caption, seen.protected) == ("photo", "Night falls", True)
    again = await env.bot.send_photo(group.id, sent.photo[-1].file_id)
    assert [p.file_id for p in again.photo] == [p.file_id for p in sent.photo]
    big = image(3000, 1500)
    largest = (await env.bot.send_photo(group.id, big)).photo[-1]
    assert (largest.width, largest.height) == (2560, 1280)  # Telegram keeps 2560 at most


async def test_send_document(env: Env) -> None:
    sb, group = env.sb, env.group
    sent = await env.bot.send_document(
        group.id, b"seat,role\n1,don\n", filename="roles.csv", caption="roles"
    )
    assert sent.document is not None and sent.document.file_name == "roles.csv"
    assert sent.document.mime_type == "text/csv" and sent.document.file_size == 16
    assert sb.file_bytes(sent.document.file_id) == b"seat,role\n1,don\n"
    with pytest.raises(BadRequest, match=r"(?i)can't use file of type Document as Photo"):
        await env.bot.send_photo(group.id, sent.document.file_id)
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await env.bot.send_document(group.id, "no-such-file")
    with pytest.raises(BadRequest, match=r"(?i)file must be non-empty"):
        await env.bot.send_document(group.id, b"", filename="empty.txt")
    with pytest.raises(SimulationError):
        sb.file_bytes("no-such-file")


async def test_photos_telegram_refuses(env: Env) -> None:
    group = env.group
    files_before = len(env.sb.files)
    cases = [
        (b"\xff" * (10 * 1024 * 1024 + 1), "too big for a photo; the maximum size is 10485760"),
        (image(6000, 4001), "PHOTO_INVALID_DIMENSIONS"),  # width + height over 10000
        (image(2100, 100), "PHOTO_INVALID_DIMENSIONS"),  # a ratio over 20
        (b"GIF89a not really", "IMAGE_PROCESS_FAILED"),
        (image(300, 200)[:60], "IMAGE_PROCESS_FAILED"),  # cut short
    ]
    for content, reason in cases:
        with pytest.raises(BadRequest):
            await env.bot.send_photo(group.id, content)
        description = env.sb.log.calls("sendPhoto")[-1].description or ""
        assert description.startswith("Bad Request: ") and reason in description
    assert len(env.sb.files) == files_before  # a refused photo leaves no file behind
    await env.bot.send_photo(group.id, image(2000, 100))  # a ratio of exactly 20 is fine
    assert [m.media for m in env.users[0].view(group)] == ["photo"]
    assert len(env.sb.log.calls("sendPhoto", ok=False)) == len(cases)


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_document_size_limit(transport: str) -> None:
    sb = Sandbox(limits=Limits(document_bytes=1000))
    group = sb.add_group("Club", bot_rights={})
    async with connected(sb, transport) as bot:
        await bot.send_document(group.id, b"x" * 1000, filename="ok.bin")
        with pytest.raises(NetworkError, match="Request Entity Too Large"):
            await bot.send_document(group.id, b"x" * 1001, filename="big.bin")
    assert sb.log.calls("sendDocument")[-1].error_code == 413


async def test_document_limit_is_50_megabytes() -> None:
    sb = Sandbox()
    group = sb.add_group("Club", bot_rights={})
    async with connected(sb, "inprocess") as bot:
        with pytest.raises(NetworkError, match="Request Entity Too Large"):
            await bot.send_document(group.id, bytes(50 * 1024 * 1024 + 1), filename="big.bin")


async def test_media_needs_the_right_permission(env: Env) -> None:
    sb, group = env.sb, env.group
    only = ChatPermissions(can_send_messages=True, can_send_documents=True)
    await env.bot.set_chat_permissions(group.id, only, use_independent_chat_permissions=True)
    sb.set_bot_rights(group, None)  # a plain member now, bound by the chat's permissions
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to send photos"):
        await env.bot.send_photo(group.id, image(100, 100))
    await env.bot.send_document(group.id, b"fine", filename="a.txt")
    with pytest.raises(SimulationError, match="may not post photo"):
        env.users[0].send_photo(group)


async def test_captions_edited(env: Env) -> None:
    sb, group = env.sb, env.group
    sent = await env.bot.send_photo(group.id, image(100, 100), caption="a")
    edited = await env.bot.edit_message_caption(group.id, sent.message_id, caption="<i>b</i>",
                                                parse_mode=ParseMode.HTML)  # fmt: skip
    assert not isinstance(edited, bool) and edited.caption == "b" and edited.edit_date
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await env.bot.edit_message_caption(group.id, sent.message_id, caption="<i>b</i>",
                                           parse_mode=ParseMode.HTML)  # fmt: skip
    with pytest.raises(BadRequest, match=r"(?i)there is no text in the message to edit"):
        await env.bot.edit_message_text("text", group.id, sent.message_id)
    text = await env.bot.send_message(group.id, "plain")
    with pytest.raises(BadRequest, match=r"(?i)there is no caption in the message to edit"):
        await env.bot.edit_message_caption(group.id, text.message_id, caption="c")
    with pytest.raises(BadRequest, match=r"(?i)message caption is too long"):
        await env.bot.send_photo(group.id, image(100, 100), caption="x" * 1025)
    # a user edits a caption: an edited_message
    said = env.users[0].send_photo(group, caption="before")
    env.users[0].edit(said, "after")
    updates: tuple[Update, ...] = await env.bot.get_updates()
    assert updates[-1].edited_message is not None
    assert updates[-1].edited_message.caption == "after"
    assert updates[-1].edited_message.photo
    assert sb.view(env.users[0], group)[-1].caption == "after"


async def test_a_file_part_named_by_attach(env: Env) -> None:
    """`photo=attach://<part>` names a multipart part, on both ways in."""
    picture = image(120, 80)
    if env.transport == "http":
        url = f"{env.bot.base_url}/sendPhoto"
        async with loopback_client() as client:
            answer = await client.post(
                url,
                data={"chat_id": str(env.group.id), "photo": "attach://pic"},
                files={"pic": ("pic.png", picture, "image/png")},
            )
        status, body = answer.status_code, answer.json()
    else:
        status, body = await env.sb.call(
            "sendPhoto",
            {"chat_id": env.group.id, "photo": "attach://pic"},
            files={"pic": Upload("pic.png", picture, "image/png")},
        )
    assert status == 200 and body["result"]["photo"][-1]["width"] == 120
    assert env.sb.file_bytes(body["result"]["photo"][-1]["file_id"]) == picture

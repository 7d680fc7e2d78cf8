"""Chats as a user sees them, for the play page: the bot's HTML kept, the text escaped."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from tg_mafia.i18n import translator
from tg_mafia.playweb.view import chat_messages, to_html
from tg_mafia.sandbox import Sandbox, SimulationError
from tg_mafia.sandbox.world.textfmt import parse_text


def html_of(bot_html: str) -> str:
    """What the page draws for a message the bot sent with this HTML."""
    return to_html(*parse_text(bot_html, "HTML", None))


def test_the_bots_formatting_comes_through() -> None:
    assert html_of("<b>Day 2.</b> The <i>city</i> wakes") == "<b>Day 2.</b> The <i>city</i> wakes"
    assert html_of("<b>a <i>b</i> c</b>") == "<b>a <i>b</i> c</b>"
    assert html_of("<blockquote>q</blockquote>x") == "<blockquote>q</blockquote>x"


def test_mentions_and_links() -> None:
    assert html_of('<a href="tg://user?id=42">3 · Ann</a> speaks') == (
        '<span class="mention" data-user="42">3 · Ann</span> speaks'
    )
    assert html_of('<a href="https://example.org/?a=1&amp;b=2">rules</a>') == (
        '<a href="https://example.org/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">'
        "rules</a>"
    )
    # Only web links open: anything else is shown as text.
    assert html_of('<a href="javascript:alert(1)">x</a>') == '<span class="link">x</span>'


def test_text_is_escaped_everywhere() -> None:
    assert (
        html_of("&lt;script&gt;alert(1)&lt;/script&gt;") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    )
    assert html_of("<b>&lt;img src=x onerror=alert(1)&gt;</b>") == (
        "<b>&lt;img src=x onerror=alert(1)&gt;</b>"
    )
    assert to_html('"quotes" & <tags>', []) == "&quot;quotes&quot; &amp; &lt;tags&gt;"


def test_offsets_count_utf16_units() -> None:
    # The emoji takes two UTF-16 units: the bold must still fall on "Night".
    assert html_of("🌙 <b>Night</b> 1") == "🌙 <b>Night</b> 1"
    assert html_of("<b>🎭</b>x") == "<b>🎭</b>x"


def test_an_entity_past_its_parent_is_cut_at_the_parents_end() -> None:
    entities = [
        {"type": "bold", "offset": 0, "length": 3},
        {"type": "italic", "offset": 1, "length": 5},
    ]
    assert to_html("abcdef", entities) == "<b>a<i>bc</i></b>def"


def test_a_user_sees_the_group_and_only_their_own_private_chat() -> None:
    sb = Sandbox()
    ann, ben = sb.add_users(2, started=True)
    group = sb.add_group("Club", members=[ann, ben], owner=ann)
    ann.send(group, "/start <img src=x onerror=alert(1)>")
    ann.send(ann.private_chat, "hello")
    seen = chat_messages(sb, ben.user, group)
    assert [m["html"] for m in seen] == [
        '<span class="command">/start</span> &lt;img src=x onerror=alert(1)&gt;'
    ]
    assert seen[0]["sender"] == "Player1" and not seen[0]["from_bot"]
    assert [m["html"] for m in chat_messages(sb, ann.user, ann.private_chat)] == ["hello"]
    with pytest.raises(SimulationError):
        chat_messages(sb, ben.user, ann.private_chat)


async def test_edits_deletions_pins_and_service_lines() -> None:
    sb = Sandbox()
    ann = sb.add_user("Ann", started=True)
    group = sb.add_group("Club", members=[ann], owner=ann, bot_rights={"can_pin_messages": True})
    bot = sb.bot()
    async with bot:
        first = await bot.send_message(group.id, "<b>Lobby</b>", parse_mode="HTML")
        await bot.edit_message_text(
            "<b>Lobby</b> (2)", group.id, first.message_id, parse_mode="HTML"
        )
        await bot.pin_chat_message(group.id, first.message_id)
        gone = await bot.send_message(group.id, "soon gone")
        await bot.delete_message(group.id, gone.message_id)
    sb.join(group, sb.add_user("Ben"))
    seen = chat_messages(sb, ann.user, group)
    lobby, pin, joined = seen
    assert lobby["edited"] and lobby["pinned"] and lobby["html"] == "<b>Lobby</b> (2)"
    assert pin["service"] == "Mafia Sandbox pinned «Lobby (2)»"
    assert joined["service"] == "Ben joined the group"
    assert gone.message_id not in [m["id"] for m in seen]


async def test_a_picture_with_its_caption_a_file_and_a_deadline() -> None:
    sb = Sandbox()
    ann = sb.add_user("Ann", started=True)
    group = sb.add_group("Club", members=[ann], owner=ann)
    png = BytesIO()
    Image.new("RGB", (8, 6), "white").save(png, "PNG")
    bot = sb.bot()
    async with bot:
        photo = await bot.send_photo(
            group.id, png.getvalue(), caption="<b>The town wins!</b>", parse_mode="HTML"
        )
        await bot.send_document(group.id, b"{}", filename="protocol.json")
        await bot.send_message(
            group.id,
            'Until <tg-time unix="1700000000" format="T">22:13:20 UTC</tg-time>.',
            parse_mode="HTML",
        )
    picture, document, deadline = chat_messages(sb, ann.user, group)
    assert picture["html"] == "<b>The town wins!</b>"
    assert picture["media"]["kind"] == "photo"
    assert picture["media"]["url"] == f"/media/{group.id}/{photo.message_id}"
    assert document["media"] == {
        "kind": "document",
        "url": f"/media/{group.id}/{document['id']}",
        "name": "protocol.json",
    }
    assert deadline["html"] == (
        'Until <time class="moment" data-unix="1700000000" data-format="T">22:13:20 UTC</time>.'
    )


def test_service_lines_are_in_the_pages_language() -> None:
    sb = Sandbox()
    ann = sb.add_user("Ann", started=True)
    group = sb.add_group("Club", members=[ann], owner=ann)
    sb.join(group, sb.add_user("Ben"))
    (joined,) = chat_messages(sb, ann.user, group, translator("fr"))
    assert joined["service"].startswith("Ben ") and "joined" not in joined["service"]

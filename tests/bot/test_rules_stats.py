"""/rules and /stats on the sandbox, in the group's language (or the
user's, in private)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from engine import resolve_options
from tests.bot.between import image_size, messages, photos
from tests.bot.harness import Harness, running_bot
from tests.database_ops import create_lobby, finish_game, start_game
from tg_mafia.i18n import translator
from tg_mafia.render.drawings import draw, leaderboard_picture, player_picture
from tg_mafia.render.standings import standings
from tg_mafia.render.texts.rules import rules
from tg_mafia.render.texts.stats import TOP, chat_text, player_text
from tg_mafia.storage import Player, PlayerOutcome


def plain(text: str) -> str:
    """HTML as the chat shows it: tags gone, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


async def command(h: Harness, name: str, args: str = "") -> str:
    h.admin.command(h.group, name, args, mention=True)
    await h.settle()
    return [text for text in h.group_texts() if text][-1]  # a picture may follow


@pytest.mark.parametrize(
    ("variant", "language"),
    [("classic", "fr"), ("moscow", "ru"), ("party", "ro"), ("club", "vi"), ("sport", "ru")],
)
async def test_rules_in_the_group_follow_its_variant_language_and_options(
    tmp_path: Path, variant: str, language: str
) -> None:
    async with running_bot(tmp_path, 1) as h:
        given = {"night_seconds": 45}
        h.db.save_settings(h.group.id, variant=variant, language=language, options=given)
        shown = await command(h, "rules")
        t = translator(language)
        assert shown == plain(rules(t, variant, resolve_options(variant, given)))
        assert "45" in shown


def test_the_rules_cover_roles_phases_moves_votes_wins_and_options() -> None:
    t = translator("en")
    text = rules(t, "moscow", resolve_options("moscow", {"thanks_rule": True, "maniac": False}))
    assert "7–8 players: 🎩 Don, 🔫 Mafioso, and 🕵️ Sheriff; citizens: 4–5" in text
    assert "Maniac" not in text.split("<b>Night</b>")[0]  # option maniac off: none dealt
    for words in ("introduces themselves", "nominate", "raised hands", "last word", "warning"):
        assert words in text
    assert "thank you" in text and "leave the table" in text
    assert "The town wins" in text and "Thanks word: on" in text
    party = rules(t, "party", resolve_options("party", {}))
    assert "Every night has a kill" in party and "ballot for 60 seconds" in party
    assert len(rules(t, "classic", resolve_options("classic", {"host": "human"}))) < 4096
    assert len(rules(t, "sport", resolve_options("sport", {"host": "human"}))) < 4096


async def test_rules_in_private_take_an_optional_variant(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 1) as h:
        user = h.users[0]
        user.start()
        await h.settle()
        user.command(user.private_chat, "rules", "club")
        await h.settle()
        t = translator("en")
        assert h.private_texts(user)[-1].startswith(
            plain(rules(t, "club", resolve_options("club", {})))
        )
        user.command(user.private_chat, "rules", "chess")
        await h.settle()
        assert "Unknown variant" in h.private_texts(user)[-1]
        user.command(user.private_chat, "rules")
        await h.settle()
        assert "Classic" in h.private_texts(user)[-1]


def finish(
    h: Harness,
    players: list[tuple[int, str, str, str]],
    winner: str,
    chat_id: int | None = None,
) -> None:
    """A game played to the end, straight into the database."""
    record = create_lobby(
        h.db,
        chat_id or h.group.id,
        title="Friday club",
        opened_by=h.admin.id,
        variant="classic",
        language="en",
        players=[Player(user_id, name) for user_id, name, _, _ in players],
    )
    record = start_game(h.db, record.id, record.version, {}, stage_deadline=None, timer_token=None)
    results = [
        PlayerOutcome(user_id, name, role, side, side == winner)
        for user_id, name, role, side in players
    ]
    finish_game(h.db, record.id, winner, results)


async def test_stats_in_the_group_and_in_private(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 3) as h:
        shown = await command(h, "stats")
        assert "No game has been played" in shown
        assert photos(h, h.group.id) == []
        a, b, c = h.users
        finish(h, [(a.id, "Anna <3", "sheriff", "town"), (b.id, b.name, "mafia", "mafia")], "town")
        finish(h, [(a.id, "Anna <3", "don", "mafia"), (c.id, c.name, "citizen", "town")], "mafia")
        finish(h, [(a.id, "Anna <3", "citizen", "town"), (b.id, b.name, "don", "mafia")], "town")
        h.db.save_settings(h.group.id, language="ru")
        shown = await command(h, "stats")
        stats = h.db.chat_stats(h.group.id)
        ranked = standings(h.db.results_history(h.group.id))
        assert shown == plain(chat_text(translator("ru"), stats, ranked))
        assert "Мафия" in shown  # the Russian catalogue has its side names
        english = plain(chat_text(translator("en"), stats, ranked))
        assert "3 games played here." in english
        assert "Town: 2 wins" in english and "Mafia: 1 win" in english
        anna = ranked.board.player(a.id)
        assert anna is not None and ranked.board.rank(a.id) == 1
        assert f"1. Anna <3 — {anna.score} · 3/3 won (100%)" in english
        assert "A win with the side that usually loses counts for more." in english
        # The leaderboard as a picture too: the same players, in the same order.
        ((_, png),) = photos(h, h.group.id)
        picture = draw(
            leaderboard_picture(ranked.board.top(TOP), ranked.names, "Friday club", "ru")
        )
        assert png == picture.png
        # Boris lost twice, Chloé once: she ranks above him.
        assert [item.text for item in picture.of_kind("name")] == ["Anna <3", c.name, b.name]
        assert [item.text for item in picture.of_kind("score")] == [
            str(p.score) for p in ranked.board.players
        ]
        # In private: the player's own record, their place in the group, and its card.
        a.start()
        await h.settle()
        a.command(a.private_chat, "stats")
        await h.settle()
        mine = [text for text in h.private_texts(a) if text][-1]
        assert mine == plain(
            player_text(translator("en"), h.db.player_stats(a.id), a.id, [("Friday club", ranked)])
        )
        assert "Your record: 3/3 won." in mine
        assert "🕵️ Sheriff: 1/1 won" in mine
        assert f"«Friday club»: score {anna.score}, rank 1 of 3, 3/3 won (100%)" in mine
        ((_, card),) = photos(h, a.id)
        expected = draw(player_picture(anna, "Anna <3", "Friday club", 1, 3, "en"))
        assert card == expected.png
        assert image_size(card) == (expected.width, expected.height)


async def test_stats_in_a_forum_topic_answer_there_picture_and_all(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2, forum=True) as h:
        a, b = h.users
        finish(h, [(a.id, "Anna", "sheriff", "town"), (b.id, "Boris", "mafia", "mafia")], "town")
        lounge = h.sb.create_topic(h.group, "Lounge", by=h.admin)
        h.admin.send(h.group, f"/stats@{h.sb.bot_username}", topic=lounge)
        await h.settle()
        said = [m for m in messages(h, h.group.id) if m.from_id == h.sb.world.bot.id]
        ((photo, _),) = photos(h, h.group.id)
        assert said and all(m.thread_id == lounge for m in said)  # not in General
        assert photo.thread_id == lounge


async def test_a_player_of_several_groups_sees_each(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        a, b = h.users
        other = h.sb.add_group("Saturday club", members=[a, b, h.admin], owner=h.admin)
        finish(h, [(a.id, "Anna", "mafia", "mafia"), (b.id, "Boris", "citizen", "town")], "mafia")
        finish(
            h,
            [(a.id, "Anna", "citizen", "town"), (b.id, "Boris", "don", "mafia")],
            "town",
            chat_id=other.id,
        )
        h.db.save_settings(other.id, title="Saturday club")
        a.start()
        await h.settle()
        a.command(a.private_chat, "stats")
        await h.settle()
        mine = [text for text in h.private_texts(a) if text][-1]
        # The latest group first, each by its name.
        assert mine.index("«Saturday club»: score") < mine.index("«Friday club»: score")
        cards = photos(h, a.id)
        assert len(cards) == 2

"""/rules and /stats on the sandbox, in the group's language (or the
user's, in private)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from engine import resolve_options
from tests.bot.harness import Harness, running_bot
from tg_mafia.bot.rules_text import rules
from tg_mafia.bot.stats_text import chat_text, player_text
from tg_mafia.i18n import translator
from tg_mafia.storage import Player, PlayerOutcome


def plain(text: str) -> str:
    """HTML as the chat shows it: tags gone, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


async def command(h: Harness, name: str, args: str = "") -> str:
    h.admin.command(h.group, name, args, mention=True)
    await h.settle()
    return h.group_texts()[-1]


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
    assert "7–8 players: 🎩 Don, 🔫 Mafioso, 🕵️ Sheriff; citizens: 4–5" in text
    assert "Maniac" not in text.split("<b>Night</b>")[0]  # option maniac off: none dealt
    for words in ("introduces themselves", "nominate", "raised hands", "last word", "warning"):
        assert words in text
    assert "thank you" in text and "leave the table" in text
    assert "The town wins" in text and "Thanks word: on" in text
    party = rules(t, "party", resolve_options("party", {}))
    assert "Every night has a kill" in party and "ballot for 60 s" in party
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


def finish(h: Harness, players: list[tuple[int, str, str, str]], winner: str) -> None:
    """A game played to the end, straight into the database."""
    record = h.db.create_lobby(
        h.group.id,
        opened_by=h.admin.id,
        variant="classic",
        language="en",
        players=[Player(user_id, name) for user_id, name, _, _ in players],
    )
    record = h.db.start_game(record.id, record.version, {}, stage_deadline=None, timer_token=None)
    results = [
        PlayerOutcome(user_id, name, role, side, side == winner)
        for user_id, name, role, side in players
    ]
    h.db.finish_game(record.id, winner, results)


async def test_stats_in_the_group_and_in_private(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 3) as h:
        shown = await command(h, "stats")
        assert "No game has been played" in shown
        a, b, c = h.users
        finish(h, [(a.id, "Anna <3", "sheriff", "town"), (b.id, b.name, "mafia", "mafia")], "town")
        finish(h, [(a.id, "Anna <3", "don", "mafia"), (c.id, c.name, "citizen", "town")], "mafia")
        finish(h, [(a.id, "Anna <3", "citizen", "town"), (b.id, b.name, "don", "mafia")], "town")
        h.db.save_settings(h.group.id, language="ru")
        shown = await command(h, "stats")
        stats = h.db.chat_stats(h.group.id)
        assert shown == plain(chat_text(translator("ru"), stats))
        assert "Мафия" in shown  # the Russian catalogue has its side names
        english = plain(chat_text(translator("en"), stats))
        assert "3 games played here." in english
        assert "Town: 2 wins" in english and "Mafia: 1 win" in english
        assert "1. Anna <3 — 3/3 won (100%)" in english
        a.start()
        await h.settle()
        a.command(a.private_chat, "stats")
        await h.settle()
        mine = h.private_texts(a)[-1]
        assert mine == plain(player_text(translator("en"), h.db.player_stats(a.id)))
        assert "Your record: 3/3 won." in mine
        assert "🕵️ Sheriff: 1/1 won" in mine

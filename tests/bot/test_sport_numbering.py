"""sport numbers its nights as clubs say them (RULES.md, sport, "Numbering as
players say it"): the first night is announced as the zero night, the next
as night 1, so that day N is followed by night N; the role cards, the night
prompts, /rules and the end's picture count the same way. The engine and the
scenarios keep their own count (the zero night is their night 1).

A whole game is played by simulated players on the sandbox, and its
messages are read as a player reads them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import GameState, Role, resolve_options
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.fate import Fate
from tg_mafia.render.pictures.table import when_badge
from tg_mafia.render.texts import rules as rules_text

SEED = 74  # a deal whose game reaches night 2 (the parsing holds for any)
# What a player reads, per language: the zero night, a numbered night, a day.
WORDS = {
    "en": ("Zero night", r"Night (\d+)", r"Day (\d+)"),
    "ru": ("Нулевая ночь", r"Ночь (\d+)", r"День (\d+)"),
}


def lines(messages: list[str]) -> list[str]:
    """Every line of every message: an announcement may share a message with
    the notes before it (an idle player's removal, merged)."""
    return [line for text in messages for line in text.splitlines()]


def headings(messages: list[str], language: str) -> list[str]:
    """The night and day announcements, in order: "N0", "D1", "N1", "D2"…"""
    zero, night, day = WORDS[language]
    found = []
    for line in lines(messages):
        if line.startswith(f"🌙 {zero}."):
            found.append("N0")
        elif match := re.match(rf"🌙 {night}\.", line):
            found.append(f"N{match.group(1)}")
        elif match := re.match(rf"☀️ {day}\.", line):
            found.append(f"D{match.group(1)}")
    return found


@pytest.mark.parametrize("language", WORDS)
async def test_a_sport_game_reads_night_zero_then_day_n_then_night_n(
    tmp_path: Path, language: str
) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 10, scheduler=scheduler, lobby_seed=SEED) as h:
        h.db.save_settings(h.group.id, variant="sport", language=language)
        game_id = await h.open_and_fill()
        lobby = next(m for m in h.group_texts() if m.startswith("🎭 "))
        await h.press_start()
        players = AutoPlayers(h, scheduler, seed=5, chatter=0.0)
        record = await players.play(game_id)
        state = GameState.from_dict(record.state or {})
        group = h.group_texts()

        # The lobby says the one table size once.
        assert " 10 " in lobby and "10 to 10" not in lobby and "от 10 до 10" not in lobby
        # Zero night, day 1, night 1, day 2, night 2…: day N is followed by night N.
        seen = headings(group, language)
        assert seen[:3] == ["N0", "D1", "N1"], seen
        expected = ["N0"] + [f"{kind}{n}" for n in range(1, len(seen)) for kind in "DN"]
        assert seen == expected[: len(seen)], seen
        assert state.night.number >= 2  # the engine's own count goes on from 1
        # The morning after the zero night does not say nobody was killed.
        t = translator(language)
        read = lines(group)
        morning = read.index(
            t.gettext("☀️ <b>Day {n}.</b> The city wakes up.")
            .format(n=1)
            .replace("<b>", "")
            .replace("</b>", "")
        )
        assert t.gettext("Nobody was killed last night.") not in read[morning + 1]
        # The sheriff's card counts from night 1; the night prompts (every player
        # with a move: the mafia live on at least until night 1) start at night 1.
        sheriff = next(p for p in state.table.seats if state.table.roles[p] is Role.SHERIFF)
        card = texts.role_description(t, Role.SHERIFF, "sport")
        assert any(card in m for m in h.private_texts(players.user(sheriff)))
        night = WORDS[language][1]
        prompted = {
            int(match.group(1))
            for player in state.table.seats
            for m in h.private_texts(players.user(player))
            if (match := re.search(rf"🌙 {night} — ", m))
        }
        assert prompted and min(prompted) == 1, prompted


def test_the_sport_rules_show_the_zero_night_once_and_count_from_it() -> None:
    t = translator("en")
    text = rules_text.rules(t, "sport", resolve_options("sport", {}))
    assert text.count("The zero night: no kill and no check") == 1
    assert "Night 1" not in text
    assert "whose checks begin on night 1" in text
    assert "the player killed on night 1, the first night with a shot" in text
    # The other variants keep counting from night 1.
    club = rules_text.rules(t, "club", resolve_options("club", {}))
    assert "Night 1: no kill and no check" in club and "zero night" not in club


def test_the_role_cards_count_the_nights_as_the_variant_does() -> None:
    t = translator("en")
    assert "from night 1 " in texts.role_description(t, Role.DON, "sport")
    assert "from night 2 " in texts.role_description(t, Role.DON, "club")
    assert texts.night_title(t, "sport", 1) == "Zero night"
    assert texts.night_title(t, "moscow", 1) == "Night 1"


def test_the_end_picture_numbers_a_sport_kill_as_players_do() -> None:
    assert when_badge(Fate.KILLED, 2, "sport") == "☾ 1"
    assert when_badge(Fate.KILLED, 2, "club") == "☾ 2"
    assert when_badge(Fate.ELIMINATED, 3, "sport") == "☀ 3"

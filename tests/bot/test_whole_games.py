"""Whole games on the sandbox, from /newgame to the end screen, played by
simulated players through the buttons and posts a person would use."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import GameState, Role
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.sandbox import CallLog
from tg_mafia.storage import GameStatus

CASES = [("classic", 8), ("moscow", 11), ("party", 9), ("club", 10), ("sport", 10)]


@pytest.mark.parametrize(("variant", "size"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
async def test_a_whole_game(tmp_path: Path, variant: str, size: int, seed: int) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, size, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant=variant, language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        record = h.db.get_game(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        state = GameState.from_dict(record.state or {})
        t = translator("en")
        # Every player has their role in private, protected from forwarding.
        for user in h.users:
            role = state.table.roles[str(user.id)]
            assert any(texts.role_name(t, role) in m for m in h.private_texts(user))
        # Players who talk now and then: a table where nobody acts for a day and a
        # night is abandoned (its own tests), not played to an end.
        players = AutoPlayers(h, scheduler, seed, chatter=0.1)
        record = await players.play(game_id)
        assert record.status is GameStatus.ENDED and record.winner
        group = h.group_texts()
        assert any(
            texts.winner_line(
                t,
                GameState.from_dict(record.state or {}).outcome.winner
                or state.outcome.winner
                or _side(record.winner),
            )
            .replace("<b>", "")
            .replace("</b>", "")
            in m
            for m in group
        )
        for user in h.users:
            assert any(
                "so did you" in m
                or "you lost this time" in m
                or "last one standing" in m
                or "nobody won" in m
                for m in h.private_texts(user)
            )
        assert h.sb.log.count_429() == 0
        # Only calls that change something: Telegram refuses the others, and each
        # refused call spends the group's budget all the same.
        assert unchanged_calls(h.sb.log) == [], "\n".join(unchanged_calls(h.sb.log))
        # The group chat is open again, as it was before the game.
        assert h.sb.world.resolve_chat(h.group.id).permissions.get("can_send_messages")
        if variant in ("moscow", "club", "sport"):
            _no_role_named_before_the_end(h, t)


def unchanged_calls(log: CallLog) -> list[str]:
    """The calls Telegram refused for changing nothing: an edit to what is shown
    ("message is not modified"), permissions as they are (CHAT_NOT_MODIFIED), a topic
    as it is (TOPIC_NOT_MODIFIED)."""
    return [
        f"{r.method}: {r.description}"
        for r in log.calls(ok=False)
        if "not modified" in (r.description or "").lower().replace("_", " ")
    ]


def _side(value: str):  # type: ignore[no-untyped-def]
    from engine import Side

    return Side(value)


def _no_role_named_before_the_end(h, t) -> None:  # type: ignore[no-untyped-def]
    words = {texts.role_name(t, r) for r in Role} - {texts.role_name(t, Role.CITIZEN)}
    messages = h.group_texts()
    end = next(i for i, m in enumerate(messages) if "wins!" in m or "A draw" in m)
    for message in messages[:end]:
        for word in words:
            assert word not in message, f"{word!r} named in the group: {message!r}"


LANGUAGE_CASES = [
    ("classic", 9, "fr"),
    ("moscow", 11, "ru"),
    ("party", 9, "ro"),
    ("club", 10, "vi"),
    ("moscow", 9, "en"),
    *(("sport", 10, language) for language in ("ru", "fr", "ro", "vi", "en")),
]


@pytest.mark.parametrize(("variant", "size", "language"), LANGUAGE_CASES)
async def test_a_whole_game_in_each_language(
    tmp_path: Path, variant: str, size: int, language: str
) -> None:
    """Every word the players see comes from the group's catalogue."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, size, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant=variant, language=language)
        game_id = await h.open_and_fill()
        await h.press_start()
        record = h.db.get_game(game_id)
        assert record is not None and record.language == language
        state = GameState.from_dict(record.state or {})
        t = translator(language)
        for user in h.users:
            role = texts.role_name(t, state.table.roles[str(user.id)])
            assert any(role in m for m in h.private_texts(user)), (role, h.private_texts(user))
        record = await AutoPlayers(h, scheduler, seed=11).play(game_id)
        final = GameState.from_dict(record.state or {})
        assert final.outcome.winner is not None
        winner = texts.winner_line(t, final.outcome.winner).replace("<b>", "").replace("</b>", "")
        group = h.group_texts()
        assert any(winner in m for m in group)
        if language != "en":
            english = texts.winner_line(translator("en"), final.outcome.winner)
            assert english.replace("<b>", "").replace("</b>", "") not in "\n".join(group)
            # No English sentence of the game's own messages slipped through.
            for english_line in ("The city sleeps", "The city wakes up", "is eliminated"):
                assert all(english_line not in m for m in group), english_line

"""Issue 14's findings, each attack reproduced on the sandbox as a
mischievous player or an outsider would try it, and what holds now
(docs/security.md lists every finding with its test)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine import GameState, Stage
from tests.bot.harness import BOT_RIGHTS, Harness, running_bot
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.texts import RELAY_LIMIT
from tg_mafia.storage import GameStatus


def state_of(h: Harness, game_id: int) -> GameState:
    record = h.db.get_game(game_id)
    assert record is not None and record.state is not None
    return GameState.from_dict(record.state)


async def start(h: Harness, variant: str) -> int:
    h.db.save_settings(h.group.id, variant=variant, language="en")
    game_id = await h.open_and_fill()
    await h.press_start()
    return game_id


async def test_an_outsider_with_the_link_learns_nothing_and_takes_no_seat(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path, 7) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        outsider = h.sb.add_user("Mallory")  # not a member of the group
        outsider.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
        await h.settle()
        answer = h.private_texts(outsider)[-1]
        assert "Only members of the group" in answer
        assert "Friday club" not in " ".join(h.private_texts(outsider))
        record = h.db.active_game(h.group.id)
        assert record is not None and record.players == ()


async def test_a_broken_or_huge_join_link_is_answered_plainly(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 1) as h:
        user = h.users[0]
        for payload in (f"join_-{'9' * 58}", "join_abc", "join_-1_2_3", f"join_-1_{2**40}"):
            user.start(payload)
            await h.settle()
            assert h.private_texts(user)[-1] == "This invitation link is broken."
        assert h.sb.log.errors() == []


async def test_one_user_sits_at_one_table_across_groups(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7) as h:
        await start(h, "classic")
        other = h.sb.add_group(
            "Saturday club", members=[h.users[0]], owner=h.admin, bot_rights=BOT_RIGHTS
        )
        h.admin.command(other, "newgame", mention=True)
        await h.settle()
        h.users[0].open_deep_link(h.sb.deep_link(f"join_{other.id}"))
        await h.settle()
        assert "one game at a time" in h.private_texts(h.users[0])[-1]
        lobby = h.db.active_game(other.id)
        assert lobby is not None and lobby.players == ()


async def test_spectators_commands_are_answered_in_private_and_never_delay_the_game(
    tmp_path: Path,
) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await start(h, "moscow")
        assert state_of(h, game_id).stage is Stage.INTRO
        spectator = h.sb.add_user("Spectator")
        h.sb.add_member(h.group, spectator, by=h.admin)
        spectator.start()
        await h.settle()
        before = len(h.sb.log.calls(chat_id=h.group.id))
        # A burst of 22 commands, as the attack sent them.
        for command in ["settings", "stats", "rules", "help", "newgame"] * 4 + ["help"] * 2:
            spectator.command(h.group, command)
        await h.handled()
        await scheduler.fire(f"game-{game_id}")  # the next speaker's turn
        await h.settle()
        group_calls = h.sb.log.calls(chat_id=h.group.id)[before:]
        # The group got the game's own calls only; the answers went to the spectator.
        assert all(c.method != "sendPhoto" for c in group_calls)
        sent = [c.params.get("text", "") for c in group_calls if c.method == "sendMessage"]
        assert not any("Only the group's administrators" in s or "/rules" in s for s in sent)
        answers = h.private_texts(spectator)
        assert any("Only the group's administrators" in a for a in answers)
        # A flood: past the limit, the spectator is told once when to try again, and
        # the rest of the burst is not answered.
        limiter = h.app.bot_data.input_limiter
        told = [a for a in answers if a.startswith("Too fast: try again in")]
        assert told and f"{limiter.retry_after} seconds" in told[0]
        assert len(answers) < 22


async def test_a_flood_is_told_when_to_try_again_and_heard_then(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 1) as h:
        user = h.users[0]

        def answers() -> list[str]:
            return [t for t in h.private_texts(user) if not t.startswith("/")]

        user.start()
        await h.settle()
        greeted = len(answers())
        for _ in range(20):
            user.command(user.private_chat, "help")
        await h.settle()
        limiter = h.app.bot_data.input_limiter
        told = f"Too fast: try again in {limiter.retry_after} seconds."
        # /start counted; then the helps the limit lets through (the bucket leaks while
        # the database works: a few more on a slow one), and a notice, not 20 answers.
        helped = [a for a in answers()[greeted:] if a != told]
        assert limiter.rate - 1 <= len(helped) < 20
        assert told in answers()[greeted:]
        await asyncio.sleep(limiter.retry_after)
        user.command(user.private_chat, "help")
        await h.settle()
        assert answers()[-1] != told and len(answers()) > greeted + len(helped) + 1


async def test_a_family_message_too_long_for_telegram_is_refused_with_a_notice(
    tmp_path: Path,
) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await start(h, "classic")
        state = state_of(h, game_id)
        assert state.stage is Stage.NIGHT
        mafia = [u for u in h.users if state.table.roles[str(u.id)].is_mafia]
        speaker, listener = mafia[0], mafia[1]
        seen = len(h.private_texts(listener))
        speaker.send(speaker.private_chat, "🙂" * 2048)  # 4,096 UTF-16 units
        await h.settle()
        assert f"at most {RELAY_LIMIT} characters" in h.private_texts(speaker)[-1]
        assert len(h.private_texts(listener)) == seen
        speaker.send(speaker.private_chat, "x" * RELAY_LIMIT)
        await h.settle()
        relayed = h.private_texts(listener)[-1]
        assert relayed.endswith("x" * RELAY_LIMIT) and "Friday club" in relayed
        assert h.sb.log.errors() == []


async def test_night_prompts_name_their_group(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        game_id = await start(h, "classic")
        await scheduler.fire(f"game-{game_id}")  # the quiet night 1 ends; day 1
        await h.settle()
        while state_of(h, game_id).stage is not Stage.NIGHT:
            await scheduler.fire(f"game-{game_id}")
            await h.settle()
        record = h.db.get_game(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        state = state_of(h, game_id)
        doctor = next(u for u in h.users if state.table.roles[str(u.id)].value == "doctor")
        prompt = next(t for t in reversed(h.private_texts(doctor)) if "Night" in t)
        assert prompt.startswith("🎭 Friday club")


def popups(h: Harness) -> dict[str, str]:
    """The bot's answer to each callback query: its popup text."""
    return {
        c.params["callback_query_id"]: c.params.get("text", "")
        for c in h.sb.log.calls(method="answerCallbackQuery")
        if str(c.params["callback_query_id"]).startswith("forged-")
    }


def forged_press(h: Harness, user_id: int, chat_id: int, data: str, n: int) -> None:
    """A callback query as a modified client could send it: any data, from a
    message of `chat_id`."""
    user = h.sb.user(user_id)
    h.sb.inject_update(
        {
            "callback_query": {
                "id": f"forged-{n}",
                "from": user.user.to_api(),
                "chat_instance": "x",
                "data": data,
                "message": {
                    "message_id": 1,
                    "date": 0,
                    "chat": {"id": chat_id, "type": "supergroup", "title": "x"},
                },
            }
        }
    )


async def test_a_button_acts_only_on_the_game_of_its_own_chat(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        await h.open_and_fill()
        lobby = h.db.active_game(h.group.id)
        assert lobby is not None
        # The attacker administers a group of their own, and presses there a Start
        # that names the victim group's lobby.
        mallory = h.sb.add_user("Mallory")
        own = h.sb.add_group("Mallory's", owner=mallory, bot_rights=BOT_RIGHTS)
        forged_press(h, mallory.id, own.id, f"lb:{lobby.id}:*:start", 1)
        await h.settle()
        after = h.db.get_game(lobby.id)
        assert after is not None and after.status is GameStatus.LOBBY
        assert after.version == lobby.version
        assert popups(h) == {"forged-1": "This button is out of date."}


async def test_malformed_buttons_are_answered_and_raise_nothing(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7) as h:
        game_id = await start(h, "classic")
        errors = h.app.bot_data.errors
        user = h.users[0]
        malformed = (
            f"vt:{game_id}:1:²",  # '²'.isdigit() is true
            f"vt:{game_id}:x:1",
            "vt:-1:1:1",
            "zz:1:1",
            "",
            "ё" * 70,
            f"nt:{game_id}:1:kill:{'9' * 40}",
        )
        for n, data in enumerate(malformed):
            forged_press(h, user.id, h.group.id, data, n)
        await h.settle()
        # Each answered (the sandbox, as Telegram, refuses a made-up query id: the
        # bot's attempt is what counts), none raised.
        assert popups(h) == {
            f"forged-{n}": "This button is out of date." for n in range(len(malformed))
        }
        assert list(errors.records) == []  # nothing logged as an error
        assert state_of(h, game_id).stage is Stage.NIGHT

"""Every press is bound to the message it was put on (runtime/gate.py): a modified
client can send any callback data on any message of the bot, and Telegram
vouches only for the message and the user. Forged, foreign, stale and replayed
presses are refused alike: the out-of-date popup, nothing changed, nothing sent."""

from __future__ import annotations

import asyncio
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GameState, public_view
from engine.simulation import lively_action
from tests.bot.autoplay import AutoPlayers, prefix
from tests.bot.harness import BOT_RIGHTS, Harness, running_bot
from tg_mafia.playtest.autoplay import find_buttons
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.callbacks import Kind
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.gate import Refusal, admit, check
from tg_mafia.sandbox import SimUser
from tg_mafia.sandbox.core import Press
from tg_mafia.storage import ButtonsRecord, GameStatus
from tg_mafia.telegram.limiter import InputLimiter

STALE = "This button is out of date."
# Calls that show nothing to anyone: the popups, the bot's own looks.
SILENT = frozenset({"answerCallbackQuery", "getUpdates", "getChatMember", "sendChatAction"})
PACE = 2.0  # seconds between one attacker's presses: within the per-user limit


def forged(game: int, step: int) -> dict[Kind, list[str]]:
    """Data of every kind of button, aimed at `game` at `step`."""
    s = str(step)
    return {
        Kind.NIGHT: [f"nt:{game}:{s}:kill:1", f"nt:{game}:{s}:check:2"],
        Kind.PLAN: [f"pl:{game}:{s}:1"],
        Kind.PASS: [f"ps:{game}:{s}"],
        Kind.NOMINATE_MENU: [f"nm:{game}:{s}"],
        Kind.NOMINATE: [f"no:{game}:{s}:1"],
        Kind.HAND: [f"hu:{game}:{s}"],
        Kind.LOWER: [f"hd:{game}:{s}"],
        Kind.LEAVE: [f"lt:{game}:{s}"],
        Kind.VOTE: [f"vt:{game}:{s}:1"],
        Kind.UNVOTE: [f"uv:{game}:{s}"],
        Kind.DECIDE: [f"dc:{game}:{s}:1"],
        Kind.BEST: [f"bm:{game}:{s}:d:1_2"],
        Kind.TIME: [f"tm:{game}:-"],
        Kind.HOST: [f"ho:{game}:-:pause", f"ho:{game}:-:confirm"],
        Kind.HOST_WARN_MENU: [f"hw:{game}:-"],
        Kind.HOST_WARN: [f"hx:{game}:-:1"],
        Kind.LOBBY: [f"lb:{game}:-:{verb}" for verb in ("start", "cancel", "leave", "rules")],
        Kind.NEW_GAME: [f"ng:{game}:-"],
        Kind.PROTOCOL: [f"pr:{game}:-"],
        Kind.SETTINGS: ["st:0:-:V:moscow", "st:0:-:L:fr"],
    }


def test_every_kind_of_button_is_forged() -> None:
    assert set(forged(1, 1)) == set(Kind)


def latest_bot_message(h: Harness, user: SimUser, chat: int) -> int:
    return max(m.message_id for m in user.view(chat) if m.sender_id == h.sb.world.bot.id)


def first_bot_message(h: Harness, user: SimUser, chat: int) -> int:
    return min(m.message_id for m in user.view(chat) if m.sender_id == h.sb.world.bot.id)


def offered(h: Harness, chat_id: int, message_id: int) -> set[str]:
    """The callback data of the buttons a message shows."""
    message = h.sb.world.resolve_chat(chat_id).live_message(message_id)
    keyboard = (message.reply_markup or {}).get("inline_keyboard", []) if message else []
    return {str(b["callback_data"]) for row in keyboard for b in row if "callback_data" in b}


def world_of(h: Harness) -> tuple[object, ...]:
    """What a refused press must leave as it was: every table of the database."""
    with h.db.engine.connect() as connection:
        tables = sa.inspect(connection).get_table_names()
        return tuple(
            (table, sorted(map(repr, connection.execute(sa.text(f"SELECT * FROM {table}")))))
            for table in sorted(tables)
        )


def visible_calls(h: Harness) -> list[str]:
    return [c.method for c in h.sb.log.calls() if c.method not in SILENT]


async def pressed(h: Harness, presses: list[Press]) -> Iterator[str]:
    await h.settle()
    assert all(p.answered for p in presses)
    return (str(p.answer.get("text")) for p in presses)


async def play_until_a_death(h: Harness, scheduler: ManualScheduler, game_id: int) -> str:
    """Plays the game until someone is out (the players' moves, timers): their id."""
    players = AutoPlayers(h, scheduler, seed=3)
    for _ in range(400):
        await h.settle()
        record = h.db.get_game(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        state = GameState.from_dict(record.state or {})
        out = [p for p in state.table.seats if p not in state.table.alive]
        if out:
            return out[0]
        await players.perform(record, public_view(state), lively_action(state, players.rng))
    raise AssertionError("nobody died")


async def test_the_forged_press_matrix(tmp_path: Path) -> None:
    """Every kind of button × every presser who has no business with it → the same
    popup; the database, the chats and the /nextgame subscribers untouched."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_a = await h.open_and_fill()
        await h.press_start()
        out = int(await play_until_a_death(h, scheduler, game_a))
        dead = next(u for u in h.users if u.id == out)
        # Another group's game, with players of its own.
        others = [h.sb.add_user(f"Other {n}") for n in range(7)]
        group_b = h.sb.add_group(
            "Saturday club", members=[*others, h.admin], owner=h.admin, bot_rights=BOT_RIGHTS
        )
        hb = Harness(h.sb, h.app, h.db, group_b, others, h.admin)
        game_b = await hb.open_and_fill()
        await hb.press_start()
        # An outsider and a member who plays nothing, each with the bot's greeting; the
        # member waits for the group's next game.
        outsider, member = h.sb.add_user("Mallory"), h.sb.add_user("Spectator")
        h.sb.add_member(h.group, member, by=h.admin)
        for user in (outsider, member):
            user.start()
        member.command(h.group, "nextgame", mention=True)
        await h.settle()
        living = next(u for u in h.users if str(u.id) != str(dead.id))
        record_a, record_b = h.db.get_game(game_a), h.db.get_game(game_b)
        assert record_a is not None and record_b is not None
        step_a = GameState.from_dict(record_a.state or {}).step
        step_b = GameState.from_dict(record_b.state or {}).step
        # (presser, chat, message): where a modified client can press.
        places = [
            (outsider, outsider.id, latest_bot_message(h, outsider, outsider.id)),
            (member, member.id, latest_bot_message(h, member, member.id)),
            (others[0], others[0].id, latest_bot_message(h, others[0], others[0].id)),
            (dead, dead.id, latest_bot_message(h, dead, dead.id)),
            (dead, h.group.id, latest_bot_message(h, dead, h.group.id)),
            # The right player on the wrong message: their own role card, the group's
            # announcement without buttons.
            (living, living.id, first_bot_message(h, living, living.id)),
            (living, h.group.id, first_bot_message(h, living, h.group.id)),
        ]
        before, calls, texts = world_of(h), visible_calls(h), h.private_texts(member)
        presses, real = [], []
        targets = [(game_a, step_a), (game_b, step_b), (game_b + 100, 1)]
        for user, chat, message_id in places:
            shown = offered(h, chat, message_id)
            for game, step in targets:
                for data in (d for datas in forged(game, step).values() for d in datas):
                    press = user.forge_press(chat, message_id, data)
                    # A button the message really shows (a dead player's vote, the
                    # clock) is a press like any other: the engine answers it.
                    (real if data in shown else presses).append(press)
                    await asyncio.sleep(PACE)
        assert set(await pressed(h, presses)) == {STALE}
        assert STALE not in set(await pressed(h, real))
        per_target = sum(len(datas) for datas in forged(1, 1).values())
        assert len(presses) + len(real) == len(places) * len(targets) * per_target
        assert world_of(h) == before
        assert visible_calls(h) == calls
        assert h.private_texts(member) == texts  # no lobby opened, nobody pinged
        metrics = h.app.bot_data.metrics
        refused = sum(
            sample.value
            for family in metrics.refused_presses.collect()
            for sample in family.samples
            if sample.name.endswith("_total")
        )
        assert refused == len(presses)


async def test_a_replay_after_the_stage_moved_on_is_refused(tmp_path: Path) -> None:
    """A real button, pressed again on its own message once its stage is over."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        record = h.db.get_game(game_id)
        assert record is not None
        # A stage's buttons, kept as a replaying client keeps them.
        chats = [h.group.id, *(u.id for u in h.users)]
        for _ in range(6):
            kept = [
                (chat_id, message.message_id, data)
                for chat_id in chats
                for message in h.sb.world.resolve_chat(chat_id).messages.values()
                if not message.deleted
                for data in offered(h, chat_id, message.message_id)
                if not data.startswith("tm:")
            ]
            if kept:
                break
            await scheduler.fire(f"game-{game_id}")
            await h.settle()
        assert kept
        record = h.db.get_game(game_id)
        assert record is not None
        await scheduler.fire(f"game-{game_id}")
        await h.settle()
        moved = h.db.get_game(game_id)
        assert moved is not None and moved.version > record.version
        before, calls = world_of(h), visible_calls(h)
        presses = []
        for chat_id, message_id, data in kept:
            player = next(u for u in h.users if u.id == chat_id) if chat_id > 0 else h.users[0]
            presses.append(player.forge_press(chat_id, message_id, data))
            await asyncio.sleep(PACE)
        assert set(await pressed(h, presses)) == {STALE}
        assert (world_of(h), visible_calls(h)) == (before, calls)


# ----- the five reproductions of the issue: an outsider, from their own private chat --------


async def ended_game(h: Harness, scheduler: ManualScheduler) -> int:
    h.db.save_settings(h.group.id, variant="classic", language="en")
    game_id = await h.open_and_fill()
    await h.press_start()
    ended = await AutoPlayers(h, scheduler, seed=1).play(game_id)
    assert ended.status is GameStatus.ENDED
    return game_id


async def test_an_outsider_gets_no_protocol_of_any_game(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await ended_game(h, scheduler)
        outsider = h.sb.add_user("Mallory")
        outsider.start()
        await h.settle()
        seen = len(outsider.view())
        press = outsider.forge_press(outsider.id, latest_bot_message(h, outsider, outsider.id),
                                     f"pr:{game_id}:-")  # fmt: skip
        assert list(await pressed(h, [press])) == [STALE]
        assert len(outsider.view()) == seen  # no protocol, no document


async def test_an_outsider_opens_no_lobby_and_pings_nobody(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await ended_game(h, scheduler)
        watcher = h.users[0]
        watcher.command(h.group, "nextgame", mention=True)
        outsider = h.sb.add_user("Mallory")
        outsider.start()
        await h.settle()
        pings = len(h.private_texts(watcher))
        message_id = latest_bot_message(h, outsider, outsider.id)
        presses = []
        for _ in range(5):
            presses.append(outsider.forge_press(outsider.id, message_id, f"ng:{game_id}:-"))
            await asyncio.sleep(PACE)
        assert set(await pressed(h, presses)) == {STALE}
        assert h.db.active_game(h.group.id) is None
        assert len(h.private_texts(watcher)) == pings


async def test_an_outsider_neither_starts_nor_cancels_a_lobby(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        lobby = await h.open_and_fill()
        outsider = h.sb.add_user("Mallory")
        outsider.start()
        await h.settle()
        message_id = latest_bot_message(h, outsider, outsider.id)
        presses = []
        for verb in ("start", "cancel"):
            presses.append(outsider.forge_press(outsider.id, message_id, f"lb:{lobby}:-:{verb}"))
            await asyncio.sleep(PACE)
        assert set(await pressed(h, presses)) == {STALE}
        record = h.db.get_game(lobby)
        assert record is not None and record.status is GameStatus.LOBBY


async def test_an_outsider_learns_no_time_left(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        outsider = h.sb.add_user("Mallory")
        outsider.start()
        await h.settle()
        message_id = latest_bot_message(h, outsider, outsider.id)
        press = outsider.forge_press(outsider.id, message_id, f"tm:{game_id}:-")
        assert list(await pressed(h, [press])) == [STALE]


async def test_a_member_who_is_not_a_player_may_read_the_protocol(tmp_path: Path) -> None:
    """Who may read: the players and the members of the group, asked of Telegram;
    someone who has left the group may not."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await ended_game(h, scheduler)
        member, leaver = h.sb.add_user("Spectator"), h.sb.add_user("Leaver")
        for user in (member, leaver):
            h.sb.add_member(h.group, user, by=h.admin)
            user.start()
        await h.settle()
        found = find_buttons(h, h.group.id, prefix(Kind.PROTOCOL, h.db.get_game(game_id)))  # type: ignore[arg-type]
        assert found
        message_id, label = found[0]
        asked = member.press(h.group, label, message_id=message_id)
        await h.settle()
        assert asked.answer.get("text") != STALE
        assert any("Protocol" in t or "protocol" in t for t in h.private_texts(member))
        # Pressed in the group, then gone before the bot asks Telegram: no protocol.
        late = leaver.press(h.group, label, message_id=message_id)
        h.sb.leave(h.group, leaver)
        await h.settle()
        assert late.answer.get("text") == "Only members of the group may do this."
        assert not any("protocol" in t.lower() for t in h.private_texts(leaver))


# ----- arbitrary data on every recorded message ----------------------------------------------

CHOICE_LIKE = st.from_regex(
    r"\A(nt|pl|ps|nm|no|hu|hd|lt|vt|uv|dc|bm|tm|ho|hw|hx|lb|ng|pr|st|zz):"
    r"[0-9]{1,4}:(-|[0-9]{1,3})(:[a-z0-9_]{1,8}){0,3}\Z",
    fullmatch=True,
)
ANY_TEXT = st.text(string.printable + "é🎭:-", min_size=1, max_size=64).filter(
    lambda s: len(s.encode()) <= 64
)


async def test_arbitrary_data_on_every_recorded_message_changes_nothing(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en")
        await h.open_and_fill()
        await h.press_start()
        h.app.bot_data.input_limiter = InputLimiter(rate=10**6)  # not what is tested here
        with h.db.transaction() as tx:
            rows = tx.session.exec(sa.text("SELECT chat_id, message_id FROM button_message"))
            recorded = [(int(c), int(m)) for c, m in rows]
        every_choice = sorted(
            {
                str(button["callback_data"])
                for chat_id, message_id in recorded
                for message in [h.sb.world.resolve_chat(chat_id).live_message(message_id)]
                if message is not None and message.reply_markup
                for row in message.reply_markup["inline_keyboard"]
                for button in row
                if "callback_data" in button
            }
        )
        presses: list[Press] = []

        @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
        @given(
            place=st.sampled_from(recorded),
            data=st.one_of(CHOICE_LIKE, ANY_TEXT, st.sampled_from(every_choice)),
        )
        def press_anything(place: tuple[int, int], data: str) -> None:
            chat_id, message_id = place
            message = h.sb.world.resolve_chat(chat_id).live_message(message_id)
            offered = {
                b.get("callback_data")
                for row in (
                    (message.reply_markup or {}).get("inline_keyboard", []) if message else []
                )
                for b in row
            }
            if message is None or data in offered:
                return  # a real press of a real button: not this test's business
            user = h.sb.world.users[chat_id] if chat_id > 0 else h.users[0]
            presses.append(h.sb.forge_press(user, chat_id, message_id, data))

        before, calls = world_of(h), visible_calls(h)
        press_anything()
        assert presses
        assert set(await pressed(h, presses)) == {STALE}
        assert (world_of(h), visible_calls(h)) == (before, calls)


@given(data=st.one_of(CHOICE_LIKE, ANY_TEXT), choices=st.lists(CHOICE_LIKE, max_size=6))
def test_the_gate_lets_through_only_a_shown_button_of_the_messages_game(
    data: str, choices: list[str]
) -> None:
    """The gate's rule on its own: through exactly when the data is one of the
    message's buttons and names the message's game (or no game, for a settings menu)."""

    class Query:
        def __init__(self, data: str) -> None:
            self.data = data
            self.from_user = type("User", (), {"id": 5})()

    record = ButtonsRecord(-100, 7, 12, tuple(choices))
    verdict = check(Query(data), record, -100, 7)  # type: ignore[arg-type]
    if data not in choices:
        assert verdict in (Refusal.NOT_OFFERED,)
    elif isinstance(verdict, Refusal):
        assert verdict is Refusal.NOT_OFFERED or (
            verdict is Refusal.OTHER_GAME and data.split(":")[1] != "12"
        )
    else:
        assert verdict.game_id == 12 and verdict.button.game == 12
    assert check(Query(data), None, -100, 7) is Refusal.UNKNOWN_MESSAGE


# ----- one limit for commands and presses ----------------------------------------------------


async def test_thirty_presses_in_ten_seconds_are_told_when_to_retry(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        lobby = await h.open_and_fill()
        player = h.users[0]
        found = find_buttons(h, h.group.id, lambda d: d == f"lb:{lobby}:-:rules")
        message_id, label = found[0]
        presses = []
        for _ in range(30):
            presses.append(player.press(h.group, label, message_id=message_id))
            await asyncio.sleep(10 / 30)
        answers = list(await pressed(h, presses))
        limiter = h.app.bot_data.input_limiter
        told = f"Too fast: try again in {limiter.retry_after} seconds."
        # A burst of 15, then one every 2 s: the rest are told when to come back.
        assert answers[: limiter.rate] == ["Look at your private chat with the bot."] * limiter.rate
        assert told in answers[limiter.rate :]
        assert 30 - limiter.rate - 5 <= answers.count(told) <= 30 - limiter.rate
        assert all(a in (told, "Look at your private chat with the bot.") for a in answers)


async def test_the_join_link_still_joins_after_eight_commands(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        late = h.users[0]
        late.start()
        for _ in range(20):  # past the limit: the commands are refused, told once
            late.command(late.private_chat, "help")
        await h.settle()
        assert any(t.startswith("Too fast") for t in h.private_texts(late))
        late.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
        await h.settle()
        record = h.db.active_game(h.group.id)
        assert record is not None and record.seat_of(late.id) is not None


# ----- an update delivered again ---------------------------------------------------------------


async def test_a_press_delivered_again_after_it_counted_is_answered_silently(
    tmp_path: Path,
) -> None:
    """Telegram delivers a webhook update again when the bot died before answering it,
    though its press may have made its move: by then the message shows other buttons.
    That press counted, so it is not told "out of date" (gate.Refusal.REPEATED); the same
    press in any other update still is."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        game_id = await ended_game(h, scheduler)
        with h.db.engine.connect() as connection:
            made = connection.execute(
                sa.text("SELECT max(update_id) FROM game_action WHERE game_id = :g"),
                {"g": game_id},
            ).scalar_one()
        assert made is not None

        class Query:  # a press on a message whose buttons are gone
            data = f"vt:{game_id}:1:1"
            from_user = type("User", (), {"id": h.users[0].id})()
            message = type(
                "Message", (), {"chat": type("Chat", (), {"id": h.group.id})(), "message_id": 1}
            )()

        adb = AsyncDb(h.db)
        try:
            query: Any = Query()
            assert await admit(query, adb, made) is Refusal.REPEATED
            assert await admit(query, adb, made + 1000) is Refusal.UNKNOWN_MESSAGE
            assert await admit(query, adb, None) is Refusal.UNKNOWN_MESSAGE
        finally:
            adb.close()

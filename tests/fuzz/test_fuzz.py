"""Bad input against live games: over 10,000 random and malformed updates
(random users pressing real and forged buttons, garbage callback data,
commands with junk arguments, edited messages, channel and anonymous
administrator posts, 4,096-character texts, unknown update types), sent in
bursts between the moves of real games played through the buttons.

Checked: no exception escapes a handler (nothing of the bot's logs an
error: PTB hands a handler's exception to `on_error`, which logs it), and
nothing changes that the sender was not allowed to change: every action a
burst adds to a game's log was taken by a player who sent something in that
burst (their own button, their own post), a burst from non-players changes
nothing, and the game is never cancelled or ended by anyone but its
players' moves."""

from __future__ import annotations

import itertools
import logging
import random
import string
from pathlib import Path
from typing import Any

import pytest

from engine import HOST, GameState, public_view
from engine.simulation import lively_action
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import Harness, running_bot
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.callbacks import Kind
from tg_mafia.sandbox import SimUser
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.sandbox.methods.table import PendingQuery
from tg_mafia.storage import GameRecord, GameStatus
from tg_mafia.telegram.limiter import InputLimiter

UPDATES = 10_000
BURST = 100
MOVES_BETWEEN = 4
KINDS = [kind.value for kind in Kind] + ["zz", "n", "S", "?"]
JUNK_ARGS = [
    "",
    "0",
    "-1",
    "99",
    "kill",
    "check",
    "u",
    "d",
    "start",
    "cancel",
    "leave",
    "confirm",
    "warnmenu",
    "💥",
    "a" * 40,
    "1:2:3",
    "%00",
    "<b>",
]


class ErrorCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Fuzzer:
    def __init__(self, h: Harness, rng: random.Random) -> None:
        self.h = h
        self.rng = rng
        sb = h.sb
        self.strangers = sb.add_users(3)
        self.spectator = sb.add_user("Spectator")
        sb.join(h.group, self.spectator)
        self.channel = sb.add_channel("Some channel")
        self.query_ids = itertools.count(9_000_000_000_000_001)
        self.sent = 0
        self.senders: set[int] = set()
        self.current: GameRecord | None = None

    @property
    def everyone(self) -> list[SimUser]:
        return [*self.h.users, self.h.admin, self.spectator, *self.strangers]

    # ----- pieces ------------------------------------------------------------------------

    def text(self) -> str:
        roll = self.rng.random()
        if roll < 0.1:
            return "x" * 4096
        if roll < 0.2:
            alphabet = string.printable + "ёжик🎭<>&\"'\u200b\u202e"
            return "".join(self.rng.choice(alphabet) for _ in range(4096))
        if roll < 0.3:
            return "<b>bold</b> <i>unclosed & <a href='x'>"
        return "".join(self.rng.choice(string.ascii_letters + " ") for _ in range(20))

    def begin_burst(self) -> None:
        """A burst is made without yielding to the event loop, so the bot handles none of
        it before the burst is complete: the game it is aimed at is read once."""
        self.senders = set()
        self.current = self.h.db.active_game(self.h.group.id)

    def token(self, record: GameRecord | None) -> str:
        if record is not None and record.state is not None and self.rng.random() < 0.6:
            return str(GameState.from_dict(record.state).step)
        return self.rng.choice(["-", "0", "1", "²", "0.0.ni.0.0.n0", "junk", ""])

    def forged_data(self) -> str:
        roll = self.rng.random()
        if roll < 0.15:
            size = self.rng.randint(0, 80)
            return "".join(self.rng.choice(string.printable + "й🎭") for _ in range(size))
        record = self.current
        known = record.id if record else 1
        gid = self.rng.choice([known, known + 1, 0, 10**12])
        args = [self.rng.choice(JUNK_ARGS) for _ in range(self.rng.randint(0, 3))]
        parts = [self.rng.choice(KINDS), str(gid), self.token(record), *args]
        return ":".join(parts)

    def real_data(self, chat_id: int) -> str | None:
        chat = self.h.sb.world.resolve_chat(chat_id)
        found = [
            str(button["callback_data"])
            for message in list(chat.messages.values())[-30:]
            if message.reply_markup and not message.deleted
            for row in message.reply_markup.get("inline_keyboard", [])
            for button in row
            if "callback_data" in button
        ]
        return self.rng.choice(found) if found else None

    def raw(self, update: dict[str, Any]) -> None:
        self.h.sb.inject_update(update)
        self.sent += 1

    def press(self, user: SimUser, data: str) -> None:
        """A callback query as Telegram would deliver it, with any data at all."""
        sb, world = self.h.sb, self.h.sb.world
        chat = self.rng.choice([self.h.group, world.private_chat(world.users[user.id])])
        live = [m for m in chat.messages.values() if not m.deleted]
        if not live:
            chat = self.h.group
            live = [m for m in chat.messages.values() if not m.deleted]
        message = self.rng.choice(live[-20:])
        query_id = str(next(self.query_ids))
        sb.callback_queries[query_id] = PendingQuery(
            query_id, user.id, chat.id, message.message_id, data, sb.clock.now()
        )
        self.raw(
            {
                "callback_query": {
                    "id": query_id,
                    "from": world.users[user.id].to_api(),
                    "message": world.message_api(message),
                    "chat_instance": chat.chat_instance,
                    "data": data,
                }
            }
        )
        self.senders.add(user.id)

    # ----- one random update ----------------------------------------------------------------

    def one(self) -> None:
        rng, h = self.rng, self.h
        user = rng.choice(self.everyone)
        roll = rng.random()
        try:
            if roll < 0.30:
                self.press(user, self.forged_data())
            elif roll < 0.45:
                source = rng.choice([h.group.id, *(u.id for u in h.users)])
                data = self.real_data(source)
                self.press(user, data or self.forged_data())
            elif roll < 0.55:
                self.command(user)
            elif roll < 0.65:
                self.post(user)
            elif roll < 0.72:
                self.edit(user)
            elif roll < 0.78:
                h.sb.post_as_channel(h.group, self.channel, self.text())
                self.sent += 1
            elif roll < 0.84:
                h.admin.send(
                    h.group, rng.choice(["/newgame", "/host", self.text()]), anonymous=True
                )
                self.sent += 1
            else:
                self.unknown(user)
        except SimulationError:
            # Telegram would not let this user do it (a closed chat, a blocked bot):
            # send it raw instead, as a forged update.
            self.forged_message(user)

    def command(self, user: SimUser) -> None:
        rng, h = self.rng, self.h
        junk = rng.choice(
            [
                "",
                " " + self.text()[:200],
                " join_",
                " join_abc",
                " join_-0",
                " join_99999999999999999999999",
                f" join_{h.group.id}",
                " @@@",
            ]
        )
        name = rng.choice(["newgame", "host", "start", "cancel", "settings", "stats", "rules"])
        if name == "cancel" and user is h.admin:
            name = "host"  # the owner may cancel: that is allowed, and would end the fun
        text = f"/{name}{rng.choice(['', '@' + h.sb.bot_username, '@other_bot'])}{junk}"
        chat = rng.choice([h.group, user.private_chat])
        if chat is user.private_chat and not h.sb.world.users[user.id].started:
            text = "/start" + junk
        user.send(chat, text[:4096])
        self.sent += 1
        self.senders.add(user.id)

    def post(self, user: SimUser) -> None:
        chat = self.rng.choice([self.h.group, user.private_chat])
        if chat is user.private_chat and not self.h.sb.world.users[user.id].started:
            user.start()
            self.sent += 1
        user.send(chat, self.text())
        self.sent += 1
        self.senders.add(user.id)

    def edit(self, user: SimUser) -> None:
        own = [
            m
            for m in list(self.h.sb.world.resolve_chat(self.h.group.id).messages.values())[-50:]
            if m.from_id == user.id and not m.deleted
        ]
        if not own:
            self.post(user)
            return
        user.edit(self.rng.choice(own), self.text())
        self.sent += 1
        self.senders.add(user.id)

    def forged_message(self, user: SimUser) -> None:
        world = self.h.sb.world
        self.raw(
            {
                self.rng.choice(["message", "edited_message"]): {
                    "message_id": self.rng.randint(1, 10**6),
                    "date": self.h.sb.clock.date(),
                    "chat": world.chat_api(self.h.group),
                    "from": world.users[user.id].to_api(),
                    "text": self.text(),
                }
            }
        )
        self.senders.add(user.id)

    def unknown(self, user: SimUser) -> None:
        world, rng = self.h.sb.world, self.rng
        group = world.chat_api(self.h.group)
        sender = world.users[user.id].to_api()
        date = self.h.sb.clock.date()
        choices: list[dict[str, Any]] = [
            {"future_update_kind": {"anything": [1, 2, 3]}},
            {
                "message_reaction": {
                    "chat": group,
                    "message_id": 1,
                    "date": date,
                    "old_reaction": [],
                    "new_reaction": [],
                }
            },
            {
                "chat_join_request": {
                    "chat": group,
                    "from": sender,
                    "user_chat_id": user.id,
                    "date": date,
                }
            },
            {"message": {"message_id": rng.randint(1, 10**6), "date": date, "chat": group}},
            {
                "message": {
                    "message_id": 5,
                    "date": date,
                    "chat": group,
                    "from": sender,
                    "new_chat_members": [sender],
                }
            },
            {
                "callback_query": {
                    "id": str(next(self.query_ids)),
                    "from": sender,
                    "chat_instance": "1",
                }
            },
            {
                "callback_query": {
                    "id": str(next(self.query_ids)),
                    "from": sender,
                    "chat_instance": "1",
                    "inline_message_id": "abc",
                    "data": self.forged_data(),
                }
            },
            {
                "my_chat_member": {
                    "chat": group,
                    "from": sender,
                    "date": date,
                    "old_chat_member": {"status": "member", "user": sender},
                    "new_chat_member": {"status": "left", "user": sender},
                }
            },
        ]
        self.raw(rng.choice(choices))
        self.senders.add(user.id)


@pytest.mark.slow
async def test_fuzzed_updates_change_nothing_they_may_not(tmp_path: Path) -> None:
    counter = ErrorCounter()
    root = logging.getLogger()
    root.addHandler(counter)
    scheduler = ManualScheduler()
    rng = random.Random(2024)
    try:
        async with running_bot(tmp_path, 8, speed=500.0, scheduler=scheduler) as h:
            h.db.save_settings(h.group.id, variant=rng.choice(["classic", "party"]), language="en")
            fuzzer = Fuzzer(h, rng)
            players = AutoPlayers(h, scheduler, seed=5)
            games = 0
            while fuzzer.sent < UPDATES:
                record = h.db.active_game(h.group.id)
                if record is None:
                    variant = ["classic", "party", "moscow", "club"][games % 4]
                    h.db.save_settings(h.group.id, variant=variant, language="en")
                    # The bursts' commands may have put the admin and the players past
                    # the limit (telegram/limiter.py): refused for a while, then heard again.
                    # (Forgiven at once here: waiting it out is tests/bot/test_attacks.py's.)
                    h.app.bot_data.input_limiter = InputLimiter()
                    await h.open_and_fill()
                    await h.press_start()
                    games += 1
                    continue
                if record.status is GameStatus.LOBBY:
                    # Someone's /newgame in a burst opened it after a game ended: play it.
                    for user in h.users:
                        user.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
                    await h.settle()
                    await h.press_start()
                    games += 1
                    continue
                # A few real moves, then a burst of junk.
                for _ in range(MOVES_BETWEEN):
                    await h.settle()
                    record = h.db.get_game(record.id)
                    assert record is not None
                    if record.status is not GameStatus.RUNNING:
                        break
                    state = GameState.from_dict(record.state or {})
                    await players.perform(
                        record, public_view(state), lively_action(state, players.rng)
                    )
                await h.settle()
                record = h.db.get_game(record.id)
                assert record is not None
                if record.status is not GameStatus.RUNNING:
                    # Played to its end, or (rarely, the players being lively) abandoned: a
                    # day and a night with no player's move.
                    assert record.status in (GameStatus.ENDED, GameStatus.ABORTED)
                    continue
                before = len(h.db.actions(record.id))
                fuzzer.begin_burst()
                for _ in range(BURST):
                    fuzzer.one()
                await h.settle(timeout=30)
                after = h.db.get_game(record.id)
                assert after is not None
                assert after.status in (GameStatus.RUNNING, GameStatus.ENDED), after.status
                players_ids = {str(p.user_id) for p in after.players}
                allowed = {str(u) for u in fuzzer.senders} & players_ids
                if after.host_user_id in fuzzer.senders:
                    # A human host (someone's /host in a lobby): their posts and
                    # buttons are the game's too, as the actor "host".
                    allowed.add(HOST)
                for stored in h.db.actions(record.id)[before:]:
                    actor = stored.action.get("actor")
                    assert actor in allowed, f"{stored.action} taken by someone who did not send"
                    assert stored.action.get("verb") != "timeout"
                if after.status is GameStatus.ENDED:
                    assert after.winner is not None
            assert games >= 1
            assert fuzzer.sent >= UPDATES
            assert not h.sb.log.unknown_parameters()
    finally:
        root.removeHandler(counter)
    bot_errors = [r for r in counter.records if not r.name.startswith("tornado")]
    assert not bot_errors, [f"{r.name}: {r.getMessage()}" for r in bot_errors[:5]]

"""Fair sending (outbox/order.py, outbox/merging.py), on the sandbox with Telegram's limits and
the virtual clock: no chat waits behind another chat's backlog, calls decided now go
before a backlog a restart found, prompts before cosmetic edits, a superseded edit
is never sent, announcements that fall due together go as one message, and a press is
answered before what it causes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.bot.harness import BOT_RIGHTS, running_bot
from tg_mafia.render.calls import Clear, Edit, Op, Priority, Send
from tg_mafia.render.calls_json import to_json
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.outbox.budgets import GROUP_BUDGET
from tg_mafia.runtime.outbox.methods import Delivery
from tg_mafia.runtime.outbox.order import Turn
from tg_mafia.runtime.outbox.plan import Unit
from tg_mafia.runtime.outbox.sender import Sender
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.limits import CHARGED_METHODS
from tg_mafia.sandbox.records import CallRecord
from tg_mafia.sandbox.virtual_time import current_time_source
from tg_mafia.storage import Database, GameStatus, open_database

BUTTONS = [[{"text": "Vote", "data": "vt:1:1"}]]


@dataclass
class Bench:
    sb: Sandbox
    db: Database
    sender: Sender
    games: dict[int, int] = field(default_factory=dict)  # chat: its game (living messages)

    def enqueue(
        self, chat: int, op: Op, *, age: float = 0.0, priority: int = Priority.GAME
    ) -> None:
        """A call of the chat's game, decided `age` seconds ago (a crash's backlog is old)."""
        with self.db.transaction() as tx:
            if chat not in self.games:
                self.games[chat] = tx.create_lobby(chat, opened_by=1).id
            now = self.sender.clock.now() - age
            tx.enqueue(chat, to_json(op), now=now, game_id=self.games[chat], priority=priority)
        self.sender.wake(chat)  # as a game's write does

    def sent(self, chat: int) -> list[CallRecord]:
        return [r for r in self.sb.log if r.ok and r.chat_id == chat and r.method != "getUpdates"]

    def charged(self) -> list[CallRecord]:
        return [r for r in self.sb.log if r.ok and r.method in CHARGED_METHODS]

    async def until(self, check: object, seconds: float = 600.0) -> None:
        end = asyncio.get_running_loop().time() + seconds
        while not check():  # type: ignore[operator]
            assert asyncio.get_running_loop().time() < end, "not in time"
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def bench(tmp_path: Path) -> AsyncIterator[Bench]:
    """A sender on the sandbox (Telegram's limits on) and a new database, started."""
    sb = Sandbox()
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    adb = AsyncDb(db)
    bot = sb.bot()
    await bot.initialize()
    sender = Sender(bot, adb, BotClock(1.0, current_time_source()))
    sender.start()
    try:
        yield Bench(sb, db, sender)
    finally:
        await sender.stop()
        await bot.shutdown()
        adb.close()
        db.close()


def groups(sb: Sandbox, count: int) -> list[int]:
    owners = sb.add_users(count)
    return [
        sb.add_group(f"club {n}", owner=owner, bot_rights=BOT_RIGHTS).id
        for n, owner in enumerate(owners)
    ]


async def test_a_chat_never_waits_behind_other_chats_backlogs(tmp_path: Path) -> None:
    """Forty groups with more than a minute's calls each, their minute's budget spent
    (more groups than the old 32 workers, each of which stuck to its chat for as long
    as its group's budget made it wait); a new call in another group goes out at once."""
    async with bench(tmp_path) as b:
        busy, (quiet,) = groups(b.sb, 40), groups(b.sb, 1)
        for chat in busy:
            for n in range(20):  # with buttons: none merges with the next
                b.enqueue(chat, Send(f"backlog {n}", keyboard=BUTTONS))
        await b.until(lambda: len(b.charged()) >= 600)  # every busy group has spent its minute
        asked = b.sb.clock.now()
        b.enqueue(quiet, Send("your turn"))
        await b.until(lambda: b.sent(quiet))
        assert b.sent(quiet)[0].time - asked < 2.0
        assert all(len(b.sent(chat)) < 20 for chat in busy)  # their backlogs still wait
        assert b.sb.log.count_429() == 0


async def test_a_call_decided_now_goes_before_an_inherited_backlog(tmp_path: Path) -> None:
    """A backlog a restart found (decided a minute ago) in 150 private chats takes the
    bot's whole budget for five seconds; a group's call decided now goes within the
    second, and the backlog after it."""
    async with bench(tmp_path) as b:
        readers = b.sb.add_users(150, started=True)
        (group,) = groups(b.sb, 1)
        for reader in readers:
            b.enqueue(reader.id, Send("your role, late"), age=60.0)
        await b.until(lambda: len(b.charged()) >= 40)
        asked = b.sb.clock.now()
        b.enqueue(group, Send("Day 2: vote", keyboard=BUTTONS))
        await b.until(lambda: b.sent(group))
        assert b.sent(group)[0].time - asked < 1.0
        await b.until(lambda: len(b.charged()) == 151)
        late = [r for r in b.charged() if r.time > b.sent(group)[0].time]
        assert len(late) > 50
        assert b.sb.log.count_429() == 0


async def test_prompts_go_before_cosmetic_edits_when_the_budget_is_full(
    tmp_path: Path,
) -> None:
    """Ninety groups each with an edit of what they show, decided first; then a prompt
    in one more group: with 30 calls a second, the prompt takes the first slot free."""
    async with bench(tmp_path) as b:
        chats = groups(b.sb, 91)
        for chat in chats[:90]:  # an edit of a message never sent is said anew: a send
            b.enqueue(chat, Edit("3 players", key="lobby"))
        b.enqueue(chats[90], Send("Night 1: whom do you check?", keyboard=BUTTONS))
        await b.until(lambda: len(b.charged()) == 91)
        # The first slot after the first second's 30 (its buttons' record written first).
        assert b.sent(chats[90])[0].time == b.charged()[30].time
        assert b.sb.log.count_429() == 0


async def test_cosmetic_edits_leave_a_groups_reserve_to_what_players_wait_on(
    tmp_path: Path,
) -> None:
    """A lobby filling join by join: its list of names is edited only while the group's
    minute keeps its reserve free (the edits meanwhile fold into the newest), and the
    game's start, written behind the held edit, goes at once, the edit just before it."""
    async with bench(tmp_path) as b:
        (chat,) = groups(b.sb, 1)
        b.enqueue(chat, Send("Lobby: nobody", key="lobby", keyboard=BUTTONS))
        await b.sender.drain()
        for joined in range(1, 15):
            b.enqueue(chat, Edit(f"Lobby: {joined}", key="lobby", keyboard=BUTTONS))
            await asyncio.sleep(2.0)
        assert len(b.sent(chat)) == GROUP_BUDGET.calls - GROUP_BUDGET.reserve
        asked = b.sb.clock.now()
        b.enqueue(chat, Send("The game begins", keyboard=BUTTONS))
        await b.until(lambda: b.sent(chat)[-1].params.get("text") == "The game begins")
        assert b.sent(chat)[-1].time - asked < 1.0
        assert b.sent(chat)[-2].params["text"] == "Lobby: 14"
        assert len(b.sent(chat)) == GROUP_BUDGET.calls - GROUP_BUDGET.reserve + 2
        assert b.sb.log.count_429() == 0


async def test_an_edit_a_newer_edit_replaces_is_never_sent(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        (chat,) = groups(b.sb, 1)
        b.enqueue(chat, Send("Votes: none", key="board", keyboard=BUTTONS))
        await b.sender.drain()
        for votes in ("Votes: 1", "Votes: 2", "Votes: 3"):
            b.enqueue(chat, Edit(votes, key="board", keyboard=BUTTONS))
        await b.sender.drain()
        edits = [r for r in b.sent(chat) if r.method == "editMessageText"]
        assert [r.params["text"] for r in edits] == ["Votes: 3"]


async def test_announcements_that_fall_due_together_go_as_one_message(tmp_path: Path) -> None:
    """The night falls: the last result, the floor's keyboard taken off, the night's
    message with its timer and the group closed: one message, then the other calls."""
    async with bench(tmp_path) as b:
        (chat,) = groups(b.sb, 1)
        b.enqueue(chat, Send("Anna speaks", key="floor", keyboard=BUTTONS))
        await b.sender.drain()
        b.enqueue(chat, Send("Anna is eliminated."))
        b.enqueue(chat, Clear("floor"))
        b.enqueue(chat, Send("Night 1. The city sleeps."))
        await b.sender.drain()
        calls = [r.method for r in b.sent(chat)]
        assert calls == ["sendMessage", "sendMessage", "editMessageReplyMarkup"]
        merged = b.sent(chat)[1].params["text"]
        assert merged == "Anna is eliminated.\n\nNight 1. The city sleeps."
        with b.db.transaction() as tx:
            assert tx.pending(chat) == []  # every merged call settled with it


async def test_a_start_is_answered_before_the_deal(tmp_path: Path) -> None:
    """The lobby's Start: the popup goes before the deal asks Telegram anything (the
    group's permissions) and before any of its messages; the opener is not asked about."""
    async with running_bot(tmp_path, 7) as h:
        await h.open_and_fill()
        before = len(h.sb.log.records)
        await h.press_start()
        methods = [r.method for r in h.sb.log.records[before:] if r.method != "getUpdates"]
        assert methods.index("answerCallbackQuery") < methods.index("getChat")
        assert methods.index("answerCallbackQuery") < methods.index("sendMessage")
        assert "getChatMember" not in methods  # the opener starts it: no need to ask
        game = h.db.active_game(h.group.id)
        assert game is not None and game.status is GameStatus.RUNNING


class Crash(BaseException):
    """The process dies: past every handler of the sender's."""


class DiesAfterItsFirstCall(Sender):
    """Makes its first call, then dies before writing it down; makes no other."""

    died = False

    async def _deliver(self, unit: Unit, turn: Turn | None = None) -> Delivery | None:
        if self.died:
            await asyncio.Event().wait()  # a dead process makes no call
        await super()._deliver(unit, turn)
        self.died = True
        raise Crash


async def test_a_merged_call_made_again_after_a_crash_is_settled_whole(tmp_path: Path) -> None:
    """A crash between a merged call and its write: the next process makes the same
    merged call again (its first call's id the same) and settles every part with it;
    the copy that went out before the crash still takes the presses of its buttons."""
    async with bench(tmp_path) as b:
        await b.sender.stop()
        (chat,) = groups(b.sb, 1)
        b.enqueue(chat, Send("The count: 4 for Anna."))
        b.enqueue(chat, Send("Anna's last word?", keyboard=BUTTONS))
        dying = DiesAfterItsFirstCall(b.sender.bot, b.sender.db, b.sender.clock)
        dying.start()
        await b.until(lambda: dying.died)
        await dying.stop()
        with b.db.transaction() as tx:
            assert len(tx.pending(chat)) == 2  # nothing written down
        b.sender.start()
        await b.sender.drain()
        first, again = b.sent(chat)
        assert (
            first.params["text"]
            == again.params["text"]
            == ("The count: 4 for Anna.\n\nAnna's last word?")
        )
        with b.db.transaction() as tx:
            assert tx.pending(chat) == []  # both parts settled with the one call
            shown = tx.buttons(chat, again.result["message_id"])
            assert shown is not None and shown.choices == ("vt:1:1",)
            lost = tx.buttons(chat, first.result["message_id"], "vt:1:1")
            assert lost is not None and lost.game_id == b.games[chat]

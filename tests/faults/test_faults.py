"""Telegram misbehaving in the middle of whole games: 429 storms, calls that
hang past the client's timeout, 5xx answers, and a player who blocks the
bot. The bot must not crash, must say everything that has to be said (each
morning and the end screen reach the group, later if need be), and the game
must go on to its end."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import pytest

from engine import GameState, PublicView, apply, new_game
from engine.actions import Action, Decide, NightChoice, Nominate, Pass, Timeout, action_from_dict
from engine.events import DayStarted, GameEnded
from engine.simulation import lively_action
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.sandbox import Sandbox, SimUser
from tg_mafia.sandbox.transport.inprocess import SandboxRequest
from tg_mafia.storage import GameRecord, GameStatus

SPEED = 100.0
READ_TIMEOUT = 0.4  # seconds (of the test's virtual clock): a hung call gives up quickly
TAGS = re.compile(r"</?b>")


class QuickSandbox(Sandbox):
    """The sandbox, with a client that gives up on a hung call after READ_TIMEOUT."""

    def request(self, read_timeout: float = READ_TIMEOUT) -> SandboxRequest:
        return super().request(read_timeout)


def must_be_said(h: Harness, record: GameRecord) -> list[str]:
    """Group lines the game owes: each morning's first line and the winner line,
    from replaying the stored log in the engine."""
    t = translator(record.language)
    options = dict(record.options)
    options["host"] = "human" if record.host_user_id else "auto"
    seats = tuple(str(p.user_id) for p in record.players)
    state, events = new_game(record.variant, seats, options, record.seed, record.language)
    owed: list[str] = []
    for stored in h.db.actions(record.id):
        state, new = apply(state, action_from_dict(dict(stored.action)))
        events.extend(new)
    for event in events:
        if isinstance(event, DayStarted):
            owed.append(t.gettext("☀️ <b>Day {n}.</b> The city wakes up.").format(n=event.day))
        elif isinstance(event, GameEnded):
            owed.append(texts.winner_line(t, event.winner))
    assert state.outcome.winner is not None and any("wins" in line for line in owed)
    return [TAGS.sub("", line) for line in owed]


def assert_all_said(h: Harness, record: GameRecord) -> None:
    group = "\n\n".join(h.group_texts())
    for line in must_be_said(h, record):
        assert line in group, f"never said in the group: {line!r}"


def assert_results_said(h: Harness, record: GameRecord, users: list[SimUser]) -> None:
    """Each player's own result reaches their private chat."""
    t = translator(record.language)
    state = GameState.from_dict(record.state or {})
    assert state.outcome.winner is not None
    for user in users:
        role = state.table.roles[str(user.id)]
        line = TAGS.sub(
            "", texts.own_result(t, role.side is state.outcome.winner, state.outcome.winner, role)
        )
        assert any(line in m for m in h.private_texts(user)), (line, h.private_texts(user)[-3:])


def assert_no_errors(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing of the bot's logged an error (a handler's exception reaches
    `on_error`, an outbox failure logs one). PTB's poller logs its own retried
    getUpdates failures at ERROR: those are Telegram's faults we injected."""
    errors = [
        r for r in caplog.records if r.levelno >= logging.ERROR and r.name != "telegram.ext.Updater"
    ]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]


class FaultyPlayers(AutoPlayers):
    """Autoplayers with a fault plan: before some steps, Telegram starts to misbehave."""

    def __init__(
        self, h: Harness, scheduler: ManualScheduler, seed: int, kinds: tuple[str, ...]
    ) -> None:
        super().__init__(h, scheduler, seed)
        self.kinds = kinds
        self.faults = random.Random(seed * 31 + 7)
        self.injected = 0

    async def perform(self, record: GameRecord, view: PublicView, action: Action) -> None:
        if self.steps % 7 == 3:
            self.inject(self.faults.choice(self.kinds))
        await super().perform(record, view, action)

    def inject(self, kind: str) -> None:
        sb = self.h.sb
        method = self.faults.choice(
            ["sendMessage", "editMessageText", "sendMessage", "setChatPermissions", None]
        )
        self.injected += 1
        if kind == "429":
            sb.fail_next("429", count=self.faults.randint(2, 8), method=method, retry_after=7)
        elif kind == "5xx":
            status = self.faults.choice([500, 502, 503, 504])
            sb.fail_next("5xx", count=self.faults.randint(1, 4), method=method, status=status)
        else:
            # getUpdates hangs are the poller's business (PTB retries them); hang a send.
            sb.fail_next("hang", count=1, method=method or "sendMessage", hang_seconds=0.6)


CASES = [
    ("classic", 7, ("429",)),
    ("party", 8, ("5xx",)),
    ("moscow", 8, ("hang",)),
    ("club", 10, ("429", "5xx", "hang")),
    ("classic", 8, ("429", "5xx", "hang")),
]


@pytest.mark.parametrize(("variant", "size", "kinds"), CASES)
async def test_game_survives_telegram_faults(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    variant: str,
    size: int,
    kinds: tuple[str, ...],
) -> None:
    caplog.set_level(logging.WARNING)
    scheduler = ManualScheduler()
    sb = QuickSandbox(speed=SPEED)
    async with running_bot(tmp_path, size, sb=sb, speed=SPEED, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant=variant, language="en")
        game_id = await h.open_and_fill()
        permissions = dict(h.sb.world.resolve_chat(h.group.id).permissions)
        await h.press_start()
        players = FaultyPlayers(h, scheduler, seed=len(kinds) * 100 + size, kinds=kinds)
        record = await players.play(game_id)
        h.sb.faults.clear()
        await h.settle()
        assert record.status is GameStatus.ENDED and record.winner
        assert players.injected >= 3
        assert any(r.fault for r in h.sb.log), "no fault was injected"
        assert_all_said(h, record)
        assert_results_said(h, record, h.users)
        assert dict(h.sb.world.resolve_chat(h.group.id).permissions) == permissions
        # Only the faults we injected were refused: the bot broke no rule of its own.
        own = [r for r in h.sb.log.errors() if not r.fault and r.method != "answerCallbackQuery"]
        assert not [r for r in own if r.error_code == 429], "the bot overran a rate limit"
    assert_no_errors(caplog)


class AvoidingPlayers(AutoPlayers):
    """Autoplayers, except that one player has blocked the bot: they never
    act in private (no night move, no nomination menu, no decision)."""

    def __init__(self, h: Harness, scheduler: ManualScheduler, seed: int) -> None:
        super().__init__(h, scheduler, seed)
        self.blocked: SimUser | None = None
        self.block_at = 12

    async def perform(self, record: GameRecord, view: PublicView, action: Action) -> None:
        if self.steps == self.block_at and self.blocked is None:
            alive = [u for u in self.h.users if str(u.id) in view.alive]
            self.blocked = alive[len(alive) // 2]
            self.blocked.block()
            await self.h.settle()
        if self.blocked is not None:
            action = self.substitute(GameState.from_dict(record.state or {}), action)
        await super().perform(record, view, action)

    def substitute(self, state: GameState, action: Action) -> Action:
        assert self.blocked is not None
        me = str(self.blocked.id)
        for _ in range(50):
            if getattr(action, "actor", None) != me:
                return action
            if isinstance(action, Nominate):
                return Pass(me)
            if not isinstance(action, NightChoice | Decide):
                return action
            action = lively_action(state, self.rng)
        return Timeout("clock", state.clock.timer_id)


@pytest.mark.parametrize(("variant", "size"), [("classic", 8), ("moscow", 9), ("club", 10)])
async def test_a_player_blocks_the_bot_mid_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, variant: str, size: int
) -> None:
    caplog.set_level(logging.WARNING)
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, size, speed=SPEED, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant=variant, language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        players = AvoidingPlayers(h, scheduler, seed=size)
        record = await players.play(game_id)
        blocked = players.blocked
        assert blocked is not None, "the game ended before anyone blocked the bot"
        assert record.status is GameStatus.ENDED and record.winner
        assert_all_said(h, record)
        # After the first 403 the bot stops writing to that chat.
        refused = h.sb.log.calls(chat_id=blocked.id, ok=False)
        assert 1 <= len(refused) <= 2, [(r.method, r.description) for r in refused]
        assert blocked.id in h.service.unreachable
        # The blocked player made no secret move after blocking.
        moves = [
            action_from_dict(dict(a.action)) for a in h.db.actions(record.id)[players.block_at :]
        ]
        assert not [
            m for m in moves if isinstance(m, NightChoice | Decide) and m.actor == str(blocked.id)
        ]
        assert_results_said(h, record, [u for u in h.users if u is not blocked])
    assert_no_errors(caplog)

"""sport Mafia through the bot on the sandbox: a table plays a scripted day
and night through the buttons and posts a person would use. The lift vote
is one message in the group, edited with its result; the best move is asked
in private and shown in the group; nothing secret reaches the group; a
removal on fouls cancels the running vote."""

from __future__ import annotations

from pathlib import Path

from engine import GameState, Role, public_view
from engine.actions import Action, Best, Hand, NightChoice, Nominate, Pass, Say, Timeout
from engine.variants import NightMove
from tests.bot.autoplay import AutoPlayers, find_button, prefix
from tests.bot.harness import Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.storage import GameRecord

CLOCK = Timeout("clock")


class Table:
    """A running sport game and the seats' own hands on the buttons."""

    def __init__(self, h: Harness, scheduler: ManualScheduler, game_id: int) -> None:
        self.h = h
        self.game_id = game_id
        self.players = AutoPlayers(h, scheduler, seed=0, chatter=0.0)

    def record(self) -> GameRecord:
        record = self.h.db.get_game(self.game_id)
        assert record is not None
        return record

    def state(self) -> GameState:
        return GameState.from_dict(self.record().state or {})

    def seat(self, number: int) -> str:
        return self.state().table.seats[number - 1]

    async def act(self, *actions: Action) -> None:
        for action in actions:
            await self.h.settle()
            await self.players.perform(self.record(), public_view(self.state()), action)
        await self.h.settle()


async def started(h: Harness, scheduler: ManualScheduler) -> Table:
    # The timers run out on silent speeches here: the idle rule (its own tests) is off.
    h.db.save_settings(h.group.id, variant="sport", language="en", options={"idle_limit": 0})
    game_id = await h.open_and_fill()
    await h.press_start()
    return Table(h, scheduler, game_id)


async def tied_twice(table: Table) -> None:
    """Day 1: seats 3 and 4 nominated, 5 hands against 3 (the silent to 4): tied twice."""
    s = table.seat
    await table.act(CLOCK, Nominate(s(1), s(3)), Pass(s(1)), Nominate(s(2), s(4)), Pass(s(2)))
    await table.act(*[CLOCK] * 8)
    voters = [s(n) for n in (1, 2, 5, 6, 7)]
    await table.act(*(Hand(p) for p in voters), CLOCK, CLOCK, CLOCK, CLOCK)
    await table.act(*(Hand(p) for p in voters), CLOCK, CLOCK)
    assert table.state().stage.value == "lift"


async def test_the_lift_and_the_best_move_reach_the_group_and_no_secret_does(
    tmp_path: Path,
) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 10, scheduler=scheduler) as h:
        table = await started(h, scheduler)
        s = table.seat
        await tied_twice(table)
        await table.act(*(Hand(s(n)) for n in (1, 2, 3, 4, 5)), CLOCK)  # 5 of 10: both stay
        state = table.state()
        assert state.phase.value == "night" and state.vote.last_lift == 5
        group = h.group_texts()
        lift = [m for m in group if "Lift · " in m]
        assert len(lift) == 1, "the lift is one message"
        assert "5 of 10 votes: both stay." in lift[0]
        assert "Votes: 1 · " in lift[0]
        assert find_button(h, h.group.id, prefix(Kind.HAND, table.record())) is None
        # Night 2: the family shoots the first red seat; the checks.
        roles = state.table.roles
        black = [p for p in state.table.seats if roles[p].is_mafia]
        victim = next(p for p in state.table.seats if not roles[p].is_mafia)
        don = next(p for p in black if roles[p] is Role.DON)
        sheriff = next(p for p in state.table.seats if roles[p] is Role.SHERIFF)
        checked = next(p for p in state.table.seats if p not in (don, sheriff))
        await table.act(
            *(NightChoice(p, NightMove.KILL, victim) for p in black),
            NightChoice(don, NightMove.CHECK, checked),
            NightChoice(sheriff, NightMove.CHECK, don if sheriff != victim else checked),
        )
        state = table.state()
        assert state.stage.value == "farewell" and state.day.speaker == victim
        named = tuple(p for p in state.table.seats if p in black[:2])
        await table.act(Best(victim, named))
        assert table.state().day.best_move == named
        user = table.players.user(victim)
        menu = h.private_texts(user)
        assert any("Your best move is recorded" in m for m in menu)
        group = h.group_texts()
        labels = ", ".join(f"{state.table.seats.index(p) + 1} · " for p in named)
        best = [m for m in group if m.startswith("🎯 Best move of ")]
        assert len(best) == 1 and all(label in best[0] for label in labels.split(", "))
        # Nothing secret in the group: no role, no night move, no private prompt.
        t = translator("en")
        secret_words = [texts.role_name(t, r) for r in Role if r is not Role.CITIZEN]
        secret_words += ["Your family", "whom do you", "🔎", "Tap names", "the judge has seen you"]
        for message in group:
            for word in secret_words:
                assert word not in message, f"{word!r} in the group: {message!r}"
        # The sheriff heard from the judge on the zero night, in private.
        sheriff_user = table.players.user(sheriff)
        assert any("the judge has seen you" in m for m in h.private_texts(sheriff_user))


async def test_a_removal_on_fouls_cancels_the_running_vote(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 10, scheduler=scheduler) as h:
        table = await started(h, scheduler)
        s = table.seat
        await table.act(CLOCK, Nominate(s(1), s(3)), Pass(s(1)), Nominate(s(2), s(4)), Pass(s(2)))
        await table.act(*[CLOCK] * 8, Hand(s(1)))
        assert table.state().stage.value == "vote"
        await table.act(*(Say(s(6), f"not my turn {n}") for n in range(4)))
        state = table.state()
        assert state.phase.value == "night" and state.night.number == 2
        assert (
            state.day.eliminated == (s(6),)
            and state.vote.votes == {}
            and state.table.warnings[s(6)] == 4
        )
        group = h.group_texts()
        assert not any("not my turn" in m for m in group), "the posts are deleted"
        said = "\n".join(group)
        assert "foul 3/4 — posted during the vote. Their next speech is silent" in said
        assert "foul 4/4 — posted during the vote. That is the limit" in said
        assert "is removed on fouls and leaves with no farewell." in said
        assert "The vote is cancelled: nobody leaves today, and night falls." in said
        assert find_button(h, h.group.id, prefix(Kind.HAND, table.record())) is None

"""The presenter and its screens, on engine states alone (no Telegram): a
renderer for every kind of event; nothing private ever written to the
group; buttons shown exactly when the engine takes their move."""

from __future__ import annotations

import inspect
import random

import pytest

from engine import GameSetup, GameState, Stage, Views, apply, events, legal_actions
from engine.actions import NightChoice, Nominate, Pass, Timeout
from engine.events import Event
from engine.simulation import random_action
from tg_mafia.i18n import translator
from tg_mafia.render import presenter, screens, texts
from tg_mafia.render.callbacks import Kind, decode
from tg_mafia.render.calls import RELATIVE_DEADLINE, Method, Timer, key_of, keyboard_of, text_of
from tg_mafia.render.scene import GameView, Scene
from tg_mafia.render.texts.table import Table

CHAT = -1000
SEATS = tuple(str(100 + i) for i in range(1, 12))


def view(state: GameState, host: int | None = None) -> GameView:
    table = Table(state.table.seats, {p: f"P{p}" for p in state.table.seats})
    return GameView(1, CHAT, 0, "Club", table, translator("en"), host, True, None)


def test_every_kind_of_event_has_a_renderer() -> None:
    kinds = {
        cls
        for _, cls in inspect.getmembers(events, inspect.isclass)
        if issubclass(cls, Event) and cls is not Event
    }
    assert kinds == set(presenter.RENDERERS)


@pytest.mark.parametrize("variant", ["classic", "moscow", "party", "club", "sport"])
def test_private_events_never_reach_the_group(variant: str) -> None:
    size = 10 if variant in ("party", "sport") else 9
    for seed in range(6):
        options = {"host": "human"} if seed % 2 else {}
        setup = GameSetup(variant, SEATS[:size], options, seed=seed)
        state, first = setup.start(), []
        rng = random.Random(seed)
        before: GameState | None = None
        pending: list[Event] = first
        for _ in range(3000):
            for event in pending:
                seen = Views(before) if before is not None else None
                out = presenter.render(view(state, host=7), Views(state), [event], seen)
                group = [o for o in out if o.chat_id == CHAT]
                if not event.audience.is_public:
                    assert not group, f"{type(event).__name__} wrote to the group"
            if state.stage is Stage.ENDED:
                break
            before = state
            state, pending = apply(state, random_action(state, rng, chatter=0.05))


def floor_buttons(state: GameState) -> set[Kind]:
    op = screens.floor(Scene(view(state), Views(state)))
    return {decode(b["data"]).kind for row in keyboard_of(op) or [] for b in row if "data" in b}


def test_the_floor_offers_what_the_engine_takes() -> None:
    state = GameSetup("club", SEATS[:9], seed=3).start()
    state, _ = apply(state, __import__("engine").actions.Timeout("clock"))  # night 1 ends
    assert state.day.speaker is not None
    assert floor_buttons(state) == {Kind.PASS, Kind.NOMINATE_MENU, Kind.TIME}
    target = next(p for p in state.table.alive if p != state.day.speaker)
    state, _ = apply(state, Nominate(state.day.speaker, target))
    assert floor_buttons(state) == {Kind.PASS, Kind.TIME}  # one nomination a speech
    state, _ = apply(state, Pass(state.day.speaker))
    assert Kind.NOMINATE_MENU in floor_buttons(state)


def test_a_stage_that_starts_carries_its_timer_and_a_deadline_to_fill() -> None:
    state = GameSetup("moscow", SEATS[:9], {"maniac": False}, seed=2).start()
    scene = Scene(view(state), Views(state))
    op = screens.floor(scene)
    assert op.timer == Timer(game=1, token=str(state.clock.timer_id), seconds=15, speed=1.0)
    assert RELATIVE_DEADLINE in text_of(op)  # the time left, counted down by the app
    # The same stage drawn again (no new step): the stored deadline, no timer restart.
    again = Scene(view(state), Views(state), before=Views(state))
    assert RELATIVE_DEADLINE not in screens.floor(again, Method.EDIT).text


def test_the_countdown_redraws_the_floor_with_the_seconds_left_and_starts_nothing() -> None:
    state = GameSetup("moscow", SEATS[:9], {"maniac": False}, seed=2).start()
    scene = Scene(view(state), Views(state), before=Views(state))
    op = screens.countdown(scene, 10)
    assert op is not None and op.method is Method.EDIT and key_of(op) == screens.FLOOR
    assert op.timer is None and RELATIVE_DEADLINE not in text_of(op)
    assert text_of(op).endswith("⏱ 10 seconds left!")
    assert text_of(op).startswith(screens.floor(scene, Method.EDIT).text)
    night = state
    while night.stage is not Stage.NIGHT:
        night, _ = apply(night, Timeout("clock"))
    assert screens.countdown(Scene(view(night), Views(night), before=Views(night)), 10) is None


def test_the_count_shows_leave_the_table_only_when_the_engine_takes_it() -> None:
    state = GameSetup("moscow", SEATS[:9], {"maniac": False, "idle_limit": 0}, seed=4).start()
    clock = __import__("engine").actions.Timeout("clock")
    while state.day.number < 2:  # introductions, then the acquaintance night
        state, _ = apply(state, clock)
    for _ in range(2):  # two speakers nominate someone else each
        speaker = state.day.speaker
        assert speaker is not None
        target = next(p for p in state.table.alive if p not in (speaker, *state.day.nominees))
        state, _ = apply(state, Nominate(speaker, target))
        state, _ = apply(state, Pass(speaker))
    while state.stage.value != "vote":
        state, _ = apply(state, clock)
    first = screens.count(Scene(view(state), Views(state)), Method.SEND)
    kinds = {decode(b["data"]).kind for row in keyboard_of(first) or [] for b in row}
    assert Kind.LEAVE in kinds and Kind.HAND in kinds
    state, _ = apply(state, clock)  # the second count: no more leaving
    second = screens.count(Scene(view(state), Views(state)), Method.EDIT)
    kinds = {decode(b["data"]).kind for row in keyboard_of(second) or [] for b in row}
    assert Kind.LEAVE not in kinds


def test_a_closed_board_shows_the_stored_deadline_not_a_marker() -> None:
    state = GameSetup("classic", SEATS[:8], seed=1).start()
    game = view(state)
    op = screens.closed_live_board(
        Scene(game, Views(state), before=Views(GameSetup("classic", SEATS[:8], seed=2).start()))
    )
    assert "\u2063deadline\u2063" not in text_of(op)


def test_the_choice_that_ends_the_night_stays_on_its_prompt() -> None:
    # Every night move is made; the last one brings the dawn, which clears the choices:
    # its prompt must still say what was chosen, not that the night ended first.

    state = GameSetup("classic", SEATS[:9], {}, seed=3).start()
    rng = random.Random(3)

    def choices(state: GameState) -> list[NightChoice]:
        """The night's moves not made yet (a move made may be changed until dawn)."""
        return [
            a
            for a in legal_actions(state)
            if isinstance(a, NightChoice)
            and a.target
            and f"{a.actor}:{a.move}" not in state.night.choices
        ]

    while not choices(state):  # to the first night with moves to make
        state, _ = apply(state, random_action(state, rng, chatter=0))
    for _ in range(len(state.table.seats) * 3):  # each of the night's moves, once
        last = choices(state)[0]
        before = state
        state, pending = apply(state, last)
        if state.stage.value != "night":
            break
    assert state.stage.value != "night", "the night did not end when every move was made"
    out = presenter.render(view(state), Views(state), pending, Views(before))
    prompt = [text_of(o.op) for o in out if o.chat_id == int(last.actor)]
    question = screens.night_key(last.move)
    closed = [o.op for o in out if o.chat_id == int(last.actor) and key_of(o.op) == question]
    assert closed and prompt
    final = texts.night_final(translator("en"), view(state).table, last.target)
    assert final in text_of(closed[-1])
    assert texts.night_missed(translator("en")) not in text_of(closed[-1])

"""sport's screens on engine states alone: the farewell floor and its best
move, the silent speech and the re-speech announced as such, the lift's one
message, the best-move menu's toggles, fouls said with what they do, and the
draw on the end screen and in private."""

from __future__ import annotations

from engine import GameState, Role, Side, Stage, Views, apply, new_game
from engine.actions import Action, Best, Hand, NightChoice, Nominate, Pass, Say, Timeout
from engine.events import Event
from engine.variants import NightMove
from tg_mafia.i18n import translator
from tg_mafia.render import presenter, screens, texts
from tg_mafia.render.callbacks import Button, Kind, decode
from tg_mafia.render.calls import Method, Op, key_of, keyboard_of, text_of
from tg_mafia.render.presses import picked, selection_arg, to_action
from tg_mafia.render.scene import GameView, Outgoing, Scene
from tg_mafia.render.standings import standings
from tg_mafia.render.texts import rules as rules_text
from tg_mafia.render.texts import sport as sport_texts
from tg_mafia.render.texts import stats as stats_text
from tg_mafia.render.texts.table import Table
from tg_mafia.storage import ChatStats

CHAT = -1000
# Seats 1..10; the deal of the shared scenarios: 2 the Don, 5 and 8 mafiosi, 4 the sheriff.
SEATS = tuple(str(101 + i) for i in range(10))
BLACK_AND_SHERIFF = {2: Role.DON, 4: Role.SHERIFF, 5: Role.MAFIA, 8: Role.MAFIA}
ROLES = {p: BLACK_AND_SHERIFF.get(n, Role.CITIZEN) for n, p in enumerate(SEATS, 1)}
TABLE = Table(SEATS, {p: f"P{int(p) - 100}" for p in SEATS})
CLOCK = Timeout("clock")


def seat(n: int) -> str:
    return SEATS[n - 1]


def view(language: str = "en") -> GameView:
    return GameView(1, CHAT, 0, "Club", TABLE, translator(language), None, True, None)


def start(**options: object) -> GameState:
    # Nobody is put out for idleness here: draws come from timers running out.
    state, _ = new_game("sport", SEATS, {"idle_limit": 0, **options}, roles=ROLES)
    return state


def calm(state: GameState) -> Action:
    """Time passes; each speaker posts once, so that the table is not abandoned."""
    speaker = state.day.speaker
    if (
        state.stage is Stage.SPEECH
        and speaker is not None
        and speaker not in state.activity.present
    ):
        return Say(speaker, "hello")
    return CLOCK


def play(state: GameState, *actions: Action) -> tuple[GameState, list[Event], GameState]:
    """The state after the actions, the last action's events, and the state before it."""
    before, events = state, []
    for action in actions:
        before = state
        state, events = apply(state, action)
    return state, events, before


def render(state: GameState, events: list[Event], before: GameState) -> list[Outgoing]:
    return presenter.render(view(), Views(state), events, Views(before))


def group(out: list[Outgoing]) -> list[Op]:
    return [o.op for o in out if o.chat_id == CHAT]


def floor_sent(ops: list[Op]) -> Op:
    (floor,) = [op for op in ops if key_of(op) == screens.FLOOR and op.method is Method.SEND]
    return floor


def kinds(op: Op) -> set[Kind]:
    return {decode(b["data"]).kind for row in keyboard_of(op) or [] for b in row if "data" in b}


def night_two_kill(state: GameState, victim: str) -> GameState:
    """Day 1 passes with nobody nominated; night 2's shot lands on `victim`."""
    state, _, _ = play(state, *[CLOCK] * 11)
    shots = [NightChoice(p, NightMove.KILL, victim) for p in (seat(2), seat(5), seat(8))]
    checks = [
        NightChoice(seat(2), NightMove.CHECK, seat(1)),
        NightChoice(seat(4), NightMove.CHECK, seat(2)),
    ]
    state, _, _ = play(state, *shots, *checks)
    return state


def test_the_farewell_floor_is_announced_with_its_best_move_and_asks_in_private() -> None:
    state = start()
    state, _, _ = play(state, *[CLOCK] * 11)
    shots = [NightChoice(p, NightMove.KILL, seat(3)) for p in (seat(2), seat(5), seat(8))]
    checks = [
        NightChoice(seat(2), NightMove.CHECK, seat(1)),
        NightChoice(seat(4), NightMove.CHECK, seat(2)),
    ]
    state, events, before = play(state, *shots, *checks)
    out = render(state, events, before)
    floor = floor_sent(group(out))
    assert "farewell minute" in text_of(floor)
    assert "3 · P3" in text_of(floor) and "best move" in text_of(floor)
    assert kinds(floor) == {Kind.PASS, Kind.TIME}  # no nomination in a farewell
    (menu,) = [o.op for o in out if o.chat_id == int(seat(3)) and key_of(o.op) == screens.BEST]
    buttons = [b for row in keyboard_of(menu) or [] for b in row]
    assert [b["text"] for b in buttons] == [
        TABLE.button(p) for p in state.table.alive
    ]  # no Done yet
    # The group learns nothing of the menu, only of the move once made.
    assert not any("Tap names" in text_of(op) for op in group(out))


def test_the_best_move_menu_toggles_names_and_offers_done() -> None:
    state = night_two_kill(start(), seat(3))
    scene = Scene(view(), Views(state))
    holder = seat(3)
    op, code = screens.best_move_menu(scene, holder, (seat(2), seat(5)))
    assert code == "ok" and op is not None and op.method is Method.EDIT
    labels = [b["text"] for row in keyboard_of(op) or [] for b in row]
    assert "✅ 2 · P2" in labels and "✅ 5 · P5" in labels and "1 · P1" in labels
    assert "Chosen: 2 · P2 and 5 · P5" in text_of(op)
    done = [b for row in keyboard_of(op) or [] for b in row if b["text"] == "✅ Done"]
    button = decode(done[0]["data"])
    assert button is not None and button.args == ("d", "2_5")
    assert to_action(button, int(holder), Views(state), TABLE) == Best(holder, (seat(2), seat(5)))
    # Each name's button carries the selection after its press.
    untoggle = next(b for row in keyboard_of(op) or [] for b in row if b["text"] == "✅ 2 · P2")
    toggle = decode(untoggle["data"])
    assert toggle is not None and toggle.args == ("t", "5")
    assert to_action(toggle, int(holder), Views(state), TABLE) is None  # a toggle is no move
    # A fourth name: the engine's own refusal; someone else: no best move.
    four = (seat(1), seat(2), seat(5), seat(6))
    assert screens.best_move_menu(scene, holder, four) == (None, "best_move_size")
    assert screens.best_move_menu(scene, seat(1), ()) == (None, "no_best_move")
    assert screens.best_move_menu(scene, holder, None) == (None, "stale")


def test_a_best_move_selection_travels_in_the_button() -> None:
    assert selection_arg(TABLE, ()) == "0"
    assert selection_arg(TABLE, (seat(2), seat(10))) == "2_10"
    assert picked(Button(Kind.BEST, 1, 1, ("t", "10_2")), TABLE) == (seat(2), seat(10))
    assert picked(Button(Kind.BEST, 1, 1, ("d", "0")), TABLE) == ()
    for args in (("t", "2_2"), ("t", "11"), ("x", "2"), ("t",), ("d", "2__3")):
        assert picked(Button(Kind.BEST, 1, 1, args), TABLE) is None, args
    button = Button(Kind.BEST, 123456789, 42, ("t", "1_2_3"))
    assert decode(button.encode()) == button


def test_the_best_move_is_shown_in_the_group_and_recorded_in_private() -> None:
    state = night_two_kill(start(), seat(3))
    state, events, before = play(state, Best(seat(3), (seat(2), seat(5), seat(8))))
    out = render(state, events, before)
    said = [text_of(op) for op in group(out)]
    assert said == ["🎯 Best move of 3 · P3: 2 · P2, 5 · P5, and 8 · P8"]
    (private,) = [o.op for o in out if o.chat_id == int(seat(3))]
    assert key_of(private) == screens.BEST and private.method is Method.EDIT
    assert not keyboard_of(private)


def test_a_silent_speech_and_a_re_speech_are_announced_as_such() -> None:
    state = start()
    state, _, _ = play(state, CLOCK, Say(seat(7), "a"), Say(seat(7), "b"))
    state, events, before = play(state, Say(seat(7), "c"))
    (line,) = [text_of(op) for op in group(render(state, events, before)) if text_of(op)]
    assert line == (
        "⚠️ 7 · P7: foul 3/4 — posted out of turn. Their next speech is silent: they may "
        "only nominate or pass."
    )
    state, _, _ = play(state, Nominate(seat(1), seat(5)), Pass(seat(1)))
    state, events, before = play(state, *(Pass(seat(n)) for n in range(2, 7)))
    floor = floor_sent(group(render(state, events, before)))
    assert "silent speech (third foul)" in text_of(floor)
    assert "a post is deleted and earns a foul" in text_of(floor) and "30 seconds" in text_of(floor)
    assert kinds(floor) == {Kind.PASS, Kind.NOMINATE_MENU, Kind.TIME}
    # A tie: the re-speeches.
    state, _, _ = play(state, Nominate(seat(7), seat(3)), Pass(seat(7)), CLOCK, CLOCK, CLOCK)
    voters = [seat(n) for n in (1, 4, 6, 7, 9)]
    state, _, _ = play(state, *(Hand(p) for p in voters), CLOCK)
    state, events, before = play(state, CLOCK)
    floor = floor_sent(group(render(state, events, before)))
    assert "re-speech of the tied" in text_of(floor)


def tied_twice(state: GameState) -> GameState:
    """Day 1: 5 and 3 nominated, tied 5–5 twice: the lift vote."""
    state, _, _ = play(state, CLOCK, Nominate(seat(1), seat(5)), Pass(seat(1)))
    state, _, _ = play(state, Nominate(seat(2), seat(3)), Pass(seat(2)), *[CLOCK] * 8)
    voters = [seat(n) for n in (1, 4, 6, 7, 9)]
    state, _, _ = play(state, *(Hand(p) for p in voters), CLOCK, CLOCK, CLOCK, CLOCK)
    state, _, _ = play(state, *(Hand(p) for p in voters), CLOCK)
    return state


def test_the_lift_is_one_message_with_its_question_edited_at_the_end() -> None:
    state = tied_twice(start())
    state, events, before = play(state, CLOCK)
    assert state.stage.value == "lift"
    ops = group(render(state, events, before))
    (lift,) = [op for op in ops if key_of(op) == screens.LIFT]
    assert lift.method is Method.SEND and lift.timer is not None
    assert "Lift · " in text_of(lift) and "tied twice" in text_of(lift)
    assert "Who is for both of them leaving the table?" in text_of(lift)
    assert "They leave with 6 votes of 10." in text_of(lift)
    assert kinds(lift) == {Kind.HAND, Kind.LOWER, Kind.TIME}
    hands = [seat(n) for n in (1, 4, 6, 7, 9, 10)]
    state, _, _ = play(state, *(Hand(p) for p in hands))
    # A hand costs the group nothing (the popup says it).
    _, events, before = play(state, Hand(seat(2)))
    assert not group(render(play(state, Hand(seat(2)))[0], events, before))
    state, events, before = play(state, CLOCK)
    ops = group(render(state, events, before))
    (result,) = [op for op in ops if key_of(op) == screens.LIFT]
    assert result.method is Method.EDIT and not keyboard_of(result)
    assert "6 of 10 votes: both leave." in text_of(result)
    assert "Votes: 1 · P1, 4 · P4, 6 · P6, 7 · P7, 9 · P9, and 10 · P10" in text_of(result)


def test_a_removal_says_it_and_cancels_the_running_vote_on_screen() -> None:
    state = tied_twice(start())
    state, _, _ = play(state, CLOCK, Say(seat(10), "a"), Say(seat(10), "b"), Say(seat(10), "c"))
    state, events, before = play(state, Say(seat(10), "d"))
    ops = group(render(state, events, before))
    text = "\n".join(text_of(op) for op in ops)
    assert "foul 4/4 — posted during the vote. That is the limit" in text
    assert "10 · P10 is removed on fouls and leaves with no farewell." in text
    assert "The vote is cancelled: nobody leaves today, and night falls." in text
    cleared = {key_of(op) for op in ops if op.method is Method.CLEAR}
    assert screens.LIFT in cleared
    assert state.phase.value == "night"


def test_a_draw_on_the_end_screen_and_in_each_private_result() -> None:
    state = start()
    events: list[Event] = []
    before = state
    while state.outcome.winner is None:
        before = state
        state, events = apply(state, calm(state))
    assert state.outcome.winner is Side.DRAW
    out = render(state, events, before)
    text = "\n".join(text_of(op) for op in group(out))
    assert "3 nights in a row, and the days between, with nobody leaving the table" in text
    assert "🤝 <b>A draw: nobody wins.</b>" in text
    assert "wins!" not in text
    privates = [o for o in out if o.chat_id != CHAT and o.op.method is Method.SEND]
    assert len(privates) == 10
    assert all("The game is a draw: nobody won" in text_of(o.op) for o in privates)


def test_the_draw_in_the_words_of_every_language() -> None:
    for language in ("ru", "fr", "ro", "vi"):
        t = translator(language)
        english = translator("en")
        assert texts.winner_line(t, Side.DRAW) != texts.winner_line(english, Side.DRAW)
        assert texts.own_result(t, False, Side.DRAW, Role.SHERIFF) != texts.own_result(
            english, False, Side.DRAW, Role.SHERIFF
        )
    assert "Ничья" in texts.winner_line(translator("ru"), Side.DRAW)
    assert "фол 3 из 4" in sport_texts.fouled(translator("ru"), TABLE, seat(6), 3, 4, "night", "")


def test_the_stats_count_draws() -> None:
    stats = ChatStats(
        chat_id=CHAT,
        games_played=3,
        wins_by_side={"town": 1, "mafia": 1, "draw": 1},
        top_players=(),
    )
    text = stats_text.chat_text(translator("en"), stats, standings(()))
    assert "Draws: 1" in text and "Town: 1 win" in text


def test_the_sheriff_learns_on_the_zero_night_that_the_judge_saw_them() -> None:
    state, events = new_game("sport", SEATS, roles=ROLES)
    out = presenter.render(view(), Views(state), events)
    to_sheriff = [text_of(o.op) for o in out if o.chat_id == int(seat(4))]
    assert any("Zero night: the judge has seen you, Sheriff" in text for text in to_sheriff)
    assert not any("judge" in text_of(op) for op in group(out))


def test_the_end_screen_repeats_the_best_move_before_its_goodbye() -> None:
    state = night_two_kill(start(), seat(3))
    state, _, _ = play(state, Best(seat(3), (seat(2), seat(8))))
    events: list[Event] = []
    before = state
    while state.outcome.winner is None:  # nobody leaves any more: a draw at dawn 5
        before = state
        state, events = apply(state, calm(state))
    ops = group(render(state, events, before))
    (end,) = [text_of(op) for op in ops if "Well played" in text_of(op)]
    lines = end.splitlines()
    best = lines.index("🎯 Best move of 3 · P3: 2 · P2 and 8 · P8")
    assert lines[best + 1] == "Well played."


def test_rules_explain_sport_and_its_fouls_at_each_limit() -> None:
    t = translator("en")
    text = rules_text.rules(t, "sport", rules_text.safe_options("sport", {}))
    assert text.startswith("📖 <b>Sport Mafia (FIIM)</b> · exactly 10 players")
    for line in (
        "each later day at the first living seat after the one that opened the day before",
        "Farewell minute (60 seconds)",
        "Best move: the player killed on night 1, the first night with a shot",
        "The zero night: no kill and no check",
        "the lift vote: if more than half of the living raise a hand, they all leave",
        "The third foul makes the player's next speech silent",
        "At 4 fouls the player is removed at once",
        "with nobody leaving the table: a draw",
    ):
        assert line in text, line
    assert "deciding" not in text and "town player killed last night" not in text
    three = rules_text.rules(t, "sport", rules_text.safe_options("sport", {"warnings_limit": 3}))
    assert "At 3 fouls" in three and "third foul makes" not in three
    none = rules_text.rules(t, "sport", rules_text.safe_options("sport", {"warnings_limit": 0}))
    assert "Fouls never remove a player." in none and "third foul makes" in none
    moscow = rules_text.rules(t, "moscow", rules_text.safe_options("moscow", {}))
    assert "lift" not in moscow and "foul" not in moscow and "7 to 15 players" in moscow

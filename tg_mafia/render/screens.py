"""The messages the bot keeps alive and edits in place, drawn from the
state (its public view for the group, a player's view in private) and from
what the engine says may be done now (`legal_actions`): the floor, the
count, the vote board, the night prompts, the Don's list, the menus.

No rule is worked out here: a button is shown when the engine lists the
move it stands for."""

from __future__ import annotations

from engine import GameState, Stage, legal_actions, player_view, public_view
from engine.actions import (
    Action,
    Best,
    Decide,
    Hand,
    HostWarn,
    Leave,
    Lower,
    NightChoice,
    Nominate,
    Pass,
    Plan,
    Unvote,
    Vote,
)
from engine.errors import Reason
from engine.handvote import finished_counts
from engine.state import FLOOR_STAGES
from engine.variants import NightMove
from tg_mafia.render import keyboards, texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.render.calls import Keyboard, Method, Op, callback, web_app
from tg_mafia.render.presses import refusal, selection_arg
from tg_mafia.render.scene import Scene
from tg_mafia.render.texts import Answer, Popup
from tg_mafia.render.texts import sport as sport_texts
from tg_mafia.render.texts.timefmt import RELATIVE

FLOOR = "floor"
COUNT = "count"
BOARD = "board"
NOMINATE = "nominate"
DECIDE = "decide"
PLAN = "plan"
PANEL = "panel"
CONFIRM = "confirm"
LIFT = "lift"
BEST = "best"
BOARD_EDIT_SECONDS = 4.0  # the live vote board changes at most this often


def night_key(move: str) -> str:
    return f"night:{move}"


def _legal(state: GameState, kind: type[Action]) -> list[Action]:
    return [a for a in legal_actions(state, include_host=False) if isinstance(a, kind)]


# ----- the group ------------------------------------------------------------------------


def floor(scene: Scene, method: Method = Method.SEND, note: str = "") -> Op:
    """The floor: who speaks, until when, who is next, who is nominated;
    Pass and Nominate… while the engine takes them; and `note`, what just
    happened during this speech (a nomination, a warning), folded in here
    rather than sent as a message of its own."""
    state, t = scene.state, scene.t
    view = public_view(state)
    assert view.speaker is not None
    text = texts.floor(
        t,
        scene.table,
        view.stage,
        view.day,
        view.speaker,
        view.timer_seconds or 0,
        scene.until(RELATIVE),
        view.nominees,
        view.next_speaker,
        view.floor_mode,
    )
    if view.stage is Stage.FAREWELL and view.speaker == view.best_mover and not view.best_move:
        text += "\n" + sport_texts.farewell_best_move(t, scene.table, view.speaker)
    if view.stage is Stage.SPEECH and view.vote_cancelled:
        text += "\n" + sport_texts.no_nomination_today(t)
    if note:
        text += "\n" + note
    buttons = []
    if _legal(state, Pass):
        # Where a speech ends with the thanks word, the button says it.
        end = "thanks" if state.options.get("thanks_rule") else "pass"
        buttons.append(callback(texts.button(t, end), scene.data(Kind.PASS)))
    if _legal(state, Nominate):
        buttons.append(callback(texts.button(t, "nominate"), scene.data(Kind.NOMINATE_MENU)))
    buttons.append(callback(texts.button(t, "time"), scene.any_step(Kind.TIME)))
    return Op(method, text=text, key=FLOOR, keyboard=keyboards.row(*buttons), timer=_timer(scene))


def _timer(scene: Scene) -> dict[str, object] | None:
    """A drawing of the running stage carries its timer only when it opens
    the stage: a redraw must not start the time again."""
    return scene.timer() if scene.opens_stage() else None


def count(scene: Scene, method: Method) -> Op:
    """One message for the whole round of a hand-raise vote: the round's
    candidates (mentioned: the first drawing rings their phones), the counts
    finished so far, and the candidate being counted."""
    state, t = scene.state, scene.t
    candidate = state.vote.candidates[state.vote.count_index]
    head = texts.vote_started(t, scene.table, state.vote.candidates, state.vote.round)
    board = texts.vote_board(t, scene.table, finished_counts(state))
    text = (
        head
        + "\n\n"
        + board
        + texts.count(
            t,
            scene.table,
            state.vote.count_index + 1,
            len(state.vote.candidates),
            candidate,
            scene.until(RELATIVE),
        )
    )
    first = []
    if _legal(state, Hand) or _legal(state, Lower):
        first += [
            callback(texts.button(t, "raise"), scene.data(Kind.HAND)),
            callback(texts.button(t, "lower"), scene.data(Kind.LOWER)),
        ]
    first.append(callback(texts.button(t, "time"), scene.any_step(Kind.TIME)))
    second = []
    if _legal(state, Leave):
        second.append(callback(texts.button(t, "leave_table"), scene.data(Kind.LEAVE)))
    keyboard = keyboards.rows(first, second)
    return Op(method, text=text, key=COUNT, keyboard=keyboard, timer=_timer(scene))


def lift(scene: Scene, method: Method) -> Op:
    """sport's lift vote: one message, its question and Raise / Lower."""
    state, t = scene.state, scene.t
    text = sport_texts.lift_question(
        t, scene.table, state.vote.candidates, len(state.table.alive), scene.until(RELATIVE)
    )
    buttons = []
    if _legal(state, Hand) or _legal(state, Lower):
        buttons += [
            callback(texts.button(t, "raise"), scene.data(Kind.HAND)),
            callback(texts.button(t, "lower"), scene.data(Kind.LOWER)),
        ]
    buttons.append(callback(texts.button(t, "time"), scene.any_step(Kind.TIME)))
    return Op(method, text=text, key=LIFT, keyboard=keyboards.row(*buttons), timer=_timer(scene))


def countdown(scene: Scene, seconds: int) -> Op | None:
    """The floor, the count or the lift when `seconds` are left: the same
    message, redrawn with one line more (None: the stage has none of them).
    The scene must not open the stage: its deadline is the stored one, and
    the edit starts nothing."""
    stage = scene.state.stage
    if stage is Stage.VOTE:
        op = count(scene, Method.EDIT)
    elif stage is Stage.LIFT:
        op = lift(scene, Method.EDIT)
    elif stage in FLOOR_STAGES and scene.state.day.speaker is not None:
        op = floor(scene, Method.EDIT)
    else:
        return None
    op.text = (op.text or "") + "\n" + texts.seconds_left(scene.t, seconds)
    return op


def vote_board(scene: Scene, method: Method) -> Op:
    """The open vote's one message (classic's live vote, party's ballot),
    with a button per player one may vote against."""
    state, t = scene.state, scene.t
    view = public_view(state)
    if state.stage is Stage.BALLOT:
        text = texts.ballot(t, state.day.number, scene.until(), len(state.vote.ballots))
    else:
        voters = {
            target: tuple(v for v in state.table.seats if state.vote.ballots.get(v) == target)
            for target, _ in view.live_tally
        }
        text = texts.live_board(
            t,
            scene.table,
            state.day.number,
            scene.until(),
            view.live_tally,
            len(view.alive),
            voters,
        )
    targets = list(dict.fromkeys(a.target for a in _legal(state, Vote) if isinstance(a, Vote)))
    extra = [callback(texts.button(t, "time"), scene.any_step(Kind.TIME))]
    if _legal(state, Unvote) or targets:
        extra.insert(0, callback(texts.button(t, "withdraw"), scene.data(Kind.UNVOTE)))
    keyboard = keyboards.players(
        scene.table,
        [p for p in state.table.seats if p in targets],
        scene.seat_data(Kind.VOTE),
        extra,
    )
    every = BOARD_EDIT_SECONDS if method is Method.EDIT else 0.0
    return Op(
        method,
        text=text,
        key=BOARD,
        keyboard=keyboard,
        timer=scene.timer() if method is Method.SEND else None,
        extra={"every": every} if every else {},
    )


def closed_live_board(scene: Scene) -> Op:
    state = scene.state
    text = texts.live_board(
        scene.t,
        scene.table,
        state.day.number,
        scene.stored_until(),
        tuple(state.vote.votes.items()),
        len(state.table.alive),
        closed=True,
    )
    return Op(Method.EDIT, text=text, key=BOARD)


# ----- private chats ------------------------------------------------------------------


def night_prompt(scene: Scene, player: str, move: str, method: Method) -> Op | None:
    """A night actor's choice: a button per target the engine takes, and
    Skip; the choice so far, which may change until dawn."""
    state, t = scene.state, scene.t
    view = player_view(state, player)
    option = next((o for o in view.night_options if o.move == move), None)
    if option is None:
        return None
    text = (
        texts.group_tag(scene.game.title)
        + "\n"
        + texts.night_question(t, move, view.role, state.variant, state.night.number)
    )
    if move == NightMove.KILL and view.role.is_mafia and state.night.plan:
        text += "\n" + texts.plan_set(t, scene.table, state.night.plan)
    if option.has_chosen:
        text += "\n" + texts.night_chosen(t, scene.table, option.chosen)
    choices = [
        a.target
        for a in _legal(state, NightChoice)
        if isinstance(a, NightChoice) and a.actor == player and a.move == move and a.target
    ]
    skip = callback(texts.button(t, "skip"), scene.data(Kind.NIGHT, move, 0))
    keyboard = keyboards.players(scene.table, choices, scene.seat_data(Kind.NIGHT, move), [skip])
    return Op(method, text=text, key=night_key(move), keyboard=_with_table(scene, keyboard))


def closed_night_prompt(scene: Scene, before: GameState, player: str, move: str) -> Op:
    """At dawn the prompt keeps only what was chosen: no button is left to press."""
    role = before.table.roles[player]
    question = texts.night_question(scene.t, move, role, before.variant, before.night.number)
    text = texts.group_tag(scene.game.title) + "\n" + question
    key = f"{player}:{move}"
    choices = {**before.night.choices, **scene.chosen}
    if key in choices:
        text += "\n" + texts.night_final(scene.t, scene.table, choices[key])
    else:
        text += "\n" + texts.night_missed(scene.t)
    return Op(Method.EDIT, text=text, key=night_key(move))


def plan(scene: Scene, player: str, method: Method) -> Op:
    """The Don's kill list on the acquaintance night: the Don taps players
    in order (the engine lists each next name); the family sees it grow."""
    state, t = scene.state, scene.t
    text = texts.plan_set(t, scene.table, state.night.plan)
    keyboard: Keyboard | None = None
    plans = [a for a in _legal(state, Plan) if isinstance(a, Plan) and a.actor == player]
    if plans:
        text = texts.plan_prompt(t) + "\n" + text
        extensions = [a.targets[-1] for a in plans if len(a.targets) == len(state.night.plan) + 1]
        clear = callback(texts.button(t, "clear"), scene.data(Kind.PLAN, 0))
        keyboard = keyboards.players(scene.table, extensions, scene.seat_data(Kind.PLAN), [clear])
        keyboard = _with_table(scene, keyboard)
    return Op(method, text=text, key=PLAN, keyboard=keyboard)


def nominate_menu(scene: Scene, player: str) -> Op:
    choices = [
        a.target
        for a in _legal(scene.state, Nominate)
        if isinstance(a, Nominate) and a.actor == player
    ]
    keyboard = keyboards.players(scene.table, choices, scene.seat_data(Kind.NOMINATE))
    text = texts.nominate_prompt(scene.t, scene.state.day.number)
    return Op(Method.SEND, text=text, key=NOMINATE, keyboard=_with_table(scene, keyboard))


def decide_prompt(scene: Scene, player: str) -> Op:
    choices = [
        a.target for a in _legal(scene.state, Decide) if isinstance(a, Decide) and a.actor == player
    ]
    keyboard = keyboards.players(scene.table, choices, scene.seat_data(Kind.DECIDE))
    text = texts.decide_private(scene.t, scene.table, tuple(choices))
    return Op(Method.SEND, text=text, key=DECIDE, keyboard=_with_table(scene, keyboard))


def _with_table(scene: Scene, keyboard: Keyboard) -> Keyboard:
    """A private prompt's keyboard, and a last row that opens the table's Mini App
    (the same choices, on the table), when the bot serves one."""
    if scene.game.app_url is None:
        return keyboard
    return [*keyboard, [web_app(texts.button(scene.t, "table"), scene.game.app_url)]]


def best_move_menu(
    scene: Scene, player: str, picked: tuple[str, ...] | None, method: Method = Method.EDIT
) -> tuple[Op | None, Popup]:
    """The farewell holder's best move, in private: a button per player the
    engine lets them name, each toggling that name, and Done once a
    selection the engine takes is made. With it, the popup's code: `ok`, or
    why the engine refuses this selection (None: a malformed press)."""
    state, t = scene.state, scene.t
    if picked is None:
        return None, Answer.STALE
    allowed = {a.targets for a in _legal(state, Best) if isinstance(a, Best) and a.actor == player}
    if not allowed:
        return None, Reason.NO_BEST_MOVE
    if picked and picked not in allowed:
        return None, refusal(state, Best(player, picked)) or Answer.OK
    names = [p for p in state.table.seats if (p,) in allowed]

    def toggle(name: str) -> str:
        chosen = set(picked) ^ {name}
        selection = tuple(p for p in state.table.seats if p in chosen)
        return scene.data(Kind.BEST, "t", selection_arg(scene.table, selection))

    text = sport_texts.best_move_prompt(t, max(len(targets) for targets in allowed))
    extra = []
    if picked:
        text += "\n" + sport_texts.best_move_picked(t, scene.table, picked)
        done = scene.data(Kind.BEST, "d", selection_arg(scene.table, picked))
        extra.append(callback(texts.button(t, "done"), done))
    keyboard = keyboards.players(scene.table, names, toggle, extra, marked=picked)
    return Op(method, text=text, key=BEST, keyboard=keyboard), Answer.OK


def host_panel(scene: Scene) -> Op:
    t = scene.t
    line1 = [
        callback(texts.button(t, "pause"), scene.any_step(Kind.HOST, "pause")),
        callback(texts.button(t, "resume"), scene.any_step(Kind.HOST, "resume")),
        callback(texts.button(t, "extend"), scene.any_step(Kind.HOST, "extend")),
    ]
    line2 = [callback(texts.button(t, "skip_speaker"), scene.any_step(Kind.HOST, "skip"))]
    if any(isinstance(a, HostWarn) for a in legal_actions(scene.state)):
        line2.append(callback(texts.button(t, "warn"), scene.any_step(Kind.HOST_WARN_MENU)))
    text = t.gettext("🎛 Host panel. It works at any moment of the game.")
    return Op(Method.SEND, text=text, key=PANEL, keyboard=keyboards.rows(line1, line2))


def warn_menu(scene: Scene) -> Op:
    state = scene.state

    def data(player: str) -> str:
        return scene.any_step(Kind.HOST_WARN, scene.table.seat(player))

    keyboard = keyboards.players(scene.table, list(state.table.alive), data)
    return Op(Method.SEND, text=scene.t.gettext("Warn whom?"), keyboard=keyboard)

"""The messages the bot keeps alive and edits in place, drawn from the
engine's views (the public view for the group, a player's own view in
private) and from what the engine says may be done now (the legal moves:
a night prompt is the legal night moves of one seat, rendered): the floor,
the count, the vote board, the night prompts, the Don's list, the menus.

No rule is worked out here: a button is shown when the engine lists the
move it stands for."""

from __future__ import annotations

from engine import FLOOR_STAGES, HOST, PlayerView, Stage
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
from engine.variants import NightMove
from engine.views import NightOption
from tg_mafia.render import keyboards, texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.render.calls import (
    Drawn,
    Edit,
    Keyboard,
    Message,
    Method,
    Send,
    Timer,
    callback,
    message,
    web_app,
)
from tg_mafia.render.presses import selection_arg
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
BOARD_EDIT_SECONDS = 2.5  # the live vote board changes at most this often (a burst: 2 edits)


def night_key(move: str) -> str:
    return f"night:{move}"


def _legal(scene: Scene, kind: type[Action], actor: str | None = None) -> list[Action]:
    """The moves of `kind` the engine takes now: anyone's (a group button), or `actor`'s."""
    return [a for a in scene.views.legal(actor) if isinstance(a, kind)]


def _ends_with_thanks(scene: Scene) -> bool:
    """A speech ends with the thanks word (the option): the Pass button says it."""
    return bool(scene.views.public.options.get("thanks_rule"))


# ----- the group ------------------------------------------------------------------------


def floor(scene: Scene, method: Drawn = Method.SEND, note: str = "") -> Message:
    """The floor: who speaks, until when, who is next, who is nominated;
    Pass and Nominate… while the engine takes them; and `note`, what just
    happened during this speech (a nomination, a warning), folded in here
    rather than sent as a message of its own."""
    t = scene.t
    view = scene.views.public
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
    if _legal(scene, Pass):
        end = "thanks" if _ends_with_thanks(scene) else "pass"
        buttons.append(callback(texts.button(t, end), scene.data(Kind.PASS)))
    if _legal(scene, Nominate):
        buttons.append(callback(texts.button(t, "nominate"), scene.data(Kind.NOMINATE_MENU)))
    buttons.append(callback(texts.button(t, "time"), scene.any_step(Kind.TIME)))
    return message(method, text, key=FLOOR, keyboard=keyboards.row(*buttons), timer=_timer(scene))


def _timer(scene: Scene) -> Timer | None:
    """A drawing of the running stage carries its timer only when it opens
    the stage: a redraw must not start the time again."""
    return scene.timer() if scene.opens_stage() else None


def count(scene: Scene, method: Drawn) -> Message:
    """One message for the whole round of a hand-raise vote: the round's
    candidates (mentioned: the first drawing rings their phones), the counts
    finished so far, and the candidate being counted."""
    t, view = scene.t, scene.views.public
    candidate = view.candidates[view.count_index]
    head = texts.vote_started(t, scene.table, view.candidates, view.vote_round)
    board = texts.vote_board(t, scene.table, view.counted)
    text = (
        head
        + "\n\n"
        + board
        + texts.count(
            t,
            scene.table,
            view.count_index + 1,
            len(view.candidates),
            candidate,
            scene.until(RELATIVE),
        )
    )
    first = []
    if _legal(scene, Hand) or _legal(scene, Lower):
        first += [
            callback(texts.button(t, "raise"), scene.data(Kind.HAND)),
            callback(texts.button(t, "lower"), scene.data(Kind.LOWER)),
        ]
    first.append(callback(texts.button(t, "time"), scene.any_step(Kind.TIME)))
    second = []
    if _legal(scene, Leave):
        second.append(callback(texts.button(t, "leave_table"), scene.data(Kind.LEAVE)))
    keyboard = keyboards.rows(first, second)
    return message(method, text, key=COUNT, keyboard=keyboard, timer=_timer(scene))


def lift(scene: Scene, method: Drawn) -> Message:
    """sport's lift vote: one message, its question and Raise / Lower."""
    t, view = scene.t, scene.views.public
    text = sport_texts.lift_question(
        t, scene.table, view.candidates, len(view.alive), scene.until(RELATIVE)
    )
    buttons = []
    if _legal(scene, Hand) or _legal(scene, Lower):
        buttons += [
            callback(texts.button(t, "raise"), scene.data(Kind.HAND)),
            callback(texts.button(t, "lower"), scene.data(Kind.LOWER)),
        ]
    buttons.append(callback(texts.button(t, "time"), scene.any_step(Kind.TIME)))
    return message(method, text, key=LIFT, keyboard=keyboards.row(*buttons), timer=_timer(scene))


def countdown(scene: Scene, seconds: int) -> Edit | None:
    """The floor, the count or the lift when `seconds` are left: the same
    message, redrawn with one line more (None: the stage has none of them).
    The scene must not open the stage: its deadline is the stored one, and
    the edit starts nothing."""
    view = scene.views.public
    if view.stage is Stage.VOTE:
        op = count(scene, Method.EDIT)
    elif view.stage is Stage.LIFT:
        op = lift(scene, Method.EDIT)
    elif view.stage in FLOOR_STAGES and view.speaker is not None:
        op = floor(scene, Method.EDIT)
    else:
        return None
    text = op.text + "\n" + texts.seconds_left(scene.t, seconds)
    return Edit(text, keyboard=op.keyboard, key=op.key)


def vote_board(scene: Scene, method: Drawn) -> Message:
    """The open vote's one message (classic's live vote, party's ballot),
    with a button per player one may vote against."""
    t, view = scene.t, scene.views.public
    if view.stage is Stage.BALLOT:
        text = texts.ballot(t, view.day, scene.until(), view.ballots_cast)
    else:
        ballots = dict(view.live_ballots)
        voters = {
            target: tuple(v for v in view.seats if ballots.get(v) == target)
            for target, _ in view.live_tally
        }
        text = texts.live_board(
            t,
            scene.table,
            view.day,
            scene.until(),
            view.live_tally,
            len(view.alive),
            voters,
        )
    targets = list(dict.fromkeys(a.target for a in _legal(scene, Vote) if isinstance(a, Vote)))
    extra = [callback(texts.button(t, "time"), scene.any_step(Kind.TIME))]
    if _legal(scene, Unvote) or targets:
        extra.insert(0, callback(texts.button(t, "withdraw"), scene.data(Kind.UNVOTE)))
    keyboard = keyboards.players(
        scene.table,
        [p for p in view.seats if p in targets],
        scene.seat_data(Kind.VOTE),
        extra,
    )
    if method is Method.EDIT:
        return Edit(text, keyboard=keyboard, key=BOARD, every=BOARD_EDIT_SECONDS)
    return Send(text, keyboard=keyboard, key=BOARD, timer=scene.timer())


def closed_live_board(scene: Scene) -> Edit:
    view = scene.views.public
    text = texts.live_board(
        scene.t,
        scene.table,
        view.day,
        scene.stored_until(),
        view.votes,
        len(view.alive),
        closed=True,
    )
    return Edit(text, key=BOARD)


# ----- private chats ------------------------------------------------------------------


def night_prompt(scene: Scene, player: str, move: str, method: Drawn) -> Message | None:
    """A night actor's choice, from the player's own view and legal moves: a
    button per target the engine takes, and Skip; the choice so far, which
    may change until dawn."""
    t = scene.t
    view = scene.views.seat(player)
    option = next((o for o in view.night_options if o.move == move), None)
    if option is None:
        return None
    public = view.public
    text = (
        texts.group_tag(scene.game.title)
        + "\n"
        + texts.night_question(t, move, view.role, public.variant, public.night)
    )
    if move == NightMove.KILL and view.plan:  # the family's: the Don's list
        text += "\n" + texts.plan_set(t, scene.table, view.plan)
    if option.has_chosen:
        text += "\n" + texts.night_chosen(t, scene.table, option.chosen)
    choices = [
        a.target
        for a in _legal(scene, NightChoice, player)
        if isinstance(a, NightChoice) and a.move == move and a.target
    ]
    skip = callback(texts.button(t, "skip"), scene.data(Kind.NIGHT, move, 0))
    keyboard = keyboards.players(scene.table, choices, scene.seat_data(Kind.NIGHT, move), [skip])
    return message(method, text, key=night_key(move), keyboard=_with_table(scene, keyboard))


def closed_night_prompt(scene: Scene, own: PlayerView, option: NightOption) -> Edit:
    """At dawn the prompt keeps only what was chosen (`own`: the player's view
    of the night's last state): no button is left to press."""
    move, night = option.move, own.public
    question = texts.night_question(scene.t, move, own.role, night.variant, night.night)
    text = texts.group_tag(scene.game.title) + "\n" + question
    key = f"{own.player}:{move}"
    if key in scene.chosen:  # the choice that ended the night
        text += "\n" + texts.night_final(scene.t, scene.table, scene.chosen[key])
    elif option.has_chosen:
        text += "\n" + texts.night_final(scene.t, scene.table, option.chosen)
    else:
        text += "\n" + texts.night_missed(scene.t)
    return Edit(text, key=night_key(move))


def plan(scene: Scene, player: str, method: Drawn) -> Message:
    """The Don's kill list on the acquaintance night: the Don taps players
    in order (the engine lists each next name); the family sees it grow."""
    t = scene.t
    listed = scene.views.team.plan
    text = texts.plan_set(t, scene.table, listed)
    keyboard: Keyboard | None = None
    plans = [a for a in _legal(scene, Plan, player) if isinstance(a, Plan)]
    if plans:
        text = texts.plan_prompt(t) + "\n" + text
        extensions = [a.targets[-1] for a in plans if len(a.targets) == len(listed) + 1]
        clear = callback(texts.button(t, "clear"), scene.data(Kind.PLAN, 0))
        keyboard = keyboards.players(scene.table, extensions, scene.seat_data(Kind.PLAN), [clear])
        keyboard = _with_table(scene, keyboard)
    return message(method, text, key=PLAN, keyboard=keyboard)


def nominate_menu(scene: Scene, player: str) -> Send:
    choices = [a.target for a in _legal(scene, Nominate, player) if isinstance(a, Nominate)]
    keyboard = keyboards.players(scene.table, choices, scene.seat_data(Kind.NOMINATE))
    text = texts.nominate_prompt(scene.t, scene.views.public.day)
    return Send(text, key=NOMINATE, keyboard=_with_table(scene, keyboard))


def decide_prompt(scene: Scene, player: str) -> Send:
    choices = [a.target for a in _legal(scene, Decide, player) if isinstance(a, Decide)]
    keyboard = keyboards.players(scene.table, choices, scene.seat_data(Kind.DECIDE))
    text = texts.decide_private(scene.t, scene.table, tuple(choices))
    return Send(text, key=DECIDE, keyboard=_with_table(scene, keyboard))


def _with_table(scene: Scene, keyboard: Keyboard) -> Keyboard:
    """A private prompt's keyboard, and a last row that opens the table's Mini App
    (the same choices, on the table), when the bot serves one."""
    if scene.game.app_url is None:
        return keyboard
    return [*keyboard, [web_app(texts.button(scene.t, "table"), scene.game.app_url)]]


def best_move_menu(
    scene: Scene, player: str, picked: tuple[str, ...] | None, method: Drawn = Method.EDIT
) -> tuple[Message | None, Popup]:
    """The farewell holder's best move, in private: a button per player the
    engine lets them name, each toggling that name, and Done once a
    selection the engine takes is made. With it, the popup's code: `ok`, or
    why the engine refuses this selection (None: a malformed press)."""
    t, seats = scene.t, scene.views.public.seats
    if picked is None:
        return None, Answer.STALE
    allowed = {a.targets for a in _legal(scene, Best, player) if isinstance(a, Best)}
    if not allowed:
        return None, Reason.NO_BEST_MOVE
    if picked and picked not in allowed:
        return None, scene.views.refusal(Best(player, picked)) or Answer.OK
    names = [p for p in seats if (p,) in allowed]

    def toggle(name: str) -> str:
        chosen = set(picked) ^ {name}
        selection = tuple(p for p in seats if p in chosen)
        return scene.data(Kind.BEST, "t", selection_arg(scene.table, selection))

    text = sport_texts.best_move_prompt(t, max(len(targets) for targets in allowed))
    extra = []
    if picked:
        text += "\n" + sport_texts.best_move_picked(t, scene.table, picked)
        done = scene.data(Kind.BEST, "d", selection_arg(scene.table, picked))
        extra.append(callback(texts.button(t, "done"), done))
    keyboard = keyboards.players(scene.table, names, toggle, extra, marked=picked)
    return message(method, text, key=BEST, keyboard=keyboard), Answer.OK


def host_panel(scene: Scene) -> Send:
    t = scene.t
    line1 = [
        callback(texts.button(t, "pause"), scene.any_step(Kind.HOST, "pause")),
        callback(texts.button(t, "resume"), scene.any_step(Kind.HOST, "resume")),
        callback(texts.button(t, "extend"), scene.any_step(Kind.HOST, "extend")),
    ]
    line2 = [callback(texts.button(t, "skip_speaker"), scene.any_step(Kind.HOST, "skip"))]
    if any(isinstance(a, HostWarn) for a in scene.views.legal(HOST)):
        line2.append(callback(texts.button(t, "warn"), scene.any_step(Kind.HOST_WARN_MENU)))
    text = t.gettext("🎛 Host panel. It works at any moment of the game.")
    return Send(text, key=PANEL, keyboard=keyboards.rows(line1, line2))


def warn_menu(scene: Scene) -> Send:
    def data(player: str) -> str:
        return scene.any_step(Kind.HOST_WARN, scene.table.seat(player))

    keyboard = keyboards.players(scene.table, list(scene.views.public.alive), data)
    return Send(scene.t.gettext("Warn whom?"), keyboard=keyboard)

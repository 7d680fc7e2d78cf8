"""Button presses: from callback data to an engine action, and the popup
that answers the press (popups cost nothing against the group budget)."""

from __future__ import annotations

from engine import HOST, Action, Stage
from engine.actions import (
    Decide,
    Hand,
    HostConfirm,
    HostExtend,
    HostPause,
    HostResume,
    HostSkip,
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
from engine.variants import NightMove
from tg_mafia.bot import texts
from tg_mafia.bot.callbacks import Button, stage_token
from tg_mafia.bot.service import GameService
from tg_mafia.i18n import translator
from tg_mafia.storage import GameRecord, GameStatus

STAGED = frozenset("npmNhxvwdK")
SUCCESS = {
    "n": "chosen",
    "h": "hand_raised",
    "v": "voted",
    "w": "vote_withdrawn",
    "d": "ok",
    "N": "ok",
    "p": "ok",
    "x": "ok",
    "H": "ok",
    "W": "ok",
}
HOST_VERBS = {
    "pause": HostPause,
    "resume": HostResume,
    "extend": HostExtend,
    "skip": HostSkip,
    "confirm": HostConfirm,
}


async def press(service: GameService, record: GameRecord, user_id: int, button: Button) -> str:
    t = translator(record.language)
    if record.status is not GameStatus.RUNNING:
        return texts.popup(t, "stale")
    state = service.state_of(record)
    view = service.view(record)
    actor = str(user_id)
    if button.kind in STAGED and button.token != stage_token(state):
        return texts.popup(t, "stale")
    if button.kind == "t":
        if state.paused or record.stage_deadline is None:
            return texts.time_left(t, 0, paused=state.paused)
        return texts.time_left(t, round(service.clock.left(record.stage_deadline)), False)
    if button.kind in "HW":
        if record.host_user_id != user_id:
            return texts.popup(t, "not_host")
        if button.kind == "H" and button.args == ("warnmenu",):
            service.presenter.warn_menu(view, state)
            return texts.popup(t, "see_private")
    if button.kind == "m":
        if state.stage is not Stage.SPEECH or state.speaker != actor:
            return texts.popup(t, "not_your_floor")
        if state.nominated_this_floor:
            return texts.popup(t, "already_nominated")
        service.presenter.nominate_menu(view, state, actor)
        return texts.popup(t, "see_private")
    if button.kind == "K" and button.args:
        # The Don's list grows one tap at a time; "0" clears it.
        target = view.table.player_at(int(button.args[0])) if button.args[0].isdigit() else None
        plan = () if button.args[0] == "0" else (*state.plan, target) if target else None
        if plan is None:
            return texts.popup(t, "stale")
        outcome = await service.act(record.chat_id, Plan(actor, plan), game_id=record.id)
        return texts.popup(t, outcome.error or "ok")
    action = to_action(button, actor, view.table.player_at)
    if action is None:
        return texts.popup(t, "stale")
    outcome = await service.act(record.chat_id, action, game_id=record.id)
    if outcome.error is not None:
        return texts.popup(t, outcome.error)
    if button.kind == "h" and button.args == ("d",):
        return texts.popup(t, "hand_lowered")
    return texts.popup(t, SUCCESS.get(button.kind, "ok"))


def to_action(button: Button, actor: str, player_at: object) -> Action | None:
    """The engine action a button stands for; None for a malformed one."""
    assert callable(player_at)

    def seat(index: int) -> str | None:
        if len(button.args) <= index or not button.args[index].isdigit():
            return None
        found: str | None = player_at(int(button.args[index]))
        return found

    kind, args = button.kind, button.args
    if kind == "n" and len(args) == 2 and args[0] in {m.value for m in NightMove}:
        target = None if args[1] == "0" else seat(1)
        if target is None and args[1] != "0":
            return None
        return NightChoice(actor, NightMove(args[0]), target)
    if kind == "p":
        return Pass(actor)
    if kind == "x":
        return Leave(actor)
    if kind == "w":
        return Unvote(actor)
    if kind == "h" and args in (("u",), ("d",)):
        return Hand(actor) if args == ("u",) else Lower(actor)
    target = seat(0)
    if kind == "N" and target:
        return Nominate(actor, target)
    if kind == "v" and target:
        return Vote(actor, target)
    if kind == "d" and target:
        return Decide(actor, target)
    if kind == "W" and target:
        return HostWarn(HOST, target)
    if kind == "H" and len(args) == 1 and args[0] in HOST_VERBS:
        return HOST_VERBS[args[0]](HOST)
    return None

"""From engine events to calls: a renderer per kind of event (a table, not
a chain of cases). Public events write to the group, private ones to the
chats of the players they name; the living messages are drawn from the
engine's views by `screens`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from engine import Stage, Views, find_variant
from engine import events as ev
from engine.events import Event
from engine.vocab import EndReason
from tg_mafia.render import keyboards, screens, texts
from tg_mafia.render import sport as sport_render
from tg_mafia.render.callbacks import Kind
from tg_mafia.render.calls import (
    Clear,
    Delete,
    Edit,
    Method,
    Permissions,
    Photo,
    Send,
    callback,
)
from tg_mafia.render.drawings import table_request
from tg_mafia.render.scene import GameView, Outgoing, Scene
from tg_mafia.render.texts import sport as sport_texts

Renderer = Callable[[Scene, Any], None]


def render(
    game: GameView,
    views: Views,
    events: list[Event],
    before: Views | None = None,
    post_message_id: int | None = None,
) -> list[Outgoing]:
    """The calls that `events` cause (the action that caused them turned the
    state `before` shows into the one `views` shows)."""
    scene = Scene(game, views, before, post_message_id)
    for event in events:
        RENDERERS[type(event)](scene, event)
    return scene.out


# ----- the deal ----------------------------------------------------------------------------


def game_started(scene: Scene, event: ev.GameStarted) -> None:
    scene.say(scene.t.gettext("🎭 The game begins. Your roles are in your private chats."))
    if scene.game.host_id is not None:
        scene.private(scene.game.host_id, screens.host_panel(scene))


def role_dealt(scene: Scene, event: ev.RoleDealt) -> None:
    text = texts.your_role(scene.t, event.role, scene.views.public.variant, scene.game.title)
    scene.private(event.player, Send(text, protect=True))


def all_roles(scene: Scene, event: ev.AllRoles) -> None:
    scene.to_host(texts.all_roles(scene.t, scene.table, event.roles))


# ----- the night ----------------------------------------------------------------------------


def night_started(scene: Scene, event: ev.NightStarted) -> None:
    # The day's last buttons are dead now: take them off.
    scene.group(Clear(screens.FLOOR))
    scene.group(Clear(screens.BOARD))
    scene.group(
        Send(
            texts.night_started(scene.t, scene.views.public.variant, event.night, scene.game.mask),
            timer=scene.timer(),
        )
    )
    scene.group(Permissions())  # closed until morning


def family_met(scene: Scene, event: ev.FamilyMet) -> None:
    text = texts.family(scene.t, scene.table, event.members)
    if event.talk:
        text += "\n" + texts.acquaintance(scene.t)
    for user in scene.recipients(event):
        scene.private(user, Send(text, protect=True))
        if event.plan:
            scene.private(user, screens.plan(scene, str(user), Method.SEND))


def night_prompt(scene: Scene, event: ev.NightPrompt) -> None:
    op = screens.night_prompt(scene, event.player, event.move, Method.SEND)
    if op is not None:
        scene.private(event.player, op)


def choice_made(scene: Scene, event: ev.ChoiceMade) -> None:
    scene.chosen[f"{event.player}:{event.move}"] = event.target
    op = screens.night_prompt(scene, event.player, event.move, Method.EDIT)
    if op is not None:
        scene.private(event.player, op)
    if event.shared:
        note = texts.mafia_pick(scene.t, scene.table, event.player, event.target)
        for user in scene.recipients(event):
            if user != int(event.player):
                scene.private(user, Send(note))
    scene.to_host(
        texts.host_night_move(
            scene.t, scene.table, event.player, event.role, event.move, event.target
        )
    )


def plan_set(scene: Scene, event: ev.PlanSet) -> None:
    for user in scene.recipients(event):
        scene.private(user, screens.plan(scene, str(user), Method.EDIT))
    scene.to_host(texts.plan_set(scene.t, scene.table, event.targets))


def mafia_chatted(scene: Scene, event: ev.MafiaChatted) -> None:
    note = texts.mafia_message(scene.t, scene.table, scene.game.title, event.player, event.text)
    for user in scene.recipients(event):
        if user != int(event.player):
            scene.private(user, Send(note))
    scene.to_host(note)


# ----- dawn -------------------------------------------------------------------------------


def day_started(scene: Scene, event: ev.DayStarted) -> None:
    _close_night_prompts(scene)
    shown = dict(event.shown)
    now = scene.views.public
    night = scene.before.public.night if scene.before is not None else now.night
    quiet = texts.quiet_night(now.variant, night)
    scene.say(
        texts.day_started(
            scene.t, scene.table, event.day, event.victims, shown, event.missed, quiet=quiet
        )
    )
    scene.group(Permissions({}))  # the group's own, restored


def _close_night_prompts(scene: Scene) -> None:
    """The night's prompts keep what was chosen, and lose their buttons."""
    before = scene.before
    if before is None or before.public.stage is not Stage.NIGHT:
        return
    night = before.public.night
    planned = night == 1 and find_variant(before.public.variant).has_plan
    for player in before.public.alive:
        own = before.seat(player)
        for option in own.night_options:
            scene.private(player, screens.closed_night_prompt(scene, own, option))
        if planned and own.role.is_mafia:
            scene.private(player, Clear(screens.PLAN))


def check_result(scene: Scene, event: ev.CheckResult) -> None:
    note = texts.check_result(scene.t, scene.table, event.target, event.answer)
    scene.private(event.player, Send(note))
    scene.to_host(texts.host_note(scene.t, scene.table, event.player, note))


def player_blocked(scene: Scene, event: ev.PlayerBlocked) -> None:
    scene.say(texts.blocked(scene.t, scene.table, event.player))


def night_resolved(scene: Scene, event: ev.NightResolved) -> None:
    """For the record only (the protocol, after the end): nobody is told now."""


# ----- the floor and posts ---------------------------------------------------------------


def floor_given(scene: Scene, event: ev.FloorGiven) -> None:
    before = scene.before
    if before is not None and before.public.speaker is not None:
        # The last speaker's nomination list is closed.
        scene.private(before.public.speaker, Clear(screens.NOMINATE))
    # One floor message at a time: the last one goes (deleting costs nothing
    # against the group's budget), the new one mentions its speaker.
    scene.group(Delete(key=screens.FLOOR))
    scene.group(screens.floor(scene))


def post_deleted(scene: Scene, event: ev.PostDeleted) -> None:
    if scene.post_message_id is not None:
        scene.out.extend(deletion(scene.game, scene.post_message_id))


def deletion(game: GameView, message_id: int) -> list[Outgoing]:
    """A player's post taken down (when the bot may delete)."""
    if not game.can_delete:
        return []
    return [Outgoing(game.chat_id, Delete(message_id=message_id), topic=game.topic)]


def warned(scene: Scene, event: ev.Warned) -> None:
    note = texts.warned(scene.t, scene.table, event.player, event.count, event.limit, event.reason)
    _during_speech(scene, note)


def nominated(scene: Scene, event: ev.Nominated) -> None:
    scene.private(event.player, Clear(screens.NOMINATE))
    _during_speech(scene, texts.nominated(scene.t, scene.table, event.player, event.target))


def _during_speech(scene: Scene, note: str) -> None:
    """What happens while a speech goes on is one edit of its floor message,
    not a message more (the next floor lists the nominees); otherwise, or
    when the action also ends the speech, an announcement."""
    now, before = scene.views.public, scene.before
    if now.speaker is not None and before is not None and before.public.step == now.step:
        scene.group(screens.floor(scene, Method.EDIT, note))
    else:
        scene.say(note)


# ----- the hand-raise vote --------------------------------------------------------------


def no_vote(scene: Scene, event: ev.NoVote) -> None:
    scene.say(texts.no_vote(scene.t, scene.table, event.reason, event.target))


def vote_started(scene: Scene, event: ev.VoteStarted) -> None:
    before = scene.before
    if before is not None and before.public.speaker is not None:
        scene.private(before.public.speaker, Clear(screens.NOMINATE))
    scene.group(Delete(key=screens.FLOOR))
    # The round's candidates head its count message (count_started), mentioned there.


def count_started(scene: Scene, event: ev.CountStarted) -> None:
    # One message for the whole round: the first count sends it, each next
    # count edits it (half the group calls of a message per candidate).
    scene.group(screens.count(scene, Method.SEND if event.number == 1 else Method.EDIT))


def count_ended(scene: Scene, event: ev.CountEnded) -> None:
    if event.number == event.of:
        # The last count: the board shows every result and loses its buttons.
        # (After any other count the next count's edit says it all.)
        before = (scene.before or scene.views).public
        candidates = tuple(c for c, _ in event.counts)
        head = texts.vote_started(scene.t, scene.table, candidates, before.vote_round)
        text = head + "\n\n" + texts.vote_board(scene.t, scene.table, event.counts)
        scene.group(Edit(text, key=screens.COUNT))


def vote_result(scene: Scene, event: ev.VoteResult) -> None:
    if scene.before is not None and scene.before.public.stage is Stage.DISCUSSION:
        scene.group(screens.closed_live_board(scene))  # classic: the board shows the end
    scene.say(
        texts.vote_result(
            scene.t,
            scene.table,
            event.outcome,
            event.tally,
            event.target,
            event.leaders,
            event.silent,
        )
    )


def decider_named(scene: Scene, event: ev.DeciderNamed) -> None:
    text = texts.decide_public(scene.t, scene.table, event.decider, event.seconds)
    scene.group(Send(text, timer=scene.timer()))


def decide_asked(scene: Scene, event: ev.DecideAsked) -> None:
    op = screens.decide_prompt(scene, event.decider)
    scene.private(event.decider, op)
    scene.to_host(op.text or "")


def eliminated(scene: Scene, event: ev.Eliminated) -> None:
    before = scene.before
    if before is not None and before.public.decider == event.player:
        scene.private(event.player, Clear(screens.DECIDE))
    scene.say(texts.eliminated(scene.t, scene.table, event.player, event.cause, event.role))


def hand_changed(scene: Scene, event: ev.HandChanged) -> None:
    """A hand goes up or down: the presser's popup says so; the group's
    budget is kept for the counts."""


# ----- free talk and open votes ----------------------------------------------------------


def discussion_started(scene: Scene, event: ev.DiscussionStarted) -> None:
    if event.live_vote:
        scene.group(screens.vote_board(scene, Method.SEND))
    else:
        text = texts.discussion(scene.t, event.day, scene.until())
        scene.group(Send(text, timer=scene.timer()))


def live_vote_changed(scene: Scene, event: ev.LiveVoteChanged) -> None:
    if scene.views.public.stage is Stage.DISCUSSION:
        scene.group(screens.vote_board(scene, Method.EDIT))


def ballot_started(scene: Scene, event: ev.BallotStarted) -> None:
    scene.group(screens.vote_board(scene, Method.SEND))


def ballot_counted(scene: Scene, event: ev.BallotCounted) -> None:
    if scene.views.public.stage is Stage.BALLOT:
        scene.group(screens.vote_board(scene, Method.EDIT))  # how many have voted, not for whom


def ballot_cast(scene: Scene, event: ev.BallotCast) -> None:
    scene.to_host(texts.host_ballot(scene.t, scene.table, event.voter, event.target))


# ----- the host and the end --------------------------------------------------------------


def timer_changed(scene: Scene, event: ev.TimerChanged) -> None:
    scene.say(texts.timer_note(scene.t, event.change, event.seconds))


def suspended(scene: Scene, event: ev.Suspended) -> None:
    # Said in General: the runner moves a suspended game's messages there (in_general).
    text = texts.topic_closed_pause(scene.t, scene.game.title, event.limit)
    scene.group(Send(text))


def unsuspended(scene: Scene, event: ev.Unsuspended) -> None:
    scene.group(Send(texts.topic_reopened(scene.t)))


def confirm_requested(scene: Scene, event: ev.ConfirmRequested) -> None:
    if scene.game.host_id is None:
        return
    button = callback(texts.button(scene.t, "confirm"), scene.any_step(Kind.HOST, "confirm"))
    scene.private(
        scene.game.host_id,
        Send(
            texts.confirm_request(scene.t, event.winner),
            key=screens.CONFIRM,
            keyboard=keyboards.row(button),
        ),
    )


def game_ended(scene: Scene, event: ev.GameEnded) -> None:
    view = scene.views.public
    for key in (screens.FLOOR, screens.COUNT, screens.BOARD, screens.LIFT):
        scene.group(Clear(key))
    again = callback(texts.button(scene.t, "new_game"), scene.any_step(Kind.NEW_GAME))
    notes: tuple[str, ...] = ()
    if view.best_mover is not None and view.best_move:
        notes = (sport_texts.best_move_made(scene.t, scene.table, view.best_mover, view.best_move),)
    protocol = callback(texts.button(scene.t, "protocol"), scene.any_step(Kind.PROTOCOL))
    text = texts.end_screen(
        scene.t, scene.table, event.winner, event.roles, set(view.dead), notes, event.reason
    )
    if event.winner is None and event.reason is not EndReason.SUSPENDED:
        # abandoned: stored as not played, with no picture or protocol
        scene.group(Send(text, keyboard=keyboards.row(again)))
    elif event.winner is None:
        # At a suspension's limit: unscored, with no winner to draw, but played: its protocol.
        scene.group(Send(text, keyboard=keyboards.row(again, protocol)))
    else:
        # The table as a picture, drawn from the stored game once the end is written.
        scene.group(Photo(table_request(view.language)))
        scene.group(Send(text, keyboard=keyboards.row(again, protocol)))
    scene.group(Permissions({}, final=True))
    if scene.game.host_id is not None:
        scene.private(scene.game.host_id, Clear(screens.PANEL))
        scene.private(scene.game.host_id, Clear(screens.CONFIRM))
    before = scene.before.public if scene.before is not None else None
    if before is not None and before.stage is Stage.FAREWELL and before.speaker is not None:
        scene.private(before.speaker, Clear(screens.BEST))  # a menu still open


def idle_reminded(scene: Scene, event: ev.IdleReminded) -> None:
    text = texts.idle_reminder(scene.t, scene.game.title, event.left)
    scene.private(event.player, Send(text))


def player_result(scene: Scene, event: ev.PlayerResult) -> None:
    text = texts.own_result(scene.t, event.won, event.winner, event.role)
    scene.private(event.player, Send(text))


RENDERERS: Mapping[type[Event], Renderer] = MappingProxyType(
    {
        ev.GameStarted: game_started,
        ev.RoleDealt: role_dealt,
        ev.AllRoles: all_roles,
        ev.NightStarted: night_started,
        ev.FamilyMet: family_met,
        ev.NightPrompt: night_prompt,
        ev.ChoiceMade: choice_made,
        ev.PlanSet: plan_set,
        ev.MafiaChatted: mafia_chatted,
        ev.DayStarted: day_started,
        ev.CheckResult: check_result,
        ev.PlayerBlocked: player_blocked,
        ev.NightResolved: night_resolved,
        ev.FloorGiven: floor_given,
        ev.PostDeleted: post_deleted,
        ev.Warned: warned,
        ev.Nominated: nominated,
        ev.NoVote: no_vote,
        ev.VoteStarted: vote_started,
        ev.CountStarted: count_started,
        ev.HandChanged: hand_changed,
        ev.CountEnded: count_ended,
        ev.VoteResult: vote_result,
        ev.DeciderNamed: decider_named,
        ev.DecideAsked: decide_asked,
        ev.Eliminated: eliminated,
        ev.DiscussionStarted: discussion_started,
        ev.LiveVoteChanged: live_vote_changed,
        ev.BallotStarted: ballot_started,
        ev.BallotCounted: ballot_counted,
        ev.BallotCast: ballot_cast,
        ev.TimerChanged: timer_changed,
        ev.Suspended: suspended,
        ev.Unsuspended: unsuspended,
        ev.ConfirmRequested: confirm_requested,
        ev.GameEnded: game_ended,
        ev.PlayerResult: player_result,
        ev.IdleReminded: idle_reminded,
        **sport_render.RENDERERS,
    }
)

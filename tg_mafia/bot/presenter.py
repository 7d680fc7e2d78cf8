"""From engine events to Telegram messages.

Public events become group messages; everything else goes to private chats
(the players named, the living mafia, the human host). Nothing but public
events can reach the group: this is how roles stay secret."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Event, EventKind, GameState, Phase, Role, Stage
from engine.events import PUBLIC as PUBLIC_AUDIENCE
from engine.events import private
from engine.handvote import finished_counts
from engine.views import player_view
from tg_mafia.bot import keyboards, texts
from tg_mafia.bot.callbacks import Button, stage_token
from tg_mafia.bot.outbox import Op, Outboxes
from tg_mafia.bot.table import Table
from tg_mafia.i18n import Translator

FLOOR_KEY = "floor"
COUNT_KEY = "count"
BOARD_KEY = "board"
LOBBY_KEY = "lobby"
BOARD_EDIT_SECONDS = 4.0  # the live vote board changes at most this often


@dataclass
class GameView:
    """What the presenter needs to know about one game besides its state."""

    game_id: int
    chat_id: int
    title: str
    table: Table
    t: Translator
    host_id: int | None
    deadline: float | None
    can_delete: bool


def clock_text(deadline: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(deadline)) if deadline else "—"


class Presenter:
    def __init__(self, outboxes: Outboxes) -> None:
        self.outboxes = outboxes

    # ----- plumbing -----------------------------------------------------------------

    def group(self, game: GameView, op: Op) -> None:
        self.outboxes.put(game.chat_id, op)

    def private(self, user_id: int, op: Op) -> None:
        self.outboxes.put(user_id, op)

    def say(self, game: GameView, text: str) -> None:
        self.group(game, Op("send", text=text, mergeable=True))

    def button(
        self, game: GameView, state: GameState, label: str, kind: str, *args: str
    ) -> InlineKeyboardButton:
        data = Button(kind, game.game_id, stage_token(state), tuple(args)).encode()
        return InlineKeyboardButton(label, callback_data=data)

    def seat_keyboard(
        self,
        game: GameView,
        state: GameState | None,
        choices: Sequence[str],
        kind: str,
        prefix: tuple[str, ...] = (),
        extra: Sequence[InlineKeyboardButton] = (),
    ) -> InlineKeyboardMarkup:
        """A button per player, carrying the player's seat; `state` None makes
        buttons valid at any stage (the host's)."""
        token = stage_token(state) if state is not None else "-"

        def data(player: str) -> str:
            seat = str(game.table.seat(player))
            return Button(kind, game.game_id, token, (*prefix, seat)).encode()

        return keyboards.players(game.table, choices, data, extra)

    def static_button(
        self, game: GameView, label: str, kind: str, *args: str
    ) -> InlineKeyboardButton:
        """A button valid at any stage (the host's panel)."""
        data = Button(kind, game.game_id, "-", tuple(args)).encode()
        return InlineKeyboardButton(label, callback_data=data)

    def recipients(self, game: GameView, state: GameState, event: Event) -> list[int]:
        ids = [int(p) for p in sorted(event.audience.players)]
        if event.audience.mafia:
            ids += [int(p) for p in state.mafia_members() if state.is_alive(p)]
        return list(dict.fromkeys(ids))

    def to_host(self, game: GameView, text: str) -> None:
        if game.host_id is not None:
            self.private(game.host_id, Op("send", text=text, mergeable=True))

    # ----- the entry point ------------------------------------------------------------

    def present(
        self,
        game: GameView,
        state: GameState,
        events: list[Event],
        post_message_id: int | None = None,
    ) -> None:
        for event in events:
            if event.audience.is_public:
                self.public(game, state, event, post_message_id)
            else:
                self.secret(game, state, event)

    # ----- the group -------------------------------------------------------------------

    def public(
        self, game: GameView, state: GameState, event: Event, post_message_id: int | None
    ) -> None:
        t, table, kind = game.t, game.table, event.kind
        if kind is EventKind.GAME_STARTED:
            self.say(game, t.gettext("🎭 The game begins. Your roles are in your private chats."))
        elif kind is EventKind.NIGHT_STARTED:
            # The day's last buttons are dead now: take them off.
            self.group(game, Op("clear", key=FLOOR_KEY))
            self.group(game, Op("clear", key=BOARD_KEY))
            self.say(game, texts.night_started(t, event.number))
        elif kind is EventKind.DAY_STARTED:
            shown = dict(event.roles)
            self.say(
                game, texts.day_started(t, table, event.number, event.players, shown, event.flag)
            )
        elif kind is EventKind.PLAYER_BLOCKED and event.player:
            self.say(game, texts.blocked(t, table, event.player))
        elif kind is EventKind.FLOOR and event.player:
            self.floor(game, state, event)
        elif kind is EventKind.POST_DELETED:
            if post_message_id is not None and game.can_delete:
                self.group(game, Op("delete", message_id=post_message_id))
        elif kind is EventKind.WARNED and event.player:
            self.say(game, texts.warned(t, table, event.player, event.count, event.number))
        elif kind is EventKind.NOMINATED and event.player and event.target:
            self.say(game, texts.nominated(t, table, event.player, event.target))
        elif kind is EventKind.NO_VOTE:
            self.say(game, texts.no_vote(t, table, event.outcome or "", event.target))
        elif kind is EventKind.VOTE_STARTED:
            self.say(game, texts.vote_started(t, table, event.players, event.outcome or ""))
        elif kind is EventKind.COUNT_STARTED and event.target:
            self.count(game, state, event)
        elif kind is EventKind.COUNT_ENDED and event.target and event.number == event.count:
            # The last count: the board shows every result and loses its buttons.
            # (After any other count the next count's edit says it all.)
            self.group(
                game, Op("edit", key=COUNT_KEY, text=texts.vote_board(t, table, event.counts))
            )
        elif kind is EventKind.VOTE_RESULT:
            if state.variant == "classic":
                self.board(game, state, edit=True)  # the board shows the closed vote
            self.say(
                game,
                texts.vote_result(
                    t, table, event.outcome or "", event.tally, event.target, event.players
                ),
            )
        elif kind is EventKind.DECIDE_REQUESTED and event.player:
            self.say(game, texts.decide_public(t, table, event.player, event.seconds))
        elif kind is EventKind.ELIMINATED and event.player:
            self.say(
                game, texts.eliminated(t, table, event.player, event.outcome or "", event.role)
            )
        elif kind is EventKind.DISCUSSION_STARTED:
            self.discussion(game, state, live=event.flag)
        elif kind is EventKind.LIVE_VOTE:
            self.board(game, state, edit=True)
        elif kind is EventKind.BALLOT_STARTED:
            self.ballot(game, state)
        elif kind is EventKind.TIMER:
            self.say(game, texts.timer_note(t, event.outcome or "", event.seconds))
        elif kind is EventKind.GAME_ENDED and event.winner:
            dead = set(state.dead)
            again = self.static_button(game, texts.button(t, "new_game"), "L", "new")
            self.group(
                game,
                Op(
                    "send",
                    text=texts.end_screen(t, table, event.winner, event.roles, dead),
                    markup=keyboards.row(again),
                ),
            )

    def floor(self, game: GameView, state: GameState, event: Event) -> None:
        t = game.t
        assert event.player is not None
        text = texts.floor(
            t,
            game.table,
            event.stage or "",
            event.number,
            event.player,
            event.seconds,
            clock_text(game.deadline),
            state.nominees,
            next_speaker(state),
        )
        buttons = [self.button(game, state, texts.button(t, "pass"), "p")]
        if event.stage == Stage.SPEECH.value:
            buttons.append(self.button(game, state, texts.button(t, "nominate"), "m"))
        buttons.append(self.button(game, state, texts.button(t, "time"), "t"))
        self.group(game, Op("clear", key=FLOOR_KEY))  # the last speaker's buttons
        self.group(game, Op("send", text=text, key=FLOOR_KEY, markup=keyboards.row(*buttons)))

    def count(self, game: GameView, state: GameState, event: Event, fresh: bool = False) -> None:
        t = game.t
        assert event.target is not None
        # One message for the whole round: the first count sends it, each next
        # count edits it (half the group calls of a message per candidate).
        text = texts.vote_board(t, game.table, event.counts) + texts.count(
            t, game.table, event.number, event.count, event.target, clock_text(game.deadline)
        )
        first = [
            self.button(game, state, texts.button(t, "raise"), "h", "u"),
            self.button(game, state, texts.button(t, "lower"), "h", "d"),
            self.button(game, state, texts.button(t, "time"), "t"),
        ]
        second = []
        if state.variant == "moscow" and len(state.candidates) == 2 and state.count_index == 0:
            second.append(self.button(game, state, texts.button(t, "leave_table"), "x"))
        method = "send" if event.number == 1 or fresh else "edit"
        self.group(game, Op(method, text=text, key=COUNT_KEY, markup=keyboards.rows(first, second)))

    def discussion(self, game: GameView, state: GameState, live: bool) -> None:
        if live:
            self.board(game, state, edit=False)
        else:
            self.say(game, texts.discussion(game.t, state.day, clock_text(game.deadline)))

    def board(self, game: GameView, state: GameState, edit: bool) -> None:
        """The classic live vote: one message, a button per living player."""
        if state.stage is Stage.DISCUSSION:
            tally = player_view(state, state.seats[0]).public.live_tally
            voters = {
                target: tuple(v for v in state.seats if state.ballots.get(v) == target)
                for target, _ in tally
            }
        else:  # the vote is over: the final count
            tally, voters = tuple(state.votes.items()), {}
        text = texts.live_board(
            game.t,
            game.table,
            state.day,
            clock_text(game.deadline),
            tally,
            len(state.alive),
            voters,
            closed=state.stage is not Stage.DISCUSSION,
        )
        if state.stage is not Stage.DISCUSSION:
            self.group(game, Op("edit", key=BOARD_KEY, text=text))
            return
        self.voting_board(game, state, text, edit)

    def ballot(self, game: GameView, state: GameState, edit: bool = False) -> None:
        text = texts.ballot(game.t, state.day, clock_text(game.deadline), len(state.ballots))
        self.voting_board(game, state, text, edit)

    def voting_board(self, game: GameView, state: GameState, text: str, edit: bool) -> None:
        """The one message of an open vote, with a button per living player;
        its edits come at most every BOARD_EDIT_SECONDS."""
        self.group(
            game,
            Op(
                "edit" if edit else "send",
                key=BOARD_KEY,
                text=text,
                markup=self.voting_keyboard(game, state),
                min_interval=BOARD_EDIT_SECONDS if edit else 0.0,
            ),
        )

    def voting_keyboard(self, game: GameView, state: GameState) -> InlineKeyboardMarkup:
        t = game.t
        extra = [
            self.button(game, state, texts.button(t, "withdraw"), "w"),
            self.button(game, state, texts.button(t, "time"), "t"),
        ]
        return self.seat_keyboard(game, state, state.alive, "v", extra=extra)

    # ----- private chats ------------------------------------------------------------------

    def secret(self, game: GameView, state: GameState, event: Event) -> None:
        t, table, kind = game.t, game.table, event.kind
        targets = self.recipients(game, state, event)
        host_copy: str | None = None
        if kind is EventKind.ROLE and event.player and event.role:
            text = texts.your_role(t, event.role, state.variant, game.title)
            self.private(int(event.player), Op("send", text=text, protect=True))
        elif kind is EventKind.FAMILY:
            text = texts.family(t, table, event.roles)
            if event.number == 1 and state.variant != "party":
                text += "\n" + texts.acquaintance(t)
            for user in targets:
                self.private(user, Op("send", text=text, protect=True))
            if event.number == 1 and state.variant in ("moscow", "club"):
                for user in targets:
                    self.plan(game, state, str(user))
        elif kind is EventKind.ALL_ROLES:
            self.to_host(game, texts.all_roles(t, table, event.roles))
        elif kind is EventKind.NIGHT_PROMPT and event.player and event.move:
            self.night_prompt(game, state, event.player, event.move)
        elif kind is EventKind.CHOICE_MADE and event.player and event.move:
            self.night_prompt(game, state, event.player, event.move, edit=True)
            if event.move == "kill" and state.roles[event.player].is_mafia:
                note = texts.mafia_pick(t, table, event.player, event.target)
                for user in targets:
                    if user != int(event.player):
                        self.private(user, Op("send", text=note, mergeable=True))
            host_copy = texts.host_night_move(
                t, table, event.player, state.roles[event.player], event.move, event.target
            )
        elif kind is EventKind.PLAN_SET:
            for user in targets:
                self.plan(game, state, str(user), edit=True)
            host_copy = texts.plan_set(t, table, event.players)
        elif kind is EventKind.MAFIA_CHAT and event.player and event.text:
            note = texts.mafia_message(table, event.player, event.text)
            for user in targets:
                if user != int(event.player):
                    self.private(user, Op("send", text=note, mergeable=True))
            host_copy = note
        elif kind is EventKind.CHECK_RESULT and event.player and event.target and event.answer:
            note = texts.check_result(t, table, event.target, event.answer)
            self.private(int(event.player), Op("send", text=note, mergeable=True))
            host_copy = texts.host_note(t, table, event.player, note)
        elif kind is EventKind.DECIDE_REQUESTED and event.player:
            self.decide_prompt(game, state, event.player, event.players)
        elif kind is EventKind.BALLOT_VOTE and event.player:
            if state.stage is Stage.BALLOT:
                self.ballot(game, state, edit=True)  # how many have voted, not for whom
            host_copy = texts.host_ballot(t, table, event.player, event.target)
        elif kind is EventKind.CONFIRM_REQUESTED and event.winner:
            self.confirm_prompt(game, state, event)
        elif kind is EventKind.GAME_ENDED and event.player and event.winner and event.role:
            text = texts.own_result(t, event.flag, event.winner, event.role)
            self.private(int(event.player), Op("send", text=text))
        if host_copy is not None and event.audience.host:
            self.to_host(game, host_copy)

    def night_prompt(
        self, game: GameView, state: GameState, player: str, move: str, edit: bool = False
    ) -> None:
        t = game.t
        view = player_view(state, player)
        option = next((o for o in view.night_options if o.move == move), None)
        key = f"night:{game.game_id}:{move}"
        if option is None:
            return
        text = texts.night_question(t, move, view.role, state.night)
        if move == "kill" and view.role.is_mafia and state.plan:
            text += "\n" + texts.plan_set(t, game.table, state.plan)
        if option.has_chosen:
            text += "\n" + texts.night_chosen(t, game.table, option.chosen)
        skip = self.button(game, state, texts.button(t, "skip"), "n", move, "0")
        markup = self.seat_keyboard(game, state, option.targets, "n", prefix=(move,), extra=[skip])
        self.private(int(player), Op("edit" if edit else "send", key=key, text=text, markup=markup))

    def plan(self, game: GameView, state: GameState, player: str, edit: bool = False) -> None:
        """The Don's kill list on the acquaintance night: the Don taps
        players in order; the family sees the list as it grows."""
        t = game.t
        text = texts.plan_set(t, game.table, state.plan)
        markup = None
        if state.roles[player] is Role.DON and state.stage is Stage.NIGHT and state.night == 1:
            text = texts.plan_prompt(t) + "\n" + text
            choices = [p for p in state.alive if p != player and p not in state.plan]
            clear = self.button(game, state, texts.button(t, "clear"), "K", "0")
            markup = self.seat_keyboard(game, state, choices, "K", extra=[clear])
        key = f"plan:{game.game_id}"
        self.private(int(player), Op("edit" if edit else "send", key=key, text=text, markup=markup))

    def nominate_menu(self, game: GameView, state: GameState, player: str) -> None:
        choices = [p for p in state.alive if p != player and p not in state.nominees]
        markup = self.seat_keyboard(game, state, choices, "N")
        self.private(int(player), Op("send", text=texts.nominate_prompt(game.t), markup=markup))

    def decide_prompt(
        self, game: GameView, state: GameState, player: str, candidates: tuple[str, ...]
    ) -> None:
        markup = self.seat_keyboard(game, state, candidates, "d")
        text = texts.decide_private(game.t, game.table, candidates)
        self.private(int(player), Op("send", text=text, markup=markup))
        self.to_host(game, text)

    def confirm_prompt(self, game: GameView, state: GameState, event: Event) -> None:
        if game.host_id is None or event.winner is None:
            return
        button = self.static_button(game, texts.button(game.t, "confirm"), "H", "confirm")
        self.private(
            game.host_id,
            Op(
                "send",
                text=texts.confirm_request(game.t, event.winner),
                markup=keyboards.row(button),
            ),
        )

    def host_panel(self, game: GameView, state: GameState) -> None:
        if game.host_id is None:
            return
        t = game.t
        line1 = [
            self.static_button(game, texts.button(t, "pause"), "H", "pause"),
            self.static_button(game, texts.button(t, "resume"), "H", "resume"),
            self.static_button(game, texts.button(t, "extend"), "H", "extend"),
        ]
        line2 = [self.static_button(game, texts.button(t, "skip_speaker"), "H", "skip")]
        if state.variant in ("moscow", "club"):
            line2.append(self.static_button(game, texts.button(t, "warn"), "H", "warnmenu"))
        text = t.gettext("🎛 Host panel. It works at any moment of the game.")
        self.private(game.host_id, Op("send", text=text, markup=keyboards.rows(line1, line2)))

    def warn_menu(self, game: GameView, state: GameState) -> None:
        if game.host_id is None:
            return
        markup = self.seat_keyboard(game, None, state.alive, "W")
        self.private(game.host_id, Op("send", text=game.t.gettext("Warn whom?"), markup=markup))

    # ----- after a restart ---------------------------------------------------------------

    def end_again(self, game: GameView, state: GameState) -> None:
        """The end screen and each player's result, said again after a crash
        that may have come between the final write and the sends."""
        if state.winner is None:
            return
        side = state.winner
        events = [
            Event(
                EventKind.GAME_ENDED,
                PUBLIC_AUDIENCE,
                winner=side,
                roles=tuple((p, state.roles[p]) for p in state.seats),
            )
        ]
        events += [
            Event(
                EventKind.GAME_ENDED,
                private(p),
                player=p,
                winner=side,
                flag=state.roles[p].side is side,
                role=state.roles[p],
            )
            for p in state.seats
        ]
        self.present(game, state, events)

    def reminder(self, game: GameView, state: GameState) -> None:
        """Say again what the current stage needs, as its first message did:
        a restart may have lost what was queued before it."""
        stage = state.stage
        if state.phase is Phase.DAY:
            # The morning may have been lost too: who died is said again.
            shown = {p: state.revealed[p] for p in state.announced if p in state.revealed}
            self.say(
                game,
                texts.day_started(
                    game.t, game.table, state.day, state.announced, shown, state.missed
                ),
            )
        if stage is Stage.NIGHT:
            for player in state.alive:
                for option in player_view(state, player).night_options:
                    self.night_prompt(game, state, player, option.move)
        elif stage in (Stage.INTRO, Stage.SPEECH, Stage.LAST_WORD) and state.speaker:
            fake = Event(
                EventKind.FLOOR,
                PUBLIC_AUDIENCE,
                player=state.speaker,
                stage=stage.value,
                seconds=state.timer_seconds or 0,
                number=state.day,
            )
            self.floor(game, state, fake)
        elif stage is Stage.VOTE and state.candidates:
            fake = Event(
                EventKind.COUNT_STARTED,
                PUBLIC_AUDIENCE,
                target=state.candidates[state.count_index],
                number=state.count_index + 1,
                count=len(state.candidates),
                counts=finished_counts(state),
            )
            self.count(game, state, fake, fresh=True)  # the old message may be unknown now
        elif stage is Stage.DECIDE and state.decider:
            self.decide_prompt(game, state, state.decider, state.candidates)
        elif stage is Stage.DISCUSSION:
            self.discussion(game, state, live=state.variant == "classic")
        elif stage is Stage.BALLOT:
            self.ballot(game, state)
        elif stage is Stage.CONFIRM and state.pending_winner:
            fake = Event(EventKind.CONFIRM_REQUESTED, PUBLIC_AUDIENCE, winner=state.pending_winner)
            self.confirm_prompt(game, state, fake)
        if game.host_id is not None and stage is not Stage.ENDED:
            self.host_panel(game, state)


def next_speaker(state: GameState) -> str | None:
    """Who speaks after the current speech or introduction (last words have
    their own order)."""
    if state.stage not in (Stage.INTRO, Stage.SPEECH):
        return None
    for player in state.speaking_order[state.floor_index + 1 :]:
        if state.is_alive(player) and not state.is_blocked(player):
            return player
    return None

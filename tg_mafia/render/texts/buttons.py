"""The words on the buttons, the popups that answer a press, the time left, and /help."""

from __future__ import annotations

from enum import StrEnum

from engine.errors import Reason
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.timefmt import duration


def button(t: Translator, name: str) -> str:
    labels = {
        "join": t.gettext("Join"),
        "leave": t.pgettext("lobby button", "Leave"),
        "start": t.gettext("Start"),
        "cancel": t.gettext("Cancel"),
        "clear": t.gettext("Clear"),
        "rules": t.gettext("📖 Rules"),
        "new_game": t.gettext("🎭 New game"),
        "protocol": t.gettext("📜 Protocol"),
        "pass": t.gettext("Pass"),
        # TRANSLATORS: the button that ends one's speech where speakers end it by
        # saying thanks (sport, the thanks rule): the very word players say.
        "thanks": t.pgettext("end of speech", "Thank you"),
        "nominate": t.gettext("Nominate…"),
        "time": "⏱",
        "raise": t.gettext("✋ Raise"),
        "lower": t.gettext("Lower"),
        "leave_table": t.gettext("Leave the table"),
        "skip": t.gettext("Skip"),
        "withdraw": t.gettext("Withdraw my vote"),
        "confirm": t.gettext("Confirm"),
        "pause": t.gettext("⏸ Pause"),
        "resume": t.gettext("▶️ Resume"),
        "extend": t.gettext("+30 s"),
        "skip_speaker": t.gettext("Skip speaker"),
        "warn": t.gettext("⚠️ Warn…"),
        "done": t.gettext("✅ Done"),
        "table": t.gettext("🎲 Table"),
    }
    return labels[name]


class Answer(StrEnum):
    """The shell's own answers to a press (the engine's refusals are `Reason`s)."""

    STALE = "stale"
    MEMBERS_ONLY = "members_only"
    NOT_YOURS = "not_yours"
    NO_GAME = "no_game"
    DUPLICATE = "duplicate"  # a twin delivery of an update already handled
    LOBBY_FULL = "lobby_full"
    LOBBY_FEW = "lobby_few"
    HOST_WANTED = "host_wanted"
    ONLY_OPENER = "only_opener"
    OK = "ok"
    HAND_RAISED = "hand_raised"
    HAND_LOWERED = "hand_lowered"
    VOTED = "voted"
    VOTE_WITHDRAWN = "vote_withdrawn"
    CHOSEN = "chosen"
    BEST_MOVE_IN = "best_move_in"
    SEE_PRIVATE = "see_private"
    SEE_GROUP = "see_group"
    START_ME = "start_me"


# Whatever answers a press: a rule's refusal or the shell's own answer.
Popup = Reason | Answer


def popups(t: Translator) -> dict[Popup, str]:
    """A short answer to a press, by code: the engine's reasons for refusing
    a move (every one has its own), and the shell's own answers. Every code has
    one (tests/render/test_popups.py)."""
    not_now = t.gettext("Not now.")
    return {
        # The engine's reasons.
        Reason.ALREADY_NOMINATED: t.gettext("You have nominated someone already."),
        Reason.ALREADY_NOMINEE: t.gettext("That player is nominated already."),
        Reason.BAD_TARGET: t.gettext("You cannot choose that player."),
        Reason.BEST_MOVE_MADE: t.gettext("Your best move is made already."),
        Reason.BEST_MOVE_SIZE: t.gettext("Name one to three players."),
        Reason.DEAD: t.gettext("You are out of the game."),
        Reason.EMPTY: t.gettext("There is nothing to send."),
        Reason.FAMILY_ASLEEP: t.gettext("The family does not talk tonight."),
        Reason.GAME_OVER: t.gettext("The game is over."),
        Reason.HAND_DOWN: t.gettext("Your hand is not up."),
        Reason.HAND_UP: t.gettext("Your hand is up already."),
        Reason.MAY_NOT_VOTE: t.gettext("You may not vote now."),
        Reason.NO_COUNT: t.gettext("No candidate is being counted now."),
        Reason.NO_BEST_MOVE: t.gettext("You have no best move to make now."),
        Reason.NO_FLOOR: t.gettext("Nobody is speaking now."),
        Reason.NO_LEAVING: t.gettext("Leaving the table is not part of these rules."),
        Reason.NO_SUCH_MOVE: t.gettext("Your role has no such move tonight."),
        Reason.NO_TIMER: t.gettext("No timer is running now."),
        Reason.NO_VOTE_GIVEN: t.gettext("You have not voted."),
        Reason.NO_VOTE_NOW: t.gettext("There is no vote now."),
        Reason.NO_WARNINGS: t.gettext("These rules have no warnings."),
        Reason.NOT_A_PLAYER: t.gettext("You are not playing in this game."),
        Reason.NOT_DECIDER: t.gettext("The deciding vote is not yours."),
        Reason.NOT_DON: t.gettext("Only the Don sets the list."),
        Reason.NOT_HOST: t.gettext("Only the host may do this."),
        Reason.NOT_MAFIA: t.gettext("Only the mafia talk at night."),
        Reason.NOT_NIGHT: t.gettext("Night moves are made at night."),
        Reason.NOT_NOW: not_now,
        Reason.NOT_PAUSED: t.gettext("The timer is not paused."),
        Reason.NOT_YOUR_FLOOR: t.gettext("It is not your turn to speak."),
        Reason.NOTHING_TO_CONFIRM: t.gettext("No side has won yet."),
        Reason.PAUSED: t.gettext("The timer is paused already."),
        Reason.SAME_HEAL: t.gettext("You healed that player last night."),
        Reason.SELF_TARGET: t.gettext("You cannot choose yourself."),
        Reason.STALE_TIMER: t.gettext("This button is out of date."),
        Reason.SUSPENDED: t.gettext("The game is paused until its topic is reopened."),
        Reason.NOT_SUSPENDED: t.gettext("The game is not paused."),
        Reason.VOTED_ALREADY: t.gettext("You have voted already."),
        Reason.VOTE_CANCELLED: t.gettext("Today's vote is cancelled: no nominations."),
        # The shell's.
        Answer.STALE: t.gettext("This button is out of date."),
        Answer.MEMBERS_ONLY: t.gettext("Only members of the group may do this."),
        Answer.NOT_YOURS: t.gettext("This button is not for you."),
        Answer.NO_GAME: t.gettext("There is no game here now."),
        Answer.LOBBY_FULL: t.gettext("The table is full."),
        Answer.LOBBY_FEW: t.gettext("Not enough players yet."),
        Answer.HOST_WANTED: t.gettext(
            "This group plays with a human host: someone must send /host before the start."
        ),
        Answer.ONLY_OPENER: t.gettext("Only whoever opened the lobby, or an admin, may do this."),
        Answer.DUPLICATE: not_now,
        Answer.OK: t.gettext("Done."),
        Answer.HAND_RAISED: t.gettext("✋ Your hand is up."),
        Answer.HAND_LOWERED: t.gettext("Your hand is down."),
        Answer.VOTED: t.gettext("Your vote is in."),
        Answer.VOTE_WITHDRAWN: t.gettext("Your vote is withdrawn."),
        Answer.CHOSEN: t.gettext("Your choice is in."),
        Answer.BEST_MOVE_IN: t.gettext("🎯 Your best move is recorded."),
        Answer.SEE_PRIVATE: t.gettext("Look at your private chat with the bot."),
        Answer.SEE_GROUP: t.gettext("My answer is in the group."),
        Answer.START_ME: t.gettext("Open a private chat with me and press Start first."),
    }


def popup(t: Translator, code: Popup) -> str:
    """A short answer to a button press (free of the group's budget)."""
    return popups(t)[code]


def time_left(t: Translator, seconds: int, paused: bool) -> str:
    if paused:
        return t.gettext("The timer is paused.")
    # TRANSLATORS: {length} is a length of time: "45 seconds", "12 minutes".
    return t.gettext("Time left: {length}.").format(length=duration(t, seconds))


def help_text(t: Translator) -> str:
    lines = [
        t.gettext("🎭 I host Mafia in a group. In the group:"),
        t.gettext("/newgame — open a lobby; players join with its Join button"),
        t.gettext("/extend — give the open lobby more time (its opener or administrators)"),
        t.gettext("/nextgame — be told in private when a game opens here (again: stop)"),
        t.gettext("/host — host the open lobby yourself (you do not play)"),
        t.gettext("/rules — the rules of the group's variant"),
        t.gettext("/settings — language, variant and options (administrators)"),
        t.gettext(
            "/stats — the leaderboard: a skill rating where a win with the side that "
            "usually loses counts for more; in private, your own card"
        ),
        t.gettext("/protocol — the last game's protocol: votes, night moves, the result"),
        t.gettext("/cancel — stop the game (administrators)"),
        t.gettext("/forget — in private with me: erase what I keep about you, your rating too"),
        t.gettext(
            "I need to be an administrator who may delete messages, restrict members and pin "
            "messages: to close the chat at night and keep speeches in turn."
        ),
    ]
    return "\n".join(lines)

"""The words on the buttons, the popups that answer a press, the time left, and /help."""

from __future__ import annotations

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


def popups(t: Translator) -> dict[str, str]:
    """A short answer to a press, by code: the engine's reasons for refusing
    a move (every one has its own), and the shell's own answers."""
    return {
        # The engine's reasons.
        "already_nominated": t.gettext("You have nominated someone already."),
        "already_nominee": t.gettext("That player is nominated already."),
        "bad_target": t.gettext("You cannot choose that player."),
        "best_move_made": t.gettext("Your best move is made already."),
        "best_move_size": t.gettext("Name one to three players."),
        "dead": t.gettext("You are out of the game."),
        "empty": t.gettext("There is nothing to send."),
        "family_asleep": t.gettext("The family does not talk tonight."),
        "game_over": t.gettext("The game is over."),
        "hand_down": t.gettext("Your hand is not up."),
        "hand_up": t.gettext("Your hand is up already."),
        "may_not_vote": t.gettext("You may not vote now."),
        "no_count": t.gettext("No candidate is being counted now."),
        "no_best_move": t.gettext("You have no best move to make now."),
        "no_floor": t.gettext("Nobody is speaking now."),
        "no_leaving": t.gettext("Leaving the table is not part of these rules."),
        "no_such_move": t.gettext("Your role has no such move tonight."),
        "no_timer": t.gettext("No timer is running now."),
        "no_vote_given": t.gettext("You have not voted."),
        "no_vote_now": t.gettext("There is no vote now."),
        "no_warnings": t.gettext("These rules have no warnings."),
        "not_a_player": t.gettext("You are not playing in this game."),
        "not_decider": t.gettext("The deciding vote is not yours."),
        "not_don": t.gettext("Only the Don sets the list."),
        "not_host": t.gettext("Only the host may do this."),
        "not_mafia": t.gettext("Only the mafia talk at night."),
        "not_night": t.gettext("Night moves are made at night."),
        "not_now": t.gettext("Not now."),
        "not_paused": t.gettext("The timer is not paused."),
        "not_your_floor": t.gettext("It is not your turn to speak."),
        "nothing_to_confirm": t.gettext("No side has won yet."),
        "paused": t.gettext("The timer is paused already."),
        "same_heal": t.gettext("You healed that player last night."),
        "self_target": t.gettext("You cannot choose yourself."),
        "stale_timer": t.gettext("This button is out of date."),
        "suspended": t.gettext("The game is paused until its topic is reopened."),
        "not_suspended": t.gettext("The game is not paused."),
        "voted_already": t.gettext("You have voted already."),
        "vote_cancelled": t.gettext("Today's vote is cancelled: no nominations."),
        # The shell's.
        "stale": t.gettext("This button is out of date."),
        "members_only": t.gettext("Only members of the group may do this."),
        "not_yours": t.gettext("This button is not for you."),
        "no_game": t.gettext("There is no game here now."),
        "lobby_full": t.gettext("The table is full."),
        "lobby_few": t.gettext("Not enough players yet."),
        "host_wanted": t.gettext(
            "This group plays with a human host: someone must send /host before the start."
        ),
        "only_opener": t.gettext("Only whoever opened the lobby, or an admin, may do this."),
        "ok": t.gettext("Done."),
        "hand_raised": t.gettext("✋ Your hand is up."),
        "hand_lowered": t.gettext("Your hand is down."),
        "voted": t.gettext("Your vote is in."),
        "vote_withdrawn": t.gettext("Your vote is withdrawn."),
        "chosen": t.gettext("Your choice is in."),
        "best_move_in": t.gettext("🎯 Your best move is recorded."),
        "see_private": t.gettext("Look at your private chat with the bot."),
        "see_group": t.gettext("My answer is in the group."),
        "start_me": t.gettext("Open a private chat with me and press Start first."),
    }


def popup(t: Translator, code: str) -> str:
    """A short answer to a button press (free of the group's budget)."""
    return popups(t).get(code) or t.gettext("Not now.")


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

"""The page's own words, in the group's language (the same catalogues as the
chat): headings, stage names, and the verbs of its moves."""

from __future__ import annotations

from engine import Stage
from engine.views import PublicView
from tg_mafia.i18n import Translator
from tg_mafia.render import texts


def page_words(t: Translator) -> dict[str, str]:
    """What the page writes around the table, whatever the game's moment."""
    return {
        "title": t.gettext("Table"),
        "your_role": t.gettext("Your role"),
        "spectator": t.gettext("You are watching: you see what the whole group sees."),
        "moves": t.gettext("Your moves"),
        "no_moves": t.gettext("Nothing to press now."),
        "alive": t.gettext("in the game"),
        "out": t.gettext("out of the game"),
        "speaking": t.gettext("speaks now"),
        "hand": t.gettext("hand raised"),
        "nominee": t.gettext("nominated"),
        "warnings": t.gettext("warnings"),
        "left": t.gettext("Time left"),
        "paused": t.gettext("Paused"),
        "offline": t.gettext("Connection lost: reconnecting…"),
        "you": t.gettext("you"),
        "family": t.gettext("Your family"),
        "learned": t.gettext("What you learned"),
        "events": t.gettext("What happened"),
        "no_events": t.gettext("Nothing has happened yet."),
        "host": t.gettext("You host this game: your controls are below."),
    }


def stage_name(t: Translator, view: PublicView) -> str:
    stage = view.stage
    if stage is Stage.NIGHT:
        return t.gettext("🌙 Night {n}").format(n=view.night)
    if stage in (Stage.INTRO, Stage.SPEECH, Stage.LAST_WORD, Stage.FAREWELL):
        return texts.floor_head(t, stage, view.floor_mode, view.day)
    if stage in (Stage.VOTE, Stage.LIFT, Stage.BALLOT):
        return vote_name(t, view.day)
    if stage is Stage.DECIDE:
        return t.gettext("⚖️ Day {n} · the decision").format(n=view.day)
    if stage is Stage.DISCUSSION:
        return discussion_name(t, view.day)
    if stage is Stage.CONFIRM:
        return t.gettext("⏳ The host confirms the result")
    return t.gettext("🏁 The game is over")


def vote_name(t: Translator, day: int) -> str:
    return t.gettext("🗳 Day {n} · the vote").format(n=day)


def discussion_name(t: Translator, day: int) -> str:
    return t.gettext("💬 Day {n} · discussion").format(n=day)


def lobby_name(t: Translator) -> str:
    return t.gettext("🎭 The lobby is open")


def verb(t: Translator, kind: str, move: str = "") -> str:
    """What pressing a seat does, before its name: `Vote against` 3 · Ann."""
    if kind == "night":
        return {
            "kill": t.gettext("Shoot"),
            "check": t.gettext("Check"),
            "heal": t.gettext("Heal"),
            "visit": t.gettext("Visit"),
        }.get(move, t.gettext("Choose"))
    return {
        "nominate": t.gettext("Nominate"),
        "vote": t.gettext("Vote against"),
        "decide": t.gettext("Eliminate"),
        "plan": t.gettext("Add to the list"),
        # TRANSLATORS: the host's move, before a player's seat and name: "Warn 3 · Ann".
        "warn": t.pgettext("host", "Warn"),
    }[kind]

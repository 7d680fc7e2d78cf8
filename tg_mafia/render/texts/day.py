"""The day's words: the morning's news, the floor (who speaks and until when),
nominations and warnings."""

from __future__ import annotations

from typing import assert_never

from engine import FloorMode, Role, Stage
from engine.variants import VARIANTS, NightMove
from engine.vocab import Breach, CheckAnswer
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.roles import role_name
from tg_mafia.render.texts.table import Table
from tg_mafia.render.texts.timefmt import duration


def quiet_night(variant: str, night: int) -> bool:
    """A night with no kill to make (night 1 of most variants): its morning does
    not say that nobody was killed."""
    return NightMove.KILL not in VARIANTS[variant].night_moves(Role.MAFIA, night)


def day_started(
    t: Translator,
    table: Table,
    number: int,
    killed: tuple[str, ...],
    shown: dict[str, Role],
    missed: bool,
    quiet: bool = False,
) -> str:
    """The morning; `quiet`: the night had no kill to make (night 1 of most
    variants), so nobody "was not killed"."""
    lines = [t.gettext("☀️ <b>Day {n}.</b> The city wakes up.").format(n=number)]
    if killed:
        names = t.join(
            f"{table.label(p)} ({role_name(t, shown[p])})" if p in shown else table.label(p)
            for p in killed
        )
        lines.append(
            t.ngettext(
                "Killed last night: {players}.", "Killed last night: {players}.", len(killed)
            ).format(players=names)
        )
    elif missed:
        lines.append(t.gettext("The mafia missed. Nobody was killed last night."))
    elif not quiet:
        lines.append(t.gettext("Nobody was killed last night."))
    return "\n".join(lines)


def check_result(t: Translator, table: Table, target: str, answer: CheckAnswer) -> str:
    match answer:
        case CheckAnswer.MAFIA:
            text = t.gettext("🔎 {player} is <b>mafia</b>.")
        case CheckAnswer.NOT_MAFIA:
            text = t.gettext("🔎 {player} is <b>not mafia</b>.")
        case CheckAnswer.SHERIFF:
            text = t.gettext("🔎 {player} is <b>the sheriff</b>.")
        case CheckAnswer.NOT_SHERIFF:
            text = t.gettext("🔎 {player} is <b>not the sheriff</b>.")
        case _:
            assert_never(answer)
    return text.format(player=table.label(target))


def blocked(t: Translator, table: Table, player: str) -> str:
    return t.gettext(
        "💋 {player} spent the night with the escort: no speech, nomination or vote today."
    ).format(player=table.label(player))


# ----- the floor --------------------------------------------------------------------


def floor_head(t: Translator, stage: Stage, mode: FloorMode, day: int) -> str:
    """What kind of floor it is: each is announced as such."""
    if stage is Stage.INTRO:
        return t.gettext("🎙 Day {n} · introductions").format(n=day)
    if stage is Stage.FAREWELL:
        return t.gettext("🕊 Day {n} · farewell minute").format(n=day)
    if mode is FloorMode.RESPEECH:
        return t.gettext("🎙 Day {n} · re-speech of the tied").format(n=day)
    if stage is Stage.LAST_WORD:
        return t.gettext("🎙 Day {n} · last word").format(n=day)
    if mode is FloorMode.SILENT:
        return t.gettext("🤐 Day {n} · silent speech (third foul)").format(n=day)
    if mode is FloorMode.SHORT:
        return t.gettext("🎙 Day {n} · short speech (third foul)").format(n=day)
    return t.gettext("🎙 Day {n} · speeches").format(n=day)


def floor(
    t: Translator,
    table: Table,
    stage: Stage,
    day: int,
    speaker: str,
    seconds: int,
    until: str,
    nominees: tuple[str, ...],
    following: str | None = None,
    mode: FloorMode = FloorMode.NORMAL,
) -> str:
    # TRANSLATORS: {time} is the time left, which the reader's app shows and counts
    # down in their language: "in 45 seconds".
    # {length} is the floor's length: "60 seconds", "3 minutes".
    if mode is FloorMode.SILENT:
        now = t.gettext(
            "Now: {player} — {length}, ⏱ {time}. Nominate or pass only: a post is "
            "deleted and earns a foul."
        )
    else:
        now = t.gettext("Now: {player} — {length}, ⏱ {time}. Everyone else waits.")
    lines = [
        floor_head(t, stage, mode, day),
        now.format(player=table.mention(speaker), length=duration(t, seconds), time=until),
    ]
    if following is not None:
        lines.append(t.gettext("Next: {player}").format(player=table.label(following)))
    if stage is Stage.SPEECH and nominees:
        lines.append(t.gettext("Nominees: {players}").format(players=table.labels(nominees, t)))
    return "\n".join(lines)


def seconds_left(t: Translator, seconds: int) -> str:
    """The line a floor or a count gains when its time is nearly up."""
    return t.ngettext("⏱ {n} second left!", "⏱ {n} seconds left!", seconds).format(n=seconds)


def nominated(t: Translator, table: Table, by: str, target: str) -> str:
    return t.gettext("☝️ {player} nominates {target}.").format(
        player=table.label(by), target=table.label(target)
    )


def nominate_prompt(t: Translator, day: int) -> str:
    return t.gettext("Day {n}: whom do you nominate?").format(n=day)


def warning_reason(t: Translator, reason: Breach) -> str:
    match reason:
        case Breach.NIGHT:
            return t.gettext("posted at night")
        case Breach.DURING_VOTE:
            return t.gettext("posted during the vote")
        case Breach.AFTER_FLOOR:
            return t.gettext("posted after their speech")
        case Breach.BLOCKED:
            return t.gettext("posted while blocked for the day")
        case Breach.HOST:
            return t.gettext("warned by the host")
        case Breach.SILENT:
            return t.gettext("posted during their silent speech")
        case Breach.OUT_OF_TURN | Breach.DEAD:  # a dead player's post warns nobody
            return t.gettext("posted out of turn")
        case _:
            assert_never(reason)


def warned(t: Translator, table: Table, player: str, count: int, limit: int, reason: Breach) -> str:
    why = warning_reason(t, reason)
    if limit:
        return t.gettext("⚠️ {player}: warning {count}/{limit} — {reason}.").format(
            player=table.label(player), count=count, limit=limit, reason=why
        )
    return t.gettext("⚠️ {player}: warning {count} — {reason}.").format(
        player=table.label(player), count=count, reason=why
    )

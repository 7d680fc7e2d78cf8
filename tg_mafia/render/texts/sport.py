"""The words of sport Mafia's own moments: the judge seeing the sheriff,
fouls and what they do, a cancelled vote, the farewell's best move, the
lift vote and the draw. Text only (HTML, names escaped by `Table`)."""

from __future__ import annotations

from typing import assert_never

from engine.vocab import Breach, CancelledVote, FoulEffect
from tg_mafia.i18n import Translator
from tg_mafia.render.texts import warning_reason
from tg_mafia.render.texts.table import Table


def sheriff_seen(t: Translator) -> str:
    # The role card has told the sheriff already that the Don hunts them.
    return t.gettext(
        "🌙 Zero night: the judge has seen you, Sheriff. Your checks begin on night 1."
    )


# ----- fouls -------------------------------------------------------------------------


def fouled(
    t: Translator,
    table: Table,
    player: str,
    count: int,
    limit: int,
    reason: Breach,
    effect: FoulEffect,
) -> str:
    """`⚠️ 6 · Oleg: foul 3/4 — posted out of turn.` and what the foul does."""
    if reason is Breach.HOST:
        # TRANSLATORS: sport's host is a judge: Russian says «судья».
        why = t.pgettext("judge", "warned by the host")
    else:
        why = warning_reason(t, reason)
    if limit:
        line = t.gettext("⚠️ {player}: foul {count}/{limit} — {reason}.").format(
            player=table.label(player), count=count, limit=limit, reason=why
        )
    else:
        line = t.gettext("⚠️ {player}: foul {count} — {reason}.").format(
            player=table.label(player), count=count, reason=why
        )
    match effect:
        case FoulEffect.SILENCED:
            line += " " + t.gettext("Their next speech is silent: they may only nominate or pass.")
        case FoulEffect.REMOVED:
            line += " " + t.gettext("That is the limit: they leave the table at once.")
        case FoulEffect.NONE:
            pass
        case _:
            assert_never(effect)
    return line


def vote_cancelled(t: Translator, when: CancelledVote) -> str:
    match when:
        case CancelledVote.NOW:
            return t.gettext("🚫 The vote is cancelled: nobody leaves today, and night falls.")
        case CancelledVote.TODAY:
            return t.gettext(
                "🚫 Today's vote is cancelled: the speeches go on, with no nomination."
            )
        case CancelledVote.NEXT_DAY:
            return t.gettext("🚫 The next day's vote is cancelled.")
        case _:
            assert_never(when)


def no_nomination_today(t: Translator) -> str:
    """A line of the floor on a day whose vote a removal cancelled."""
    return t.gettext("🚫 No vote today: no nominations.")


# ----- the farewell and the best move --------------------------------------------------


def farewell_best_move(t: Translator, table: Table, player: str) -> str:
    return t.gettext("🎯 {player} may name up to three players as the best move.").format(
        player=table.label(player)
    )


def best_move_prompt(t: Translator, most: int) -> str:
    return t.ngettext(
        "🎯 Your best move: name up to {n} player you believe is black. Tap names to choose, "
        "then Done. It changes nothing in the game, but it is recorded.",
        "🎯 Your best move: name up to {n} players you believe are black. Tap names to "
        "choose, then Done. It changes nothing in the game, but it is recorded.",
        most,
    ).format(n=most)


def best_move_picked(t: Translator, table: Table, picked: tuple[str, ...]) -> str:
    return t.gettext("Chosen: {players}").format(players=table.labels(picked, t))


def best_move_made(t: Translator, table: Table, player: str, targets: tuple[str, ...]) -> str:
    return t.gettext("🎯 Best move of {player}: {players}").format(
        player=table.label(player), players=table.labels(targets, t)
    )


def best_move_recorded(t: Translator, table: Table, targets: tuple[str, ...]) -> str:
    return t.gettext("🎯 Your best move is recorded: {players}.").format(
        players=table.labels(targets, t)
    )


def best_move_lapsed(t: Translator) -> str:
    return t.gettext("🎯 Your farewell is over: no best move was made.")


# ----- the lift vote -------------------------------------------------------------------


def lift_question(
    t: Translator, table: Table, tied: tuple[str, ...], living: int, until: str
) -> str:
    need = living // 2 + 1
    if len(tied) == 2:
        question = t.gettext("Who is for both of them leaving the table?")
    else:
        question = t.gettext("Who is for all of them leaving the table?")
    return "\n".join(
        [
            t.gettext("✋ Lift · {players} tied twice").format(
                players=t.join(table.mention(p) for p in tied)
            ),
            question,
            t.ngettext(
                "They leave with {need} vote of {living}. One… two… three ⏱ {time}.",
                "They leave with {need} votes of {living}. One… two… three ⏱ {time}.",
                need,
            ).format(need=need, living=living, time=until),
        ]
    )


def lift_result(
    t: Translator,
    table: Table,
    tied: tuple[str, ...],
    voters: tuple[str, ...],
    living: int,
    leave: bool,
) -> str:
    head = t.gettext("✋ Lift · {players} tied twice").format(players=table.labels(tied, t))
    hands = len(voters)
    if len(tied) == 2 and leave:
        result = t.ngettext(
            "{hands} of {living} votes: both leave.",
            "{hands} of {living} votes: both leave.",
            hands,
        )
    elif len(tied) == 2:
        result = t.ngettext(
            "{hands} of {living} votes: both stay.",
            "{hands} of {living} votes: both stay.",
            hands,
        )
    elif leave:
        result = t.ngettext(
            "{hands} of {living} votes: they all leave.",
            "{hands} of {living} votes: they all leave.",
            hands,
        )
    else:
        result = t.ngettext(
            "{hands} of {living} votes: they all stay.",
            "{hands} of {living} votes: they all stay.",
            hands,
        )
    lines = [head, result.format(hands=hands, living=living)]
    if voters:
        lines.append(t.gettext("Votes: {players}").format(players=table.labels(voters, t)))
    return "\n".join(lines)


# ----- the draw ------------------------------------------------------------------------


def drawn(t: Translator, nights: int) -> str:
    return t.ngettext(
        "🤝 {n} night in a row, and the days between, with nobody leaving the table: "
        "the game is a draw.",
        "🤝 {n} nights in a row, and the days between, with nobody leaving the table: "
        "the game is a draw.",
        nights,
    ).format(n=nights)

"""The vote's words: the hand-raise vote (candidates, the count, the result, ties and
the decision), the open votes' live board and ballots, and who is eliminated."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import assert_never

from engine import Cause, Role, VoteRound
from engine.vocab import NoVoteReason, TimerChange, VoteOutcome
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.roles import role_label
from tg_mafia.render.texts.table import Table
from tg_mafia.render.texts.timefmt import duration


def vote_started(t: Translator, table: Table, candidates: tuple[str, ...], kind: VoteRound) -> str:
    match kind:
        case VoteRound.REVOTE:
            head = t.gettext("✋ New vote, with no last word:")
        case VoteRound.REPEAT:
            head = t.gettext("✋ The vote between the two is repeated.")
        case VoteRound.TIED:
            head = t.gettext("✋ After the re-speeches, the tied are voted on again:")
        case VoteRound.FIRST:
            head = t.gettext("✋ The vote. Candidates, in order:")
        case _:
            assert_never(kind)
    # Mentions: every candidate's phone rings when the vote begins.
    return head + "\n" + t.join(table.mention(c) for c in candidates)


def count(t: Translator, table: Table, index: int, total: int, candidate: str, until: str) -> str:
    return "\n".join(
        [
            t.gettext("✋ Vote · candidate {index} of {total}: {player}").format(
                index=index, total=total, player=table.mention(candidate)
            ),
            # TRANSLATORS: {time} is the time left, which the reader's app shows and
            # counts down in their language: "in 20 seconds".
            t.gettext("Raise your hand to eliminate {player}. One… two… three ⏱ {time}.").format(
                player=table.label(candidate), time=until
            ),
        ]
    )


def vote_board(t: Translator, table: Table, counts: tuple[tuple[str, tuple[str, ...]], ...]) -> str:
    """The finished counts of a round, one line each (and a blank line
    before the current count, if any)."""
    return "".join(count_result(t, table, c, voters) + "\n" for c, voters in counts)


def count_result(t: Translator, table: Table, candidate: str, voters: tuple[str, ...]) -> str:
    return t.ngettext(
        "{player} — {n} vote ({voters})", "{player} — {n} votes ({voters})", len(voters)
    ).format(player=table.label(candidate), n=len(voters), voters=table.labels(voters, t))


def tally_lines(
    t: Translator,
    table: Table,
    tally: tuple[tuple[str, int], ...],
    silent: tuple[str, ...] = (),
) -> str:
    """One line per candidate; the voters who raised no hand are shown
    where they went (the last candidate), so the numbers add up."""
    lines = []
    last = tally[-1][0] if tally else None
    for player, n in tally:
        if player == last and silent:
            hands = n - len(silent)
            lines.append(
                t.ngettext(
                    "{player}: {n} vote ({hands} raised + {silent} who did not vote)",
                    "{player}: {n} votes ({hands} raised + {silent} who did not vote)",
                    n,
                ).format(player=table.label(player), n=n, hands=hands, silent=len(silent))
            )
        else:
            lines.append(
                t.ngettext("{player}: {n} vote", "{player}: {n} votes", n).format(
                    player=table.label(player), n=n
                )
            )
    return "\n".join(lines)


def vote_result(
    t: Translator,
    table: Table,
    outcome: VoteOutcome,
    tally: tuple[tuple[str, int], ...],
    target: str | None,
    players: tuple[str, ...],
    silent: tuple[str, ...] = (),
) -> str:
    if outcome is VoteOutcome.DECIDED and target:
        return t.gettext("The deciding vote falls on {player}.").format(player=table.label(target))
    lines = [t.gettext("🗳 The count:"), tally_lines(t, table, tally, silent)] if tally else []
    lines.append(_outcome(t, table, outcome, target, players))
    return "\n".join(lines)


def _outcome(
    t: Translator, table: Table, outcome: VoteOutcome, target: str | None, players: tuple[str, ...]
) -> str:
    """The result's last line: who leaves, or what the tie leads to."""
    match outcome:
        case VoteOutcome.ELIMINATED if target:
            return t.gettext("{player} has the most votes.").format(player=table.label(target))
        case VoteOutcome.REVOTE:
            return t.gettext("A tie between {players}: they go to a new vote.").format(
                players=table.labels(players, t)
            )
        case VoteOutcome.LAST_WORDS:
            return t.gettext(
                "A tie between {players}: each has a last word, then the vote is repeated."
            ).format(players=table.labels(players, t))
        case VoteOutcome.DECIDE:
            return t.gettext("A tie again between {players}.").format(
                players=table.labels(players, t)
            )
        case VoteOutcome.RESPEECHES:
            return t.gettext(
                "A tie between {players}: each has a re-speech, then they are voted on again."
            ).format(players=table.labels(players, t))
        case VoteOutcome.LIFT:
            return t.gettext(
                "The same players are tied again: {players}. The lift vote decides whether "
                "they all leave."
            ).format(players=table.labels(players, t))
        case VoteOutcome.TABLE_SPLIT:
            return t.gettext("Everyone at the table is tied twice: nobody leaves today.")
        case VoteOutcome.TIE:
            return t.gettext("A tie: nobody is eliminated today.")
        case VoteOutcome.NO_MAJORITY:
            return t.gettext("Nobody reached a majority in time: nobody is eliminated today.")
        case VoteOutcome.NOBODY | VoteOutcome.ELIMINATED | VoteOutcome.DECIDED:
            return t.gettext("Nobody is eliminated today.")
        case _:
            assert_never(outcome)


def no_vote(t: Translator, table: Table, reason: NoVoteReason, target: str | None) -> str:
    match reason:
        case NoVoteReason.SINGLE_FIRST_DAY if target:
            return t.gettext(
                "Only {player} was nominated: on the first day that is not enough for "
                "a vote. Nobody is eliminated."
            ).format(player=table.label(target))
        case NoVoteReason.SINGLE if target:
            return t.gettext(
                "Only {player} was nominated, and is eliminated without a vote."
            ).format(player=table.label(target))
        case NoVoteReason.NO_DECIDER:
            return t.gettext("Nobody killed last night may break the tie: nobody is eliminated.")
        case NoVoteReason.NO_DECISION:
            return t.gettext("No deciding vote came in time: nobody is eliminated.")
        case NoVoteReason.CANCELLED:
            return t.gettext("No vote today: a removal on fouls cancelled it.")
        case NoVoteReason.NO_NOMINEE | NoVoteReason.SINGLE_FIRST_DAY | NoVoteReason.SINGLE:
            return t.gettext("Nobody was nominated: nobody is eliminated today.")
        case _:
            assert_never(reason)


def decide_public(t: Translator, table: Table, player: str, seconds: int) -> str:
    # TRANSLATORS: {length} is a length of time: "30 seconds", "2 minutes".
    return t.gettext(
        "⚖️ {player}, killed last night, casts the deciding vote in private ({length})."
    ).format(player=table.mention(player), length=duration(t, seconds))


def decide_private(t: Translator, table: Table, candidates: tuple[str, ...]) -> str:
    # A choice: the names are joined with "or".
    return t.gettext("⚖️ You cast the deciding vote. Who is eliminated: {players}?").format(
        players=t.join((table.label(c) for c in candidates), style="or")
    )


def eliminated(t: Translator, table: Table, player: str, cause: Cause, role: Role | None) -> str:
    who = table.label(player)
    if role is not None:
        who = f"{who} ({role_label(t, role)})"
    match cause:
        case Cause.WARNINGS:
            text = t.gettext("🚫 {player} is out: too many warnings.")
        case Cause.FOULS:
            text = t.gettext("🚫 {player} is removed on fouls and leaves with no farewell.")
        case Cause.LEFT:
            text = t.gettext("🚪 {player} leaves the table.")
        case Cause.DEPARTED:
            text = t.gettext("🚪 {player} left the group and is out of the game.")
        case Cause.IDLE:
            text = t.gettext("💤 {player} is out: they let their turns pass with no move.")
        case Cause.VOTE | Cause.KILLED:
            text = t.gettext("⚰️ {player} is eliminated.")
        case _:
            assert_never(cause)
    return text.format(player=who)


# ----- open votes ------------------------------------------------------------------------


def live_board(
    t: Translator,
    table: Table,
    day: int,
    until: str,
    tally: tuple[tuple[str, int], ...],
    living: int,
    voters: Mapping[str, tuple[str, ...]] | None = None,
    closed: bool = False,
) -> str:
    need = living // 2 + 1
    lines = [
        t.gettext("☀️ Day {n} · free talk and the live vote, until {time}.").format(
            n=day, time=until
        ),
        t.ngettext(
            "A player is eliminated at once with {n} vote.",
            "A player is eliminated at once with {n} votes.",
            need,
        ).format(n=need),
    ]
    for player, count in tally:
        lines.append(
            t.ngettext(
                "{player}: {n} vote ({voters})", "{player}: {n} votes ({voters})", count
            ).format(
                player=table.label(player),
                n=count,
                voters=table.labels((voters or {}).get(player, ()), t),
            )
            if voters
            else tally_lines(t, table, ((player, count),))
        )
    if closed:
        lines.append(t.gettext("The vote is closed."))
    else:
        lines.append(t.gettext("Tap a name to vote; tap again elsewhere to move your vote."))
    return "\n".join(lines)


def discussion(t: Translator, day: int, until: str) -> str:
    return t.gettext("☀️ Day {n} · free talk until {time}, then the ballot.").format(
        n=day, time=until
    )


def ballot(t: Translator, day: int, until: str, cast: int) -> str:
    return "\n".join(
        [
            t.gettext("🗳 Day {n} · the ballot is open until {time}.").format(n=day, time=until),
            t.gettext("Tap the player you want to eliminate; you may change your vote."),
            t.ngettext("{n} vote cast.", "{n} votes cast.", cast).format(n=cast)
            if cast
            else t.gettext("No vote cast yet."),
        ]
    )


def timer_note(t: Translator, change: TimerChange, seconds: int) -> str:
    match change:
        case TimerChange.PAUSED:
            return t.gettext("⏸ The host paused the timer.")
        case TimerChange.RESUMED:
            return t.gettext("▶️ The host resumed the timer.")
        case TimerChange.UNPAUSED:
            return t.gettext("▶️ The pause has run out: the timer runs again.")
        case TimerChange.EXTENDED:
            # TRANSLATORS: {length} is a length of time: "30 seconds".
            return t.gettext("⏱ The host added {length}.").format(length=duration(t, seconds))
        case _:
            assert_never(change)


def topic_closed_pause(t: Translator, title: str, limit: int) -> str:
    """In the forum's General topic: the game's topic was closed by someone else,
    and the bot may not reopen it."""
    # TRANSLATORS: {length} is a length of time: "30 minutes".
    return t.gettext(
        "⏸ The topic of the game in «{title}» was closed, and I may not reopen it: "
        "the game is paused until an administrator reopens the topic (or gives me the "
        "right to manage topics). If it stays closed for {length}, the game ends, unscored."
    ).format(title=escape(title), length=duration(t, limit))


def topic_reopened(t: Translator) -> str:
    """In the game's topic, reopened: the paused game goes on."""
    return t.gettext(
        "▶️ The topic is open again: the game goes on from where it stopped, "
        "with the time that was left."
    )

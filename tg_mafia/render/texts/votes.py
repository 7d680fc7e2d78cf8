"""The vote's words: the hand-raise vote (candidates, the count, the result, ties and
the decision), the open votes' live board and ballots, and who is eliminated."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from engine import Role
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.roles import role_label
from tg_mafia.render.texts.table import Table
from tg_mafia.render.texts.timefmt import duration


def vote_started(t: Translator, table: Table, candidates: tuple[str, ...], kind: str) -> str:
    if kind == "revote":
        head = t.gettext("✋ New vote, with no last word:")
    elif kind == "repeat":
        head = t.gettext("✋ The vote between the two is repeated.")
    elif kind == "tied":
        head = t.gettext("✋ After the re-speeches, the tied are voted on again:")
    else:
        head = t.gettext("✋ The vote. Candidates, in order:")
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
    outcome: str,
    tally: tuple[tuple[str, int], ...],
    target: str | None,
    players: tuple[str, ...],
    silent: tuple[str, ...] = (),
) -> str:
    lines = [t.gettext("🗳 The count:"), tally_lines(t, table, tally, silent)] if tally else []
    if outcome == "eliminated" and target:
        lines.append(t.gettext("{player} has the most votes.").format(player=table.label(target)))
    elif outcome == "revote":
        lines.append(
            t.gettext("A tie between {players}: they go to a new vote.").format(
                players=table.labels(players, t)
            )
        )
    elif outcome == "last_words":
        lines.append(
            t.gettext(
                "A tie between {players}: each has a last word, then the vote is repeated."
            ).format(players=table.labels(players, t))
        )
    elif outcome == "decide":
        lines.append(
            t.gettext("A tie again between {players}.").format(players=table.labels(players, t))
        )
    elif outcome == "respeeches":
        lines.append(
            t.gettext(
                "A tie between {players}: each has a re-speech, then they are voted on again."
            ).format(players=table.labels(players, t))
        )
    elif outcome == "lift":
        lines.append(
            t.gettext(
                "The same players are tied again: {players}. The lift vote decides whether "
                "they all leave."
            ).format(players=table.labels(players, t))
        )
    elif outcome == "table_split":
        lines.append(t.gettext("Everyone at the table is tied twice: nobody leaves today."))
    elif outcome == "decided" and target:
        lines = [
            t.gettext("The deciding vote falls on {player}.").format(player=table.label(target))
        ]
    elif outcome == "tie":
        lines.append(t.gettext("A tie: nobody is eliminated today."))
    elif outcome == "no_majority":
        lines.append(t.gettext("Nobody reached a majority in time: nobody is eliminated today."))
    else:
        lines.append(t.gettext("Nobody is eliminated today."))
    return "\n".join(lines)


def no_vote(t: Translator, table: Table, outcome: str, target: str | None) -> str:
    if outcome == "single_first_day" and target:
        return t.gettext(
            "Only {player} was nominated: on the first day that is not enough for "
            "a vote. Nobody is eliminated."
        ).format(player=table.label(target))
    if outcome == "single" and target:
        return t.gettext("Only {player} was nominated, and is eliminated without a vote.").format(
            player=table.label(target)
        )
    if outcome == "no_decider":
        return t.gettext("Nobody killed last night may break the tie: nobody is eliminated.")
    if outcome == "no_decision":
        return t.gettext("No deciding vote came in time: nobody is eliminated.")
    if outcome == "cancelled":
        return t.gettext("No vote today: a removal on fouls cancelled it.")
    return t.gettext("Nobody was nominated: nobody is eliminated today.")


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


def eliminated(t: Translator, table: Table, player: str, cause: str, role: Role | None) -> str:
    who = table.label(player)
    if role is not None:
        who = f"{who} ({role_label(t, role)})"
    if cause == "warnings":
        return t.gettext("🚫 {player} is out: too many warnings.").format(player=who)
    if cause == "fouls":
        return t.gettext("🚫 {player} is removed on fouls and leaves with no farewell.").format(
            player=who
        )
    if cause == "left":
        return t.gettext("🚪 {player} leaves the table.").format(player=who)
    if cause == "departed":
        return t.gettext("🚪 {player} left the group and is out of the game.").format(player=who)
    if cause == "idle":
        return t.gettext("💤 {player} is out: they let their turns pass with no move.").format(
            player=who
        )
    return t.gettext("⚰️ {player} is eliminated.").format(player=who)


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


def timer_note(t: Translator, outcome: str, seconds: int) -> str:
    if outcome == "paused":
        return t.gettext("⏸ The host paused the timer.")
    if outcome == "resumed":
        return t.gettext("▶️ The host resumed the timer.")
    if outcome == "unpaused":
        return t.gettext("▶️ The pause has run out: the timer runs again.")
    # TRANSLATORS: {length} is a length of time: "30 seconds".
    return t.gettext("⏱ The host added {length}.").format(length=duration(t, seconds))


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

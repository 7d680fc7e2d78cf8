"""Every word the bot shows, through the chat's translator.

Functions here build text only (HTML, every user-supplied name escaped by
`Table`); which message is sent or edited, and when, is the presenter's."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from engine import Role, Side
from engine.variants import VARIANTS, NightMove
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.names import person_name, seat_name
from tg_mafia.render.texts.table import Table
from tg_mafia.render.texts.timefmt import duration

# Variants whose players count the nights as clubs do: the engine's night 1 is
# their zero night, so that day N is followed by night N (RULES.md, sport,
# "Numbering as players say it"). The engine and the scenarios keep their count.
ZERO_NIGHT_VARIANTS = frozenset({"sport"})


def shown_night(variant: str, night: int) -> int:
    """The number players give the engine's night `night`."""
    return night - 1 if variant in ZERO_NIGHT_VARIANTS else night


def night_title(t: Translator, variant: str, night: int) -> str:
    """`Night 2`, or the zero night as sport players call it."""
    shown = shown_night(variant, night)
    if shown == 0:
        return t.gettext("Zero night")
    return t.gettext("Night {n}").format(n=shown)


def variant_name(t: Translator, variant: str) -> str:
    names = {
        "classic": t.gettext("Classic (Sleeping City)"),
        "moscow": t.gettext("Moscow rules"),
        "party": t.gettext("Party game"),
        "club": t.gettext("Club (sheriff, doctor, escort)"),
        "sport": t.gettext("Sport Mafia (FIIM)"),
    }
    return names.get(variant, variant)


def role_name(t: Translator, role: Role) -> str:
    names = {
        Role.CITIZEN: t.gettext("Citizen"),
        Role.MAFIA: t.gettext("Mafioso"),
        Role.GODFATHER: t.gettext("Godfather"),
        Role.DON: t.gettext("Don"),
        Role.DETECTIVE: t.gettext("Detective"),
        Role.SHERIFF: t.gettext("Sheriff"),
        Role.POLICE: t.gettext("Police officer"),
        Role.DOCTOR: t.gettext("Doctor"),
        Role.ESCORT: t.gettext("Escort"),
        Role.MANIAC: t.gettext("Maniac"),
    }
    return names[role]


ROLE_ICONS = {
    Role.CITIZEN: "🙂",
    Role.MAFIA: "🔫",
    Role.GODFATHER: "🎩",
    Role.DON: "🎩",
    Role.DETECTIVE: "🕵️",
    Role.SHERIFF: "🕵️",
    Role.POLICE: "👮",
    Role.DOCTOR: "🩺",
    Role.ESCORT: "💋",
    Role.MANIAC: "🔪",
}


def role_label(t: Translator, role: Role) -> str:
    return f"{ROLE_ICONS[role]} {role_name(t, role)}"


def side_name(t: Translator, side: Side) -> str:
    return {
        Side.TOWN: t.gettext("the town"),
        Side.MAFIA: t.gettext("the mafia"),
        Side.MANIAC: t.gettext("the maniac"),
        Side.DRAW: t.gettext("nobody (a draw)"),
    }[side]


def role_description(t: Translator, role: Role, variant: str) -> str:
    # The first night with a move where night 1 is quiet: night 2, sport's night 1.
    first = shown_night(variant, 2)
    if role is Role.CITIZEN:
        return t.gettext("You have no night move. By day, find the mafia and vote them out.")
    if role is Role.MAFIA:
        if variant in ("moscow", "club", "sport"):
            return t.gettext(
                "Each night from night {n} the mafia shoot: the shot lands only if every "
                "living mafioso picks the same player."
            ).format(n=first)
        if VARIANTS[variant].quiet_first_night:
            return t.gettext(
                "Each night from night {n} the mafia choose a victim together. Stay hidden by day."
            ).format(n=first)
        return t.gettext("Each night the mafia choose a victim together. Stay hidden by day.")
    if role is Role.GODFATHER:
        return t.gettext(
            "You lead the mafia: your choice breaks a tie between the mafiosi, and the "
            "detective reads you as not mafia."
        )
    if role is Role.DON:
        return t.gettext(
            "You lead the mafia. Each night from night {n} you shoot with them and may check "
            "one player: the bot tells you whether they are the sheriff."
        ).format(n=first)
    if (role is Role.DETECTIVE or role is Role.POLICE) and VARIANTS[variant].quiet_first_night:
        return t.gettext(
            "Each night from night {n} you may check one player: the bot tells you whether "
            "they are mafia."
        ).format(n=first)
    if role is Role.DETECTIVE or role is Role.POLICE:
        return t.gettext(
            "Each night you may check one player: the bot tells you whether they are mafia."
        )
    if role is Role.SHERIFF:
        return t.gettext(
            "Each night from night {n} you may check one player: the bot tells you whether "
            "they are mafia. The Don is hunting you: keep it quiet."
        ).format(n=first)
    if role is Role.DOCTOR and VARIANTS[variant].quiet_first_night:
        # Night 1 is quiet there: nobody is shot, so nobody is healed.
        return t.gettext(
            "Each night from night {n} you may heal one player, yourself included, but not "
            "the same player two nights in a row."
        ).format(n=first)
    if role is Role.DOCTOR:
        return t.gettext(
            "Each night you may heal one player, yourself included, but not the same "
            "player two nights in a row."
        )
    if role is Role.ESCORT:
        return t.gettext(
            "Each night from night {n} you may visit one player: the next day they may "
            "neither speak, nor nominate, nor vote."
        ).format(n=first)
    return t.gettext(
        "You play alone. Each night from night {n} you may kill one player. You win if you "
        "are the last one alive."
    ).format(n=first)


def your_role(t: Translator, role: Role, variant: str, title: str) -> str:
    return (
        t.gettext("Your role in «{title}»: <b>{role}</b>").format(
            title=escape(title), role=role_label(t, role)
        )
        + "\n"
        + role_description(t, role, variant)
    )


def family(t: Translator, table: Table, members: tuple[tuple[str, Role], ...]) -> str:
    listed = t.join(
        f"{table.label(p)} ({role_name(t, r)})" if r.is_boss else table.label(p) for p, r in members
    )
    return t.gettext("🤝 Your family: {players}.").format(players=listed)


def acquaintance(t: Translator) -> str:
    return t.gettext("The mafia meet tonight. Write here: every message goes to your family.")


def all_roles(t: Translator, table: Table, roles: tuple[tuple[str, Role], ...]) -> str:
    lines = [
        t.gettext("{player}: {role}").format(player=table.label(p), role=role_label(t, r))
        for p, r in roles
    ]
    return t.gettext("🎭 You host this game. The roles:") + "\n" + "\n".join(lines)


# ----- lobby -------------------------------------------------------------------


def lobby(
    t: Translator,
    variant: str,
    low: int,
    high: int,
    names: list[str],
    opener: str,
    until: str | None,
    host: str | None,
) -> str:
    if low == high:
        head = t.ngettext(
            "🎭 <b>Mafia</b> — {variant} · {n} player",
            "🎭 <b>Mafia</b> — {variant} · {n} players",
            low,
        ).format(variant=variant_name(t, variant), n=low)
    else:
        head = t.gettext("🎭 <b>Mafia</b> — {variant} · {low} to {high} players").format(
            variant=variant_name(t, variant), low=low, high=high
        )
    lines = [
        head,
        t.ngettext("Players ({n}):", "Players ({n}):", len(names)).format(n=len(names)),
    ]
    seats = (f"{i} · {escape(str(seat_name(n, i, t)))}" for i, n in enumerate(names, 1))
    lines.append("  ".join(seats) or "—")
    if host is not None:
        lines.append(t.gettext("Host: {name}").format(name=escape(person_name(host, t))))
    missing = max(0, low - len(names))
    if missing:
        lines.append(
            t.ngettext("{n} more player needed.", "{n} more players needed.", missing).format(
                n=missing
            )
        )
    if until:
        lines.append(
            t.gettext("Starts when {name} presses Start, or at {time}.").format(
                name=escape(opener), time=until
            )
        )
    else:
        lines.append(t.gettext("Starts when {name} presses Start.").format(name=escape(opener)))
    lines.append(t.gettext("Press Join: the bot opens a private chat to deal your role."))
    return "\n".join(lines)


def lobby_closed(t: Translator, reason: str) -> str:
    if reason == "started":
        return t.gettext("🎭 The game has started.")
    if reason == "no_host":
        return t.gettext(
            "🎭 The lobby closed: this group plays with a human host, and nobody sent /host."
        )
    if reason == "too_few":
        return t.gettext("🎭 The lobby closed: not enough players joined.")
    return t.gettext("🎭 The lobby was cancelled.")


# ----- night ---------------------------------------------------------------------


def night_started(t: Translator, variant: str, number: int, mask: str = "chat") -> str:
    """`mask`: what the masked night closes — the chat, the players' posts in
    every topic of a forum, the game's forum topic, or nothing (the bot may not:
    it only warns)."""
    # TRANSLATORS: {night} is "Night 2", or "Zero night" in sport.
    if mask == "forum":
        text = t.gettext(
            "🌙 <b>{night}.</b> The city sleeps. Until morning the players post nowhere "
            "in the group: night moves are made in private."
        )
    elif mask == "topic":
        text = t.gettext("🌙 <b>{night}.</b> The city sleeps. This topic is closed until morning.")
    elif mask == "none":
        text = t.gettext(
            "🌙 <b>{night}.</b> The city sleeps. Nobody posts until morning: night moves "
            "are made in private."
        )
    else:
        text = t.gettext("🌙 <b>{night}.</b> The city sleeps. The chat is closed until morning.")
    return text.format(night=night_title(t, variant, number))


def night_question(t: Translator, move: str, role: Role, variant: str, number: int) -> str:
    if move == "kill" and role is Role.MANIAC:
        question = t.gettext("whom do you kill?")
    elif move == "kill":
        question = t.gettext("whom do you shoot?")
    elif move == "check" and role is Role.DON:
        question = t.gettext("whom do you check for the sheriff?")
    elif move == "check":
        question = t.gettext("whom do you check?")
    elif move == "heal":
        question = t.gettext("whom do you heal?")
    else:
        question = t.gettext("whom do you visit?")
    return t.gettext("🌙 {night} — {question}").format(
        night=night_title(t, variant, number), question=question
    )


def night_final(t: Translator, table: Table, target: str | None) -> str:
    """A night prompt after dawn: what was chosen, no longer to change."""
    if target is None:
        return t.gettext("You did nothing that night.")
    return t.gettext("Your choice: {player}.").format(player=table.label(target))


def night_missed(t: Translator) -> str:
    return t.gettext("The night ended before you chose.")


def night_chosen(t: Translator, table: Table, target: str | None) -> str:
    if target is None:
        return t.gettext("You chose to do nothing tonight.")
    return t.gettext("Chosen: {player} (you may change until dawn).").format(
        player=table.label(target)
    )


def mafia_pick(t: Translator, table: Table, player: str, target: str | None) -> str:
    if target is None:
        return t.gettext("{player} holds fire tonight.").format(player=table.label(player))
    return t.gettext("{player} aims at {target}.").format(
        player=table.label(player), target=table.label(target)
    )


def plan_prompt(t: Translator) -> str:
    return t.gettext(
        "📝 As the Don, you may set the family's kill list for the coming nights: tap the "
        "players in order."
    )


def plan_set(t: Translator, table: Table, targets: tuple[str, ...]) -> str:
    if not targets:
        return t.gettext("📝 The Don has set no list.")
    return t.gettext("📝 The Don's list for the coming nights: {players}.").format(
        players=table.labels(targets, t)
    )


def host_night_move(
    t: Translator, table: Table, player: str, role: Role, move: str, target: str | None
) -> str:
    """The human host's copy of a night move."""
    who = table.label(player)
    if target is None:
        return t.gettext("🌙 {player} does nothing tonight ({role}).").format(
            player=who, role=role_name(t, role)
        )
    templates = {
        "kill": t.gettext("🌙 {player} ({role}) targets {target}."),
        "check": t.gettext("🌙 {player} ({role}) checks {target}."),
        "heal": t.gettext("🌙 {player} ({role}) heals {target}."),
        "block": t.gettext("🌙 {player} ({role}) visits {target}."),
    }
    return templates[move].format(player=who, role=role_name(t, role), target=table.label(target))


def host_note(t: Translator, table: Table, player: str, note: str) -> str:
    return t.gettext("{player}: {note}").format(player=table.label(player), note=note)


def host_ballot(t: Translator, table: Table, player: str, target: str | None) -> str:
    if target is None:
        return t.gettext("🗳 {player} withdraws their vote.").format(player=table.label(player))
    return t.gettext("🗳 {player} votes for {target}.").format(
        player=table.label(player), target=table.label(target)
    )


# A family message's own characters at most: with the group's and the sender's names in
# front, the relay stays under Telegram's 4,096 (group titles are at most 128).
RELAY_LIMIT = 3500


def group_tag(title: str) -> str:
    """The game's group, first on its private messages: a player may have played
    in several, and their private chat with the bot is one for all."""
    return f"🎭 <i>{escape(title)}</i>"


def mafia_message(t: Translator, table: Table, title: str, player: str, text: str) -> str:
    line = t.gettext("{player}: {note}").format(player=table.label(player), note=escape(text))
    return f"{group_tag(title)} · {line}"


# ----- morning ---------------------------------------------------------------------


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


def check_result(t: Translator, table: Table, target: str, answer: str) -> str:
    answers = {
        "mafia": t.gettext("🔎 {player} is <b>mafia</b>."),
        "not mafia": t.gettext("🔎 {player} is <b>not mafia</b>."),
        "sheriff": t.gettext("🔎 {player} is <b>the sheriff</b>."),
        "not sheriff": t.gettext("🔎 {player} is <b>not the sheriff</b>."),
    }
    return answers[answer].format(player=table.label(target))


def blocked(t: Translator, table: Table, player: str) -> str:
    return t.gettext(
        "💋 {player} spent the night with the escort: no speech, nomination or vote today."
    ).format(player=table.label(player))


# ----- the floor --------------------------------------------------------------------


def floor_head(t: Translator, stage: str, mode: str, day: int) -> str:
    """What kind of floor it is: each is announced as such."""
    if stage == "intro":
        return t.gettext("🎙 Day {n} · introductions").format(n=day)
    if stage == "farewell":
        return t.gettext("🕊 Day {n} · farewell minute").format(n=day)
    if mode == "respeech":
        return t.gettext("🎙 Day {n} · re-speech of the tied").format(n=day)
    if stage == "last_word":
        return t.gettext("🎙 Day {n} · last word").format(n=day)
    if mode == "silent":
        return t.gettext("🤐 Day {n} · silent speech (third foul)").format(n=day)
    if mode == "short":
        return t.gettext("🎙 Day {n} · short speech (third foul)").format(n=day)
    return t.gettext("🎙 Day {n} · speeches").format(n=day)


def floor(
    t: Translator,
    table: Table,
    stage: str,
    day: int,
    speaker: str,
    seconds: int,
    until: str,
    nominees: tuple[str, ...],
    following: str | None = None,
    mode: str = "normal",
) -> str:
    # TRANSLATORS: {time} is the time left, which the reader's app shows and counts
    # down in their language: "in 45 seconds".
    # {length} is the floor's length: "60 seconds", "3 minutes".
    if mode == "silent":
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
    if stage == "speech" and nominees:
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


def warning_reason(t: Translator, reason: str) -> str:
    return {
        "night": t.gettext("posted at night"),
        "during_vote": t.gettext("posted during the vote"),
        "after_floor": t.gettext("posted after their speech"),
        "blocked": t.gettext("posted while blocked for the day"),
        "out_of_turn": t.gettext("posted out of turn"),
        "host": t.gettext("warned by the host"),
        "silent": t.gettext("posted during their silent speech"),
    }.get(reason, t.gettext("posted out of turn"))


def warned(t: Translator, table: Table, player: str, count: int, limit: int, reason: str) -> str:
    why = warning_reason(t, reason)
    if limit:
        return t.gettext("⚠️ {player}: warning {count}/{limit} — {reason}.").format(
            player=table.label(player), count=count, limit=limit, reason=why
        )
    return t.gettext("⚠️ {player}: warning {count} — {reason}.").format(
        player=table.label(player), count=count, reason=why
    )


# ----- the hand-raise vote -------------------------------------------------------------


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


# ----- the end --------------------------------------------------------------------------


def winner_line(t: Translator, side: Side) -> str:
    return {
        Side.TOWN: t.gettext("🏙 <b>The town wins!</b>"),
        Side.MAFIA: t.gettext("🔫 <b>The mafia wins!</b>"),
        Side.MANIAC: t.gettext("🔪 <b>The maniac wins!</b>"),
        Side.DRAW: t.gettext("🤝 <b>A draw: nobody wins.</b>"),
    }[side]


def end_screen(
    t: Translator,
    table: Table,
    side: Side | None,
    roles: tuple[tuple[str, Role], ...],
    dead: set[str],
    notes: tuple[str, ...] = (),
    reason: str = "decided",
) -> str:
    """The winner (None: the game ended unscored, for `reason`: abandoned or
    suspended), every role by side, and `notes` (sport's best move) before the
    goodbye."""
    groups: dict[Side, list[str]] = {Side.MAFIA: [], Side.TOWN: [], Side.MANIAC: []}
    for player, role in roles:
        mark = " ☠" if player in dead else ""
        groups[role.side].append(f"{table.label(player)} {role_label(t, role)}{mark}")
    titles = {
        Side.MAFIA: t.gettext("Mafia:"),
        Side.TOWN: t.gettext("Town:"),
        Side.MANIAC: t.gettext("Maniac:"),
    }
    if side is not None:
        lines = [winner_line(t, side)]
    else:
        lines = [suspended_line(t) if reason == "suspended" else abandoned_line(t)]
    for group in (Side.MAFIA, Side.TOWN, Side.MANIAC):
        if groups[group]:
            lines.append(f"<b>{titles[group]}</b> " + t.join(groups[group]))
    lines.extend(notes)
    lines.append(t.gettext("Well played."))
    return "\n".join(lines)


def abandoned_line(t: Translator) -> str:
    return t.gettext(
        "🕸 <b>Nobody played for a whole day and night: the game is abandoned.</b> "
        "Nobody wins, and it does not count in the statistics."
    )


def suspended_line(t: Translator) -> str:
    """The game ended at the limit of its pause: its topic stayed closed."""
    return t.gettext(
        "🔒 <b>The game's topic stayed closed too long: the game is over.</b> "
        "Nobody wins, and it does not count in the statistics."
    )


def idle_reminder(t: Translator, title: str, left: int) -> str:
    """In private, after one of the player's own turns passed with no move."""
    return t.ngettext(
        "💤 Your turn in «{title}» passed with no move from you. "
        "{n} more such turn in a row and you are out of the game.",
        "💤 Your turn in «{title}» passed with no move from you. "
        "{n} more such turns in a row and you are out of the game.",
        left,
    ).format(title=escape(title), n=left)


def own_result(t: Translator, won: bool, side: Side, role: Role) -> str:
    """A whole sentence per side: inflected languages cannot drop a side's
    name into one template."""
    if side is Side.DRAW:
        return t.gettext("🤝 The game is a draw: nobody won ({role}).").format(
            role=role_name(t, role)
        )
    if won:
        text = {
            Side.TOWN: t.gettext("🏆 The town won, and so did you ({role})."),
            Side.MAFIA: t.gettext("🏆 The mafia won, and so did you ({role})."),
            Side.MANIAC: t.gettext("🏆 You won: you are the last one standing."),
        }[side]
    else:
        text = {
            Side.TOWN: t.gettext("The town won; you lost this time ({role})."),
            Side.MAFIA: t.gettext("The mafia won; you lost this time ({role})."),
            Side.MANIAC: t.gettext("The maniac won; you lost this time ({role})."),
        }[side]
    return text.format(role=role_name(t, role))


def confirm_request(t: Translator, side: Side) -> str:
    if side is Side.DRAW:
        return t.gettext("🏁 By the rules, the game is a draw. Confirm the end of the game?")
    return t.gettext("🏁 By the rules, {side} has won. Confirm the end of the game?").format(
        side=side_name(t, side)
    )


# ----- buttons and popups -----------------------------------------------------------------


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

"""/rules: a compact but complete summary of a variant, in the chat's
language, built from the engine's data (decks, night moves, day mode,
options) where it can be."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine import Role, find_variant, resolve_options
from engine.errors import SetupError
from engine.fouls import SILENCING_FOUL
from engine.options import OptionValue, option_specs
from engine.variants import DayMode, NightMove, Rotation, ShotMode, TieMode, Variant
from tg_mafia.i18n import Translator
from tg_mafia.render import texts
from tg_mafia.render.texts.options import option_line
from tg_mafia.render.texts.timefmt import duration

Options = Mapping[str, OptionValue]
# The order roles are listed in: the mafia's boss first, the town's citizens left out.
ROLE_ORDER = tuple(sorted((r for r in Role if r is not Role.CITIZEN), key=lambda r: not r.is_boss))


# ----- the text -----------------------------------------------------------------------


def rules(t: Translator, name: str, options: Options) -> str:
    variant = find_variant(name)
    if variant.min_players == variant.max_players:
        title = t.ngettext(
            "📖 <b>{variant}</b> · exactly {n} player",
            "📖 <b>{variant}</b> · exactly {n} players",
            variant.min_players,
        ).format(variant=texts.variant_name(t, name), n=variant.min_players)
    else:
        title = t.gettext("📖 <b>{variant}</b> · {low} to {high} players").format(
            variant=texts.variant_name(t, name), low=variant.min_players, high=variant.max_players
        )
    sections = [
        title,
        _section(t.gettext("Roles"), role_lines(t, variant, options)),
        _section(t.gettext("Night"), night_lines(t, variant, options)),
        _section(t.gettext("Day"), day_lines(t, variant, options)),
        _section(t.gettext("Win"), win_lines(t, name, options)),
        _section(t.gettext("Options in force"), option_lines(t, name, options)),
    ]
    return "\n\n".join(sections)


def _section(title: str, lines: list[str]) -> str:
    return "\n".join([f"<b>{title}</b>", *lines])


def _deck_key(deck: Counter[Role]) -> tuple[tuple[Role, int], ...]:
    return tuple((role, deck[role]) for role in ROLE_ORDER if deck[role])


def role_lines(t: Translator, variant: Variant, options: Options) -> list[str]:
    """One line per run of player counts dealt the same special roles."""
    runs: list[tuple[int, int, tuple[tuple[Role, int], ...]]] = []
    for players in range(variant.min_players, variant.max_players + 1):
        key = _deck_key(variant.deck(players, options))
        if runs and runs[-1][2] == key:
            runs[-1] = (runs[-1][0], players, key)
        else:
            runs.append((players, players, key))
    lines = []
    for low, high, key in runs:
        count = f"{low}–{high}" if high > low else str(low)
        special = sum(n for _, n in key)
        roles = t.join(texts.role_label(t, role) + (f" ×{n}" if n > 1 else "") for role, n in key)
        citizens = f"{low - special}–{high - special}" if high > low else str(low - special)
        lines.append(
            t.ngettext(
                "{count} player: {roles}; citizens: {citizens}",
                "{count} players: {roles}; citizens: {citizens}",
                high,
            ).format(count=count, roles=roles, citizens=citizens)
        )
    return lines


def move_phrase(t: Translator, role: Role, move: NightMove) -> str:
    if move is NightMove.KILL:
        return t.gettext("kills a player") if role is Role.MANIAC else t.gettext("shoots")
    if move is NightMove.CHECK:
        if role is Role.DON:
            return t.gettext("checks a player: sheriff or not")
        return t.gettext("checks a player: mafia or not")
    if move is NightMove.HEAL:
        return t.gettext("heals a player (themselves too, not the same one twice in a row)")
    return t.gettext("blocks a player: no speech, nomination or vote the next day")


def night_lines(t: Translator, variant: Variant, options: Options) -> list[str]:
    lines = []
    zero = variant.zero_night  # night 1 is called the zero night
    if variant.sheriff_seen_first_night:
        lines.append(
            t.gettext(
                "The zero night: no kill and no check; the mafia agree on their plan, and the "
                "judge sees the sheriff, whose checks begin on night 1."
            )
        )
    elif variant.quiet_first_night:
        lines.append(t.gettext("Night 1: no kill and no check; the mafia meet."))
    else:
        lines.append(t.gettext("Every night has a kill, night 1 included."))
    shots = {
        ShotMode.MOST_CHOSEN_BOSS_BREAKS: t.gettext(
            "The mafia's target is the player most of them chose; the Godfather breaks a tie."
        ),
        ShotMode.MOST_CHOSEN: t.gettext(
            "The mafia's target is the player most of them chose; a tie kills nobody."
        ),
        ShotMode.UNANIMOUS: t.gettext(
            "The shot lands only if every living mafioso picks the same player; "
            "otherwise the mafia miss."
        ),
    }
    lines.append(shots[variant.shot_mode])
    lines += _family_lines(t, variant, zero)
    roles: set[Role] = set()
    for players in range(variant.min_players, variant.max_players + 1):
        roles.update(variant.deck(players, options))
    for role in ROLE_ORDER:
        moves = variant.role_moves(role) if role in roles else ()
        if moves:
            phrases = t.join(move_phrase(t, role, move) for move in moves)
            lines.append(
                t.gettext("{role}: {moves}").format(role=texts.role_label(t, role), moves=phrases)
            )
    if Role.DOCTOR in roles:
        lines.append(
            t.gettext(
                "Moves are made with buttons in private. At dawn: heals first, then kills, "
                "then checks."
            )
        )
        lines.append(t.gettext("Nobody but the doctor may choose themselves."))
    else:
        lines.append(
            t.gettext("Moves are made with buttons in private. At dawn: kills first, then checks.")
        )
        lines.append(t.gettext("Nobody may choose themselves."))
    return lines


def _family_lines(t: Translator, variant: Variant, zero: bool) -> list[str]:
    """When the mafia talk through the bot, and whether the Don sets a kill list."""
    lines = []
    if variant.mafia_chat_every_night:
        lines.append(t.gettext("The mafia talk in private through the bot every night."))
    elif variant.mafia_chat_open(1) and zero:
        lines.append(t.gettext("The mafia talk in private through the bot on the zero night only."))
    elif variant.mafia_chat_open(1):
        lines.append(t.gettext("The mafia talk in private through the bot on night 1 only."))
    if variant.has_plan and zero:
        lines.append(
            t.gettext("On the zero night the Don may set a kill list for the coming nights.")
        )
    elif variant.has_plan:
        lines.append(t.gettext("On night 1 the Don may set a kill list for the coming nights."))
    return lines


def day_lines(t: Translator, variant: Variant, options: Options) -> list[str]:
    # Each timer as the language says a length of time: {speech_time} is "60 seconds".
    lengths: dict[str, Any] = {
        k.removesuffix("_seconds") + "_time": duration(t, int(v))
        for k, v in options.items()
        if k.endswith("_seconds")
    }
    lines = []
    if variant.day_mode is DayMode.LIVE_VOTE:
        lines.append(
            t.gettext(
                "Free talk and a live vote for {day_time}: each living player votes for "
                "another and may move or withdraw the vote. Votes from more than half the "
                "living put a player out at once; with no majority in time, nobody is out."
            ).format(**lengths)
        )
    elif variant.day_mode is DayMode.BALLOT:
        lines.append(
            t.gettext(
                "Free talk for {day_time}, then a ballot for {ballot_time}: each "
                "living player votes for one other. The most votes are out; a tie puts "
                "nobody out."
            ).format(**lengths)
        )
    else:
        lines.extend(_speech_day_lines(t, variant, options, lengths))
    if options.get("reveal_roles"):
        lines.append(t.gettext("A player's role is shown when they die."))
    else:
        lines.append(t.gettext("Roles are shown only at the end."))
    return lines


def _speech_day_lines(
    t: Translator, variant: Variant, options: Options, lengths: dict[str, Any]
) -> list[str]:
    lines = []
    if variant.starts_with_day:
        lines.append(
            t.gettext(
                "Day 1: each player introduces themselves for {intro_time}, in seating "
                "order. No nomination, no vote."
            ).format(**lengths)
        )
    lines.append(
        t.gettext(
            "From day {n}: each living player speaks for {speech_time} in seating order "
            "and may nominate one player. Only the speaker may write."
        ).format(n=variant.first_speech_day, **lengths)
    )
    if variant.rotation is Rotation.AFTER_OPENER:
        lines.append(
            t.gettext(
                "Day 1 opens at seat 1; each later day at the first living seat after the one "
                "that opened the day before."
            )
        )
    if variant.has_farewells:
        lines.append(
            t.gettext(
                "Farewell minute ({speech_time}): the player killed in the night speaks "
                "first in the morning; those voted out speak before night falls."
            ).format(**lengths)
        )
    if variant.has_best_move:
        lines.append(
            t.gettext(
                "Best move: the player killed on night {n}, the first night with a shot, names "
                "up to three players they believe are black, during the farewell. It is shown "
                "and recorded, and changes nothing. None if the mafia miss that night, or if "
                "two or more players left by day 1's vote."
            ).format(n=texts.shown_night(variant.name, 2))
        )
    lines.append(
        t.gettext(
            "The vote: the bot counts raised hands for each nominee in turn "
            "({vote_count_time} each); whoever has not voted goes to the last one. The "
            "most votes are out. On day {n} a single nominee is not enough for a vote; "
            "later, a single nominee is out."
        ).format(n=variant.first_speech_day, **lengths)
    )
    if variant.tie_mode is TieMode.LIFT:
        lines.append(
            t.gettext(
                "Ties: each tied player has a re-speech ({last_word_time}), then they are "
                "voted on again. If the same players tie again, the lift vote: if more than half "
                "of the living raise a hand, they all leave; otherwise they all stay."
            ).format(**lengths)
        )
    else:
        lines.append(
            t.gettext(
                "Ties: more than two leaders vote again; two tied players each get a last word "
                "({last_word_time}) and the vote is repeated; a tie again is decided by the "
                "town player killed last night."
            ).format(**lengths)
        )
    limit = int(options.get("warnings_limit", 0))
    if variant.has_fouls:
        lines.extend(_foul_lines(t, limit))
    elif variant.has_warnings and limit:
        lines.append(
            t.ngettext(
                "A post out of turn or at night earns a warning; at {n} warning a player is out.",
                "A post out of turn or at night earns a warning; at {n} warnings a player is out.",
                limit,
            ).format(n=limit)
        )
    elif variant.has_warnings:
        lines.append(
            t.gettext(
                "A post out of turn or at night earns a warning; warnings never put a player out."
            )
        )
    if variant.has_thanks_word and options.get("thanks_rule"):
        lines.append(
            t.gettext("The thanks rule: a speaker who says “thank you” ends their turn at once.")
        )
    if variant.has_leave_table:
        lines.append(
            t.gettext(
                "With two candidates, either may leave the table during the first count: "
                "then both are out."
            )
        )
    return lines


def _foul_lines(t: Translator, limit: int) -> list[str]:
    lines = [
        t.gettext(
            "A post out of turn, at night or during one's silent speech earns a foul; so does "
            "a warning of the host."
        )
    ]
    if not limit or limit > SILENCING_FOUL:
        lines.append(
            t.gettext(
                "The third foul makes the player's next speech silent: nominate or pass only."
            )
        )
    if limit:
        lines.append(
            t.ngettext(
                "At {n} foul the player is removed at once, with no farewell, and a vote is "
                "cancelled: the running one, else the day's, else the next day's.",
                "At {n} fouls the player is removed at once, with no farewell, and a vote is "
                "cancelled: the running one, else the day's, else the next day's.",
                limit,
            ).format(n=limit)
        )
    else:
        lines.append(t.gettext("Fouls never remove a player."))
    return lines


def win_lines(t: Translator, name: str, options: Options) -> list[str]:
    lines = [
        t.gettext(find_variant(name).win_summary),
        t.gettext("A side wins as a whole, its dead members included."),
    ]
    if options.get("host") == "human":
        lines.append(t.gettext("The human host confirms the winner before the end."))
    return lines + idle_lines(t, options)


def idle_lines(t: Translator, options: Options) -> list[str]:
    """Idle players (the bot as host) and abandoned games."""
    lines = []
    limit = int(options.get("idle_limit", 0))
    if limit and options.get("host") != "human":
        lines.append(
            t.ngettext(
                "A player who lets {n} of their own turns in a row pass with no move "
                "(a speech, a night move) is out.",
                "A player who lets {n} of their own turns in a row pass with no move "
                "(a speech, a night move) is out.",
                limit,
            ).format(n=limit)
        )
    lines.append(
        t.gettext(
            "A game in which no player acts for a whole day and night is abandoned: "
            "nobody wins, and it does not count."
        )
    )
    return lines


def option_lines(t: Translator, name: str, options: Options) -> list[str]:
    return [
        " · ".join(
            option_line(t, spec, options[spec.name], name)
            for spec in option_specs(name)
            if spec.name in options
        )
    ]


def safe_options(variant: str, given: Mapping[str, Any]) -> dict[str, OptionValue]:
    try:
        return resolve_options(variant, given)
    except SetupError:
        return resolve_options(variant, {})

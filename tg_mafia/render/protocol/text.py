"""The protocol as messages in the group's language (HTML, names escaped),
built from the game's own announcements where they say the same thing."""

from __future__ import annotations

from html import escape
from typing import assert_never

from engine import Cause, VoteRound, find_variant, variants
from engine.vocab import CheckAnswer, EndReason, MoveResult, NoVoteReason, VoteOutcome
from tg_mafia.i18n import Translator
from tg_mafia.render import texts
from tg_mafia.render.fate import Fate
from tg_mafia.render.pictures.table import fate_text, when_badge, winner_title
from tg_mafia.render.protocol.model import (
    BestMove,
    LiftOutcome,
    NightMove,
    Phase,
    Protocol,
    Round,
    Vote,
    VoteKind,
)
from tg_mafia.render.texts import sport as sport_texts
from tg_mafia.render.texts.names import person_name
from tg_mafia.render.texts.table import Table

MAX_MESSAGE = 4096


def protocol_text(protocol: Protocol, t: Translator) -> list[str]:
    """The protocol in messages of at most MAX_MESSAGE characters, each cut
    between two sections (or two lines of a long one)."""
    table = Table(
        tuple(s.player for s in protocol.seats), {s.player: s.name for s in protocol.seats}, t
    )
    sections = [_head(protocol, t, table)]
    sections += [_round(protocol, t, table, item) for item in protocol.rounds]
    return _pack(sections)


def result_line(t: Translator, protocol: Protocol) -> str:
    if protocol.reason is EndReason.SUSPENDED:
        return texts.suspended_line(t)
    if protocol.winner is None:
        return f"🤝 <b>{escape(winner_title(t, None))}</b>"
    return texts.winner_line(t, protocol.winner)


def _head(protocol: Protocol, t: Translator, table: Table) -> str:
    count = len(protocol.seats)
    lines = [
        t.gettext("📜 <b>Protocol</b> of the game in «{title}»").format(
            title=escape(protocol.title)
        ),
        texts.variant_name(t, protocol.variant)
        + " · "
        + t.ngettext("{n} player", "{n} players", count).format(n=count),
    ]
    if protocol.host is not None:  # "" : a host whose name shows nothing
        host = person_name(protocol.host, t)
        lines.append(t.gettext("Host: {name}").format(name=escape(host)))
    lines.append(result_line(t, protocol))
    lines.append("")
    for seat in protocol.seats:
        fate = Fate(seat.fate.value)
        line = f"{table.label(seat.player)} — {texts.role_label(t, seat.role)} — "
        line += fate_text(t, fate)
        badge = when_badge(fate, seat.when.number if seat.when else None, protocol.variant)
        if badge:
            line += f" {badge}"
        if seat.warnings:
            line += " · ⚠️ " + _warning_count(t, protocol, seat.warnings)
        if seat.won:
            line += " 🏆"
        lines.append(line)
    return "\n".join(lines)


def _warning_count(t: Translator, protocol: Protocol, count: int) -> str:
    """A seat's warnings (sport: fouls), counted in words."""
    if find_variant(protocol.variant).has_fouls:
        return t.ngettext("{n} foul", "{n} fouls", count).format(n=count)
    return t.ngettext("{n} warning", "{n} warnings", count).format(n=count)


def _round(protocol: Protocol, t: Translator, table: Table, item: Round) -> str:
    if item.phase is Phase.NIGHT:
        night = texts.night_title(t, protocol.variant, item.number)
        lines = [t.gettext("🌙 <b>{night}</b>").format(night=night)]
        lines += _night(t, table, item, texts.quiet_night(protocol.variant, item.number))
    else:
        lines = _day(protocol, t, table, item)
    lines += _sanctions(protocol, t, table, item)
    lines += [texts.timer_note(t, note.change, note.seconds) for note in item.timer]
    return "\n".join(lines)


def _day(protocol: Protocol, t: Translator, table: Table, item: Round) -> list[str]:
    lines = [t.gettext("☀️ <b>Day {n}</b>").format(n=item.number)]
    # sport: the night's victim says farewell first (with the best move), those the
    # vote put out after it.
    killed = {s.player for s in protocol.seats if s.fate is Fate.KILLED}
    lines += [_farewell(t, table, p) for p in item.farewells if p in killed]
    if item.best_move is not None:
        lines.append(_best_move(t, table, item.best_move))
    lines += [texts.nominated(t, table, by, target) for by, target in item.nominations]
    for vote in item.votes:
        lines += _vote(t, table, vote)
    lines += [_farewell(t, table, p) for p in item.farewells if p not in killed]
    return lines


def _sanctions(protocol: Protocol, t: Translator, table: Table, item: Round) -> list[str]:
    """The round's warnings (sport: fouls) and who left the table other than killed."""
    roles = {s.player: s.role for s in protocol.seats}
    limit = int(protocol.options.get("warnings_limit", 0) or 0)
    if find_variant(protocol.variant).has_fouls:
        lines = [
            sport_texts.fouled(t, table, w.player, w.count, limit, w.reason, w.effect)
            for w in item.warnings
        ]
    else:
        lines = [texts.warned(t, table, w.player, w.count, limit, w.reason) for w in item.warnings]
    lines += [
        texts.eliminated(t, table, e.player, e.cause, roles[e.player])
        for e in item.eliminations
        if e.cause is not Cause.KILLED
    ]
    return lines


def _night(t: Translator, table: Table, item: Round, quiet: bool) -> list[str]:
    lines = [_night_move(t, table, m) for m in item.moves]
    if item.plan is not None:
        lines.append(texts.plan_set(t, table, item.plan))
    # The morning's own words for the night's deaths, without its heading.
    dawn = texts.day_started(t, table, item.number, item.killed, {}, item.missed, quiet=quiet)
    lines += dawn.split("\n")[1:]
    if item.blocked is not None:
        lines.append(texts.blocked(t, table, item.blocked))
    return lines


def _night_move(t: Translator, table: Table, move: NightMove) -> str:
    """The move as the host saw it, then what came of it: a check's answer,
    whether a shot killed, whether a heal saved a life."""
    who, role = table.label(move.player), texts.role_name(t, move.role)
    if move.target is None:
        return _no_target(t, move).format(player=who, role=role)
    line = texts.host_night_move(t, table, move.player, move.role, move.move, move.target)
    if isinstance(move.result, CheckAnswer):
        return f"{line} {texts.check_result(t, table, move.target, move.result)}"
    result = _move_result(t, move.move, move.result)
    return line if result is None else f"{line} {result}"


def _move_result(t: Translator, move: variants.NightMove, result: MoveResult) -> str | None:
    """What came of a move with a target, where the host's copy does not say it."""
    match result:
        case MoveResult.KILLED:
            return t.gettext("The shot hit.")
        case MoveResult.MISSED:
            return t.gettext("The mafia missed.")
        case MoveResult.OUTVOTED:
            return t.gettext("The family chose another target.")
        case MoveResult.GONE:
            return t.gettext("This player had already left the game.")
        case MoveResult.SAVED if move is variants.NightMove.KILL:
            return t.gettext("The doctor saved this player.")
        case MoveResult.SAVED:
            return t.gettext("The heal saved a life.")
        case MoveResult.NO_SHOT:
            return t.gettext("Nobody shot this player.")
        case MoveResult.BLOCKED | MoveResult.SKIPPED | MoveResult.NO_CHOICE:
            return None
        case _:
            assert_never(result)


def _no_target(t: Translator, move: NightMove) -> str:
    """A move with no target: skipped, or not chosen before the night ended."""
    late = move.result is MoveResult.NO_CHOICE
    match move.move:
        case variants.NightMove.KILL if late:
            return t.gettext("🌙 {player} ({role}) did not shoot: no choice in time.")
        case variants.NightMove.CHECK if late:
            return t.gettext("🌙 {player} ({role}) checked nobody: no choice in time.")
        case variants.NightMove.HEAL if late:
            return t.gettext("🌙 {player} ({role}) healed nobody: no choice in time.")
        case variants.NightMove.BLOCK if late:
            return t.gettext("🌙 {player} ({role}) visited nobody: no choice in time.")
        case variants.NightMove.KILL:
            return t.gettext("🌙 {player} ({role}) chose not to shoot.")
        case variants.NightMove.CHECK:
            return t.gettext("🌙 {player} ({role}) chose to check nobody.")
        case variants.NightMove.HEAL:
            return t.gettext("🌙 {player} ({role}) chose to heal nobody.")
        case variants.NightMove.BLOCK:
            return t.gettext("🌙 {player} ({role}) chose to visit nobody.")
        case _:
            assert_never(move.move)


def _farewell(t: Translator, table: Table, player: str) -> str:
    return t.gettext("🕊 Farewell minute: {player}").format(player=table.label(player))


def _best_move(t: Translator, table: Table, best: BestMove) -> str:
    if best.targets:
        return sport_texts.best_move_made(t, table, best.player, best.targets)
    return t.gettext("🎯 {player} made no best move.").format(player=table.label(best.player))


def _vote(t: Translator, table: Table, vote: Vote) -> list[str]:
    match vote.kind:
        case VoteKind.NONE:
            return _no_vote(t, table, vote)
        case VoteKind.DECIDE:
            return _decided(t, table, vote)
        case VoteKind.LIVE:
            return _live_vote(t, table, vote)
        case VoteKind.BALLOT:
            return _ballot(t, table, vote)
        case VoteKind.LIFT:
            return _lift_vote(t, table, vote)
        case VoteRound():
            return _hand_vote(t, table, vote, vote.kind)
        case _:
            assert_never(vote.kind)


def _reason(vote: Vote) -> NoVoteReason:
    """Why no vote was held: an outcome of another kind reads as no nominee."""
    return vote.outcome if isinstance(vote.outcome, NoVoteReason) else NoVoteReason.NO_NOMINEE


def _outcome(vote: Vote) -> VoteOutcome:
    """How the vote ended: an outcome of another kind (or none) reads as nobody."""
    return vote.outcome if isinstance(vote.outcome, VoteOutcome) else VoteOutcome.NOBODY


def _leaders(vote: Vote) -> tuple[str, ...]:
    top = max((n for _, n in vote.tally), default=0)
    return tuple(c for c, n in vote.tally if n == top)


def _target(vote: Vote) -> str | None:
    return vote.eliminated[0] if vote.eliminated else None


def _no_vote(t: Translator, table: Table, vote: Vote) -> list[str]:
    first = vote.candidates[0] if vote.candidates else None
    return [texts.no_vote(t, table, _reason(vote), first)]


def _decided(t: Translator, table: Table, vote: Vote) -> list[str]:
    lines = [
        t.gettext("⚖️ {player} casts the deciding vote.").format(
            player=table.label(vote.decider or "")
        )
    ]
    target = _target(vote)
    if vote.outcome is VoteOutcome.DECIDED and target is not None:
        lines.append(texts.vote_result(t, table, VoteOutcome.DECIDED, (), target, ()))
    elif vote.outcome is not None:
        lines.append(texts.no_vote(t, table, _reason(vote), None))
    return lines


def _live_vote(t: Translator, table: Table, vote: Vote) -> list[str]:
    lines = [t.gettext("✋ The live vote:")]
    lines += [
        t.ngettext(
            "{player}: {n} vote ({voters})", "{player}: {n} votes ({voters})", len(c.voters)
        ).format(player=table.label(c.candidate), n=len(c.voters), voters=table.labels(c.voters, t))
        for c in vote.counts
    ]
    if vote.outcome not in (None, VoteOutcome.ELIMINATED):
        lines.append(texts.vote_result(t, table, _outcome(vote), (), None, _leaders(vote)))
    return lines


def _ballot(t: Translator, table: Table, vote: Vote) -> list[str]:
    outcome = _outcome(vote)
    return [texts.vote_result(t, table, outcome, vote.tally, _target(vote), _leaders(vote))]


def _lift_vote(t: Translator, table: Table, vote: Vote) -> list[str]:
    leave = vote.outcome is LiftOutcome.LEAVE
    living = vote.living or 0
    return [sport_texts.lift_result(t, table, vote.candidates, vote.voters, living, leave)]


def _hand_vote(t: Translator, table: Table, vote: Vote, round_: VoteRound) -> list[str]:
    """A hand-raise vote (again after a tie, a new or repeated one): each candidate's
    hands, the silent counted for the last one, and the outcome."""
    lines = [_hand_head(t, table.labels(vote.candidates, t), round_)]
    lines += [texts.count_result(t, table, c.candidate, c.voters) for c in vote.counts]
    if vote.silent and vote.counts:
        lines.append(
            t.gettext("Raised no hand, so counted for {player}: {players}").format(
                player=table.label(vote.counts[-1].candidate), players=table.labels(vote.silent, t)
            )
        )
    if vote.outcome is NoVoteReason.CANCELLED:
        lines.append(texts.no_vote(t, table, NoVoteReason.CANCELLED, None))
    elif vote.outcome is not None:
        # The counts above show every hand: the result's own tally would repeat them.
        lines.append(texts.vote_result(t, table, _outcome(vote), (), _target(vote), _leaders(vote)))
    return lines


def _hand_head(t: Translator, names: str, round_: VoteRound) -> str:
    match round_:
        case VoteRound.TIED:
            return t.gettext("✋ After the re-speeches, the tied are voted on again:") + " " + names
        case VoteRound.REVOTE:
            return t.gettext("✋ New vote: {players}").format(players=names)
        case VoteRound.REPEAT:
            return t.gettext("✋ Repeated vote: {players}").format(players=names)
        case VoteRound.FIRST:
            return t.gettext("✋ Vote: {players}").format(players=names)
        case _:
            assert_never(round_)


def _pack(sections: list[str]) -> list[str]:
    messages: list[str] = []
    current = ""
    for section in sections:
        for piece in _pieces(section):
            joined = f"{current}\n\n{piece}" if current else piece
            if len(joined) <= MAX_MESSAGE:
                current = joined
                continue
            messages.append(current)
            current = piece
    if current:
        messages.append(current)
    return messages


def _pieces(section: str) -> list[str]:
    """A section that fits one message, or its lines packed into several."""
    if len(section) <= MAX_MESSAGE:
        return [section]
    pieces: list[str] = []
    current = ""
    for line in section.split("\n"):
        line = line[:MAX_MESSAGE]
        joined = f"{current}\n{line}" if current else line
        if len(joined) <= MAX_MESSAGE:
            current = joined
        else:
            pieces.append(current)
            current = line
    if current:
        pieces.append(current)
    return pieces

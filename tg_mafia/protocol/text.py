"""The protocol as messages in the group's language (HTML, names escaped),
built from the game's own announcements where they say the same thing."""

from __future__ import annotations

from html import escape

from engine import find_variant
from tg_mafia.bot import sport_texts, texts
from tg_mafia.bot.names import person_name
from tg_mafia.bot.table import Table
from tg_mafia.fate import Fate
from tg_mafia.i18n import Translator
from tg_mafia.pictures.table import fate_text, when_badge, winner_title
from tg_mafia.protocol.model import Phase, Protocol, Round, Vote

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
    if protocol.host:
        host = person_name(protocol.host, t)
        lines.append(t.gettext("Host: {name}").format(name=escape(host)))
    lines.append(result_line(t, protocol))
    lines.append("")
    for seat in protocol.seats:
        fate = Fate(seat.fate.value)
        line = f"{table.label(seat.player)} — {texts.role_label(t, seat.role)} — "
        line += fate_text(t, fate)
        badge = when_badge(fate, seat.when.number if seat.when else None)
        if badge:
            line += f" {badge}"
        if seat.warnings:
            line += f" · ⚠️ {seat.warnings}"
        if seat.won:
            line += " 🏆"
        lines.append(line)
    return "\n".join(lines)


def _round(protocol: Protocol, t: Translator, table: Table, item: Round) -> str:
    if item.phase is Phase.NIGHT:
        lines = [t.gettext("🌙 <b>Night {n}</b>").format(n=item.number)]
        lines += _night(t, table, item)
    else:
        lines = [t.gettext("☀️ <b>Day {n}</b>").format(n=item.number)]
        lines += [texts.nominated(t, table, by, target) for by, target in item.nominations]
        for vote in item.votes:
            lines += _vote(t, table, vote)
    roles = {s.player: s.role for s in protocol.seats}
    limit = int(protocol.options.get("warnings_limit", 0) or 0)
    if find_variant(protocol.variant).has_fouls:
        lines += [
            sport_texts.fouled(t, table, w.player, w.count, limit, w.reason, effect="")
            for w in item.warnings
        ]
    else:
        lines += [texts.warned(t, table, w.player, w.count, limit, w.reason) for w in item.warnings]
    lines += [
        texts.eliminated(t, table, e.player, e.cause, roles[e.player])
        for e in item.eliminations
        if e.cause != "killed"
    ]
    lines += [texts.timer_note(t, note.change, note.seconds) for note in item.timer]
    return "\n".join(lines)


def _night(t: Translator, table: Table, item: Round) -> list[str]:
    lines = [
        texts.host_night_move(t, table, m.player, m.role, m.move, m.target) for m in item.moves
    ]
    if item.plan is not None:
        lines.append(texts.plan_set(t, table, item.plan))
    lines += [
        texts.host_note(t, table, c.player, texts.check_result(t, table, c.target, c.answer))
        for c in item.checks
    ]
    # The morning's own words for the night's deaths, without its heading.
    dawn = texts.day_started(t, table, item.number, item.killed, {}, item.missed)
    lines += dawn.split("\n")[1:]
    if item.blocked is not None:
        lines.append(texts.blocked(t, table, item.blocked))
    return lines


def _vote(t: Translator, table: Table, vote: Vote) -> list[str]:
    names = table.labels(vote.candidates, t)
    top = max((n for _, n in vote.tally), default=0)
    leaders = tuple(c for c, n in vote.tally if n == top)
    target = vote.eliminated[0] if vote.eliminated else None
    if vote.kind == "none":
        first = vote.candidates[0] if vote.candidates else None
        return [texts.no_vote(t, table, vote.outcome or "no_nominee", first)]
    if vote.kind == "decide":
        lines = [
            t.gettext("⚖️ {player} casts the deciding vote.").format(
                player=table.label(vote.decider or "")
            )
        ]
        if vote.outcome == "decided" and target is not None:
            lines.append(texts.vote_result(t, table, "decided", (), target, ()))
        elif vote.outcome is not None:
            lines.append(texts.no_vote(t, table, vote.outcome, None))
        return lines
    if vote.kind == "live":
        lines = [t.gettext("✋ The live vote:")]
        lines += [
            t.ngettext(
                "{player}: {n} vote ({voters})", "{player}: {n} votes ({voters})", len(c.voters)
            ).format(
                player=table.label(c.candidate), n=len(c.voters), voters=table.labels(c.voters, t)
            )
            for c in vote.counts
        ]
        if vote.outcome not in (None, "eliminated"):
            lines.append(texts.vote_result(t, table, vote.outcome or "", (), None, leaders))
        return lines
    if vote.kind == "ballot":
        return [texts.vote_result(t, table, vote.outcome or "", vote.tally, target, leaders)]
    heads = {
        "revote": t.gettext("✋ New vote: {players}"),
        "repeat": t.gettext("✋ Repeated vote: {players}"),
    }
    lines = [heads.get(vote.kind, t.gettext("✋ Vote: {players}")).format(players=names)]
    lines += [texts.count_result(t, table, c.candidate, c.voters) for c in vote.counts]
    if vote.silent and vote.counts:
        lines.append(
            t.gettext("Raised no hand, so counted for {player}: {players}").format(
                player=table.label(vote.counts[-1].candidate), players=table.labels(vote.silent, t)
            )
        )
    if vote.outcome is not None:
        # The counts above show every hand: the result's own tally would repeat them.
        lines.append(texts.vote_result(t, table, vote.outcome, (), target, leaders))
    return lines


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

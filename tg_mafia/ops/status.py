"""What the operator sees of the running bot: a snapshot of its database (games by variant
and stage, the outbox, the timers), read for each scrape of /metrics and for the owner's
/status, and /status's text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from tg_mafia.i18n import Translator
from tg_mafia.ops import budget as admission
from tg_mafia.ops.budget import Tables, TokenBudget
from tg_mafia.ops.draining import Draining
from tg_mafia.ops.metrics import Snapshot
from tg_mafia.storage import Database, GameStatus
from tg_mafia.storage.waitlist import waiting_count

MAX_ERROR_TEXT = 300


def read_snapshot(db: Database, now: float, parked: Collection[int] = ()) -> Snapshot:
    """In the database's worker thread: `now` is the bot clock's time (the outbox's).
    The oldest call's age leaves out the `parked` chats (users who blocked the bot: their
    calls wait for them, as long as it takes)."""
    games: Counter[tuple[str, str]] = Counter()
    timers = 0
    for record in db.unfinished_games():
        if record.status is GameStatus.LOBBY:
            stage = GameStatus.LOBBY.value
        else:
            stage = str((record.state or {}).get("stage", "unknown"))
        games[record.variant, stage] += 1
        timers += record.stage_deadline is not None
    with db.transaction() as tx:
        calls, _ = tx.backlog()
        waiting = [since for chat, _, _, since in tx.pending_chats() if chat not in parked]
        groups = waiting_count(tx)
    age = max(0.0, now - min(waiting)) if waiting else None
    return Snapshot(dict(games), calls, age, timers, groups)


@dataclass(frozen=True)
class TokenLoad:
    """One bot token's part of /status: its games and outbox (the snapshot), its budget,
    its calls a second over the last minute, and the /newgame its admission turned away."""

    username: str
    snapshot: Snapshot
    budget: TokenBudget
    calls_per_second: float = 0.0
    refused: int = 0


def duration(seconds: float) -> str:
    """H:MM:SS, hours unbounded: the same in every language."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def status_text(
    t: Translator,
    *,
    version: str,
    replica: str,
    uptime: float,
    loads: Sequence[TokenLoad],
    draining: Draining,
    errors: Iterable[tuple[float, str, str]],
) -> str:
    """The owner's /status, in HTML: one block per bot token (several in one process)."""
    lines = [
        t.gettext("🛠 tg-mafia {version} on {replica}, up for {uptime}.").format(
            version=escape(version), replica=escape(replica), uptime=duration(uptime)
        ),
    ]
    for load in loads:
        if len(loads) > 1:
            lines.append(f"<b>@{escape(load.username)}</b>")
        lines += token_lines(t, load)
    if draining.active:
        lines.append(drain_text(t, draining, began=False))
    errors = list(errors)
    if errors:
        lines.append(t.gettext("Last errors logged:"))
        for when, logger, text in errors:
            clock = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M:%S")
            lines.append(f"• {clock} UTC {escape(logger)}: {escape(text[:MAX_ERROR_TEXT])}")
    else:
        lines.append(t.gettext("No error logged since the start."))
    return "\n".join(lines)


def token_lines(t: Translator, load: TokenLoad) -> list[str]:
    """A token's games, its load against its budget, its calls, its outbox."""
    snapshot = load.snapshot
    lines = [
        t.gettext("Games running: {running}. Open lobbies: {lobbies}.").format(
            running=snapshot.running, lobbies=snapshot.lobbies
        ),
        load_text(t, snapshot, load.budget),
        t.gettext(
            "Calls to Telegram: {rate} a second over the last minute, {share} of the "
            "token's {limit}. New games turned away since the start: {refused}."
        ).format(
            rate=f"{load.calls_per_second:.1f}",
            share=f"{round(100 * load.calls_per_second / load.budget.calls_per_second)}%",
            limit=f"{load.budget.calls_per_second:g}",
            refused=load.refused,
        ),
    ]
    if snapshot.outbox_calls:
        lines.append(
            t.gettext("Outbox: {calls} calls waiting, the oldest for {age}.").format(
                calls=snapshot.outbox_calls, age=duration(snapshot.outbox_oldest_seconds or 0)
            )
        )
    else:
        lines.append(t.gettext("Outbox: empty."))
    return lines


def load_text(t: Translator, snapshot: Snapshot, budget: TokenBudget) -> str:
    """The token's load: the calls a minute its open games need (admission.py's estimate,
    lobbies included) against its budget, and the groups waiting for a table."""
    tables = Tables()
    for (variant, stage), count in snapshot.games.items():
        tables.add(variant, lobby=stage == GameStatus.LOBBY.value, count=count)
    return t.gettext(
        "Load on the bot token: about {load} of {budget} calls a minute (new games wait "
        "past {ceiling}). Groups waiting for a table: {waiting}."
    ).format(
        load=round(admission.load(tables)),
        budget=round(budget.per_minute),
        ceiling=round(budget.ceiling),
        waiting=snapshot.groups_waiting,
    )


def drain_text(t: Translator, draining: Draining, *, began: bool) -> str:
    left = duration(draining.seconds_left())
    if began:
        text = t.gettext(
            "Draining from now on: no new games. I exit when the running games end, "
            "at the latest in {left}."
        )
    else:
        text = t.gettext(
            "Draining: no new games. I exit when the running games end, at the latest in {left}."
        )
    return text.format(left=left)

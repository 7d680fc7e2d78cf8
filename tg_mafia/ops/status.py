"""What the operator sees of the running bot: a snapshot of its database (games by variant
and stage, the outbox, the timers), read for each scrape of /metrics and for the owner's
/status, and /status's text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from datetime import UTC, datetime
from html import escape

from tg_mafia.i18n import Translator
from tg_mafia.ops import budget as admission
from tg_mafia.ops.budget import TokenBudget
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
            stage = "lobby"
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
    snapshot: Snapshot,
    budget: TokenBudget,
    draining: Draining,
    errors: Iterable[tuple[float, str, str]],
) -> str:
    """The owner's /status, in HTML."""
    lines = [
        t.gettext("🛠 tg-mafia {version} on {replica}, up for {uptime}.").format(
            version=escape(version), replica=escape(replica), uptime=duration(uptime)
        ),
        t.gettext("Games running: {running}. Open lobbies: {lobbies}.").format(
            running=snapshot.running, lobbies=snapshot.lobbies
        ),
    ]
    lines.append(load_text(t, snapshot, budget))
    if snapshot.outbox_calls:
        lines.append(
            t.gettext("Outbox: {calls} calls waiting, the oldest for {age}.").format(
                calls=snapshot.outbox_calls, age=duration(snapshot.outbox_oldest_seconds or 0)
            )
        )
    else:
        lines.append(t.gettext("Outbox: empty."))
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


def load_text(t: Translator, snapshot: Snapshot, budget: TokenBudget) -> str:
    """The token's load: the calls a minute its open games need (admission.py's estimate,
    lobbies included) against its budget, and the groups waiting for a table."""
    by_variant: Counter[str] = Counter()
    for (variant, _), count in snapshot.games.items():
        by_variant[variant] += count
    return t.gettext(
        "Load on the bot token: about {load} of {budget} calls a minute (new games wait "
        "past {ceiling}). Groups waiting for a table: {waiting}."
    ).format(
        load=round(admission.load(by_variant)),
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

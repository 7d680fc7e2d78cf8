"""Bot API calls per game, by variant and by method: what one whole game costs the token.

One whole game of each variant at its standard table (real_play.STANDARD_SIZE: ten,
moscow eleven), for each of --seeds seeds, each on a bot of its own (the playtest
harness, tg_mafia.playtest.harness.running_bot) against the sandbox with Telegram's limits
on, on the virtual clock: the players of benchmarks/real_play.py play it at the
variant's real pace (the bot's own timers end the stages, its countdowns fire, votes come
as bursts, a few lines out of turn, two spectators pressing ⏱), so the calls are those
of a real table, without the wait. Counted from the admin's /newgame to the bot at rest
after the end screen, from the sandbox's record of every call (getUpdates left out):

- per variant, the median over the seeds of a game's calls, all and by method;
- its opening: the calls Telegram counts (sends, edits, pins) from /newgame until
  DEAL_SECONDS after the admin's Start (the lobby's joins and the deal: what admission
  charges a lobby, tg_mafia/ops/budget.py), and those minutes;
- calls Telegram refused, and of them those that changed nothing ("message is not
  modified");
- where calls could be saved, as counts per game (median): edits of a message that a
  newer edit of the same message replaced within --superseded seconds (sent one after
  the other, the first was on screen that long), and sends into one chat that came
  within --together seconds of the one before with no player's input between them
  (announcements decided together, which one message could carry); each by the kind of
  message (its first line, numbers as N), printed with --details.

    .venv/bin/python benchmarks/calls_per_game.py [--seeds 5] [--variant V]
        [--superseded 2] [--together 1] [--details] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import machine, results  # noqa: E402
from benchmarks.real_play import STANDARD_SIZE, Inputs, Observer, Reader, RealTable  # noqa: E402
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness, running_bot  # noqa: E402
from tg_mafia.sandbox import Sandbox  # noqa: E402
from tg_mafia.sandbox.base import SandboxBot  # noqa: E402
from tg_mafia.sandbox.limits import CHARGED_METHODS  # noqa: E402
from tg_mafia.sandbox.records import CallRecord  # noqa: E402
from tg_mafia.sandbox.virtual_time import VirtualTimeLoop  # noqa: E402
from tg_mafia.storage import GameStatus  # noqa: E402

VARIANTS = ("classic", "moscow", "party", "club", "sport")
# The methods shown as columns, in this order; the others are summed as "other".
METHODS = (
    "sendMessage",
    "editMessageText",
    "answerCallbackQuery",
    "deleteMessage",
    "pinChatMessage",
    "unpinChatMessage",
    "setChatPermissions",
    "restrictChatMember",
)
IGNORED = frozenset({"getUpdates"})
TITLE = "Table"  # every game's group: the private messages' first line names it
DEAL_SECONDS = 10.0  # after Start: the role cards and the first stage's messages are out
GAME_HOURS = 3.0  # virtual: a game that has not ended by then is a failure of the model


@dataclass
class Game:
    variant: str
    seed: int
    calls: list[CallRecord]
    inputs: list[float]  # sandbox times of the players' updates
    ended: bool
    minutes: float
    opening: int  # charged calls from /newgame to DEAL_SECONDS after Start
    opening_minutes: float  # from /newgame to DEAL_SECONDS after Start
    by_method: Counter[str] = field(default_factory=Counter)
    # Deletions and keyboard edits by the kind of message they touched.
    touched: dict[str, Counter[str]] = field(default_factory=dict)


async def play_one(variant: str, seed: int) -> Game:
    sb = Sandbox()
    size = STANDARD_SIZE[variant]
    with tempfile.TemporaryDirectory() as tmp:
        async with running_bot(Path(tmp), 0, sb=sb, lobby_seconds=10**6, lobby_seed=seed) as base:
            users = sb.add_users(size, prefix="P")
            admin = sb.add_user("Admin")
            spectators = [sb.add_user(f"Watcher{n}") for n in range(2)]
            group = sb.add_group(
                TITLE,
                members=[*users, admin, *spectators],
                owner=admin,
                bot_rights=BOT_RIGHTS,
            )
            base.db.save_settings(group.id, variant=variant, language="en")
            h = Harness(sb, base.app, base.db, group, users, admin)
            observer = Observer(sb)
            reader = Reader(Path(tmp) / "bot.db")
            pushed: list[float] = []
            push = sb._push

            def stamped(
                kind: str, body: dict[str, Any], bot: SandboxBot | None = None
            ) -> dict[str, Any] | None:
                pushed.append(sb.clock.now())
                return push(kind, body, bot)

            sb._push = stamped  # type: ignore[method-assign,assignment]
            await base.settle()
            mark = len(sb.log.records)
            began = sb.clock.now()
            began_loop_to_sandbox = began - asyncio.get_running_loop().time()  # the table's clock
            table = RealTable(h, spectators, reader.snapshot, observer, Inputs(), seed)
            await asyncio.wait_for(table.play(), GAME_HOURS * 3600)
            await h.settle()
            assert table.started_at is not None, "the table never started its game"
            started = table.started_at + began_loop_to_sandbox
            dealt = started + DEAL_SECONDS
            opening = sum(
                1
                for r in sb.log.records[mark:]
                if r.ok and r.time <= dealt and r.method in CHARGED_METHODS
            )
            opening_minutes = (dealt - began) / 60
            snap = reader.snapshot(group.id)
            ended = snap is not None and snap.status == GameStatus.ENDED.value
            calls = [r for r in sb.log.records[mark:] if r.method not in IGNORED]
            minutes = (sb.clock.now() - began) / 60
            reader.raw.close()
    game = Game(variant, seed, calls, pushed, ended, minutes, opening, opening_minutes)
    game.by_method = Counter(r.method for r in calls)
    game.touched = {m: touched_kinds(sb, calls, m) for m in TOUCHING}
    return game


TOUCHING = ("deleteMessage", "editMessageReplyMarkup")  # calls that name a message only


def touched_kinds(sb: Sandbox, calls: list[CallRecord], method: str) -> Counter[str]:
    """The messages the calls of `method` touched: the bot's own by kind, or players'."""
    found: Counter[str] = Counter()
    for record in calls:
        if record.method != method or record.chat_id is None:
            continue
        message = sb.world.resolve_chat(record.chat_id).messages.get(record.params["message_id"])
        if message is None or message.from_id != sb.world.bot.id:
            found["(a player's post)"] += 1
        else:
            found[text_kind(message.text or "")] += 1
    return found


def kind_of(record: CallRecord) -> str:
    """A message's kind: its first line, numbers as N, names of players as P."""
    return text_kind(str(record.params.get("text") or record.params.get("caption") or ""))


def text_kind(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", text)
    lines = [line for line in text.splitlines() if line.strip() and line != f"🎭 {TITLE}"]
    line = lines[0] if lines else "(no text)"
    line = re.sub(r"\b(P|Admin|Watcher)\d+\b", "P", line)
    line = re.sub(r"\d+", "N", line)
    return line[:48]


def superseded(game: Game, within: float) -> Counter[str]:
    """Edits that a newer edit of the same message replaced within `within` seconds."""
    last: dict[tuple[int | None, Any], CallRecord] = {}
    found: Counter[str] = Counter()
    for record in game.calls:
        if record.method != "editMessageText" or not record.ok:
            continue
        key = (record.chat_id, record.params.get("message_id"))
        before = last.get(key)
        if before is not None and record.time - before.time <= within:
            found[kind_of(before)] += 1
        last[key] = record
    return found


def together(game: Game, within: float) -> Counter[str]:
    """Sends into a chat within `within` seconds of the send before it there, with no
    player's input between them: announcements one message could have carried."""
    previous: dict[int | None, CallRecord] = {}
    found: Counter[str] = Counter()
    inputs = sorted(game.inputs)
    for record in game.calls:
        if record.method != "sendMessage" or not record.ok:
            continue
        before = previous.get(record.chat_id)
        if (
            before is not None
            and record.time - before.time <= within
            and not any(before.time < t < record.time for t in inputs)
        ):
            found[f"{kind_of(before)} + {kind_of(record)}"] += 1
        previous[record.chat_id] = record
    return found


def unchanged(game: Game) -> int:
    return sum(
        1
        for r in game.calls
        if not r.ok and "not modified" in (r.description or "").lower().replace("_", " ")
    )


def median(values: list[int]) -> float:
    return float(statistics.median(values)) if values else 0.0


def summarise(
    variant: str, games: list[Game], superseded_s: float, together_s: float
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "variant": variant,
        "players": STANDARD_SIZE[variant],
        "games": len(games),
        "ended": sum(g.ended for g in games),
        "minutes": statistics.median(g.minutes for g in games),
        "calls": median([len(g.calls) for g in games]),
        "opening": median([g.opening for g in games]),
        "opening_minutes": statistics.median(g.opening_minutes for g in games),
    }
    for method in METHODS:
        row[method] = median([g.by_method[method] for g in games])
    row["other"] = median(
        [sum(n for m, n in g.by_method.items() if m not in METHODS) for g in games]
    )
    row["refused"] = median([sum(1 for r in g.calls if not r.ok) for g in games])
    row["not_modified"] = median([unchanged(g) for g in games])
    row["count_429"] = sum(1 for g in games for r in g.calls if r.error_code == 429)
    row["superseded_edits"] = median([sum(superseded(g, superseded_s).values()) for g in games])
    row["sends_together"] = median([sum(together(g, together_s).values()) for g in games])
    return row


def details(games: list[Game], superseded_s: float, together_s: float) -> None:
    """The wasted calls by kind of message, per game (the mean over the seeds)."""
    n = len(games)
    wasted: list[tuple[str, Callable[[Game], Counter[str]]]] = [
        (f"edits replaced within {superseded_s:g} s", lambda g: superseded(g, superseded_s)),
        (f"sends within {together_s:g} s of the one before", lambda g: together(g, together_s)),
    ]
    for title, counter in wasted:
        total: Counter[str] = Counter()
        for game in games:
            total.update(counter(game))
        print(f"  {title}: {sum(total.values()) / n:.1f} a game")
        for kind, count in total.most_common(8):
            print(f"    {count / n:5.1f}  {kind}")
    for method in ("sendMessage", "editMessageText", "deleteMessage", "editMessageReplyMarkup"):
        kinds: Counter[str] = Counter()
        for game in games:
            if method in game.touched:
                kinds.update(game.touched[method])
            else:
                kinds.update(kind_of(r) for r in game.calls if r.method == method and r.ok)
        shown = ", ".join(f"{k} {c / n:.1f}" for k, c in kinds.most_common(6))
        print(f"  {method} a game, by kind: {shown}")
    others: Counter[str] = Counter()
    for game in games:
        others.update({m: c for m, c in game.by_method.items() if m not in METHODS})
    shown = ", ".join(f"{m} {c / n:.1f}" for m, c in others.most_common())
    print(f"  other methods a game: {shown}")
    methods: Counter[str] = Counter()
    for game in games:
        methods.update(f"{r.method} {r.description}" for r in game.calls if not r.ok)
    for what, count in methods.most_common(5):
        print(f"  refused {count / n:5.1f} a game: {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="games of each variant")
    parser.add_argument("--variant", choices=VARIANTS, action="append")
    parser.add_argument("--superseded", type=float, default=2.0, help="seconds (see the text)")
    parser.add_argument("--together", type=float, default=1.0, help="seconds (see the text)")
    parser.add_argument("--details", action="store_true", help="the wasted calls by kind")
    results.add_argument(parser)
    args = parser.parse_args()
    # Each game's bot stops while its start's pruning of old games may still wait for the
    # database thread: that pruning's failure is no part of the count.
    logging.getLogger("tg_mafia.runtime.timers.retention").setLevel(logging.CRITICAL)
    run = results.Run.begin("calls_per_game")
    print(machine.describe())
    header = ["variant", "players", "min", "calls", *METHODS, "other", "refused", "unchanged"]
    print("  ".join(header))
    rows = []
    for variant in args.variant or VARIANTS:
        games = []
        for seed in range(1, args.seeds + 1):
            with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
                games.append(runner.run(play_one(variant, seed)))
        row = summarise(variant, games, args.superseded, args.together)
        rows.append(row)
        figures = [row["minutes"], row["calls"], *(row[m] for m in METHODS), row["other"]]
        print(
            f"{variant}  {row['players']}  "
            + "  ".join(f"{v:g}" for v in figures)
            + f"  {row['refused']:g}  {row['not_modified']:g}"
            + f"  (opening {row['opening']:g} calls in {row['opening_minutes']:.2f} min)"
            + f"  (ended {row['ended']}/{row['games']}, 429s {row['count_429']},"
            f" superseded edits {row['superseded_edits']:g}, sends together"
            f" {row['sends_together']:g})",
            flush=True,
        )
        if args.details:
            details(games, args.superseded, args.together)
    run.write(args.json, rows)


if __name__ == "__main__":
    main()

"""Renders docs/benchmarks.md from the results in benchmarks/results/*.json.

Each benchmark writes its results with `--json PATH` (benchmarks/results.py); the files
kept in benchmarks/results/ are the current figures, one file per run. This script gives
each benchmark one section: what it measures, each run's date, machine and exact
command, and one table of its figures. tests/docs checks that docs/benchmarks.md is
what this script renders.

    .venv/bin/python benchmarks/report.py            # writes docs/benchmarks.md
    .venv/bin/python benchmarks/report.py --check    # exit 1 if it differs
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
OUTPUT = ROOT / "docs" / "benchmarks.md"
WIDTH = 90  # the prose's lines, as the other docs are written

Row = dict[str, Any]
Cell = Callable[[Row], str]


# ----- cells -------------------------------------------------------------------------------


def number(key: str, places: int = 0, unit: str = "") -> Cell:
    """A figure with thousands separators; a dash where the run did not record it."""

    def cell(row: Row) -> str:
        value = row.get(key)
        if value is None:
            return "–"
        if isinstance(value, list):
            return "/".join(str(v) for v in value)
        return f"{value:,.{places}f}{unit}"

    return cell


def pair(first: str, second: str, places: int = 0, unit: str = "") -> Cell:
    """Two figures as `a / b`, e.g. a median and a p99."""
    left, right = number(first, places), number(second, places)
    return lambda row: f"{left(row)} / {right(row)}{unit}"


def text(key: str) -> Cell:
    return lambda row: str(row.get(key, "–"))


def spread(low: str, high: str) -> Cell:
    return lambda row: f"{row[low]:,.0f}–{row[high]:,.0f}"


def calls_offered(row: Row) -> str:
    """How http_client.py offered its calls: so many at once, or so many a second."""
    if row.get("rate") is not None:
        return f"{row['rate']:,.0f} a second, {row['rtt_ms']:,.0f} ms round trip"
    return f"{row.get('concurrent', 60)} at once, {row.get('delay_ms', 25):,.0f} ms answer"


def runs_of(key: str, places: int) -> Cell:
    return lambda row: ", ".join(f"{v:,.{places}f}" for v in row[key])


def estimate(row: Row) -> str:
    """Admission's count beside the calls spent in the window's last minute
    (benchmarks/estimate.py): a token's a second, then a lobby's, a held table's and a
    running game's a minute, as `25.4 / 20.6; 30 / 32, 30 / 10, 6.6 / 4.3`."""
    found = row.get("admission_estimate")
    if not found:
        return "–"
    tokens = found["estimate_per_s_by_token"]
    spent = row["charged_per_s_last_60s"] / len(tokens)
    tables = (found[f"{phase}_per_min"] for phase in ("lobby", "held", "running"))
    each = ", ".join(
        f"{counted:g} / {'–' if used is None else f'{used:g}'}" for counted, used in tables
    )
    return f"{statistics.fmean(tokens):.1f} / {spent:.1f}; {each}"


def per_token(row: Row) -> str:
    """How many tokens, and each one's calls a second (charged) and 429s, as
    `2; @bot 12.3 (8.1), 0; ...`; a dash for a run before several tokens."""
    tokens = row.get("per_token")
    if not tokens:
        return "–"
    each = (
        f"@{t['bot']} {t['calls_per_s']:,.1f} ({t['charged_per_s']:,.1f}), {t['count_429']}"
        for t in tokens
    )
    return "; ".join([str(len(tokens)), *each])


# ----- sections ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    columns: Sequence[tuple[str, Cell]]
    where: Callable[[Row], bool] = lambda row: True
    # Measures as rows and runs as columns: for runs of many measures each.
    transposed: bool = False


@dataclass(frozen=True)
class Section:
    benchmark: str  # the JSON files' "benchmark"
    title: str
    about: str  # what it measures, in a paragraph
    tables: Sequence[Table]
    reading: Sequence[str] = field(default_factory=tuple)  # what the figures say


SECTIONS = (
    Section(
        "engine_games",
        "Engine",
        "full games of seeded random play in the rules engine alone (the deal, the random "
        "policy and `engine.apply` for every action), one process on one core; each "
        "configuration plays the same seeds in every run. Games a second by the process's "
        "CPU time, the median run (and the spread of the runs), beside the wall clock. "
        "The bar: 200 moscow games of 11 players a second on one core.",
        [
            Table(
                [
                    ("variant", text("variant")),
                    ("players", number("players")),
                    ("games/s (CPU)", number("games_per_s")),
                    ("runs' spread", spread("games_per_s_min", "games_per_s_max")),
                    ("games/s (wall)", number("wall_games_per_s")),
                    ("actions a game", number("actions_per_game", 1)),
                    ("µs an action", number("us_per_action", 1)),
                ]
            )
        ],
    ),
    Section(
        "telegram_budget",
        "Telegram budget",
        "the Telegram calls of whole games on the sandbox, several at once in one bot, "
        "simulated players pressing "
        "the bot's buttons on a clock 200 times faster than real time. A charged call is one "
        "Telegram counts against a chat (sends, edits, pins); the peak is the most charged "
        "calls to one group in any 60 s of sandbox time, against Telegram's 20.",
        [
            Table(
                [
                    ("variant", text("variant")),
                    ("games", number("games")),
                    ("players", number("players")),
                    ("group peak a minute: max", number("peak_60s_max")),
                    ("median of games", number("peak_60s_median", 1)),
                    ("group calls a game and player", number("group_calls_per_game_per_player", 2)),
                    ("private calls", number("private_calls_per_game_per_player", 2)),
                    ("429s", number("count_429")),
                ]
            )
        ],
        [
            "The sender spends at most 15 calls a minute on a group, so 15 is the ceiling by "
            "construction; simulated players who act at once reach it, a real table does not.",
        ],
    ),
    Section(
        "token_capacity",
        "Token capacity",
        "how many games one bot token carries (docs/scaling.md). Games paced as real tables "
        "play them, on the virtual clock: every timer runs its full default length and each "
        "player acts at a random moment inside it; 20 games a variant, at the smallest table "
        "and a large one in turn, start at random moments over ten minutes in one bot, with "
        "Telegram's limits on. Games at once: the token's 30 calls a second divided by one "
        "game's rate, on average or in its busiest minute.",
        [
            Table(
                [
                    ("variant", text("variant")),
                    ("players", number("sizes")),
                    ("minutes a game", number("minutes")),
                    ("charged calls a minute", number("calls_per_minute", 1)),
                    ("busiest minute", number("busiest_minute", 1)),
                    ("group peak / 60 s", number("group_peak")),
                    ("token peak / 1 s", number("token_peak_1s")),
                    ("games at once: average", number("carries_mean")),
                    ("busiest minute", number("carries_busy")),
                    ("429s", number("count_429")),
                ]
            )
        ],
    ),
    Section(
        "load",
        "Load at network latency",
        "many games on one bot process built as `tg-mafia run` builds it, the sandbox over "
        "HTTP with a simulated 50 ms round trip and Telegram's limits enforced "
        "(`benchmarks/load.py` says how each load is paced). The real model (first table): "
        "an evening of games opened on a ramp and played at their real pace by "
        "`benchmarks/real_play.py`'s tables (one speaker at a time, votes as bursts, night "
        "moves in the first half of the night, spectators pressing ⏱), every figure over "
        "the window: the Bot API calls a second (of every token, and of each with "
        "`--tokens N`), the popup's answer, a "
        "press's or a stage timer's next message in its chat, the outbox at the end. The "
        "uniform model (second table): after an unmeasured set-up, updates open-loop for "
        "60 s, each a press or a line from the engine's random policy; the popup's answer, "
        "the game's write, updates handled a second, the slowest 1% of presses broken down "
        "by where their time went.",
        [
            Table(
                [
                    (
                        "/newgame sent (again, told a table is free) / admitted / started",
                        lambda r: (
                            f"{number('newgames')(r)} ({number('newgames_queued')(r)}) / "
                            f"{number('games_admitted')(r)} / {number('games_started')(r)}"
                        ),
                    ),
                    (
                        "presses (of them ⏱) / lines",
                        lambda r: (
                            f"{number('presses')(r)} ({number('time_presses')(r)})"
                            f" / {number('lines')(r)}"
                        ),
                    ),
                    (
                        "**Bot API calls / s** (charged)",
                        lambda r: (
                            f"{number('calls_per_s', 1)(r)} ({number('charged_per_s', 1)(r)})"
                        ),
                    ),
                    (
                        "charged calls / s: last minute, busiest second",
                        pair("charged_per_s_last_60s", "charged_peak_1s", 1),
                    ),
                    ("bot tokens; each: calls / s (charged), 429s", per_token),
                    (
                        "admission's count / spent, last minute: a token's calls / s; a "
                        "lobby's, a held table's, a running game's a minute",
                        estimate,
                    ),
                    (
                        "**callback answer p50 / p99**",
                        pair("answer_p50_ms", "answer_p99_ms", 0, " ms"),
                    ),
                    (
                        "answer's slowest 1%: to the bot / in it / back",
                        lambda r: (
                            f"{number('stage_to_bot_slowest1pc_ms')(r)} / "
                            f"{number('stage_to_answer_slowest1pc_ms')(r)} / "
                            f"{number('stage_answer_leg_slowest1pc_ms', 0, ' ms')(r)}"
                        ),
                    ),
                    (
                        "**press → next message** in its chat: p50 / p99",
                        pair("press_next_p50_ms", "press_next_p99_ms", 0, " ms"),
                    ),
                    (
                        "of presses in the group: p50 / p99",
                        pair("group_press_next_p50_ms", "group_press_next_p99_ms", 0, " ms"),
                    ),
                    (
                        "**timer → next stage's message** p50 / p99",
                        pair("timer_next_p50_ms", "timer_next_p99_ms", 0, " ms"),
                    ),
                    (
                        "presses / timers with no message by the end",
                        pair("press_no_message", "timer_no_message"),
                    ),
                    ("**429s**", number("count_429")),
                    (
                        "**outbox at the end; its oldest call**",
                        lambda r: (
                            f"{number('outbox_at_end')(r)}; {number('outbox_oldest_s', 0, ' s')(r)}"
                        ),
                    ),
                    ("bot CPU (share of a core)", number("bot_cpu_share", 2)),
                ],
                where=lambda row: row.get("model") == "real",
                transposed=True,
            ),
            Table(
                [
                    ("updates offered / s", number("offered_per_s", 1)),
                    ("**updates handled / s**", number("handled_per_s", 1)),
                    ("presses / posts", pair("presses", "posts")),
                    (
                        "**callback answer p50 / p99**",
                        pair("answer_p50_ms", "answer_p99_ms", 0, " ms"),
                    ),
                    (
                        "callback answer max; unanswered",
                        lambda r: f"{number('answer_max_ms')(r)} ms; {number('unanswered')(r)}",
                    ),
                    (
                        "held in Telegram: p50, slowest 1%",
                        pair("stage_held_p50_ms", "stage_held_slowest1pc_ms", 1, " ms"),
                    ),
                    (
                        "slowest 1%: to bot / to commit",
                        pair(
                            "stage_to_bot_slowest1pc_ms", "stage_to_commit_slowest1pc_ms", 0, " ms"
                        ),
                    ),
                    (
                        "slowest 1%: to answer / answer leg",
                        pair(
                            "stage_to_answer_slowest1pc_ms",
                            "stage_answer_leg_slowest1pc_ms",
                            0,
                            " ms",
                        ),
                    ),
                    (
                        "handling p50: press / post",
                        pair("handling_press_p50_ms", "handling_post_p50_ms", 1, " ms"),
                    ),
                    ("state written p50 / p99", pair("written_p50_ms", "written_p99_ms", 0, " ms")),
                    ("bot CPU (share of a core)", number("bot_cpu_share", 2)),
                    (
                        "429s; memory a game",
                        lambda r: f"{number('count_429')(r)}; {number('mb_per_game', 2)(r)} MB",
                    ),
                    ("outbox at the end", number("outbox_at_end")),
                ],
                where=lambda row: row.get("model") != "real",
                transposed=True,
            ),
        ],
        [
            "The real model opens 1,000 games in under four minutes, faster than any real "
            "evening. Admission charges a lobby its opening ([Calls per game](#calls-per-game)) "
            "and a running game the rest of its calls; a token admits about 135 of the rush "
            "and queues the rest. Counted against spent: a lobby as counted, a running game "
            "6.6 calls a minute against about 4 (the window's games are in their quiet first "
            "minutes). Goal on four tokens (next message "
            "within 3 s at p99) met: 2.2 s after any press, 0.5 s after a timer. Before "
            "(lobbies at a game's average, no reserve in a group's minute, a private chat's "
            "edits cosmetic): 820 admitted; 4.5, 5.0 and 74 s after a group press, a timer "
            "and a private press.",
            "The uniform model's goal (a popup within 150 ms at p99, 300 updates a second) "
            "holds here, at the edge: the database thread is busy nearly all the minute. "
            "Without `gc.freeze` (`ops/heap.py`) "
            "the p99 was 766 ms; with it at Python's young threshold of 700, 190-210 ms "
            "(the collector's pauses 3.1 s in the minute; 0.14 s at 20,000).",
            "At 100 updates a second by long polling, `--without aiohttp` (the calls on PTB's "
            "default HTTPXRequest) cost the bot about a third more CPU and a popup about 11 ms "
            "more at the median; `--without group-commit` (each of SQLite's transactions "
            "committed by itself) left the median as it was and doubled the p99 or more. "
            "Their p99s move with the machine's load.",
        ],
    ),
    Section(
        "calls_per_game",
        "Calls per game",
        "the Bot API calls one whole game costs, by variant at its standard table (ten "
        "players, moscow eleven), played on the sandbox by `benchmarks/real_play.py`'s "
        "tables at the variant's real pace on the virtual clock, the bot's own timers "
        "ending the stages; from /newgame to the bot at rest after the end, getUpdates "
        "left out; the median game of the seeds. Refused: calls Telegram answered with an "
        "error. Edits replaced: edits of a message that the next edit of it replaced within "
        "2 s; sends together: sends into a chat within 1 s of the one before there, no "
        "player's input between. Opening: the charged calls from /newgame to 10 s after "
        "Start, what admission charges a lobby over its minutes. Other: mostly "
        "`editMessageReplyMarkup` and `getChatMember`.",
        [
            Table(
                [
                    ("variant", text("variant")),
                    ("players", number("players")),
                    ("minutes", number("minutes")),
                    ("**calls**", number("calls")),
                    ("opening", number("opening")),
                    ("its minutes", number("opening_minutes", 2)),
                    ("sendMessage", number("sendMessage")),
                    ("editMessageText", number("editMessageText")),
                    ("answerCallbackQuery", number("answerCallbackQuery")),
                    ("deleteMessage", number("deleteMessage")),
                    ("pin / unpin", pair("pinChatMessage", "unpinChatMessage")),
                    ("setChatPermissions", number("setChatPermissions")),
                    ("restrictChatMember", number("restrictChatMember")),
                    ("other", number("other")),
                    ("refused", number("refused")),
                    ("edits replaced", number("superseded_edits")),
                    ("sends together", number("sends_together")),
                ]
            )
        ],
        [
            "Before the sender merged announcements and kept a group's reserve, a game cost "
            "219 calls (classic), 450 (moscow), 217 (party), 458 (club), 419 (sport). The "
            "sends together left are mostly a day's first words beside its floor or vote board.",
        ],
    ),
    Section(
        "move_cost",
        "Move cost",
        "the database thread's CPU for one move, without Telegram: a press's read, the "
        "engine, the presenter and the move's transaction, group-committed as the bot's "
        "SQLite writer does (with `--no-group-commit`, each move committed by itself), "
        "over many running classic games; the median of 5 runs, and the wall time a move "
        "(the commits' waits for the disk included).",
        [
            Table(
                [
                    ("database", text("database")),
                    ("group commit", lambda r: "no" if r.get("group_commit") is False else "yes"),
                    ("games", number("games")),
                    ("moves a run", number("moves")),
                    ("**CPU a move**", number("move_cpu_us", 0, " µs")),
                    ("runs (µs)", runs_of("runs_us", 0)),
                    ("wall time a move", number("move_wall_us", 0, " µs")),
                ]
            )
        ],
    ),
    Section(
        "http_client",
        "HTTP client",
        "the bot's CPU for one Bot API call by HTTP client: `answerCallbackQuery` through "
        "PTB against a server in its own process, PTB's default request (httpx) against "
        "the bot's (aiohttp, `tg_mafia/telegram/transport.py`). Closed loop (the default): 60 "
        "calls at once, each answered after 25 ms, the median of 3 rounds of 3,000 calls. "
        "As the bot lives (`--rate`): calls open loop at that rate for 30 s, each answered "
        "a whole round trip late; the CPU a call and the share of a core, and the time "
        "the client adds to a call past the round trip.",
        [
            Table(
                [
                    ("client", text("client")),
                    ("calls", calls_offered),
                    ("**CPU a call**", number("cpu_ms_per_call", 3, " ms")),
                    ("share of a core", number("cpu_share", 3)),
                    (
                        "added p50 / p99",
                        lambda r: (
                            pair("added_p50_ms", "added_p99_ms", 1, " ms")(r)
                            if "added_p50_ms" in r
                            else "–"
                        ),
                    ),
                ]
            )
        ],
    ),
    Section(
        "restart",
        "Restart",
        "a bot's start on a database of unfinished games left by a crash (a tenth "
        "lobbies, the others 0 to 39 moves in, a fifth with their last calls still in the "
        "outbox), at network latency as in the load benchmark, while 20 live games go on "
        "pressing: the time until every game is resumed (timers armed, sender running), "
        "the catch-up within Telegram's budgets, and the live presses meanwhile.",
        [
            Table(
                [
                    ("unfinished games: lobbies / running", pair("lobbies", "running")),
                    ("calls waiting in the outbox", number("calls_waiting")),
                    (
                        "**resumed** (spawn to every game resumed)",
                        number("resumed_from_spawn_s", 2, " s"),
                    ),
                    ("of which after the imports", number("resumed_from_imports_s", 2, " s")),
                    ("games with a stored deadline armed", number("games_with_a_deadline")),
                    ("catch-up: outbox empty after", number("catch_up_s", 0, " s")),
                    ("**429s**", number("count_429")),
                    ("live presses during the catch-up", number("live_inputs")),
                    (
                        "live callback answer p50 / p99",
                        pair("live_answer_p50_ms", "live_answer_p99_ms", 0, " ms"),
                    ),
                    (
                        "live state written p50 / p99",
                        pair("live_written_p50_ms", "live_written_p99_ms", 0, " ms"),
                    ),
                    (
                        "live next message after a move: p50 / **p99** / max",
                        lambda r: (
                            f"{number('live_next_message_p50_ms')(r)} / "
                            f"{number('live_next_message_p99_ms')(r)} / "
                            f"{number('live_next_message_max_ms', 0, ' ms')(r)}"
                        ),
                    ),
                ],
                transposed=True,
            )
        ],
        [
            "The catch-up is paced by Telegram's budgets, not by the bot: a group's 15 calls "
            "a minute spread a crashed game's deal over two minutes, and the token's 30 a "
            "second the whole backlog, behind the live games' calls (`order.py`). Goal met "
            "(a live game's next message within 5 s at p99) at 1,000 games: 0.87 s, the "
            "slowest 1.2 s.",
        ],
    ),
    Section(
        "replicas",
        "Replicas",
        "the failover and throughput of three bot processes on one PostgreSQL in webhook "
        "mode behind a round-robin "
        "balancer (docs/scaling.md). Takeover: the leader is SIGKILLed 0.1 s before a "
        "lobby's timer is due and stays down; seconds from the kill. Throughput: the "
        "replicas test's scripted games, 20 at once, every Bot API call 50 ms late.",
        [
            Table(
                [
                    ("after the leader's SIGKILL", lambda r: TAKEOVER[r["measure"]]),
                    ("median", number("median_s", 2, " s")),
                    ("max", number("max_s", 2, " s")),
                ],
                where=lambda row: row.get("part") == "takeover",
            ),
            Table(
                [
                    ("replicas", number("replicas")),
                    ("games", number("games")),
                    ("updates", number("updates")),
                    ("updates / s", number("updates_per_s", 1)),
                    ("games / min", number("games_per_min", 1)),
                    ("429s", number("count_429")),
                ],
                where=lambda row: row.get("part") == "throughput",
            ),
        ],
        [
            "A new leader waits one second before it sends: its predecessor may have spent "
            "the token's 30 calls of that second. More replicas add no throughput (one "
            "leader makes every Bot API call): they are for failover and deploys.",
        ],
    ),
    Section(
        "miniapp_pages",
        "Mini App pages",
        "open Mini App pages: event streams (every player's page, each with its own "
        "player's snapshot, the costliest viewer) on running `moscow` games in a SQLite "
        "database, the game service and the Mini App's routes on the webhook listener in "
        "one process and the pages in a client process; the speakers pass their floors "
        "through the runner at random. The delay runs from a move to each page's event of "
        "that version or later; memory is the bot's RSS growth until every page holds "
        "its first snapshot. Goal: every event delivered, p99 within 1 s.",
        [
            Table(
                [
                    ("games", number("games")),
                    ("pages", number("pages")),
                    ("moves", number("moves")),
                    ("deliveries", number("deliveries")),
                    ("missed", number("missed")),
                    ("delay p50 / **p99**", pair("delay_p50_ms", "delay_p99_ms", 1, " ms")),
                    ("max", number("delay_max_ms", 1, " ms")),
                    ("all open", number("open_all_s", 1, " s")),
                    ("RSS a page", number("kb_per_page", 0, " KB")),
                ]
            )
        ],
    ),
    Section(
        "ratings",
        "Ratings",
        "the time to recompute a group's whole leaderboard from seeded games (docs/ratings.md): "
        "`tg_mafia.ratings.leaderboard` over the games of a group, the median run by CPU "
        "time.",
        [
            Table(
                [
                    ("games", number("games")),
                    ("players a game", number("players")),
                    ("group members", number("members")),
                    ("runs", number("repeats")),
                    ("**CPU (median)**", number("cpu_ms", 0, " ms")),
                    ("a game", number("us_per_game", 0, " µs")),
                ]
            )
        ],
    ),
)

TAKEOVER = {
    "first_call": "the new leader's first Bot API call",
    "first_send": "its first `sendMessage`",
    "first_timer": "a lobby's timer due 0.1 s after the kill, applied",
    "timer_late": "that timer's lateness past its deadline",
}

HEAD = """\
# Benchmarks

The current figures of each benchmark in [`benchmarks/`](../benchmarks/README.md): what
it measures, the date, machine and exact command of each run, and one table. This page
is rendered by `benchmarks/report.py` from the JSON results in `benchmarks/results/`
(each benchmark writes one with `--json PATH`); do not edit it by hand. How the figures
came to be is in the history of those files.
"""


# ----- rendering -----------------------------------------------------------------------------


def load_runs(folder: Path = RESULTS) -> dict[str, list[dict[str, Any]]]:
    """The runs by benchmark, oldest first."""
    runs: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("*.json")):
        run = json.loads(path.read_text())
        runs.setdefault(run["benchmark"], []).append(run)
    for found in runs.values():
        found.sort(key=lambda run: (run["date"], run["command"]))
    return runs


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def describe_runs(runs: Sequence[dict[str, Any]]) -> list[str]:
    lines = []
    for index, run in enumerate(runs, 1):
        label = f"Run {index}: " if len(runs) > 1 else ""
        lines.append(
            f"- {label}{run['date']}, {run['machine']}, load average {run['load_average']}: "
            f"`{run['command']}`"
        )
    return lines


def render_table(table: Table, runs: Sequence[dict[str, Any]]) -> list[str]:
    """The table of the runs with rows it shows, each run by its number in the list."""
    several = len(runs) > 1
    numbered = [(n, run) for n, run in enumerate(runs, 1) if any(map(table.where, run["rows"]))]
    if table.transposed:
        header = ["", *(f"run {n}" if several else "" for n, _ in numbered)]
        picked = [next(r for r in run["rows"] if table.where(r)) for _, run in numbered]
        body = [[name, *(cell(row) for row in picked)] for name, cell in table.columns]
        return markdown_table(header, body)
    header = [*(["run"] if several else []), *(name for name, _ in table.columns)]
    body = []
    for number_, run in numbered:
        for row in filter(table.where, run["rows"]):
            cells = [cell(row) for _, cell in table.columns]
            body.append([*([str(number_)] if several else []), *cells])
    return markdown_table(header, body)


def render(runs_by_benchmark: dict[str, list[dict[str, Any]]]) -> str:
    unknown = set(runs_by_benchmark) - {section.benchmark for section in SECTIONS}
    if unknown:
        raise SystemExit(f"results of benchmarks without a section here: {sorted(unknown)}")
    lines = [HEAD]
    for section in SECTIONS:
        runs = runs_by_benchmark.get(section.benchmark, [])
        about = f"`benchmarks/{section.benchmark}.py` measures {section.about}"
        lines += [f"## {section.title}", "", wrap(about), ""]
        if not runs:
            lines += ["No result yet.", ""]
            continue
        lines += [*describe_runs(runs), ""]
        for table in section.tables:
            if any(table.where(row) for run in runs for row in run["rows"]):
                lines += [*render_table(table, runs), ""]
        for paragraph in section.reading:
            lines += [wrap(paragraph), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def wrap(paragraph: str) -> str:
    return textwrap.fill(paragraph, WIDTH, break_long_words=False, break_on_hyphens=False)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page differs")
    args = parser.parse_args(argv)
    page = render(load_runs())
    if args.check:
        if OUTPUT.read_text() != page:
            print(f"{OUTPUT} is not what benchmarks/report.py renders: run it", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(page)
    print(f"{OUTPUT.relative_to(ROOT)}: {page.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

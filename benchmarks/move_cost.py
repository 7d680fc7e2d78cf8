"""Move cost: the database thread's CPU for one move, without Telegram.

A move is what `Runner._act` does for a button press or a post: read the game,
apply the engine, render the calls, write the action, the state and the calls in
one transaction (group-committed, as the bot's SQLite writer does). GAMES classic
games of PLAYERS are started by the bot's own Runner on a scratch database, then
MOVES moves of the engine's seeded random policy are made round-robin over them,
BATCH to a group commit; the CPU time per move is reported (median of REPEATS
runs), with the read a press makes before its move (`Database.get_game`), and the
wall time per move (the commits' waits for the disk included). With
--no-group-commit each move commits by itself (the simple path). The database file
goes in --tmp (default: the system's), on a disk as the bot's would be.

    .venv/bin/python benchmarks/move_cost.py [--games 200] [--moves 4000] [--repeats 5]
        [--no-group-commit] [--database-url URL] [--tmp DIR] [--profile FILE] [--json PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import machine, results  # noqa: E402
from engine import Phase, apply  # noqa: E402
from engine.simulation import lively_action  # noqa: E402
from tg_mafia.runtime.clock import BotClock  # noqa: E402
from tg_mafia.runtime.db.thread import AsyncDb  # noqa: E402
from tg_mafia.runtime.gameview import state_of  # noqa: E402
from tg_mafia.runtime.runner import Runner  # noqa: E402
from tg_mafia.storage import Database, Player, open_database  # noqa: E402

BATCH = 8  # moves a group commit holds (the writer's batches under load)


def new_game(db: Database, runner: Runner, index: int, players: int) -> int:
    """A classic game started by the bot's Runner (in this thread: no group commit)."""
    with db.transaction() as tx:
        lobby = tx.create_lobby(
            -1000 - index,
            opened_by=1,
            variant="classic",
            language="en",
            players=[Player(index * 100 + n + 1, f"P{n}") for n in range(players)],
            title="bench",
            bot_rights={"can_delete_messages": True, "can_pin_messages": True},
            stage_deadline=time.time() + 600,
        )
    outcome = runner._start(db, lobby, None, None, time.time())
    assert outcome.record is not None, outcome.error
    return outcome.record.id


def one_run(
    db: Database,
    runner: Runner,
    ids: list[int],
    moves: int,
    players: int,
    rng: random.Random,
    grouped: bool = True,
) -> tuple[float, float]:
    """CPU and wall seconds per move over `moves` moves (a press's read, then its move).
    A game the next move would end is replaced by a new one, outside the measure."""
    spent, wall, done, slot = 0.0, 0.0, 0, 0
    while done < moves:
        ended: list[int] = []
        began, wall_began = time.process_time(), time.perf_counter()
        with db.grouped() if grouped else contextlib.nullcontext():
            for _ in range(BATCH):
                slot = (slot + 1) % len(ids)
                record = db.get_game(ids[slot])
                assert record is not None
                state = state_of(record)
                action = lively_action(state, rng, 0.3)
                if apply(state, action)[0].phase is Phase.ENDED:
                    ended.append(slot)
                    continue
                outcome = runner._act(db, ids[slot], action, None, None, None, time.time())
                assert outcome.error is None, outcome.error
                done += 1
        spent += time.process_time() - began
        wall += time.perf_counter() - wall_began
        for index in set(ended):
            with db.transaction() as tx:
                tx.abort_game(ids[index])  # its players are free for the next one
            # A chat and players no game has had: numbered after the ended game's id.
            ids[index] = new_game(db, runner, 10**6 + ids[index], players)
    return spent / done, wall / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-group-commit", action="store_true", help="each move commits alone")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--tmp", default=None, help="where the SQLite file goes")
    parser.add_argument("--profile", default=None, help="write a cProfile of one run here")
    results.add_argument(parser)
    args = parser.parse_args()
    run = results.Run.begin("move_cost")
    grouped = not args.no_group_commit
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        db = open_database(url)
        try:
            runner = Runner(AsyncDb.__new__(AsyncDb), BotClock(1.0, time.time), lambda r, c: None)
            ids = [new_game(db, runner, index, args.players) for index in range(args.games)]
            rng = random.Random(1)
            one_run(db, runner, ids, args.moves // 4, args.players, rng, grouped)  # warm-up
            measured = [
                one_run(db, runner, ids, args.moves, args.players, rng, grouped)
                for _ in range(args.repeats)
            ]
            costs, walls = [cpu for cpu, _ in measured], [wall for _, wall in measured]
            if args.profile:
                profile = cProfile.Profile()
                profile.runcall(one_run, db, runner, ids, args.moves, args.players, rng, grouped)
                profile.dump_stats(args.profile)
        finally:
            db.close()
    print(f"{machine.describe()}, {db.dialect}")
    print(f"# {' '.join(sys.argv[1:])}")
    print(f"move CPU, median of {args.repeats}: {statistics.median(costs) * 1e6:.0f} us")
    print("runs:", ", ".join(f"{c * 1e6:.0f}" for c in costs))
    print(f"move wall time, median of {args.repeats}: {statistics.median(walls) * 1e6:.0f} us")
    row = {
        "database": db.dialect,
        "group_commit": grouped,
        "games": args.games,
        "moves": args.moves,
        "move_cpu_us": statistics.median(costs) * 1e6,
        "runs_us": [c * 1e6 for c in costs],
        "move_wall_us": statistics.median(walls) * 1e6,
        "wall_runs_us": [w * 1e6 for w in walls],
    }
    run.write(args.json, [row])


if __name__ == "__main__":
    main()

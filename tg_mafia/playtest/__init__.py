"""The real bot on the sandbox with simulated players: the end-to-end harness of the
tests, the benchmarks and `tg-mafia demo` (docs/testing.md, "The end-to-end harness").

A stable entry point: the names below, importable from here or from the module that
defines them, keep their meaning as the code around them changes.

- `running_bot(tmp_path, players, ...)`: an async context manager, the unmodified bot
  (bootstrap.py) on a fresh sandbox and database, its users and a group; it yields a
  `Harness` (`sb`, `app`, `db`, `group`, `users`, `admin`, `service`, `settle()`,
  `open_and_fill()`, `press_start()`...). `scratch_database` gives the database alone,
  on SQLite or, when DATABASE_URL names one, on PostgreSQL; `BOT_RIGHTS` are the
  administrator rights the group gives the bot.
- `ManualScheduler`: the game timers fired by the test, never by a clock.
- `AutoPlayers`: seated users who play a whole game by pressing the bot's buttons and
  posting, every choice from one seed; `find_button`, `find_buttons`, `press` and
  `prefix` find and press a button by its callback data.
- `Demo`: a whole seeded game, shown at the end or as it happens (`Watch`)."""

from tg_mafia.playtest.autoplay import (
    AutoplayError,
    AutoPlayers,
    find_button,
    find_buttons,
    prefix,
    press,
)
from tg_mafia.playtest.demo import Demo
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness, running_bot, scratch_database
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.playtest.watch import Watch

__all__ = [
    "BOT_RIGHTS",
    "AutoPlayers",
    "AutoplayError",
    "Demo",
    "Harness",
    "ManualScheduler",
    "Watch",
    "find_button",
    "find_buttons",
    "prefix",
    "press",
    "running_bot",
    "scratch_database",
]

"""Re-makes docs/transcripts/: a whole game of each variant, one per language,
played by the real bot on the offline sandbox (`tg-mafia demo`).

    .venv/bin/python docs/make_transcripts.py

The same seed replays the same game, so a transcript changes only where what
players read changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "transcripts"

# (file, variant, players, language, seed, extra demo flags, what the reader sees)
GAMES = (
    ("classic-fr", "classic", 9, "fr", 3, (), "the live majority vote of the classic game"),
    (
        "moscow-ru",
        "moscow",
        11,
        "ru",
        3,
        ("--option", "thanks_rule=on"),
        "introductions, speeches ended by «спасибо», nominations and the hand-raise vote",
    ),
    ("party-ro", "party", 9, "ro", 3, (), "free talk by day, then a secret ballot"),
    ("club-vi", "club", 10, "vi", 9, (), "the escort's visit, nominations and the hand-raise vote"),
    ("sport-ru", "sport", 10, "ru", 74, (), "the zero night, farewells, the best move, fouls"),
    ("forum-classic-en", "classic", 8, "en", 3, ("--forum",), "a game in a forum topic"),
)

HEADER = """# A whole game: {variant}, {players} players, language {language} (seed {seed})

Generated with `tg-mafia demo {args}` (re-made by `docs/make_transcripts.py`): the real bot
on the offline sandbox, with simulated players who press the buttons a person would press
(random but legal choices). What to look for: {look}. First the group as a member sees it
after every edit and deletion, then each player's private chat with the bot. `[N]` is the
message id; `(edited)` marks a message edited in place; buttons are shown under their
message; deadlines are `date_time` entities, which each reader's app shows in their own
time zone, printed here as their UTC fallback text. The demo fires each timer as soon as the
simulated table has acted, so a stage often ends before the deadline its message shows.

```text
"""


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, variant, players, language, seed, extra, look in GAMES:
        flags = ["--variant", variant, "--players", str(players), "--lang", language]
        flags += ["--seed", str(seed), *extra]
        if "--forum" not in extra:
            flags.append("--private")
        shown = subprocess.run(
            [sys.executable, "-m", "tg_mafia.cli", "demo", *flags],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        ).stdout
        header = HEADER.format(
            variant=variant,
            players=players,
            language=language,
            seed=seed,
            args=" ".join(flags),
            look=look,
        )
        (OUT / f"{name}.md").write_text(header + shown.rstrip("\n") + "\n```\n")
        print(f"{name}.md: {len(shown.splitlines())} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

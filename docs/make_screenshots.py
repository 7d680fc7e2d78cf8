"""Writes the play page's screenshots in docs/images from the browser tests
(tests/play/test_browser.py), which play real games through the page in
Debian's headless chromium:

- play-lobby.png: the lobby, open and full, waiting for its opener's Start;
- play-vote.png: a hand-raise count in moscow, in Russian;
- play-end.png: the end of a classic game: the bot's picture, the roles, New game;
- play-phone.png: the page on a 390 × 844 phone screen.

Run it again whenever the page changes:

    .venv/bin/python docs/make_screenshots.py

It needs /usr/bin/chromium (apt-get install chromium) and, for the emoji in
colour, Debian's fonts-noto-color-emoji.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
OUTPUT = DOCS / "images"
# The tests that take them: one game of classic and of moscow, and the phone.
TESTS = "classic or moscow or phone"
PICTURES = ("play-lobby.png", "play-vote.png", "play-end.png", "play-phone.png")


def missing() -> str | None:
    """What the screenshots need and this machine lacks."""
    if not Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium is missing: apt-get install chromium"
    fonts = shutil.which("fc-list")
    listed = subprocess.run([fonts], capture_output=True, text=True).stdout if fonts else ""
    if "Noto Color Emoji" not in listed:
        return "no colour emoji font: apt-get install fonts-noto-color-emoji"
    return None


def main() -> int:
    problem = missing()
    if problem:
        print(f"make_screenshots: {problem}", file=sys.stderr)
        return 2
    OUTPUT.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider"]
    command += ["tests/play/test_browser.py", "-k", TESTS]
    environment = {**os.environ, "TG_MAFIA_PLAY_SCREENSHOTS": str(OUTPUT), "CI": "true"}
    started = time.time()
    code = subprocess.run(command, cwd=ROOT, env=environment).returncode
    # A game that happened to hold no vote takes no picture of one: say so.
    stale = [name for name in PICTURES if (OUTPUT / name).stat().st_mtime < started]
    if code == 0 and stale:
        print(f"make_screenshots: not taken this time, run it again: {stale}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())

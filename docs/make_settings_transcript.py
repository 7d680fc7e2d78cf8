"""Writes docs/settings-fr.md: the /settings menu as a French group's
administrator sees it, step by step, rendered from the sandbox.

Run it again whenever the French catalogue or the menu changes:

    .venv/bin/python docs/make_settings_transcript.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from tg_mafia.playtest.autoplay import find_button
from tg_mafia.playtest.harness import Harness, running_bot

OUTPUT = Path(__file__).with_name("settings-fr.md")

# (what the admin does, the callback data of the button pressed; None: /settings)
STEPS: tuple[tuple[str, str | None], ...] = (
    ("The administrator sends /settings in the group.", None),
    ("Taps the variant button: the list of variants.", "st:0:-:v"),
    ("Chooses Moscow rules: only moscow's options are shown.", "st:0:-:V:moscow"),
    ("Taps the speech length: steps within its range.", "st:0:-:o:speech_seconds"),
    ("Taps +30.", "st:0:-:O:speech_seconds:90"),
    ("Goes back to the menu.", "st:0:-:m"),
    ("Toggles the thanks word on.", "st:0:-:O:thanks_rule:on"),
    ("Switches the host to a person.", "st:0:-:O:host:human"),
    ("Taps the language button: each language by its own name.", "st:0:-:l"),
    ("Keeps Français.", "st:0:-:L:fr"),
    ("Taps Done: the menu becomes a summary.", "st:0:-:x"),
)

HEAD = """# The /settings menu in French

What a group administrator sees, step by step, in a group whose language is
French (`fr`). Each block is the group chat after the step: the bot's menu is
one message, edited in place; buttons are shown in brackets, one row a line.

This file is generated from the sandbox by `docs/make_settings_transcript.py`
(`.venv/bin/python docs/make_settings_transcript.py`); do not edit it by hand.
The French catalogue is complete; run the script again whenever it or the
menu changes.
"""


async def transcript(work: Path) -> str:
    parts = [HEAD]
    async with running_bot(work, 1) as h:
        h.db.save_settings(h.group.id, language="fr", variant="classic")
        for number, (what, data) in enumerate(STEPS, 1):
            await step(h, data)
            parts.append(f"## {number}. {what}\n\n```\n{h.sb.render(h.admin, h.group)}\n```\n")
    return "\n".join(parts)


async def step(h: Harness, data: str | None) -> None:
    if data is None:
        h.admin.command(h.group, "settings", mention=True)
    else:
        found = find_button(h, h.group.id, lambda d: d == data)
        assert found is not None, f"no button {data}"
        message_id, label = found
        h.admin.press(h.group, label, message_id=message_id)
    await h.settle()


def main(output: Path = OUTPUT) -> None:
    with tempfile.TemporaryDirectory() as work:
        text = asyncio.run(transcript(Path(work)))
    output.write_text(text, encoding="utf-8")
    print(f"wrote {output}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT)

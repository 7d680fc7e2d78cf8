"""`tg-mafia demo`: a seed replays the game, --watch shows it as it happens,
--option reaches the game and a bad one is refused."""

from __future__ import annotations

import re

import pytest

from engine import resolve_options
from tg_mafia.cli import main
from tg_mafia.playtest.demo import Demo

SPEED = 500.0  # the bot's timers are fired by the players; this paces the outbox only


def without_clock(text: str) -> str:
    """The bot writes wall-clock deadlines ("until 21:04:05") and the watch
    stamps sandbox time: both follow the real clock, not the seed."""
    text = re.sub(r"\b\d\d:\d\d:\d\d\b", "hh:mm:ss", text)
    return re.sub(r"(?m)^\[\d\d:\d\d\] ", "[mm:ss] ", text)


def demo(seed: int, **given: str) -> Demo:
    return Demo("moscow", 9, "en", resolve_options("moscow", given), seed, speed=SPEED)


@pytest.mark.slow
async def test_the_same_seed_replays_the_same_game() -> None:
    first = await demo(5).play(show_private=True)
    again = await demo(5).play(show_private=True)
    other = await demo(6).play(show_private=True)
    assert "wins" in first
    assert without_clock(first) == without_clock(again)
    assert without_clock(first) != without_clock(other)


async def test_watch_shows_posts_presses_edits_and_deletions_in_order() -> None:
    lines: list[str] = []
    await demo(4, warnings_limit="1").play(on_lines=lines.extend)
    text = "\n".join(lines)
    assert lines[0].endswith("group: Admin posts #1")
    assert re.search(r"group: Admin presses \[Start\] on #\d+", text)
    # The count's message edited as hands go up: a line of it reads "— 2 votes (…)".
    count = r"group: edited #\d+\n(?:    .*\n)*?    .*— \d+ votes? \("
    assert re.search(count, text), "the hand count runs"
    # A post out of turn: deleted with the engine's reason, then the warning,
    # which the option made the last one.
    deletion = next(
        i for i, line in enumerate(lines) if "deleted #" in line and "the bot's own" not in line
    )
    why = re.search(r"deleted #\d+, \w+'s post «.+»: (posted [a-z ]+)$", lines[deletion])
    assert why is not None, lines[deletion]
    assert f"warning 1/1 — {why[1]}." in "\n".join(lines[deletion : deletion + 4])
    assert "is out: too many warnings" in text
    assert "closed: members may not post" in text and "open: members may post" in text
    assert any("wins" in line for line in lines[-40:]), "the end screen comes last"


@pytest.mark.slow
async def test_the_thanks_rule_shows_when_on() -> None:
    """A speaker's "Thank you." ends the floor: the next speaker's floor follows,
    and the post stays. Without the rule nobody says it on their floor."""
    lines: list[str] = []
    await demo(4, thanks_rule="on").play(on_lines=lines.extend)
    thanks = [i for i, line in enumerate(lines) if line == "    Thank you."]
    floors_ended = [i for i in thanks if any("Now: " in line for line in lines[i + 1 : i + 5])]
    assert floors_ended, "no floor ended with thanks"
    assert not any(
        "deleted" in line and "«Thank you.»" in line
        for i in floors_ended
        for line in lines[i : i + 5]
    )
    plain: list[str] = []
    await demo(4).play(on_lines=plain.extend)
    assert plain.count("    Thank you.") < len(thanks)


def by_chat(lines: list[str]) -> dict[str, list[str]]:
    """Each chat's lines in order. Chats' outboxes run side by side, so how
    two chats' lines interleave follows the real clock; each chat's own order
    follows the seed."""
    chats: dict[str, list[str]] = {}
    current: list[str] = []
    for line in lines:
        if line.startswith("["):
            chat = re.sub(r"^\[\d\d:\d\d\] ", "", line).split(":")[0].split(" sees ")[0]
            current = chats.setdefault(chat, [])
        current.append(without_clock(line))
    return chats


@pytest.mark.slow
async def test_watch_replays_with_the_seed() -> None:
    first: list[str] = []
    again: list[str] = []
    await demo(4).play(on_lines=first.extend)
    await demo(4).play(on_lines=again.extend)
    assert "group" in by_chat(first) and "Ann (private)" in by_chat(first)
    assert by_chat(first) == by_chat(again)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--option", "thanks_rule=maybe"], "thanks_rule: 'maybe' is not on or off"),
        (["--option", "thanks"], "option 'thanks' is not NAME=VALUE"),
        (["--option", "bogus=1"], "unknown option 'bogus'"),
        (["--variant", "club", "--option", "thanks_rule=on"], "not used by the club variant"),
        (["--option", "warnings_limit=9"], "out of range (0 to 5)"),
        (["--players", "3"], "moscow needs 7 to 15 players, not 3"),
    ],
)
def test_a_bad_table_is_refused_with_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("tg-mafia demo: ") and message in captured.err

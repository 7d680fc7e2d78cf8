"""The README, followed as written: its commands are read from it, not copied here.

- The run command, without a token, says how to get one and names the demo command the
  README shows; that demo plays a whole game; the test command is the one CI runs.
- "Your first game in a real group", step by step on the sandbox: the bot made (the
  sandbox's token), privacy mode off, the README's exact run command with that token
  (Telegram is the sandbox: TELEGRAM_BASE_URL is the one thing added), the bot added to
  the group with the rights of the README's table, `/newgame`, the players' Join, the
  opener's Start: each player gets a role in private, the lobby is pinned, the night
  closes the chat, and nothing says a right is missing.
- Every number in the README outside its commands comes from the code.

The venv and the pip install of the README's commands are what a fresh clone does (CI's
`.ci/run` does it); here the installed `tg-mafia` beside this Python stands for
`.venv/bin/tg-mafia`."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.variants import VARIANTS
from tg_mafia.config import ENV_VARS
from tg_mafia.i18n import LANGUAGES
from tg_mafia.sandbox import HttpTransport, Sandbox, SimUser
from tg_mafia.sandbox.world.state import Chat

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
VENV_BIN = Path(sys.executable).parent
PATIENCE = 60.0  # seconds a real bot process may take to answer: only a stuck one runs out
REAL_GROUP = "Your first game in a real group"
# The rights of the README's table, as Telegram's app names them and as the Bot API does.
RIGHTS = {
    "Delete messages": "can_delete_messages",
    "Ban users": "can_restrict_members",
    "Pin messages": "can_pin_messages",
}
WORDS = {"four": 4, "five": 5, "six": 6}


def section(title: str) -> str:
    """The README's text under `## title`, up to the next such heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, flags=re.M | re.S)
    assert match, f"the README has no section {title!r}"
    return match.group(1)


def shell_blocks(text: str) -> list[str]:
    """The ```sh blocks of `text`, each as one line (indentation of a list item dropped)."""
    blocks = re.findall(r"^( *)```sh\n(.*?)^\1```", text, flags=re.M | re.S)
    return [" ".join(line.strip() for line in body.splitlines()) for _, body in blocks]


def the_block(text: str, containing: str) -> str:
    (block,) = [b for b in shell_blocks(text) if containing in b]
    return block


def steps(block: str) -> list[list[str]]:
    """The commands of a shell line joined by `&&`, each split as the shell would."""
    return [shlex.split(part) for part in block.split("&&")]


def local(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """A README command as this test runs it: its leading VARIABLE=value words as the
    environment, `.venv/bin/X` as the X installed beside this Python."""
    env = {}
    while argv and re.fullmatch(r"[A-Z_]+=.*", argv[0]):
        name, _, value = argv.pop(0).partition("=")
        env[name] = value
    program = argv[0]
    if program.startswith(".venv/bin/"):
        program = str(VENV_BIN / program.removeprefix(".venv/bin/"))
    return env, [program, *argv[1:]]


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without any bot setting, this checkout first on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_VARS.values()}
    env["PYTHONPATH"] = str(ROOT)
    return env | extra


# -- the two commands ---------------------------------------------------------------------------


def test_the_run_command_without_a_token_points_to_the_demo(tmp_path: Path) -> None:
    venv, install, run = steps(the_block(section("Two commands"), "tg-mafia run"))
    assert venv == ["python3", "-m", "venv", ".venv"]
    assert install == [".venv/bin/pip", "install", "-q", "."]
    env, argv = local(run)
    assert env == {} and argv[1:] == ["run"]
    done = subprocess.run(
        argv, env=clean_env(), cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "@BotFather" in done.stderr
    demo = the_block(section("Two commands"), "tg-mafia demo")
    assert demo.removeprefix(".venv/bin/") in done.stderr.splitlines()[-1]


def test_the_demo_command_plays_a_whole_game(tmp_path: Path) -> None:
    (command,) = steps(the_block(section("Two commands"), "tg-mafia demo"))
    env, argv = local(command)
    done = subprocess.run(
        argv, env=clean_env(**env), cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "🏆" in done.stdout  # the end of the game, in any language


def test_the_test_command_is_the_one_ci_runs() -> None:
    block = the_block(section("Two commands"), "pytest")
    ci = (ROOT / ".ci" / "run").read_text()
    install, _, test = block.rpartition(" && ")
    assert install == "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]'"
    assert test == ".venv/bin/python -m pytest -q"
    assert install in ci and f"{test} " in ci


# -- every number the README says -----------------------------------------------------------------


def test_every_number_outside_the_commands_comes_from_the_code() -> None:
    prose = re.sub(r"```.*?```", "", README, flags=re.S)  # commands: run by the tests above
    prose = re.sub(r"\]\([^)]*\)", "]", prose)  # link targets: checked by tests/docs
    prose = re.sub(r"^\s*\d+\. ", "", prose, flags=re.M)  # the steps' numbers
    python = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    known = {python.removeprefix(">=")}
    for variant in VARIANTS.values():
        known |= {str(variant.min_players), str(variant.max_players)}
    for path in (ROOT / "benchmarks" / "results").glob("load-*.json"):  # what a token carries
        run = json.loads(path.read_text())
        for row in run["rows"]:
            if row.get("model") == "real":
                groups = re.findall(r"--games (\d+)", run["command"])
                known |= {f"{int(n):,}" for n in groups} | {f"{row['games_admitted']:,}"}
    found = set(re.findall(r"\d+(?:[.,]\d+)*", prose))
    assert found <= known, f"numbers the tests do not check: {sorted(found - known)}"
    assert f"Python {python.removeprefix('>=')} or newer" in README


def table(text: str, first_header: str) -> list[list[str]]:
    """The rows of the markdown table whose first column is headed `first_header`."""
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_variants_table_is_the_engine_s() -> None:
    rows = table(section("Variants"), "Variant")
    assert [row[0].strip("`") for row in rows] == list(VARIANTS)
    for name, players, _ in rows:
        variant = VARIANTS[name.strip("`")]
        low, high = variant.min_players, variant.max_players
        assert players == (str(low) if low == high else f"{low}–{high}"), name


def test_the_languages_table_is_the_bot_s() -> None:
    rows = table(section("Languages"), "Language")
    assert sorted(row[1].strip("`") for row in rows) == sorted(LANGUAGES)


def test_the_counts_in_words_are_the_code_s() -> None:
    for word, number in WORDS.items():
        for thing, real in (("variants", len(VARIANTS)), ("languages", len(LANGUAGES))):
            if f"{word} {thing}" in README.lower():
                assert number == real, f"{word} {thing}"


# -- your first game in a real group, on the sandbox --------------------------------------------


async def until(check: Callable[[], bool], sb: Sandbox, proc: asyncio.subprocess.Process) -> None:
    """Until `check()`, while the bot process lives."""
    loop = asyncio.get_running_loop()
    end = loop.time() + PATIENCE
    while not check():
        if proc.returncode is not None:
            raise AssertionError(f"the bot exited {proc.returncode}")
        if loop.time() > end:
            raise AssertionError("the bot did not do it in time")
        await asyncio.sleep(0.05)


def texts(user: SimUser, chat: Chat | int) -> list[str]:
    return [m.text or "" for m in user.view(chat)]


@pytest.mark.real_time
async def test_a_first_game_in_a_real_group_as_the_readme_says(tmp_path: Path) -> None:
    steps_text = section(REAL_GROUP)
    sb = Sandbox()
    players = sb.add_users(min(v.min_players for v in VARIANTS.values()))
    owner = sb.add_user("Owner")
    group = sb.add_group("Friday club", members=[*players, owner], owner=owner, bot_member=False)

    # 1. BotFather's token: the sandbox's bot has one.
    assert "`/newbot`" in steps_text
    # 2. Privacy mode off, as BotFather's /setprivacy -> Disable does.
    assert "`/setprivacy`" in steps_text and "`Disable`" in steps_text
    sb.privacy_mode = False
    async with HttpTransport(sb) as http:
        # 3. The README's command, with the token where it says.
        (command,) = steps(the_block(steps_text, "tg-mafia run"))
        env, argv = local(command)
        assert env == {"TELEGRAM_BOT_TOKEN": "<the token>"}
        env = clean_env(TELEGRAM_BOT_TOKEN=sb.token, TELEGRAM_BASE_URL=http.base_url)
        log = tmp_path / "bot.log"
        with log.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                *argv, env=env, cwd=tmp_path, stdout=out, stderr=asyncio.subprocess.STDOUT
            )
        try:
            await until(lambda: bool(sb.log.calls("getUpdates")), sb, proc)
            # 4. Added to the group as an administrator with the table's rights.
            rights = {
                RIGHTS[row[0]]: True for row in table(steps_text, "Right (as Telegram names it)")
            }
            assert set(rights) == set(RIGHTS.values())
            sb.add_bot(group, by=owner, rights=rights)
            # 5. /newgame in the group; each player presses Join; the opener presses Start.
            assert "Send `/newgame` in the group" in steps_text
            owner.send(group, "/newgame")
            await until(lambda: any(m.buttons for m in owner.view(group)), sb, proc)
            # The pin is a call of its own, after the lobby's: waited for, not raced.
            await until(
                lambda: next(m for m in owner.view(group) if m.buttons).pinned, sb, proc
            )  # the lobby is pinned (Pin messages)
            lobby = next(m for m in owner.view(group) if m.buttons)
            join = lobby.buttons[0][0]
            for player in players:
                player.press(group, join)
                await until(lambda p=player: len(texts(p, p.private_chat)) >= 2, sb, proc)
            lobby = next(m for m in owner.view(group) if m.buttons)
            start = next(b for row in lobby.buttons for b in row if "Start" in b)
            owner.press(group, start, message_id=lobby.message_id)
            for player in players:
                await until(
                    lambda p=player: any("Your role" in t for t in texts(p, p.private_chat)),
                    sb,
                    proc,
                )
            chat = sb.world.resolve_chat(group.id)
            await until(lambda: chat.permissions.get("can_send_messages") is False, sb, proc)
            assert not any("I am not an administrator" in t for t in texts(owner, group))
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGINT)  # Ctrl-C, as the README says
            code = await asyncio.wait_for(proc.wait(), PATIENCE)
    output = log.read_text()
    assert code == 0, output
    assert (tmp_path / "tg_mafia.db").is_file()  # "in the working directory"
    assert sb.token not in output and "Traceback" not in output
    await sb.close()

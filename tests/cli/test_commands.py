"""The `tg-mafia` command as a newcomer meets it: each sub-command's --help says what it
does and shows examples that parse; each one's bad argument gets one clear line and a
non-zero exit code, never a traceback."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tg_mafia.cli import build_parser, main
from tg_mafia.config import ENV_VARS

VALID_TOKEN = "123456789:" + "A" * 35


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def example_lines(help_text: str) -> list[str]:
    """The command lines under the help's `examples:` heading."""
    _, found, after = help_text.partition("\nexamples:\n")
    assert found, f"no examples in:\n{help_text}"
    return [line.strip() for line in after.splitlines() if line.startswith("  ")]


def argvs(line: str) -> Iterator[list[str]]:
    """Each `tg-mafia ...` command of an example line: `&&` splits, a leading
    VARIABLE=value goes, a # comment ends it."""
    words = shlex.split(line, comments=True)
    command: list[str] = []
    for word in [*words, "&&"]:
        if word == "&&":
            while command and "=" in command[0] and not command[0].startswith("-"):
                command.pop(0)
            if command:
                assert command[0] == "tg-mafia", line
                yield command[1:]
            command = []
        else:
            command.append(word)


def test_the_top_level_help_says_what_it_is_with_examples() -> None:
    text = build_parser().format_help()
    assert "hosts the party game Mafia" in text
    for line in example_lines(text):
        for argv in argvs(line):
            assert argv[0] in subcommands(), line
            build_parser().parse_args(argv)


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_each_help_says_what_it_does_with_examples_that_parse(name: str) -> None:
    sub = subcommands()[name]
    assert sub.description and len(sub.description.split()) >= 8, name
    lines = example_lines(sub.format_help())
    assert lines, name
    for line in lines:
        for argv in argvs(line):
            # Every example of a command runs that command (or names another on purpose).
            assert argv[0] in subcommands(), line
            args = build_parser().parse_args(argv)
            assert args.func is not None
    assert any(next(argvs(line))[0] == name for line in lines), name


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No bot setting from outside; the working directory empty but for a database."""
    for variable in (*ENV_VARS.values(), "HEALTH_LISTEN"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["prune"]) == 0  # makes ./tg_mafia.db, as a first start would
    return tmp_path


def taken_port() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


# (sub-command, arguments, environment, what the line must say)
BAD = [
    ("scenario", ["/nonexistent/dir"], {}, "no such file or folder"),
    ("simulate", ["--variant", "moscow", "--players", "many"], {}, "not a whole number"),
    ("simulate", ["--variant", "chess", "--players", "9"], {}, "unknown variant"),
    ("sandbox", ["--port", "99999"], {}, "not a port"),
    ("sandbox", ["--port", "TAKEN"], {}, "cannot listen on 127.0.0.1:"),
    ("run", [], {"TELEGRAM_BOT_TOKEN": VALID_TOKEN, "DATABASE_URL": "nonsense://x"}, "unsupported"),
    ("run", ["--drain-seconds", "soon"], {"TELEGRAM_BOT_TOKEN": VALID_TOKEN}, "--drain-seconds"),
    ("run", ["--token", "12345"], {}, "does not look like a bot token"),
    ("demo", ["--players", "3"], {}, "needs 7 to 15 players"),
    ("demo", ["--option", "maniac=maybe"], {}, "is not on or off"),
    ("play", ["--port", "99999"], {}, "not a port"),
    ("play", ["--players", "2"], {}, "needs 7 to 15 players"),
    ("i18n", ["check", "--root", "/nonexistent/dir"], {}, "no babel.cfg"),
    ("healthcheck", ["--url", "http://127.0.0.1:1/healthz"], {}, "unhealthy"),
    ("healthcheck", [], {}, "HEALTH_LISTEN is not set"),
    ("backup", ["/nonexistent/dir/x.bak"], {}, "there is no folder /nonexistent/dir"),
    ("backup", ["."], {}, "is a folder"),
    ("backup", ["x.bak"], {"DATABASE_URL": "mysql://u:secret@db/x"}, "unsupported database"),
    ("restore", ["/nonexistent/dir/x.bak"], {}, "no backup at /nonexistent/dir/x.bak"),
    ("restore", ["tg_mafia.db"], {}, "is not empty"),
    ("prune", ["--days", "-3"], {}, "--days must be a number of days"),
    ("prune", ["--database-url", "sqlite:////nonexistent/dir/x.db"], {}, "cannot open"),
]


def test_every_sub_command_has_a_bad_case() -> None:
    assert {case[0] for case in BAD} == set(subcommands())


@pytest.mark.parametrize(
    ("name", "argv", "env", "says"), BAD, ids=[f"{c[0]} {' '.join(c[1])}" for c in BAD]
)
def test_a_bad_argument_is_one_clear_line(
    name: str,
    argv: list[str],
    env: dict[str, str],
    says: str,
    clean: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for variable, value in env.items():
        monkeypatch.setenv(variable, value)
    with taken_port() as sock:
        argv = [str(sock.getsockname()[1]) if a == "TAKEN" else a for a in argv]
        capsys.readouterr()
        try:
            code = main([name, *argv])
        except SystemExit as exit_:  # argparse's refusal
            code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert code not in (0, None), lines
    assert len(lines) == 1, lines
    assert says in lines[0], lines
    assert "secret" not in lines[0]


def test_the_issue_s_backup_through_the_installed_command(clean: Path) -> None:
    """The console script itself, as a shell runs it: one line, exit 1, no traceback."""
    script = Path(sys.executable).with_name("tg-mafia")
    env = {k: v for k, v in os.environ.items() if k not in ENV_VARS.values()}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [str(script), "backup", "/nonexistent/dir/x.bak"],
        cwd=clean, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "tg-mafia backup: cannot write /nonexistent/dir/x.bak: there is no folder /nonexistent/dir"
    ]


def test_docs_cli_has_a_section_for_every_sub_command() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    headings = " ".join(re.findall(r"^## (.+)$", page, flags=re.M))
    for name in subcommands():
        assert re.search(rf"\b{name}\b", headings), name

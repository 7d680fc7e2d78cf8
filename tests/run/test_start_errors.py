"""`tg-mafia run` refusing to start: one clear line on stderr, exit code 2, no traceback."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tg_mafia.cli import main
from tg_mafia.config import ENV_VARS

TOKEN = "123456789:" + "A" * 35


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting from the outside (CI sets DATABASE_URL); the SQLite default lands in tmp."""
    for name in ENV_VARS.values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield sock.getsockname()[1]


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tg-mafia run: ")
    return lines[0]


def test_without_a_token_it_says_how_to_get_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["run"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "@BotFather" in err and "/newbot" in err and "TELEGRAM_BOT_TOKEN" in err
    assert "tg-mafia demo --variant moscow --players 11 --lang ru" in err
    assert "Traceback" not in err
    assert not (tmp_path / "tg_mafia.db").exists()  # nothing was set up


def test_a_malformed_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--token", "not-a-token"]) == 2
    line = one_line(capsys)
    assert "does not look like a bot token" in line and "not-a-token" not in line


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://u:secret@db/x", "unsupported database"),
        ("postgresql+nodriver://u:secret@db/x", "unknown database driver"),
        ("sqlite:////nonexistent-dir/sub/x.db", "cannot open the database"),
        ("postgresql+psycopg://u:secret@127.0.0.1:1/x", "cannot reach the database"),
    ],
)
def test_a_bad_or_unreachable_database(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, url: str, words: str
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["run"]) == 2
    line = one_line(capsys)
    assert words in line
    assert "secret" not in line and TOKEN not in line


def test_the_webhook_port_in_use(capsys: pytest.CaptureFixture[str], taken_port: int) -> None:
    code = main(
        [
            "run",
            "--token",
            TOKEN,
            "--webhook-url",
            "https://bot.example.org/hook",
            "--listen",
            f"127.0.0.1:{taken_port}",
        ]
    )
    assert code == 2
    line = one_line(capsys)
    assert f"cannot listen on 127.0.0.1:{taken_port} (WEBHOOK_LISTEN)" in line
    assert "in use" in line


def test_the_health_port_in_use(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, taken_port: int
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("HEALTH_LISTEN", str(taken_port))
    assert main(["run"]) == 2
    assert "(HEALTH_LISTEN)" in one_line(capsys)


def test_a_bad_setting_names_its_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/hook")
    monkeypatch.setenv("WEBHOOK_LISTEN", "everywhere")
    assert main(["run"]) == 2
    assert "WEBHOOK_LISTEN must be HOST:PORT" in one_line(capsys)

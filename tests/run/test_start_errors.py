"""`tg-mafia run` refusing to start: one clear line on stderr, exit code 2, no traceback."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tg_mafia.cli import main
from tg_mafia.config import ENV_VARS
from tg_mafia.telegram import startup

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


def nothing_created(tmp_path: Path) -> bool:
    return not list(tmp_path.iterdir())


def test_a_malformed_token_names_the_flag_or_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert main(["run", "--token", "not-a-token"]) == 2
    line = one_line(capsys)
    assert line.startswith("tg-mafia run: --token does not look like a bot token")
    assert "not-a-token" not in line
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "not-a-token")
    assert main(["run"]) == 2
    line = one_line(capsys)
    assert line.startswith("tg-mafia run: TELEGRAM_BOT_TOKEN does not look like a bot token")
    assert nothing_created(tmp_path)


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["--webhook-url", "http://example.org/x"], "--webhook-url must be an https URL"),
        (["--webhook-url", "https://example.org:8080/x"], "--webhook-url must use a port"),
        (["--webhook-url", "https://:443/x"], "--webhook-url must be an https URL with a host"),
        (["--base-url", "http://127.0.0.1:8081/api"], "--base-url must end in /bot"),
        (["--base-url", "http://127.0.0.1:8081x"], "--base-url must be an http(s) URL"),
        (
            ["--webhook-url", "https://x.org/h", "--secret-token", "a b"],
            "--secret-token must be 1-256 characters",
        ),
        (["--health-listen", "nowhere"], "--health-listen must be HOST:PORT or PORT"),
        (["--log-format", "xml"], "--log-format must be text or json, not 'xml'"),
        (["--log-level", "loud"], "--log-level must be one of DEBUG, INFO, WARNING, ERROR"),
        (["--database-url", "postgresql://u:p@ss@h:port/x"], "--database-url is malformed"),
    ],
)
def test_a_bad_setting_stops_before_anything_is_created(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], start: str
) -> None:
    assert main(["run", "--token", TOKEN, *args]) == 2
    assert one_line(capsys).startswith(f"tg-mafia run: {start}")
    assert nothing_created(tmp_path)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("WEBHOOK_URL", f"http://bot.example.org/{TOKEN}"),
        ("TELEGRAM_BASE_URL", f"http://127.0.0.1:8081/{TOKEN}/api"),
        ("TELEGRAM_BASE_URL", f"http://u:{TOKEN}@127.0.0.1:8081x/bot"),
        ("DATABASE_URL", "postgresql://u:pw@ss-word@127.0.0.1:1/x"),
        ("DATABASE_URL", "postgresql://u:pw@ss-word@127.0.0.1:port/x"),
    ],
)
def test_secrets_in_a_bad_setting_are_not_printed(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    variable: str,
    value: str,
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv(variable, value)
    assert main(["run"]) == 2
    line = one_line(capsys)
    assert variable in line
    assert TOKEN not in line and "A" * 20 not in line
    assert "pw@" not in line and "ss-word" not in line
    assert nothing_created(tmp_path)


def test_the_webhook_secret_in_a_bad_url_is_not_printed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No shape gives it away: only the value given tells the redaction what to hide.
    monkeypatch.setenv("WEBHOOK_SECRET", "hush-hush")
    assert main(["run", "--token", TOKEN, "--webhook-url", "http://x.org/hush-hush"]) == 2
    assert one_line(capsys) == (
        "tg-mafia run: --webhook-url must be an https URL with a host, "
        "e.g. https://bot.example.org/tg-mafia, not 'http://x.org/***'"
    )


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


def test_the_webhook_port_in_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, taken_port: int
) -> None:
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
    assert f"cannot listen on 127.0.0.1:{taken_port} (--listen)" in line
    assert "in use" in line
    assert nothing_created(tmp_path)


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


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
def test_alembic_speaks_only_when_debugging(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    # The database is made and migrated, then the Bot API cannot be reached: each
    # attempt is logged once, then one line, exit 1.
    monkeypatch.setenv("LOG_LEVEL", level)
    monkeypatch.setattr(startup, "FIRST_WAIT", 0.001)  # the waits: not what is tested
    base_url = f"http://127.0.0.1:{closed_port()}"  # no /bot: it is added
    assert main(["run", "--token", TOKEN, "--base-url", base_url]) == 1
    out, err = capsys.readouterr()
    last = f"tg-mafia run: cannot reach the Bot API at {base_url}/bot: "
    assert err.splitlines()[-1].startswith(last), err
    assert err.splitlines()[-1].endswith(f"({startup.ATTEMPTS} attempts)"), err
    assert ("alembic" in err) == (level == "DEBUG"), err
    retried = [line for line in err.splitlines() if "failed (attempt" in line]
    assert len(retried) == startup.ATTEMPTS - 1, err
    if level == "INFO":
        assert len(err.splitlines()) == startup.ATTEMPTS, err
    assert TOKEN not in out + err

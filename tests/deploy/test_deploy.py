"""deploy/: what can be checked without a Docker engine or a systemd host.

The compose file's structure, the Dockerfile's instructions (and hadolint when installed),
the package built from exactly what the Dockerfile copies, the image's CMD and HEALTHCHECK
run outside a container, the systemd unit (`systemd-analyze verify` when available), and
.env.example against the settings the bot reads.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from tg_mafia.config import ENV_VARS

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the final text, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def final_stage() -> list[tuple[str, str]]:
    steps = dockerfile()
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def exec_form(args: str) -> list[str]:
    argv = json.loads(args)
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv)
    return argv


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for word, args in final_stage():
        if word == "ENV":
            for pair in shlex.split(args):
                key, _, value = pair.partition("=")
                env[key] = value
    return env


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without any bot setting, the image's ENV on top, venv first on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_VARS.values()}
    env |= {k: v for k, v in image_env().items() if k != "PATH"}
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    return env | extra


# -- compose -----------------------------------------------------------------------------


def test_compose_runs_the_bot_on_postgres_16_with_a_named_volume() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    assert (DEPLOY / bot["build"]["context"] / bot["build"]["dockerfile"]).resolve() == (
        DEPLOY / "Dockerfile"
    )
    assert bot["env_file"] == ".env" and bot["restart"] == "unless-stopped"
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert bot["healthcheck"]["test"] == ["CMD", *healthcheck_cmd()]
    assert db["image"] == "postgres:16" and db["restart"] == "unless-stopped"
    assert "pg_isready" in db["healthcheck"]["test"][1]
    volume, _, mount = db["volumes"][0].partition(":")
    assert volume in compose["volumes"] and mount == "/var/lib/postgresql/data"
    # The bot's DATABASE_URL must name the database compose creates.
    example = env_example()
    url = example["DATABASE_URL"]
    user, database = db["environment"]["POSTGRES_USER"], db["environment"]["POSTGRES_DB"]
    assert url.startswith(f"postgresql+psycopg://{user}:") and url.endswith(f"@db:5432/{database}")
    assert f":{example['POSTGRES_PASSWORD']}@" in url


def test_every_variable_compose_interpolates_is_in_the_example() -> None:
    used = set(re.findall(r"\$\{(\w+)", (DEPLOY / "compose.yaml").read_text()))
    assert used and used <= set(env_example(commented=True))


# -- Dockerfile -----------------------------------------------------------------------------


def healthcheck_cmd() -> list[str]:
    (args,) = [a for w, a in final_stage() if w == "HEALTHCHECK"]
    return exec_form(args.split("CMD", 1)[1])


def test_dockerfile_shape() -> None:
    steps = dockerfile()
    assert [a for w, a in steps if w == "FROM"][-1] == "python:3.11-slim"
    assert any(w == "RUN" and 'pip install ".[postgres]"' in a for w, a in steps)
    (user,) = [a for w, a in final_stage() if w == "USER"]
    assert user.split(":")[0] not in ("0", "root")
    assert healthcheck_cmd()[:3] == ["python", "-m", "tg_mafia.commands.healthcheck"]
    env = image_env()
    assert env["HEALTH_LISTEN"].startswith("127.0.0.1:")
    assert set(env) - {"PATH", "PYTHONUNBUFFERED"} <= set(ENV_VARS.values())


def copied_paths() -> list[str]:
    paths = []
    for word, args in dockerfile():
        if word == "COPY" and not args.startswith("--from"):
            *sources, _ = args.split()
            paths += sources
    return paths


def test_copied_paths_exist_and_pass_the_dockerignore() -> None:
    allowed = {
        line.removeprefix("!").rstrip("/")
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.startswith("!")
    }
    for path in copied_paths():
        assert (ROOT / path).exists(), path
        assert path.rstrip("/") in allowed, path


def test_the_copied_files_build_a_complete_wheel(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for path in copied_paths():
        source = ROOT / path
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
            shutil.copytree(source, src / path, ignore=ignore)
        else:
            shutil.copy(source, src / path)
    # As the image's `pip install .` does: build isolation, setuptools from the index.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "-w", str(tmp_path / "dist"), str(src)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("tg_mafia-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "tg_mafia/commands/healthcheck.py" in names and "engine/__init__.py" in names
    assert "tg_mafia/locales/ru/LC_MESSAGES/tg_mafia.po" in names
    assert "tg_mafia/sandbox/bot-api.json" in names
    fonts = ROOT / "tg_mafia" / "render" / "pictures" / "fonts"
    assert {f"tg_mafia/render/pictures/fonts/{font.name}" for font in fonts.iterdir()} <= names


def test_the_image_cmd_without_a_token_explains_and_exits_2(tmp_path: Path) -> None:
    (cmd,) = [exec_form(a) for w, a in final_stage() if w == "CMD"]
    assert cmd == ["tg-mafia", "run"]
    done = subprocess.run(
        cmd, env=clean_env(), cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "@BotFather" in done.stderr and "tg-mafia demo" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_image_healthcheck_fails_when_nothing_answers(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cmd = healthcheck_cmd()
    cmd[0] = sys.executable  # the image's `python` is its venv's
    env = clean_env(HEALTH_LISTEN=f"127.0.0.1:{port}")
    done = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout.startswith("unhealthy:")


@pytest.mark.skipif(shutil.which("hadolint") is None, reason="hadolint not installed")
def test_hadolint() -> None:
    done = subprocess.run(
        ["hadolint", str(DEPLOY / "Dockerfile")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


# -- systemd -----------------------------------------------------------------------------


def unit() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in (DEPLOY / "tg-mafia.service").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_runs_the_venv_and_restarts_on_failure() -> None:
    keys = unit()
    assert keys["ExecStart"] == ["/opt/tg-mafia/bin/tg-mafia run"]
    assert keys["EnvironmentFile"] == ["/etc/tg-mafia/env"]
    assert keys["Restart"] == ["on-failure"] and keys["RestartPreventExitStatus"] == ["2"]
    for hardening in ("NoNewPrivileges", "ProtectSystem", "PrivateTmp", "CapabilityBoundingSet"):
        assert hardening in keys


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze missing")
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    # The unit as installed, but with this checkout's tg-mafia: verify wants ExecStart to exist.
    text = (DEPLOY / "tg-mafia.service").read_text()
    text = text.replace("/opt/tg-mafia/bin/tg-mafia", str(VENV_BIN / "tg-mafia"))
    copy = tmp_path / "tg-mafia.service"
    copy.write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Only our unit's complaints count: a host may have other units verify dislikes.
    assert "tg-mafia" not in done.stderr, done.stderr


# -- .env.example -----------------------------------------------------------------------------


def env_example(commented: bool = False) -> dict[str, str]:
    pattern = r"^#?(\w+)=(.*)$" if commented else r"^(\w+)=(.*)$"
    text = (DEPLOY / ".env.example").read_text()
    return dict(re.findall(pattern, text, flags=re.MULTILINE))


def test_the_example_lists_every_setting_and_only_needs_the_token() -> None:
    every = env_example(commented=True)
    assert set(ENV_VARS.values()) <= set(every)
    active = env_example()
    assert active["TELEGRAM_BOT_TOKEN"] == ""
    assert set(active) == {"TELEGRAM_BOT_TOKEN", "DATABASE_URL", "POSTGRES_PASSWORD"}


def test_the_operations_page_documents_every_setting() -> None:
    page = (ROOT / "docs" / "operations.md").read_text()
    for name in ENV_VARS.values():
        assert f"| `{name}` |" in page, name

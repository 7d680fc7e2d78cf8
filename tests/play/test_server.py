"""The play page's server over HTTP: the page, the live stream of events, the
JSON actions, and `tg-mafia play`'s refusals."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tg_mafia.cli import main
from tg_mafia.playweb.server import Tables, check_loopback, serve
from tg_mafia.playweb.session import PlayConfig

CONFIG = PlayConfig(variant="classic", players=7, speed=50.0, seed=5, person=1)


class Stream:
    """The page's side of /events."""

    def __init__(self, lines: AsyncIterator[str]) -> None:
        self.lines = lines

    async def next(self) -> tuple[str, dict[str, Any]]:
        event = ""
        async for line in self.lines:
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and event:
                return event, json.loads(line.removeprefix("data: "))
        raise AssertionError("the stream ended")

    async def until(self, wanted: Any) -> dict[str, Any]:
        """The first event for which `wanted(event, data)` holds."""
        for _ in range(200):
            event, data = await self.next()
            if wanted(event, data):
                return data
        raise AssertionError("never came")


@pytest.fixture
async def site() -> AsyncIterator[tuple[httpx.AsyncClient, Tables]]:
    async with (
        serve(CONFIG, "127.0.0.1", 0) as (tables, port),
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as client,
    ):
        yield client, tables


async def test_the_page_and_its_files(site: tuple[httpx.AsyncClient, Tables]) -> None:
    client, _ = site
    page = await client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/static/play.js"' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for name, kind in (("play.js", "javascript"), ("play.css", "css")):
        served = await client.get(f"/static/{name}")
        assert served.status_code == 200 and kind in served.headers["content-type"]
    assert (await client.get("/static/../session.py")).status_code == 404


async def test_the_stream_shows_what_each_action_changes(
    site: tuple[httpx.AsyncClient, Tables],
) -> None:
    client, _ = site
    async with client.stream("GET", "/events") as response:
        assert response.headers["content-type"] == "text/event-stream"
        stream = Stream(response.aiter_lines())
        event, table = await stream.next()
        assert event == "reset" and table["status"] == "lobby"
        ann, ben = table["seats"][0], table["seats"][1]
        assert (ann["name"], ann["autoplay"], ben["autoplay"]) == ("Ann", False, True)
        lobby = next(m for m in table["chats"]["group"] if m["buttons"])

        sent = await client.post(
            "/api/send", json={"user_id": ann["user_id"], "chat": "private", "text": "<i>hi & bye"}
        )
        assert sent.json() == {"ok": True}
        mine = str(ann["user_id"])
        change = await stream.until(lambda e, d: mine in d.get("chats", {}))
        assert change["chats"][mine]["upsert"][-1]["html"] == "&lt;i&gt;hi &amp; bye"

        leave = {"text": "Leave", "kind": "callback"}
        row = next(i for i, line in enumerate(lobby["buttons"]) if leave in line)
        pressed = await client.post(
            "/api/press",
            json={
                "user_id": ben["user_id"],
                "chat": "group",
                "message_id": lobby["id"],
                "row": row,
                "column": lobby["buttons"][row].index(leave),
            },
        )
        assert pressed.status_code == 200 and pressed.json()["answer"]["text"]
        edited = await stream.until(
            lambda e, d: any(
                m["id"] == lobby["id"] and "Players (6)" in m["html"]
                for m in d.get("chats", {}).get("group", {}).get("upsert", [])
            )
        )
        assert edited

        toggled = await client.post("/api/autoplay", json={"user_id": ben["user_id"], "on": False})
        assert toggled.json() == {"ok": True}
        seats = await stream.until(lambda e, d: "seats" in d)
        assert seats["seats"][1]["autoplay"] is False


async def test_bad_actions_are_refused_with_a_reason(
    site: tuple[httpx.AsyncClient, Tables],
) -> None:
    client, tables = site
    session = await tables.current()
    ann, admin = session.h.users[0].id, session.h.admin.id
    refusals = [
        ("send", {"user_id": 1, "chat": "group", "text": "x"}, "There is no such seat."),
        ("send", {"user_id": ann, "chat": "group"}, "Type a message first."),
        ("send", {"user_id": ann, "chat": "elsewhere", "text": "x"}, "Ann has no such chat"),
        ("press", {"user_id": ann, "chat": "group", "message_id": 999}, "That message is gone."),
        ("autoplay", {"user_id": admin, "on": True}, "The admin does not play."),
        ("autoplay", {"user_id": ann, "on": "yes"}, "Autoplay is on or off."),
        ("restart", {"players": 2}, "Classic (Sleeping City) needs 7 to 20 players."),
    ]
    for action, body, reason in refusals:
        answer = await client.post(f"/api/{action}", json=body)
        assert answer.status_code == 400 and reason in answer.json()["error"], answer.text
    assert (await client.post("/api/send", content=b"user_id=1")).status_code == 415
    assert (await client.post("/api/send", json=[1])).status_code == 400
    assert (await client.post("/api/shoot", json={})).status_code == 404
    assert tables.number == 1 and tables.config == CONFIG


async def test_a_restart_opens_a_new_table_with_the_new_settings(
    site: tuple[httpx.AsyncClient, Tables],
) -> None:
    client, _ = site
    async with client.stream("GET", "/events") as response:
        stream = Stream(response.aiter_lines())
        _, first = await stream.next()
        restarted = await client.post(
            "/api/restart",
            json={
                "language": "fr",
                "variant": "moscow",
                "players": 8,
                "options": {"thanks_rule": "on"},
            },
        )
        assert restarted.json()["config"]["language"] == "fr"
        table = await stream.until(lambda e, d: e == "reset")
        assert table["session"] == first["session"] + 1
        assert table["config"]["options"] == {"thanks_rule": "on"}
        assert [s["name"] for s in table["seats"]][:2] == ["Amélie", "Bastien"]
        lobby = next(m for m in table["chats"]["group"] if m["buttons"])
        assert "Règles de Moscou" in lobby["html"] and "Joueurs (8)" in lobby["html"]


async def test_the_server_stops_whenever_asked_even_while_a_table_opens() -> None:
    started = time.monotonic()
    for delay in (0.0, 0.05, 0.3, 1.0):
        async with serve(CONFIG, "127.0.0.1", 0):
            await asyncio.sleep(delay)
    # A few seconds. A table closed by cancelling it can miss the cancellation
    # while it opens, and then only a timeout ends it, if anything does.
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_loopback_hosts_are_served(host: str) -> None:
    check_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", "example.org"])
def test_other_hosts_are_refused(host: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="loopback only"):
        check_loopback(host)
    assert main(["play", "--host", host]) == 2
    assert "served on loopback only" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--option", "thanks_rule=maybe"], "Option thanks_rule: write on or off."),
        (["--players", "30"], "Moscow rules needs 7 to 15 players."),
        (["--speed", "0"], "Speed 0: use a number above 0"),
        (["--seat", "12"], "Seat 12: there are 9 seats."),
    ],
)
def test_a_bad_table_is_refused_at_start(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_port_in_use_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["play", "--port", str(port)]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


@pytest.mark.real_time  # a real process: its start and exit take wall-clock time
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_the_command_serves_the_page_until_stopped(stop: signal.Signals) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tg_mafia.cli", "play", "--port", "0", "--players", "7"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As a script's background job starts it: SIGINT ignored. Ctrl-C must stop it still.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("tg-mafia play: open http://127.0.0.1:"), line
        url = line.split()[3]
        # Generous limits: they fire only if it is stuck, not when the machine is busy.
        assert "tg-mafia play" in httpx.get(url, timeout=60).text
        process.send_signal(stop)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def test_the_page_and_its_answers_speak_the_tables_language(
    site: tuple[httpx.AsyncClient, Tables],
) -> None:
    client, tables = site
    english = await client.get("/")
    assert '<html lang="en">' in english.text and ">Send</button>" in english.text
    restarted = await client.post("/api/restart", json={"language": "ru"})
    assert restarted.status_code == 200
    session = await tables.current()
    while session.number == 1:  # the old table closes, the new one opens
        await asyncio.sleep(0.05)
        session = await tables.current()
    page = (await client.get("/")).text
    words = session.snapshot()["words"]
    assert '<html lang="ru">' in page and f">{words['send']}</button>" in page
    assert words["send"] != "Send" and session.snapshot()["headline"].startswith("Идёт набор")
    refused = await client.post("/api/send", json={"user_id": 1, "chat": "group", "text": "x"})
    assert refused.status_code == 400 and refused.json()["error"] == "Такого места нет."


async def test_the_end_picture_and_files_are_served() -> None:
    watch = PlayConfig(variant="classic", players=7, speed=100.0, seed=5, person=0)
    async with (
        serve(watch, "127.0.0.1", 0) as (tables, port),
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as client,
    ):
        session = await tables.current()
        await session.h.press_start()
        for _ in range(600):  # a game of simulated players: a few seconds
            if session.status() == "no game":
                break
            await asyncio.sleep(0.1)
        await session.h.settle()
        group = session.chats()["group"]
        picture = next(m["media"] for m in group if m["media"])
        assert picture["kind"] == "photo" and picture["width"] > 0
        served = await client.get(picture["url"])
        assert served.status_code == 200 and served.headers["content-type"] == "image/png"
        assert served.content.startswith(b"\x89PNG")
        assert (await client.get(f"/media/{session.h.group.id}/99999")).status_code == 404
        assert (await client.get("/media/12345/1")).status_code == 404

"""A protocol plays the game again: one demo game of each variant (the bot
on the sandbox, as `tg-mafia demo` plays it) makes a protocol that keeps to
the shipped schema and replays to the same end; a changed document is
caught at the first action whose result differs; a file that cannot be
replayed gets one clear line and exit code 2, never a traceback; version 1
documents are still read."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from engine import resolve_options
from tests.protocol.games import played
from tests.protocol.valid import assert_valid, schema_errors
from tg_mafia.cli import main
from tg_mafia.playtest.demo import Demo
from tg_mafia.render.protocol import build_protocol, protocol_file, protocol_json, schema_document
from tg_mafia.render.protocol.replay import (
    DIVERGES,
    SAME_END,
    UNREADABLE,
    parse_document,
    replay_document,
)

REPO = Path(__file__).parents[2]
V1 = Path(__file__).parent / "fixtures" / "protocol-v1.json"
SIZES = {"classic": 9, "moscow": 11, "party": 11, "club": 10, "sport": 10}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, document: Any, name: str = "protocol.json") -> Path:
    path = tmp_path / name
    text = protocol_file(document) if isinstance(document, dict) else str(document)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("variant", sorted(SIZES))
async def test_a_demo_game_validates_and_replays_to_the_same_end(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = Demo(variant, SIZES[variant], "en", resolve_options(variant, {}), 1, speed=500.0)
    await demo.play()
    document = demo.protocol
    assert document is not None
    assert_valid(document)
    assert document["version"] == 2 and document["game"]["variant"] == variant
    path = write(tmp_path, document)
    assert json.loads(path.read_text(encoding="utf-8")) == document  # the file as sent
    code, out, err = cli(capsys, str(path))
    assert (code, err) == (SAME_END, "")
    winner = document["result"]["winner"]
    ended = document["result"]["ended"]
    assert out == (
        f"{path}: {variant}, seed {document['game']['seed']}: {len(document['log'])} actions "
        f"played again to the same end: the {winner} wins, {ended['phase']} {ended['number']}\n"
    )


def game_document(variant: str = "club", seed: int = 1) -> dict[str, Any]:
    record, log, _ = played(variant, seed=seed)
    return protocol_json(build_protocol(record, log))


def test_the_first_action_whose_result_differs_is_named() -> None:
    document = game_document()
    assert replay_document(parse_document(document)).code == SAME_END
    # A result the engine does not reach.
    changed = copy.deepcopy(document)
    changed["log"][9]["result"]["stage"] = "lift"
    replay = replay_document(parse_document(changed))
    assert replay.code == DIVERGES
    assert replay.line.startswith(f"diverges at action 10 of {len(document['log'])} ")
    assert '"stage": "lift"' in replay.line
    # An action the engine refuses: the first timeout of the game, twice in a row.
    refused = copy.deepcopy(document)
    clock = next(i for i, e in enumerate(refused["log"]) if e["action"]["verb"] == "timeout")
    refused["log"].insert(clock + 1, copy.deepcopy(refused["log"][clock]))
    replay = replay_document(parse_document(refused))
    assert replay.code == DIVERGES
    assert f"action {clock + 2} of" in replay.line and "the engine refuses it" in replay.line
    # Another seed deals other roles.
    other = copy.deepcopy(document)
    other["game"]["seed"] = str(int(document["game"]["seed"]) + 1)
    assert replay_document(parse_document(other)).line.startswith("diverges at the deal: seat ")
    # The log cut short, and an end the actions do not lead to.
    short = copy.deepcopy(document)
    del short["log"][-1]
    assert "the log ends before the game does" in replay_document(parse_document(short)).line
    turned = copy.deepcopy(document)
    turned["result"]["winner"] = "town" if document["result"]["winner"] == "mafia" else "mafia"
    replay = replay_document(parse_document(turned))
    assert (replay.code, "but the end differs" in replay.line) == (DIVERGES, True)


def test_cli_names_where_the_replay_diverges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = game_document("moscow", 2)
    document["log"][4]["result"]["out"] = [1]
    code, out, err = cli(capsys, str(write(tmp_path, document)))
    assert code == DIVERGES and err == ""
    assert out.startswith(f"{tmp_path / 'protocol.json'}: diverges at action 5 of ")
    assert out.count("\n") == 1


BAD_FILES = {
    "missing": None,
    "not JSON": "{not json",
    "not an object": "[1, 2]",
    "another schema": '{"schema": "elsewhere/protocol", "version": 2}',
    "a later version": '{"schema": "tg-mafia/protocol", "version": 3}',
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_file_that_cannot_be_replayed_gets_one_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BAD_FILES[case]
    path = tmp_path / "protocol.json" if text is None else write(tmp_path, text)
    code, out, err = cli(capsys, str(path))
    assert code == UNREADABLE and out == ""
    assert err.startswith(f"tg-mafia replay: {path}: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_broken_document_gets_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = game_document()
    # (what is broken, whether the schema alone can tell: it knows no seat count or option)
    breakages = {
        "no seed": (lambda d: d["game"].pop("seed"), True),
        "an unknown verb": (lambda d: d["log"][3]["action"].update(verb="fly"), True),
        "a post that is no text": (lambda d: d["log"][3]["action"].update(text=5), True),
        "no log": (lambda d: d.pop("log"), True),
        "a seat that is none": (lambda d: d["log"][3]["action"].update(actor=99), False),
        "seats out of order": (lambda d: d["seats"].reverse(), False),
        "a bad option": (lambda d: d["game"]["options"].update(night_seconds=-5), False),
    }
    for name, (breakage, schema_tells) in breakages.items():
        broken = copy.deepcopy(document)
        breakage(broken)
        assert bool(schema_errors(broken)) == schema_tells, name
        code, out, err = cli(capsys, str(write(tmp_path, broken)))
        assert (code, out) == (UNREADABLE, ""), name
        assert err.count("\n") == 1 and "Traceback" not in err, (name, err)


def test_version_1_still_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(V1.read_text(encoding="utf-8"))
    assert data["version"] == 1
    assert_valid(data)
    document = parse_document(data)
    assert (document.version, document.variant, document.winner) == (1, "classic", "mafia")
    assert document.end == "the mafia wins, night 5" and document.log is None
    code, out, err = cli(capsys, str(V1))
    assert code == UNREADABLE and out == ""
    assert err == (
        f"tg-mafia replay: {V1}: a version 1 protocol keeps no seed or action log, so it "
        "cannot be played again (it records: the mafia wins, night 5)\n"
    )


def test_the_schema_is_shipped_and_the_documented_example_keeps_to_it() -> None:
    shipped = resources.files("tg_mafia.render.protocol").joinpath("protocol.schema.json")
    assert json.loads(shipped.read_text("utf-8")) == schema_document()
    assert "protocol/protocol.schema.json" in (REPO / "pyproject.toml").read_text("utf-8")
    example = json.loads((REPO / "docs" / "protocol-example.json").read_text("utf-8"))
    assert example["version"] == 2
    assert_valid(example)
    assert replay_document(parse_document(example)).code == SAME_END

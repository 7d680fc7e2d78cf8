"""The protocol of finished games, rebuilt from their setup and action log:
what it says agrees with the engine's final state, its JSON keeps to the
shipped schema and plays again to the same end, its text fits Telegram in
every language, and a running game has none."""

from __future__ import annotations

import dataclasses
import itertools
import json

import pytest

from engine.state import Cause
from engine.variants import find_variant
from tests.protocol.games import played
from tests.protocol.valid import assert_valid
from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.render.pictures.table import render_table, winner_title
from tg_mafia.render.protocol import (
    SCHEMA,
    SCHEMA_VERSION,
    GameNotOverError,
    build_protocol,
    protocol_json,
    protocol_text,
    table_snapshot,
)
from tg_mafia.render.protocol.replay import SAME_END, parse_document, replay_document
from tg_mafia.render.protocol.text import MAX_MESSAGE, _pack, result_line
from tg_mafia.runtime.runner import results, stand_in

VARIANTS = ("classic", "moscow", "party", "club", "sport")
FATE_OF = {
    Cause.KILLED: "killed",
    Cause.VOTE: "eliminated",
    Cause.LEFT: "left",
    Cause.WARNINGS: "warnings",
    Cause.FOULS: "fouls",
    Cause.DEPARTED: "departed",
    Cause.IDLE: "idle",
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("chatter", [0.02, 0.3])  # 0.3: posts out of turn, so fouls and warnings
def test_the_protocol_agrees_with_the_game(variant: str, seed: int, chatter: float) -> None:
    record, log, state = played(variant, seed=seed, chatter=chatter)
    data = protocol_json(build_protocol(record, log))
    json.dumps(data)  # JSON-able as it is
    assert_valid(data)
    assert (data["schema"], data["version"]) == (SCHEMA, SCHEMA_VERSION)
    again = replay_document(parse_document(data))
    assert again.code == SAME_END, again.line
    assert len(data["log"]) == len(log) and int(data["game"]["seed"]) == record.seed
    assert data["game"]["variant"] == variant and data["game"]["id"] == record.id
    assert data["result"]["winner"] == state.outcome.winner.value
    seats = data["seats"]
    assert [s["user_id"] for s in seats] == [int(p) for p in state.table.seats]
    for seat, player in zip(seats, state.table.seats, strict=True):
        role = state.table.roles[player]
        assert (seat["role"], seat["side"]) == (role.value, role.side.value)
        assert seat["won"] == (role.side is state.outcome.winner)
        cause = state.table.dead.get(player)
        assert seat["fate"] == (FATE_OF[cause] if cause else "survived")
        assert (seat["when"] is None) == (cause is None)
        assert seat["warnings"] == state.table.warnings.get(player, 0)
    assert data["result"]["winners"] == [s["seat"] for s in seats if s["won"]]
    # Every death is in its round: the killed in their night, the others where they fell.
    killed = [s for r in data["rounds"] if r["phase"] == "night" for s in r["killed"]]
    assert sorted(killed) == sorted(s["seat"] for s in seats if s["fate"] == "killed")
    for seat in seats:
        if seat["when"] is not None:
            (where,) = [
                r
                for r in data["rounds"]
                if (r["phase"], r["number"]) == (seat["when"]["phase"], seat["when"]["number"])
            ]
            assert seat["seat"] in [e["seat"] for e in where["eliminations"]]
    # Rounds alternate, numbered as the game counts them.
    phases = [r["phase"] for r in data["rounds"]]
    assert all(a != b for a, b in itertools.pairwise(phases))
    for item in data["rounds"]:
        for vote in item.get("votes", []):
            voters = [v for c in vote["counts"] for v in c["voters"]]
            assert len(voters) == len(set(voters))  # one hand per voter and round
            assert not set(voters) & set(vote["silent"])
            if vote["kind"] == "ballot":
                assert vote["counts"] == []  # a secret ballot keeps its secret


def test_hand_votes_and_night_moves_are_kept() -> None:
    record, log, _ = played("moscow", players=11, seed=4)
    data = protocol_json(build_protocol(record, log))
    nights = [r for r in data["rounds"] if r["phase"] == "night"]
    days = [r for r in data["rounds"] if r["phase"] == "day"]
    assert any(m["move"] == "kill" for r in nights for m in r["moves"])
    # A check is listed with its move, and its answer is the move's result.
    checks = [m for r in nights for m in r["moves"] if m["move"] == "check" and m["target"]]
    assert any(m["result"] in ("mafia", "not mafia") for m in checks)
    assert any(r["nominations"] for r in days)
    counted = [v for r in days for v in r["votes"] if v["kind"] == "first" and v["counts"]]
    assert counted
    assert all(len(v["counts"]) == len(v["candidates"]) for v in counted)


def test_a_running_game_has_no_protocol() -> None:
    record, log, state = played("moscow", seed=2, finish=False)
    assert not state.is_over
    with pytest.raises(GameNotOverError):
        build_protocol(record, log)


def test_a_hosted_game_names_its_host() -> None:
    record, log, state = played("classic", seed=5, host=True)
    protocol = build_protocol(record, log)
    assert protocol.host == "Hosty" and protocol.winner is state.outcome.winner
    assert "Hosty" in protocol_text(protocol, translator("en"))[0]
    blank = dataclasses.replace(protocol, host="")  # a host whose name shows nothing
    assert "Meneur\u00a0: (sans nom)" in protocol_text(blank, translator("fr"))[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_text_fits_telegram_in_every_language(language: str) -> None:
    record, log, _ = played("club", players=16, seed=6)
    protocol = build_protocol(record, log)
    t = translator(language)
    messages = protocol_text(protocol, t)
    assert all(0 < len(m) <= MAX_MESSAGE for m in messages)
    text = "\n".join(messages)
    for seat in protocol.seats:
        assert seat.name in text
    assert result_line(t, protocol) in messages[0]


def test_long_protocols_are_cut_between_sections_and_lines() -> None:
    sections = ["head", "x" * 3000, "y" * 3000, "\n".join(["z" * 1000] * 9)]
    messages = _pack(sections)
    assert all(len(m) <= MAX_MESSAGE for m in messages)
    assert "".join(messages).replace("\n", "") == "".join(sections).replace("\n", "")


def test_a_draw_is_a_protocol_a_picture_and_a_result() -> None:
    """A game nobody won (the sport variant's draw): no winner, nobody won."""
    record, log, state = played("classic", seed=1)
    protocol = build_protocol(record, log)
    draw = dataclasses.replace(
        protocol,
        winner=None,
        seats=tuple(dataclasses.replace(s, won=False) for s in protocol.seats),
    )
    data = protocol_json(draw)
    assert data["result"] == {"winner": None, "winners": [], "ended": data["result"]["ended"]}
    t = translator("fr")
    assert winner_title(t, None) in protocol_text(draw, t)[0]
    picture = render_table(table_snapshot(draw), t)
    assert " ".join(i.text for i in picture.of_kind("winner")) == winner_title(t, None)
    state.outcome.winner = None
    final = results(record, state)
    assert final is not None
    winner, outcomes = final
    assert winner is None and not any(o.won for o in outcomes)
    assert {o.side for o in outcomes} == {r.side.value for r in state.table.roles.values()}


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_whose_texts_were_forgotten_replays_the_same(variant: str) -> None:
    """At the end the players' texts are replaced by stand-ins (runner.stand_in):
    the protocol is rebuilt from that log, so it must replay to the same end."""
    for seed in range(1, 6):
        record, log, state = played(variant, seed=seed, chatter=0.3, family_talk=True)
        talks = any(find_variant(variant).mafia_chat_open(n) for n in (1, 2))
        assert any(e.action["verb"] == "chat" for e in log) == talks
        forgotten = [
            dataclasses.replace(
                entry, action={**entry.action, "text": stand_in(dict(entry.action), "en")}
            )
            if "text" in entry.action
            else entry
            for entry in log
        ]
        data = protocol_json(build_protocol(record, forgotten))
        assert data["result"]["winner"] == state.outcome.winner.value


def test_a_game_stored_before_an_option_existed_replays_as_it_was_played() -> None:
    # Played without idle_limit (as before it existed: Ctx.later_option reads 0).
    record, log, state = played("moscow", seed=4, options={"idle_limit": 0})
    old_state = dict(record.state or {})
    old_state["options"] = {k: v for k, v in old_state["options"].items() if k != "idle_limit"}
    old = dataclasses.replace(
        record,
        options={k: v for k, v in record.options.items() if k != "idle_limit"},
        state=old_state,
    )
    data = protocol_json(build_protocol(old, log))
    assert data["result"]["winner"] == state.outcome.winner.value

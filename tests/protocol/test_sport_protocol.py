"""What a sport judge writes, in the protocol: the fouls (and what they
did), each farewell, the best move, the re-speeches' revote and the lift
vote with its hands, and every night move with its result (a check with
its answer). Played by hand up to the moments that matter, then to the end
by random moves."""

from __future__ import annotations

import re
from typing import Any

from engine.actions import Best, Hand, NightChoice, Nominate, Pass, Say, Timeout
from engine.roles import Role
from engine.variants import NightMove
from tests.protocol.games import Script
from tests.protocol.valid import assert_valid
from tg_mafia.i18n import translator
from tg_mafia.render.protocol import build_protocol, protocol_json, protocol_text
from tg_mafia.render.protocol.replay import SAME_END, parse_document, replay_document

CLOCK = Timeout("clock")


def until(game: Script, stage: str) -> None:
    while game.state.stage.value != stage:
        game.act(CLOCK)


def document(game: Script) -> tuple[dict[str, Any], str]:
    protocol = build_protocol(game.record(), game.log)
    data = protocol_json(protocol)
    assert_valid(data)
    again = replay_document(parse_document(data))
    assert again.code == SAME_END, again.line
    text = "\n".join(protocol_text(protocol, translator("en")))
    return data, re.sub(r"<[^>]+>", "", text)


def day(data: dict[str, Any], number: int) -> dict[str, Any]:
    (found,) = [r for r in data["rounds"] if (r["phase"], r["number"]) == ("day", number)]
    return found


def test_fouls_a_tie_the_lift_and_the_farewells_are_recorded() -> None:
    game = Script("sport", 10)
    seat = game.seat
    game.act(CLOCK)  # the zero night
    game.act(Say(seat(10), "psst"))  # during seat 1's speech: a foul
    game.act(Nominate(seat(1), seat(5)), Pass(seat(1)))
    game.act(Nominate(seat(2), seat(6)), Pass(seat(2)))
    game.act(Nominate(seat(3), seat(7)), Pass(seat(3)))
    until(game, "vote")
    game.act(*(Hand(seat(n)) for n in (1, 2, 3, 4)), CLOCK)
    game.act(*(Hand(seat(n)) for n in (5, 6, 7, 8)), CLOCK)
    game.act(Say(seat(10), "me?"), CLOCK)  # a foul during the vote; 9 and 10 go to seat 7
    assert game.state.stage.value == "last_word"  # 4 to 4: the tied re-speak
    until(game, "vote")
    game.act(*(Hand(seat(n)) for n in (1, 2, 3, 4, 5)), CLOCK, CLOCK)
    assert game.state.stage.value == "lift"  # 5 to 5 again
    game.act(*(Hand(seat(n)) for n in (1, 2, 3, 4, 8, 9)), CLOCK)
    assert game.state.stage.value == "farewell"
    until(game, "night")
    game.finish()

    data, text = document(game)
    first = day(data, 1)
    assert [v["kind"] for v in first["votes"]] == ["first", "tied", "lift"]
    lift = first["votes"][2]
    assert lift["candidates"] == [5, 6] and lift["voters"] == [1, 2, 3, 4, 8, 9]
    assert (lift["living"], lift["outcome"], lift["eliminated"]) == (10, "leave", [5, 6])
    assert first["farewells"] == [5, 6] and first["best_move"] is None
    fouls = [(w["seat"], w["count"], w["reason"]) for w in first["warnings"]]
    assert fouls[:2] == [(10, 1, "out_of_turn"), (10, 2, "during_vote")]
    assert data["seats"][9]["warnings"] >= 2
    # The text says it all, with the seats' foul counts in words.
    assert "✋ After the re-speeches, the tied are voted on again: 5 · Eva and 6 · Farid" in text
    assert "6 of 10 votes: both leave." in text
    assert "Votes: 1 · Anna, 2 · Boris, 3 · Chloé, 4 · Dima, 8 · Hana, and 9 · Ion" in text
    assert "🕊 Farewell minute: 5 · Eva\n🕊 Farewell minute: 6 · Farid" in text
    assert "⚠️ 10 · Jules: foul 2/4 — posted during the vote." in text
    count = data["seats"][9]["warnings"]
    assert re.search(rf"^10 · Jules — .* · ⚠️ {count} fouls", text, re.MULTILINE)


def test_the_night_moves_their_results_and_the_best_move_are_recorded() -> None:
    game = Script("sport", 10)
    roles = game.state.table.roles
    mafia = [p for p in game.state.table.seats if roles[p].is_mafia]
    don = next(p for p in mafia if roles[p] is Role.DON)
    sheriff = next(p for p in game.state.table.seats if roles[p] is Role.SHERIFF)
    town = [p for p in game.state.table.seats if roles[p] is Role.CITIZEN]
    victim, named = town[0], (mafia[0], mafia[1], town[1])
    game.act(CLOCK)
    game.act(Say(game.state.day.speaker or "", "good morning"))
    until(game, "night")
    game.act(*(NightChoice(m, NightMove.KILL, victim) for m in mafia))
    game.act(NightChoice(don, NightMove.CHECK, sheriff))
    game.act(NightChoice(sheriff, NightMove.CHECK, don))
    assert (game.state.stage.value, game.state.day.speaker) == ("farewell", victim)
    game.act(Best(victim, named), Pass(victim))
    game.finish()

    data, text = document(game)
    number = {p: n for n, p in enumerate(game.state.table.seats, 1)}
    (night,) = [r for r in data["rounds"] if (r["phase"], r["number"]) == ("night", 2)]
    moves = {(m["seat"], m["move"]): (m["target"], m["result"]) for m in night["moves"]}
    for mafioso in mafia:
        assert moves[(number[mafioso], "kill")] == (number[victim], "killed")
    assert moves[(number[don], "check")] == (number[sheriff], "sheriff")
    assert moves[(number[sheriff], "check")] == (number[don], "mafia")
    assert "checks" not in night  # version 1's separate list: a check is now its move's
    second = day(data, 2)
    assert second["farewells"][0] == number[victim]
    assert second["best_move"] == {"seat": number[victim], "targets": [number[p] for p in named]}
    names = zip(game.state.table.seats, game.seats, strict=True)
    label = {p: f"{number[p]} · {seat.name}" for p, seat in names}
    assert f"targets {label[victim]}. The shot hit." in text
    assert f"checks {label[sheriff]}. 🔎 {label[sheriff]} is the sheriff." in text
    assert f"🕊 Farewell minute: {label[victim]}\n🎯 Best move of {label[victim]}: " in text

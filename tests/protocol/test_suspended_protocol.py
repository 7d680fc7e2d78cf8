"""A game ended at a suspension's limit (its forum topic stayed closed) has a
protocol all the same: it says why it ended and that nobody won, keeps to the
shipped schema, and plays again to the same end."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from engine import apply
from engine.actions import CHAT, Action, Suspend, Timeout, Unsuspend
from tests.protocol.games import START, played
from tests.protocol.valid import assert_valid
from tg_mafia.i18n import translator
from tg_mafia.render import texts
from tg_mafia.render.protocol import build_protocol, protocol_json, protocol_text
from tg_mafia.render.protocol.replay import SAME_END, parse_document, replay_document
from tg_mafia.runtime.archive import has_protocol
from tg_mafia.storage import ActionRecord, GameStatus

T = translator("en")


def stopped() -> tuple[dict[str, Any], list[str]]:
    record, log, state = played("club", seed=3, finish=False)
    assert not state.is_over
    actions: list[Action] = [Suspend(CHAT, 1800), Unsuspend(CHAT), Suspend(CHAT, 1800)]
    for action in actions:
        state, _ = apply(state, action)
        log.append(ActionRecord(1, len(log) + 1, action.to_dict(), START + timedelta(hours=1)))
    limit = Timeout("clock", state.clock.timer_id)
    end, _ = apply(state, limit)
    log.append(ActionRecord(1, len(log) + 1, limit.to_dict(), START + timedelta(hours=2)))
    assert end.unscored
    # Stored as the runner stores it: aborted (not counted), its state at the end.
    record = replace(record, status=GameStatus.ABORTED, state=end.to_dict(), winner=None)
    assert has_protocol(record)
    assert not has_protocol(replace(record, state=state.to_dict()))  # still suspended
    protocol = build_protocol(record, log)
    assert protocol.reason == "suspended" and protocol.winner is None
    return protocol_json(protocol), protocol_text(protocol, T)


def test_the_protocol_says_why_the_game_ended_and_replays() -> None:
    document, text = stopped()
    assert_valid(document)
    result = document["result"]
    assert (result["winner"], result["winners"], result["reason"]) == (None, [], "suspended")
    log = document["log"]
    verbs = [entry["action"]["verb"] for entry in log[-4:]]
    assert verbs == ["suspend", "unsuspend", "suspend", "timeout"]
    assert log[-4]["action"] == {"verb": "suspend", "actor": "chat", "limit": 1800}
    assert texts.suspended_line(T) in text[0]
    replayed = replay_document(parse_document(document))
    assert replayed.code == SAME_END, replayed.line


def test_a_decided_game_has_no_reason_in_its_document() -> None:
    record, log, _ = played("club", seed=1)
    document = protocol_json(build_protocol(record, log))
    assert "reason" not in document["result"]

"""The sender's planning (plan.plan): which call a chat's pending
entries make next, with superseded edits skipped and announcements merged."""

from __future__ import annotations

from typing import Any

from tg_mafia.render.calls import text_of
from tg_mafia.render.calls_json import to_json
from tg_mafia.runtime.outbox.plan import MAX_TEXT, plan
from tg_mafia.storage import OutboxRecord


def entries(*ops: dict[str, Any]) -> list[OutboxRecord]:
    return [OutboxRecord(n, -5, 1, 0, op, 0.0, 0) for n, op in enumerate(ops, start=1)]


def test_an_edit_a_later_edit_supersedes_is_not_made() -> None:
    unit = plan(
        entries(
            {"m": "edit", "key": "board", "text": "1"}, {"m": "edit", "key": "board", "text": "2"}
        )
    )
    assert unit.skip and unit.entries == [1]


def test_an_edit_before_a_send_of_its_message_is_made() -> None:
    unit = plan(
        entries(
            {"m": "edit", "key": "count", "text": "1"},
            {"m": "send", "key": "count", "text": "new round"},
            {"m": "edit", "key": "count", "text": "2"},
        )
    )
    assert not unit.skip and text_of(unit.op) == "1"


def test_edits_of_other_messages_do_not_supersede() -> None:
    unit = plan(
        entries(
            {"m": "edit", "key": "floor", "text": "1"}, {"m": "edit", "key": "board", "text": "2"}
        )
    )
    assert not unit.skip


def test_plain_announcements_merge_up_to_the_first_with_buttons() -> None:
    button = [[{"text": "x", "data": "ps:1:1"}]]
    unit = plan(
        entries(
            {"m": "send", "text": "a", "mergeable": True},
            {"m": "send", "text": "b"},
            {"m": "send", "text": "c", "keyboard": button},
            {"m": "send", "text": "d", "mergeable": True},
        )
    )
    assert text_of(unit.op) == "a\n\nb\n\nc" and unit.entries == [1, 2, 3]
    assert to_json(unit.op)["keyboard"] == button  # the last one's buttons end the message


def test_a_living_message_never_merges() -> None:
    """Its later edits (by its key) would take the others' text with them."""
    unit = plan(
        entries(
            {"m": "send", "text": "a"},
            {"m": "send", "text": "board", "key": "board"},
            {"m": "send", "text": "c"},
        )
    )
    assert text_of(unit.op) == "a" and unit.entries == [1]
    unit = plan(entries({"m": "send", "text": "floor", "key": "floor"}, {"m": "send", "text": "b"}))
    assert text_of(unit.op) == "floor" and unit.entries == [1]


def test_a_merge_reaches_past_calls_that_make_no_message() -> None:
    """A keyboard taken off and the night's permissions go after the merged message."""
    timer = {"game": 1, "token": "3", "seconds": 60}
    unit = plan(
        entries(
            {"m": "send", "text": "Anna is eliminated."},
            {"m": "clear", "key": "floor"},
            {"m": "send", "text": "Night 1 falls", "timer": timer},
            {"m": "permissions"},
            {"m": "send", "text": "late", "timer": {"game": 1, "token": "4", "seconds": 60}},
        )
    )
    assert text_of(unit.op) == "Anna is eliminated.\n\nNight 1 falls" and unit.entries == [1, 3]
    assert to_json(unit.op)["timer"] == timer  # one stage's timer a message


def test_calls_of_another_game_or_topic_never_merge() -> None:
    records = entries({"m": "send", "text": "a"}, {"m": "send", "text": "b", "topic": 4})
    assert plan(records).entries == [1]
    other = [records[0], OutboxRecord(2, -5, 2, 0, {"m": "send", "text": "b"}, 0.0, 0)]
    assert plan(other).entries == [1]


def test_a_protected_card_never_merges_with_plain_text() -> None:
    unit = plan(
        entries(
            {"m": "send", "text": "role", "mergeable": True, "protect": True},
            {"m": "send", "text": "plain", "mergeable": True},
        )
    )
    assert text_of(unit.op) == "role" and unit.entries == [1]


def test_merging_stops_short_of_telegrams_limit() -> None:
    long = "x" * (MAX_TEXT - 100)
    unit = plan(
        entries(
            {"m": "send", "text": long, "mergeable": True},
            {"m": "send", "text": "y" * 200, "mergeable": True},
        )
    )
    assert unit.entries == [1] and len(text_of(unit.op)) <= MAX_TEXT


def test_answers_to_commands_stay_one_message_each() -> None:
    answers = [
        OutboxRecord(n, 5, None, 1, {"m": "send", "text": t}, 0.0, 0)
        for n, t in ((1, "a"), (2, "b"))
    ]
    assert plan(answers).entries == [1]


def test_the_topic_follows_the_entry() -> None:
    unit = plan(entries({"m": "send", "text": "a", "topic": 7}))
    assert unit.topic == 7

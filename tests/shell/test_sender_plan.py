"""The sender's planning (plan.plan): which call a chat's pending
entries make next, with superseded edits skipped and announcements merged."""

from __future__ import annotations

from typing import Any

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
    assert not unit.skip and unit.op.text == "1"


def test_edits_of_other_messages_do_not_supersede() -> None:
    unit = plan(
        entries(
            {"m": "edit", "key": "floor", "text": "1"}, {"m": "edit", "key": "board", "text": "2"}
        )
    )
    assert not unit.skip


def test_plain_announcements_merge_until_something_else() -> None:
    unit = plan(
        entries(
            {"m": "send", "text": "a", "mergeable": True},
            {"m": "send", "text": "b", "mergeable": True},
            {"m": "send", "text": "c", "keyboard": [[{"text": "x", "data": "ps:1:1"}]]},
            {"m": "send", "text": "d", "mergeable": True},
        )
    )
    assert unit.op.text == "a\n\nb" and unit.entries == [1, 2]


def test_a_protected_card_never_merges_with_plain_text() -> None:
    unit = plan(
        entries(
            {"m": "send", "text": "role", "mergeable": True, "protect": True},
            {"m": "send", "text": "plain", "mergeable": True},
        )
    )
    assert unit.op.text == "role" and unit.entries == [1]


def test_merging_stops_short_of_telegrams_limit() -> None:
    long = "x" * (MAX_TEXT - 100)
    unit = plan(
        entries(
            {"m": "send", "text": long, "mergeable": True},
            {"m": "send", "text": "y" * 200, "mergeable": True},
        )
    )
    assert unit.entries == [1] and len(unit.op.text or "") <= MAX_TEXT


def test_the_topic_follows_the_entry() -> None:
    unit = plan(entries({"m": "send", "text": "a", "topic": 7}))
    assert unit.topic == 7

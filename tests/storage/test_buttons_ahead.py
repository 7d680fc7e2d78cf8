"""A message's buttons are written down before its call goes out (runtime/outbox/sender.py): a
press that comes before the call's answer is written down counts, and so does one on
a copy that went out just before a crash and whose id never came back."""

from __future__ import annotations

from tg_mafia.storage import Database


def test_a_message_on_its_way_takes_its_own_presses_only(db: Database) -> None:
    with db.transaction() as tx:
        tx.expect_buttons(-100, 7, 3, ("vt:3:5:1", "vt:3:5:2"), 1.0)
    with db.transaction() as tx:
        on_its_way = tx.buttons(-100, 41, "vt:3:5:2")  # its id not known yet
        assert on_its_way is not None and on_its_way.game_id == 3
        assert tx.buttons(-100, 41, "vt:3:4:2") is None  # not one of its buttons
        assert tx.buttons(-200, 41, "vt:3:5:2") is None  # another chat
        tx.set_buttons(-100, 41, 3, ("vt:3:5:1", "vt:3:5:2"), 2.0, entry_id=7)
    with db.transaction() as tx:
        sent = tx.buttons(-100, 41)
        assert sent is not None and sent.message_id == 41
        assert tx.buttons(-100, 40, "vt:3:5:1") is None  # the record is the message's now


def test_a_copy_sent_before_a_crash_keeps_its_presses(db: Database) -> None:
    with db.transaction() as tx:
        tx.expect_buttons(-100, 7, 3, ("nt:3:2:kill:4",), 1.0)  # sent; the process died
        tx.expect_buttons(-100, 7, 3, ("nt:3:2:kill:4",), 2.0)  # the call made again
        tx.set_buttons(-100, 52, 3, ("nt:3:2:kill:4",), 3.0, entry_id=7)
    with db.transaction() as tx:
        assert tx.buttons(-100, 52) is not None  # the new copy
        lost = tx.buttons(-100, 51, "nt:3:2:kill:4")  # the copy whose id never came back
        assert lost is not None and lost.message_id is None and lost.game_id == 3


def test_a_call_refused_leaves_nothing_to_press(db: Database) -> None:
    with db.transaction() as tx:
        tx.expect_buttons(-100, 9, 3, ("lb:3:-:start",), 1.0)
        tx.drop_unsent_buttons([9])
    with db.transaction() as tx:
        assert tx.buttons(-100, 60, "lb:3:-:start") is None


def test_an_edit_on_its_way_takes_the_old_and_the_new_buttons(db: Database) -> None:
    with db.transaction() as tx:
        tx.set_buttons(-100, 70, 3, ("ps:3:5",), 1.0)
        tx.widen_buttons(-100, 70, ("ps:3:6",))
    with db.transaction() as tx:
        record = tx.buttons(-100, 70)
        assert record is not None and record.choices == ("ps:3:5", "ps:3:6")
        tx.set_buttons(-100, 70, 3, ("ps:3:6",), 2.0)
    with db.transaction() as tx:
        record = tx.buttons(-100, 70)
        assert record is not None and record.choices == ("ps:3:6",)

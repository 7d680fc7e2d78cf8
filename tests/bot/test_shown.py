"""shown.Shown: a call that would change nothing the bot showed is settled without
being made; anything it does not know is made."""

from __future__ import annotations

from typing import cast

from telegram import Bot

from tg_mafia.render.calls import (
    DEADLINE,
    Clear,
    Edit,
    Op,
    Permissions,
    Send,
    Topic,
    key_of,
    text_of,
)
from tg_mafia.runtime.outbox.methods import Call, Delivery
from tg_mafia.runtime.outbox.shown import Shown

CHAT, GAME = -100, 7
BUTTONS = [[{"text": "Join", "data": "j"}]]


def made(shown: Shown, op: Op, sent: int | None = None, target: int | None = None) -> None:
    call = Call(cast(Bot, None), op, CHAT, GAME, None, text_of(op), target, Delivery([]))
    call.sent = sent
    if sent is not None and key_of(op):
        call.living(sent)
    shown.record(call)
    shown.settled(call.delivery)


def test_an_edit_to_what_is_shown_is_not_made() -> None:
    shown = Shown()
    made(shown, Send("Players (1)", keyboard=BUTTONS, key="lobby"), sent=5)
    same = Edit("Players (1)", keyboard=BUTTONS, key="lobby")
    assert shown.unchanged(same, CHAT, GAME, 0) is not None
    other = Edit("Players (2)", keyboard=BUTTONS, key="lobby")
    assert shown.unchanged(other, CHAT, GAME, 0) is None
    assert shown.unchanged(Edit("Players (1)", key="lobby"), CHAT, GAME, 0) is None
    timed = Edit("Ends " + DEADLINE, keyboard=BUTTONS, key="lobby")
    assert shown.unchanged(timed, CHAT, GAME, 0) is None  # filled in as it goes
    assert shown.unchanged(Edit("x", key="other"), CHAT, GAME, 0) is None


def test_a_clear_of_a_message_without_buttons_only_ends_its_living() -> None:
    shown = Shown()
    made(shown, Send("Vote", keyboard=BUTTONS, key="floor"), sent=9)
    clear = Clear("floor")
    assert shown.unchanged(clear, CHAT, GAME, 0) is None  # it has buttons: cleared
    made(shown, clear, target=9)
    skipped = shown.unchanged(Clear("floor"), CHAT, GAME, 0)  # message 9 still under its key
    assert skipped is not None and skipped.living == (GAME, CHAT, "floor", None)
    # a message the bot lost (refused "not found"): nothing known, the call is made
    shown.settled(Delivery([], living=(GAME, CHAT, "floor", None)))
    assert shown.unchanged(clear, CHAT, GAME, 0) is None


def test_permissions_as_last_set_are_not_set_again() -> None:
    shown = Shown()
    restore = Permissions({"can_send_messages": True})
    assert shown.unchanged(restore, CHAT, GAME, 0) is None  # never set: made
    made(shown, restore)
    final = Permissions({"can_send_messages": True}, final=True)
    skipped = shown.unchanged(final, CHAT, GAME, 0)
    assert skipped is not None and skipped.forget_permissions == GAME
    assert shown.unchanged(Permissions(), CHAT, GAME, 0) is None  # the night
    made(shown, Topic(False))  # topics: always made
    assert shown.unchanged(Topic(False), CHAT, GAME, 0) is None
    shown.forget_chat(CHAT)
    assert shown.unchanged(final, CHAT, GAME, 0) is None


def test_what_a_call_without_an_answer_touched_is_never_known_again() -> None:
    shown = Shown()
    opened = Permissions({"can_send_messages": True})
    hung = Call(cast(Bot, None), Permissions(), CHAT, GAME, None, "", None, Delivery([]))
    shown.doubt(hung)  # the night's close timed out: it may land after the next call
    made(shown, opened)
    assert (
        shown.unchanged(Permissions({"can_send_messages": True}, final=True), CHAT, GAME, 0) is None
    )
    made(shown, Send("Players (1)", keyboard=BUTTONS, key="lobby"), sent=5)
    edit = Edit("Players (2)", keyboard=BUTTONS, key="lobby")
    shown.doubt(Call(cast(Bot, None), edit, CHAT, GAME, None, "Players (2)", 5, Delivery([])))
    made(shown, Edit("Players (1)", keyboard=BUTTONS, key="lobby"), target=5)
    assert (
        shown.unchanged(Edit("Players (1)", keyboard=BUTTONS, key="lobby"), CHAT, GAME, 0) is None
    )

"""No message lost: what the presenter renders for the reference game, compared
with what the sandbox's chats received.

The expected calls are `presenter.render` of the reference game (its deal, then
each reference action), as the bot renders them. What "the same" means:

- Texts are compared as a reader sees them: the HTML parsed to plain text, with
  every deadline left out (a deadline is filled in when the message is sent,
  so it differs from any reference's by construction).
- Plain messages (a send without a living key, and the first send of a living
  message): each expected text appears, in order, in a `sendMessage` the chat
  received. Several may share one message (the sender merges plain
  announcements that fall due together).
- Living messages (sent, then edited in place, cleared or deleted by key): each
  life of one (its send up to its clear or delete) ends as the reference's last
  edit left it: a message of the chat shows that text, with exactly the
  reference's buttons if the life was never cleared, and none if it was. A life
  that ends deleted is not compared (nothing is left to compare).
- Duplicates: the sends a chat received beyond the expected ones whose text is
  that of an expected send it received (a call repeated after a crash). The other extra
  sends after the game's first are `other`: answers to presses that the engine
  does not decide (the nomination list a player opens), not compared.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import GameState, Views, apply, new_game
from engine.actions import Action
from tg_mafia.render import presenter
from tg_mafia.render.calls import (
    DEADLINE,
    RELATIVE_DEADLINE,
    Clear,
    Delete,
    Edit,
    Op,
    Send,
    keyboard_of,
)
from tg_mafia.render.scene import Outgoing
from tg_mafia.runtime.gameview import game_view
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.world.textfmt import parse_text
from tg_mafia.storage import GameRecord

TG_TIME = re.compile(r"<tg-time[^>]*>.*?</tg-time>", re.DOTALL)


def reader_text_of_html(html: str) -> str:
    """What a reader sees of a rendered text, deadlines left out."""
    bare = html.replace(DEADLINE, "").replace(RELATIVE_DEADLINE, "")
    text, _ = parse_text(TG_TIME.sub("", bare), "HTML", None)
    return text


def reader_text_of_message(text: str, entities: Iterable[dict[str, Any]]) -> str:
    """A received message's text, its deadlines (date_time entities) left out."""
    raw = text.encode("utf-16-le")
    for entity in sorted(entities, key=lambda e: -int(e["offset"])):
        if entity.get("type") == "date_time":
            start, end = 2 * int(entity["offset"]), 2 * (int(entity["offset"]) + entity["length"])
            raw = raw[:start] + raw[end:]
    return raw.decode("utf-16-le")


def buttons_of_op(op: Op) -> list[tuple[str, str]]:
    return [
        (b["text"], b.get("data") or b.get("url", "")) for row in keyboard_of(op) or [] for b in row
    ]


def buttons_of_markup(markup: dict[str, Any] | None) -> list[tuple[str, str]]:
    rows = (markup or {}).get("inline_keyboard", [])
    return [(b["text"], b.get("callback_data") or b.get("url", "")) for row in rows for b in row]


def reference_calls(record: GameRecord, actions: list[Action], speed: float) -> list[Outgoing]:
    """Every call the reference game renders, in order: the deal, then each action."""
    options = dict(record.options)
    options["host"] = "auto"
    seats = tuple(str(p.user_id) for p in record.players)
    # Any stored deadline: deadlines are left out of the comparison.
    view = dataclasses.replace(game_view(record, speed), deadline=1.0)
    state, events = new_game(record.variant, seats, options, record.seed, record.language)
    calls = presenter.render(view, Views(state), events)
    for action in actions:
        before: GameState = state
        state, events = apply(state, action)
        calls.extend(presenter.render(view, Views(state), events, Views(before)))
    return calls


@dataclass
class Life:
    """One living message, from its send to its clear or delete."""

    text: str
    buttons: list[tuple[str, str]]
    cleared: bool = False
    deleted: bool = False


@dataclass
class Expected:
    sends: dict[int, list[str]] = field(default_factory=dict)  # chat: texts, in order
    lives: dict[int, list[Life]] = field(default_factory=dict)  # chat: every life


def expected_messages(calls: list[Outgoing]) -> Expected:
    expected = Expected()
    current: dict[tuple[int, str], Life] = {}
    for call in calls:
        op, chat = call.op, call.chat_id
        if isinstance(op, Send | Edit):
            text = reader_text_of_html(op.text)
            life = current.get((chat, op.key)) if op.key else None
            if isinstance(op, Send) or life is None:  # an edit of nothing is sent anew
                expected.sends.setdefault(chat, []).append(text)
            if op.key is None:
                continue
            if isinstance(op, Send) or life is None:
                life = Life(text, buttons_of_op(op))
                current[chat, op.key] = life
                expected.lives.setdefault(chat, []).append(life)
            else:
                life.text, life.buttons = text, buttons_of_op(op)
        elif isinstance(op, Clear | Delete) and op.key is not None:
            life = current.pop((chat, op.key), None)
            if life is not None:
                life.cleared = isinstance(op, Clear)
                life.deleted = isinstance(op, Delete)
    return expected


@dataclass
class Verdict:
    expected: int = 0  # plain messages and living messages' final states
    missing: list[str] = field(default_factory=list)
    duplicates: int = 0
    other: list[str] = field(default_factory=list)

    def add(self, more: Verdict) -> None:
        self.expected += more.expected
        self.missing += more.missing
        self.duplicates += more.duplicates
        self.other += more.other


def received_sends(sb: Sandbox, chat: int) -> list[str]:
    return [
        reader_text_of_message(r.result.get("text", ""), r.result.get("entities", []))
        for r in sb.log.records
        if r.method == "sendMessage" and r.ok and r.chat_id == chat and isinstance(r.result, dict)
    ]


def compare(sb: Sandbox, expected: Expected) -> Verdict:
    verdict = Verdict()
    for chat, texts in expected.sends.items():
        got = received_sends(sb, chat)
        used = [False] * len(got)
        index, offset = 0, 0
        for text in texts:
            verdict.expected += 1
            for at in range(index, len(got)):
                found = got[at].find(text, offset if at == index else 0)
                if found >= 0:
                    used[at] = True
                    index, offset = at, found + len(text)
                    break
            else:
                verdict.missing.append(f"chat {chat}: {text[:80]!r}")
        first = used.index(True) if any(used) else len(got)
        expected_sends = {text for text, taken in zip(got, used, strict=True) if taken}
        for at in range(first, len(got)):
            if used[at]:
                continue
            if got[at] in expected_sends:
                verdict.duplicates += 1
            else:
                verdict.other.append(f"chat {chat}: {got[at][:80]!r}")
    for chat, lives in expected.lives.items():
        shown = [
            (
                reader_text_of_message(m.text or "", m.entities),
                buttons_of_markup(m.reply_markup),
            )
            for m in sb.world.resolve_chat(chat).messages.values()
            if not m.deleted and m.from_id == sb.bot_user.id
        ]
        for life in lives:
            if life.deleted:
                continue
            verdict.expected += 1
            wanted = (life.text, [] if life.cleared else life.buttons)
            if wanted not in shown:
                state = "cleared" if life.cleared else f"buttons {wanted[1]}"
                verdict.missing.append(
                    f"chat {chat}, living: {life.text[:80]!r} ({state}); {trail(sb, chat, life)}"
                )
    return verdict


def trail(sb: Sandbox, chat: int, life: Life) -> str:
    """What the chat has of a missing living message: its messages that begin
    alike (shown or deleted), and the chat's last calls, to tell a lost call
    from a wrong one."""
    head = life.text.split("\n", 1)[0]
    alike = [
        (m.message_id, "deleted" if m.deleted else "shown", (m.text or "")[:60])
        for m in sb.world.resolve_chat(chat).messages.values()
        if m.from_id == sb.bot_user.id and (m.text or "").startswith(head)
    ]
    calls = [
        (r.method, r.params.get("message_id"), r.description)
        for r in sb.log.records
        if r.chat_id == chat
    ]
    return f"alike: {alike}; last calls: {calls[-30:]}"

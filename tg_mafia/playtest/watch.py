"""The game as it happens, read from the sandbox's record of calls: every post
and press that reached the bot, and every message it sent, edited or deleted,
in order, with the sandbox time (`tg-mafia demo --watch`).

The record holds it all in one order: an update shows up in the getUpdates
call that handed it to the bot, before whatever the bot did about it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from engine import action_from_dict, apply, new_game
from engine.events import PostDeleted
from engine.vocab import Breach
from tg_mafia.i18n import translator
from tg_mafia.render import texts
from tg_mafia.sandbox import CallRecord, Sandbox
from tg_mafia.storage import Database

# Why the bot deleted a post: (chat id, n) -> a few words for the n-th post
# it deleted in that chat (from 0), or None.
DeletionReason = Callable[[int, int], str | None]


class Watch:
    """Turns the sandbox's call record into lines; `new_lines()` gives those
    not given yet."""

    def __init__(self, sb: Sandbox, reason: DeletionReason) -> None:
        self.sb = sb
        self.reason = reason
        self.start: float | None = None  # the sandbox time of the first call: 00:00
        self.seen_calls = 0
        self.last_update = 0  # getUpdates hands an update over until it is confirmed
        self.deleted_posts: Counter[int] = Counter()  # per chat

    def new_lines(self) -> list[str]:
        lines: list[str] = []
        records = self.sb.log.records
        while self.seen_calls < len(records):
            record = records[self.seen_calls]
            self.seen_calls += 1
            if record.ok:
                lines.extend(self._call(record))
        return lines

    # ----- one call ---------------------------------------------------------

    def _call(self, record: CallRecord) -> Iterator[str]:
        stamp = self._stamp(record.time)
        shown = {
            "getUpdates": self._got_updates,
            "sendMessage": self._sent,
            "editMessageText": self._edited,
            "editMessageReplyMarkup": self._edited_buttons,
            "deleteMessage": self._deletions,
            "deleteMessages": self._deletions,
            "pinChatMessage": self._pinned,
            "unpinChatMessage": self._unpinned,
            "setChatPermissions": self._permissions,
            "answerCallbackQuery": self._answered,
        }.get(record.method)
        if shown is not None:
            yield from shown(stamp, record)

    def _got_updates(self, stamp: str, record: CallRecord) -> Iterator[str]:
        for update in record.result:
            if update["update_id"] > self.last_update:
                self.last_update = update["update_id"]
                yield from self._update(stamp, update)

    def _sent(self, stamp: str, record: CallRecord) -> Iterator[str]:
        result = record.result
        yield f"{stamp} {self._chat(result['chat']['id'])}: sent #{result['message_id']}"
        yield from _body(result)

    def _edited(self, stamp: str, record: CallRecord) -> Iterator[str]:
        result = record.result
        yield f"{stamp} {self._chat(result['chat']['id'])}: edited #{result['message_id']}"
        yield from _body(result)

    def _edited_buttons(self, stamp: str, record: CallRecord) -> Iterator[str]:
        result = record.result
        chat, message_id = result["chat"]["id"], result["message_id"]
        what = "new buttons" if result.get("reply_markup") else "buttons removed"
        yield f"{stamp} {self._chat(chat)}: edited #{message_id}: {what}"
        yield from _buttons(result)

    def _deletions(self, stamp: str, record: CallRecord) -> Iterator[str]:
        p = record.params
        ids = p.get("message_ids") or [p["message_id"]]
        for message_id in ids:
            yield self._deleted(stamp, record.chat_id or 0, int(message_id))

    def _pinned(self, stamp: str, record: CallRecord) -> Iterator[str]:
        yield f"{stamp} {self._chat(record.chat_id)}: pinned #{record.params['message_id']}"

    def _unpinned(self, stamp: str, record: CallRecord) -> Iterator[str]:
        p = record.params
        which = f"#{p['message_id']}" if "message_id" in p else "the latest pin"
        yield f"{stamp} {self._chat(record.chat_id)}: unpinned {which}"

    def _permissions(self, stamp: str, record: CallRecord) -> Iterator[str]:
        allowed = bool(record.params["permissions"].get("can_send_messages"))
        state = "open: members may post" if allowed else "closed: members may not post"
        yield f"{stamp} {self._chat(record.chat_id)}: {state}"

    def _answered(self, stamp: str, record: CallRecord) -> Iterator[str]:
        p = record.params
        if not p.get("text"):
            return
        query = self.sb.callback_queries.get(str(p["callback_query_id"]))
        who = self._name(query.user_id) if query else "?"
        kind = "alert" if p.get("show_alert") else "popup"
        yield f"{stamp} {who} sees a {kind}: {p['text']}"

    def _update(self, stamp: str, update: dict[str, Any]) -> Iterator[str]:
        if "message" in update or "edited_message" in update:
            edited = "edited_message" in update
            message = update["edited_message"] if edited else update["message"]
            chat, sender = self._chat(message["chat"]["id"]), message["from"]["first_name"]
            if message.get("new_chat_members"):
                names = ", ".join(u["first_name"] for u in message["new_chat_members"])
                yield f"{stamp} {chat}: {names} joined"
            else:
                verb = "edits" if edited else "posts"
                yield f"{stamp} {chat}: {sender} {verb} #{message['message_id']}"
                yield from _indent(message.get("text", ""))
        elif "callback_query" in update:
            query = update["callback_query"]
            message = query["message"]
            label = _label(message, query["data"])
            chat = self._chat(message["chat"]["id"])
            yield (
                f"{stamp} {chat}: {query['from']['first_name']} presses "
                f"[{label}] on #{message['message_id']}"
            )

    def _deleted(self, stamp: str, chat_id: int, message_id: int) -> str:
        message = self.sb.world.resolve_chat(chat_id).messages[message_id]
        head = f"{stamp} {self._chat(chat_id)}: deleted #{message_id}"
        if message.from_id == self.sb.bot_user.id:
            return f"{head} (the bot's own)"
        author = self._name(message.from_id)
        reason = self.reason(chat_id, self.deleted_posts[chat_id]) or "no reason given"
        self.deleted_posts[chat_id] += 1
        return f"{head}, {author}'s post «{message.text or ''}»: {reason}"

    # ----- names ------------------------------------------------------------

    def _stamp(self, time: float) -> str:
        if self.start is None:
            self.start = time
        seconds = max(0, int(time - self.start))
        return f"[{seconds // 60:02}:{seconds % 60:02}]"

    def _chat(self, chat_id: int | None) -> str:
        if chat_id is None:
            return "?"
        chat = self.sb.world.resolve_chat(chat_id)
        if chat.type == "private":
            return f"{self._name(chat_id)} (private)"
        return "group"

    def _name(self, user_id: int | None) -> str:
        user = self.sb.world.users.get(user_id or 0)
        return user.first_name if user else "?"


def _indent(text: str) -> Iterator[str]:
    for line in text.splitlines():
        yield "    " + line


def _body(message: dict[str, Any]) -> Iterator[str]:
    yield from _indent(message.get("text", ""))
    yield from _buttons(message)


def _buttons(message: dict[str, Any]) -> Iterator[str]:
    for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
        yield "    " + " ".join(f"[{button['text']}]" for button in row)


def _label(message: dict[str, Any], data: str) -> str:
    for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
        for button in row:
            if button.get("callback_data") == data:
                return str(button["text"])
    return data


def replayed_reason(db: Database, game_id: int, index: int) -> str | None:
    """The engine's reason for the `index`-th post deleted in the game, from
    replaying its stored actions as the bot started it."""
    record = db.get_game(game_id)
    if record is None:
        return None
    options = {**record.options, "host": "human" if record.host_user_id else "auto"}
    seats = tuple(str(p.user_id) for p in record.players)
    state, events = new_game(record.variant, seats, options, record.seed, record.language)
    for stored in db.actions(game_id):
        state, more = apply(state, action_from_dict(dict(stored.action)))
        events.extend(more)
    reasons = [e.reason for e in events if isinstance(e, PostDeleted)]
    if index >= len(reasons):
        return None
    if reasons[index] is Breach.DEAD:
        return "the author is out of the game"
    return texts.warning_reason(translator("en"), reasons[index])

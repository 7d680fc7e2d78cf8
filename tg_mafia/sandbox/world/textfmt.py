"""Message text as Telegram stores it: parse_mode HTML turned into plain text + entities.

Lengths and offsets are in UTF-16 code units, as in the Bot API.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from tg_mafia.sandbox.errors import ApiError, bad_request
from tg_mafia.utf16 import utf16_len

_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
}
_COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")
# A date_time entity's format, as the Bot API documents it ("date-time entity formatting").
# Telegram's own parser is laxer (any order, R and W too); the sandbox holds bots to the
# documented grammar.
DATE_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")
_INT32_MAX = 2**31 - 1


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text = ""
        self.entities: list[dict[str, Any]] = []
        self._open: list[tuple[str, dict[str, Any]]] = []
        self.error: str | None = None

    def _fail(self, reason: str) -> None:
        if self.error is None:
            self.error = reason

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        entity = self._entity(tag, attributes)
        if entity is None:
            self._fail(f'Unsupported start tag "{tag}"')
            return
        entity["offset"] = utf16_len(self.text)
        self._open.append((tag, entity))

    def _entity(self, tag: str, attributes: dict[str, str | None]) -> dict[str, Any] | None:
        """The entity a start tag opens; None for a tag Telegram does not support."""
        if tag == "a":
            return _link(attributes.get("href") or "")
        if tag == "span" and attributes.get("class") == "tg-spoiler":
            return {"type": "spoiler"}
        if tag == "tg-time":
            return {
                "type": "date_time",
                "unix_time": _unix_attribute(attributes.get("unix")),
                "date_time_format": attributes.get("format") or "",
            }
        if tag == "tg-emoji":
            return {"type": "custom_emoji", "custom_emoji_id": attributes.get("emoji-id") or ""}
        if tag not in _SIMPLE_TAGS:
            return None
        return self._simple(tag, attributes)

    def _simple(self, tag: str, attributes: dict[str, str | None]) -> dict[str, Any]:
        """b, i, u, s, code, pre, blockquote… (an expandable blockquote; a code block's
        language, set on the pre around it)."""
        entity: dict[str, Any] = {"type": _SIMPLE_TAGS[tag]}
        if tag == "blockquote" and "expandable" in attributes:
            entity["type"] = "expandable_blockquote"
        if tag == "code" and self._open and self._open[-1][0] == "pre":
            language = (attributes.get("class") or "").removeprefix("language-")
            if language:
                self._open[-1][1]["language"] = language
        return entity

    def handle_endtag(self, tag: str) -> None:
        if not self._open or self._open[-1][0] != tag:
            self._fail(f'Unmatched end tag "{tag}"')
            return
        _, entity = self._open.pop()
        entity["length"] = utf16_len(self.text) - entity["offset"]
        if entity["type"] == "date_time":
            if not DATE_TIME_FORMAT.fullmatch(entity["date_time_format"]):
                self._fail("Invalid date format used")
                return
            if entity["unix_time"] <= 0:
                return  # Telegram drops a tg-time without a usable unix time, text kept
        if entity["length"] > 0:
            self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.text += data


def _link(href: str) -> dict[str, Any]:
    """<a href>: a mention of a user by id (tg://user?id=), or a link."""
    match = re.match(r"tg://user\?id=(\d+)$", href)
    if match:
        return {"type": "text_mention", "user": {"id": int(match.group(1))}}
    return {"type": "text_link", "url": href}


def parse_text(
    text: str, parse_mode: str | None, entities: list[dict[str, Any]] | None
) -> tuple[str, list[dict[str, Any]]]:
    """(plain text, entities) for an outgoing message; ApiError 400 when it does not parse."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        parser = _Html()
        parser.feed(text)
        parser.close()
        if parser.error is None and parser._open:
            parser.error = f'Can\'t find end tag corresponding to start tag "{parser._open[-1][0]}"'
        if parser.error is not None:
            raise bad_request(f"can't parse entities: {parser.error}")
        return parser.text, sorted(parser.entities, key=lambda e: (e["offset"], -e["length"]))
    if mode in ("markdown", "markdownv2"):
        # not modelled: the text is kept as sent (documented in docs/sandbox.md)
        return text, []
    if mode:
        raise ApiError(400, f"Bad Request: unsupported parse_mode {parse_mode!r}")
    given = list(entities or [])
    for entity in given:
        if entity.get("type") == "date_time":
            _check_date_time_entity(entity)
    return text, given


def _unix_attribute(value: str | None) -> int:
    """tg-time's unix attribute as Telegram reads it: anything but a positive 32-bit
    integer counts as missing."""
    if value is None or not re.fullmatch(r"\s*\d+\s*", value):
        return 0
    number = int(value)
    return number if number <= _INT32_MAX else 0


def _check_date_time_entity(entity: dict[str, Any]) -> None:
    """A date_time entity given in `entities`, checked as the Bot API checks it."""
    if "unix_time" not in entity:
        raise bad_request("can't parse MessageEntity: Can't find field \"unix_time\"")
    if not DATE_TIME_FORMAT.fullmatch(str(entity.get("date_time_format", ""))):
        raise bad_request("can't parse MessageEntity: Invalid date-time format specified")
    if int(entity["unix_time"]) <= 0:
        raise bad_request("invalid date specified")
    entity.setdefault("date_time_format", "")


def command_entities(text: str) -> list[dict[str, Any]]:
    """bot_command entities the Telegram app attaches to a user's message."""
    out = []
    for match in _COMMAND_RE.finditer(text):
        before = text[: match.start()]
        out.append(
            {
                "type": "bot_command",
                "offset": utf16_len(before),
                "length": utf16_len(match.group(0)),
            }
        )
    return out

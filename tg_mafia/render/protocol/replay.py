"""A protocol played again (`tg-mafia replay FILE.json`): the game dealt
from the document's seed, its action log applied through the engine, each
action's result checked against the one the document records, and the end
against the document's end. Version 1 documents are read too, but keep no
seed or log, so they cannot be played again."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine import (
    Cause,
    EndView,
    IllegalAction,
    Phase,
    PublicView,
    SetupError,
    action_from_dict,
)
from engine.options import OptionValue
from engine.variants import VARIANTS
from tg_mafia.render.fate import Fate
from tg_mafia.render.protocol.build import FATES, position, start_game
from tg_mafia.render.protocol.schema import PLAYER_FIELDS, SCHEMA, SCHEMA_VERSION

# Exit codes of `tg-mafia replay`.
SAME_END, DIVERGES, UNREADABLE = 0, 1, 2


class DocumentError(ValueError):
    """The file is not a protocol this version reads; the message says why, in one line."""


@dataclass(frozen=True)
class Entry:
    action: dict[str, Any]  # as the engine takes it: players by engine id
    shown: dict[str, Any]  # as the document writes it: players by seat
    result: dict[str, Any]  # the result the document records


@dataclass(frozen=True)
class Document:
    version: int
    variant: str
    language: str
    options: dict[str, OptionValue]
    players: tuple[str, ...]  # engine ids (the user ids as text), by seat
    roles: tuple[str, ...]
    fates: tuple[str, ...]
    winner: str | None
    ended: str  # "day 4"
    seed: int | None  # None: version 1
    log: tuple[Entry, ...] | None  # None: version 1

    @property
    def end(self) -> str:
        return describe_end(self.winner, self.ended)


@dataclass(frozen=True)
class Replay:
    code: int  # SAME_END, DIVERGES, UNREADABLE
    line: str


def describe_end(winner: str | None, ended: str) -> str:
    if winner is None:
        return f"no winner, {ended}"
    if winner == "draw":
        return f"a draw, {ended}"
    return f"the {winner} wins, {ended}"


# ----- reading --------------------------------------------------------------------


def read_document(path: Path) -> Document:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DocumentError(f"cannot read the file: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DocumentError(f"not JSON: {error}") from None
    return parse_document(data)


def parse_document(data: object) -> Document:
    top = _mapping(data, "the document")
    if top.get("schema") != SCHEMA:
        raise DocumentError(f"not a tg-mafia protocol (its schema is not {SCHEMA!r})")
    version = _get(top, "version", int, "")
    if version not in (1, SCHEMA_VERSION):
        raise DocumentError(f"version {version} is not one this tg-mafia reads (1 or 2)")
    game = _mapping(top.get("game"), "game")
    variant = _get(game, "variant", str, "game.")
    if variant not in VARIANTS:
        raise DocumentError(f"game.variant {variant!r} is not a variant of this tg-mafia")
    seats = _get(top, "seats", list, "")
    for number, seat in enumerate(seats, 1):
        if _get(_mapping(seat, f"seats[{number}]"), "seat", int, "") != number:
            raise DocumentError(f"seats[{number}] is not seat {number}: seats go in order")
    result = _mapping(top.get("result"), "result")
    winner = result.get("winner")
    if winner is not None and not isinstance(winner, str):
        raise DocumentError("result.winner must be a string or null")
    players = tuple(str(_get(s, "user_id", int, "seats[].")) for s in seats)
    document = Document(
        version=version,
        variant=variant,
        language=_get(game, "language", str, "game."),
        options=dict(_get(game, "options", dict, "game.")),
        players=players,
        roles=tuple(_get(s, "role", str, "seats[].") for s in seats),
        fates=tuple(_get(s, "fate", str, "seats[].") for s in seats),
        winner=winner,
        ended=_moment(result.get("ended")),
        seed=None,
        log=None,
    )
    if version == 1:
        return document
    seed_text = _get(game, "seed", str, "game.")
    if not seed_text.isascii() or not seed_text.lstrip("-").isdigit():
        raise DocumentError("game.seed must be a whole number, written as a string")
    seed = int(seed_text)
    log = _get(top, "log", list, "")
    entries = tuple(_entry(item, index, players) for index, item in enumerate(log, 1))
    return replace(document, seed=seed, log=entries)


def _moment(value: object) -> str:
    """`result.ended` as words: "day 4" (null: the game ended before any round)."""
    if value is None:
        return "at the start"
    moment = _mapping(value, "result.ended")
    phase = _get(moment, "phase", str, "result.ended.")
    return f"{phase} {_get(moment, 'number', int, 'result.ended.')}"


# The types of an action's fields that are not players (engine/actions.py).
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "verb": (str,),
    "move": (str,),
    "text": (str,),
    "timer": (int, type(None)),
}


def _entry(item: object, index: int, players: tuple[str, ...]) -> Entry:
    where = f"log[{index}]"
    data = _mapping(item, where)
    shown = _mapping(data.get("action"), f"{where}.action")
    result = _mapping(data.get("result"), f"{where}.result")
    for key, kinds in FIELD_TYPES.items():
        value = shown.get(key)
        if key in shown and (not isinstance(value, kinds) or isinstance(value, bool)):
            raise DocumentError(f"{where}.action.{key} must be of type {kinds[0].__name__}")
    action = {key: _players_in(key, value, players, where) for key, value in shown.items()}
    try:
        action_from_dict(dict(action))
    except ValueError as error:
        raise DocumentError(f"{where}.action: {error}") from None
    return Entry(action, dict(shown), dict(result))


def _players_in(key: str, value: Any, players: tuple[str, ...], where: str) -> Any:
    """A seat named by an action's field, as the engine's player id."""
    if key not in PLAYER_FIELDS:
        return value
    if isinstance(value, list):
        return [_player(v, players, where) for v in value]
    if isinstance(value, str) or value is None:
        return value  # the host, the clock, or no target
    return _player(value, players, where)


def _player(seat: object, players: tuple[str, ...], where: str) -> str:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= len(players):
        raise DocumentError(f"{where}.action names {seat!r}, which is no seat of this game")
    return players[seat - 1]


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise DocumentError(f"{where} must be an object")
    return value


def _get(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise DocumentError(f"{where}{key} is missing")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DocumentError(f"{where}{key} must be of type {kind.__name__}")
    return value


# ----- playing again ----------------------------------------------------------------


def replay_document(document: Document) -> Replay:
    if document.seed is None or document.log is None:
        return Replay(
            UNREADABLE,
            f"a version {document.version} protocol keeps no seed or action log, so it cannot "
            f"be played again (it records: {document.end})",
        )
    try:
        game, _ = start_game(
            document.variant,
            document.players,
            document.options,
            document.seed,
            document.language,
            set(document.options),
        )
    except SetupError as error:
        return Replay(UNREADABLE, f"the game cannot be set up again: {error}")
    # The deal as the host sees it: every role.
    dealt = tuple(role.value for _, role in game.views.host.roles)
    for seat, (want, got) in enumerate(zip(document.roles, dealt, strict=True), 1):
        if want != got:
            return Replay(
                DIVERGES,
                f"diverges at the deal: seat {seat} is {want} in the document, {got} when "
                f"dealt again from seed {document.seed}",
            )
    total = len(document.log)
    for index, entry in enumerate(document.log, 1):
        at = f"action {index} of {total} {json.dumps(entry.shown, ensure_ascii=False)}"
        before = game.views.public
        try:
            game, _ = game.apply(action_from_dict(dict(entry.action)))
        except IllegalAction as error:
            return Replay(DIVERGES, f"diverges at {at}: the engine refuses it ({error})")
        result = _result(document, before, game.views.public)
        if result != entry.result:
            return Replay(
                DIVERGES,
                f"diverges at {at}: the document has {_show(entry.result)}, "
                f"the replay {_show(result)}",
            )
    return _compare_end(document, game.views.public, game.views.end, total)


def _result(document: Document, before: PublicView, after: PublicView) -> dict[str, Any]:
    """The action's result as the document writes it (schema.protocol_json)."""
    seat = {p: n for n, p in enumerate(document.players, 1)}
    where = position(before, after)
    return {
        "day": where.day,
        "night": where.night,
        "stage": where.stage,
        "speaker": None if where.speaker is None else seat[where.speaker],
        "out": [seat[p] for p in where.out],
    }


def _show(result: Mapping[str, Any]) -> str:
    return json.dumps(dict(result), ensure_ascii=False)


def _compare_end(document: Document, view: PublicView, end: EndView | None, total: int) -> Replay:
    if end is None or view.phase is not Phase.ENDED:
        return Replay(
            DIVERGES,
            f"the log ends before the game does: after {total} actions the replay is at "
            f"{view.phase.value} (stage {view.stage.value}), the document ends with "
            f"{document.end}",
        )
    winner = end.winner.value if end.winner is not None else None
    causes = dict(end.causes)
    fates = tuple(
        FATES[Cause(causes[p])].value if p in causes else Fate.SURVIVED.value for p in view.seats
    )
    if winner != document.winner:
        return Replay(
            DIVERGES,
            f"the actions replay the same, but the end differs: the document has "
            f"{describe_end(document.winner, document.ended)}, the replay "
            f"{describe_end(winner, document.ended)}",
        )
    for number, (want, got) in enumerate(zip(document.fates, fates, strict=True), 1):
        if want != got:
            return Replay(
                DIVERGES,
                f"the actions replay the same, but seat {number}'s fate differs: "
                f"{want} in the document, {got} in the replay",
            )
    return Replay(
        SAME_END,
        f"{document.variant}, seed {document.seed}: {total} actions played again to the "
        f"same end: {document.end}",
    )

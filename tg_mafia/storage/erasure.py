"""Personal data's lifetime (docs/privacy.md): pseudonyms for the results,
the retention of finished games, and /forget.

The retention counts each kind with the same queries whether it then
changes anything or not, so `tg-mafia prune --dry-run` tells exactly what a
prune would do."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from sqlalchemy import ColumnElement, Executable, delete, func, or_, update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from tg_mafia.records import ACTIVE_STATUSES, Forgotten, GameStatus, Pruned, StillPlaying
from tg_mafia.storage.models import (
    ButtonMessage,
    Game,
    GameAction,
    LivingMessage,
    NextGameWatch,
    OutboxEntry,
    PlayerResult,
    Pseudonym,
    Seat,
)

FINISHED: Final = (GameStatus.ENDED.value, GameStatus.ABORTED.value)
PSEUDONYM_BITS: Final = 62
# A game's human host, once unnamed: still a host (a protocol tells hosted games apart).
HOST_STAND_IN: Final = -1


# -- pseudonyms ---------------------------------------------------------------------------


def pseudonyms(session: Session, user_ids: Iterable[int]) -> dict[int, int]:
    """The pseudonym of each user, made for those who have none yet."""
    wanted = set(user_ids)
    if not wanted:
        return {}
    rows = session.exec(
        select(Pseudonym.user_id, Pseudonym.pseudonym).where(col(Pseudonym.user_id).in_(wanted))
    ).all()
    found = {int(user_id): int(pseudonym) for user_id, pseudonym in rows}
    for user_id in sorted(wanted - found.keys()):
        found[user_id] = fresh_pseudonym(session)
        session.add(Pseudonym(pseudonym=found[user_id], user_id=user_id))
        session.flush()
    return found


def pseudonym_of(session: Session, user_id: int) -> int | None:
    found = session.exec(select(Pseudonym.pseudonym).where(Pseudonym.user_id == user_id)).first()
    return None if found is None else int(found)


def fresh_pseudonym(session: Session) -> int:
    """A random number no user and no result has ever carried here: a new
    user never inherits results that were someone else's."""
    while True:
        candidate = secrets.randbits(PSEUDONYM_BITS) + 1
        used = (
            session.exec(
                select(Pseudonym.pseudonym).where(Pseudonym.pseudonym == candidate)
            ).first()
            or session.exec(select(PlayerResult.id).where(PlayerResult.player == candidate)).first()
        )
        if used is None:
            return candidate


# -- the retention ------------------------------------------------------------------------


@dataclass
class _Step:
    """One kind the retention takes: how many, counted; then what it writes."""

    counts: Sequence[SelectOfScalar[int]]
    writes: Sequence[Executable] = field(default_factory=tuple)


def prune(session: Session, cutoff: datetime, now: datetime, *, dry_run: bool) -> Pruned:
    """Finished games that ended before `cutoff` lose their log, their
    players' names and user ids, their seats and message records; users who
    finished no game since lose their pseudonym; /nextgame subscriptions of a
    chat that opened no game since lapse. Nothing is written in a dry run."""
    old = select(Game.id).where(
        col(Game.status).in_(FINISHED),
        col(Game.ended_at).is_not(None),
        col(Game.ended_at) < cutoff,
    )
    since = cutoff.timestamp()  # the message tables keep epoch seconds
    named = (col(Game.id).in_(old), col(Game.anonymised_at).is_(None))
    recent_players = (
        select(PlayerResult.player)
        .join(Game, col(Game.id) == col(PlayerResult.game_id))
        .where(col(Game.ended_at) >= cutoff)
    )
    seated = select(Seat.user_id).where(col(Seat.active))
    idle = (
        col(Pseudonym.pseudonym).not_in(recent_players),
        col(Pseudonym.user_id).not_in(seated),
    )
    chat_played = (
        select(Game.id)
        .where(col(Game.chat_id) == col(NextGameWatch.chat_id), col(Game.created_at) >= cutoff)
        .exists()
    )
    lapsed = (col(NextGameWatch.created_at) < cutoff, ~chat_played)
    living = col(LivingMessage.game_id).in_(old)
    buttons = or_(
        col(ButtonMessage.game_id).in_(old),
        (col(ButtonMessage.game_id).is_(None)) & (col(ButtonMessage.created_at) < since),
    )
    outbox = or_(
        col(OutboxEntry.game_id).in_(old),
        (col(OutboxEntry.game_id).is_(None)) & (col(OutboxEntry.created_at) < since),
    )
    steps = {
        "logs": _Step(
            [
                select(func.count(func.distinct(GameAction.game_id))).where(
                    col(GameAction.game_id).in_(old)
                )
            ],
            [delete(GameAction).where(col(GameAction.game_id).in_(old))],
        ),
        "games": _Step(
            [_count(Game, *named)],
            [
                update(Game)
                .where(*named, col(Game.host_user_id).is_not(None))
                .values(host_user_id=HOST_STAND_IN),
                update(Game)
                .where(*named)
                .values(
                    players=[],
                    state=None,
                    opened_by=0,
                    opener_name="",
                    host_name=None,
                    anonymised_at=now,
                ),
            ],
        ),
        "seats": _Step(
            [_count(Seat, col(Seat.game_id).in_(old))],
            [delete(Seat).where(col(Seat.game_id).in_(old))],
        ),
        "results": _Step(
            [
                _count(
                    PlayerResult, col(PlayerResult.game_id).in_(old), col(PlayerResult.name) != ""
                )
            ],
            [
                update(PlayerResult)
                .where(col(PlayerResult.game_id).in_(old), col(PlayerResult.name) != "")
                .values(name="")
            ],
        ),
        "messages": _Step(
            [
                _count(LivingMessage, living),
                _count(ButtonMessage, buttons),
                _count(OutboxEntry, outbox),
            ],
            [
                delete(LivingMessage).where(living),
                delete(ButtonMessage).where(buttons),
                delete(OutboxEntry).where(outbox),
            ],
        ),
        "pseudonyms": _Step([_count(Pseudonym, *idle)], [delete(Pseudonym).where(*idle)]),
        "watches": _Step([_count(NextGameWatch, *lapsed)], [delete(NextGameWatch).where(*lapsed)]),
    }
    counts: dict[str, int] = {}
    for name, step in steps.items():
        counts[name] = sum(int(session.exec(query).one()) for query in step.counts)
        if counts[name] and not dry_run:
            for statement in step.writes:
                session.execute(statement.execution_options(synchronize_session=False))
    return Pruned(**counts)


def _count(table: type[Any], *where: ColumnElement[bool]) -> SelectOfScalar[int]:
    return select(func.count()).select_from(table).where(*where)


# -- /forget ------------------------------------------------------------------------------


def forget(session: Session, user_id: int) -> Forgotten | StillPlaying:
    """Everything kept about the user, erased or made anonymous: refused
    (nothing changed) while they take part in a lobby or a running game."""
    theirs = or_(
        col(Game.id).in_(select(Seat.game_id).where(Seat.user_id == user_id)),
        col(Game.opened_by) == user_id,
        col(Game.host_user_id) == user_id,
    )
    busy = session.exec(
        select(Game).where(col(Game.status).in_(ACTIVE_STATUSES), theirs).order_by(col(Game.id))
    ).first()
    if busy is not None:
        return StillPlaying(busy.title, GameStatus(busy.status))
    games = session.exec(
        select(Game)
        .where(col(Game.status).in_(FINISHED), col(Game.anonymised_at).is_(None), theirs)
        .order_by(col(Game.id))
    ).all()
    for game in games:
        _take_out(session, game, user_id)
    session.execute(delete(Seat).where(col(Seat.user_id) == user_id))
    results = _unlink_results(session, user_id)
    watches = _delete(session, NextGameWatch, col(NextGameWatch.user_id) == user_id)
    messages = (
        _delete(session, OutboxEntry, col(OutboxEntry.chat_id) == user_id)
        + _delete(session, LivingMessage, col(LivingMessage.chat_id) == user_id)
        + _delete(session, ButtonMessage, col(ButtonMessage.chat_id) == user_id)
    )
    session.flush()
    return Forgotten(games=len(games), results=results, watches=watches, messages=messages)


def _take_out(session: Session, game: Game, user_id: int) -> None:
    """The user's name and id out of a finished game; the others' record of it
    stays whole: their seat becomes `-seat` with no name, in the players, the
    stored state and the log alike, so the game still replays (its protocol)."""
    stand_ins: dict[str, str] = {}
    players = []
    for seat, player in enumerate(game.players, 1):
        if int(player["user_id"]) == user_id:
            stand_ins[str(user_id)] = str(-seat)
            players.append({"user_id": -seat, "name": ""})
        else:
            players.append(dict(player))
    game.players = players
    if game.opened_by == user_id:
        game.opened_by, game.opener_name = 0, ""
    if game.host_user_id == user_id:
        game.host_user_id, game.host_name = HOST_STAND_IN, ""
    if stand_ins:
        game.state = None if game.state is None else replace_ids(game.state, stand_ins)
        for action in session.exec(select(GameAction).where(GameAction.game_id == game.id)).all():
            rewritten = replace_ids(action.action, stand_ins)
            if rewritten != action.action:
                action.action = rewritten
                session.add(action)
    session.add(game)


def _unlink_results(session: Session, user_id: int) -> int:
    """Each of the user's results gets a random player of its own and no
    name: the games keep their results for the others' ratings, and no two
    of them can be told to be the same person's."""
    pseudonym = pseudonym_of(session, user_id)
    if pseudonym is None:
        return 0
    rows = session.exec(select(PlayerResult).where(PlayerResult.player == pseudonym)).all()
    for row in rows:
        row.player, row.name = fresh_pseudonym(session), ""
        session.add(row)
        session.flush()  # the next fresh pseudonym sees this one
    session.execute(delete(Pseudonym).where(col(Pseudonym.pseudonym) == pseudonym))
    return len(rows)


def _delete(session: Session, table: type[Any], where: ColumnElement[bool]) -> int:
    count = int(session.exec(_count(table, where)).one())
    if count:
        session.execute(delete(table).where(where))
    return count


def replace_ids(value: Any, stand_ins: Mapping[str, str]) -> Any:
    """`value` (JSON) with each of `stand_ins` (player ids) replaced by its
    stand-in wherever it is a whole word of a key or a string: the engine
    writes player ids as strings, alone ("7") or in keys ("7:kill").
    Numbers (days, steps) are left alone."""
    if not stand_ins:
        return value
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(old) for old in stand_ins) + r")(?!\w)")

    def swap(text: str) -> str:
        return pattern.sub(lambda match: stand_ins[match.group()], text)

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return swap(item)
        if isinstance(item, list):
            return [walk(element) for element in item]
        if isinstance(item, dict):
            return {swap(key): walk(element) for key, element in item.items()}
        return item

    return walk(value)

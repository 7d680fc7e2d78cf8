"""What a Photo call draws, as plain JSON the outbox keeps (pictures/data.py): the
picture's kind, its language and its data. The sender draws it when it sends it (in
a worker thread: drawing takes a few tenths of a second), so a restart
between the decision and the call still draws the same picture."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine import Role, Side
from tg_mafia.i18n import translator
from tg_mafia.ratings import Leaderboard, PlayerRating, Record, Skill
from tg_mafia.render.pictures.canvas import Picture
from tg_mafia.render.pictures.data import (
    TABLE,
    LeaderboardPicture,
    PlayerPicture,
    TablePicture,
)
from tg_mafia.render.pictures.standings import render_leaderboard, render_player_card
from tg_mafia.render.pictures.table import TableSnapshot, render_table
from tg_mafia.render.protocol.snapshot import snapshot_from_json, snapshot_json


class DrawingError(ValueError):
    """The data of a picture is not one we can draw."""


# ----- what the ops carry ------------------------------------------------------------------


def table_request(language: str) -> TablePicture:
    """The end screen's picture, still to be filled in from the stored game (its log
    replayed: runtime/endgame.py) once the action that ended it is written."""
    return {"kind": TABLE, "language": language}


def table_picture(snapshot: TableSnapshot, language: str) -> TablePicture:
    return {"kind": TABLE, "language": language, "table": snapshot_json(snapshot)}


def leaderboard_picture(
    players: Sequence[PlayerRating], names: Mapping[int, str], title: str, language: str
) -> LeaderboardPicture:
    return {
        "kind": "leaderboard",
        "language": language,
        "title": title,
        "players": [rating_json(p) for p in players],
        "names": {str(user): name for user, name in names.items()},
    }


def player_picture(
    player: PlayerRating, name: str, title: str, rank: int | None, ranked: int, language: str
) -> PlayerPicture:
    return {
        "kind": "player",
        "language": language,
        "title": title,
        "name": name,
        "rank": rank,
        "ranked": ranked,
        "player": rating_json(player),
    }


def rating_json(player: PlayerRating) -> dict[str, Any]:
    return {
        "user_id": player.user_id,
        "mu": player.skill.mu,
        "sigma": player.skill.sigma,
        "record": [player.record.games, player.record.wins],
        "by_role": {r.value: [n.games, n.wins] for r, n in player.by_role.items()},
        "by_side": {s.value: [n.games, n.wins] for s, n in player.by_side.items()},
    }


def rating_from_json(data: Mapping[str, Any]) -> PlayerRating:
    games, wins = data["record"]
    return PlayerRating(
        user_id=int(data["user_id"]),
        skill=Skill(float(data["mu"]), float(data["sigma"])),
        record=Record(int(games), int(wins)),
        by_role=MappingProxyType(
            {Role(r): Record(int(g), int(w)) for r, (g, w) in data["by_role"].items()}
        ),
        by_side=MappingProxyType(
            {Side(s): Record(int(g), int(w)) for s, (g, w) in data["by_side"].items()}
        ),
    )


# ----- drawing ---------------------------------------------------------------------------------


def draw(data: Mapping[str, Any]) -> Picture:
    """The picture `data` describes; DrawingError for data that does not describe one."""
    painter = PAINTERS.get(str(data.get("kind")))
    if painter is None:
        raise DrawingError(f"no picture of kind {data.get('kind')!r}")
    try:
        return painter(data)
    except (KeyError, TypeError, ValueError) as error:
        raise DrawingError(f"cannot draw {data.get('kind')}: {error}") from error


def _table(data: Mapping[str, Any]) -> Picture:
    return render_table(snapshot_from_json(data["table"]), translator(data["language"]))


def _leaderboard(data: Mapping[str, Any]) -> Picture:
    players = tuple(rating_from_json(p) for p in data["players"])
    names = {int(user): str(name) for user, name in data["names"].items()}
    board = Leaderboard(players=players, advantages=())
    return render_leaderboard(
        board, names, str(data["title"]), translator(data["language"]), top=len(players)
    )


def _player(data: Mapping[str, Any]) -> Picture:
    rank = data.get("rank")
    return render_player_card(
        rating_from_json(data["player"]),
        str(data["name"]),
        str(data["title"]),
        int(rank) if rank is not None else None,
        int(data["ranked"]),
        translator(data["language"]),
    )


PAINTERS: Mapping[str, Callable[[Mapping[str, Any]], Picture]] = MappingProxyType(
    {"table": _table, "leaderboard": _leaderboard, "player": _player}
)

"""What a Photo call carries (render/calls.py): which picture, in which language, and
the data it is drawn from, as the JSON the outbox keeps. render/drawings.py makes them
and draws them; the nested data (a table's snapshot, a player's rating) keep their own
JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, NotRequired, TypedDict, cast

TABLE: Final = "table"  # the end's picture: asked for by the presenter, filled in by the runner


class TablePicture(TypedDict):
    """The end of a game: its seats, roles and fates (`table`: protocol/snapshot.py),
    missing from the presenter's request until the runner fills it in."""

    kind: Literal["table"]
    language: str
    table: NotRequired[dict[str, Any]]


class LeaderboardPicture(TypedDict):
    kind: Literal["leaderboard"]
    language: str
    title: str
    players: list[dict[str, Any]]  # drawings.rating_json
    names: dict[str, str]  # user id: name


class PlayerPicture(TypedDict):
    kind: Literal["player"]
    language: str
    title: str
    name: str
    rank: int | None
    ranked: int
    player: dict[str, Any]  # drawings.rating_json


PictureData = TablePicture | LeaderboardPicture | PlayerPicture
KINDS: Final = frozenset({TABLE, "leaderboard", "player"})


def picture_data(data: object) -> PictureData:
    """Stored JSON as a picture's data: its kind checked, the rest read when drawn
    (drawings.draw refuses data it cannot draw)."""
    if not isinstance(data, Mapping) or data.get("kind") not in KINDS:
        raise ValueError(f"not a picture's data: {data!r:.80}")
    return cast(PictureData, dict(data))

"""Albums: Telegram delivers an album as several messages sharing one
`media_group_id`. The game counts it as one post: the first message is
judged (kept, or deleted and warned), the others follow its fate."""

from __future__ import annotations

from collections import OrderedDict

REMEMBERED = 256  # albums arrive together: the last few are enough


class Albums:
    def __init__(self) -> None:
        self._fate: OrderedDict[str, bool] = OrderedDict()

    def seen(self, album: str) -> bool:
        return album in self._fate

    def deleted(self, album: str) -> bool:
        return self._fate.get(album, False)

    def remember(self, album: str, deleted: bool) -> None:
        self._fate[album] = deleted
        self._fate.move_to_end(album)
        while len(self._fate) > REMEMBERED:
            self._fate.popitem(last=False)

"""Between games on the sandbox: /nextgame (told in private when a lobby
opens, the list kept across games and restarts), /extend (by the lobby's
opener or an admin, refused to others), the group's autostart."""

from __future__ import annotations

from pathlib import Path

from engine import find_variant
from tests.bot.autoplay import prefix, press
from tests.bot.harness import Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.runtime.lobby import EXTEND_SECONDS
from tg_mafia.sandbox import Sandbox
from tg_mafia.storage import GameStatus

T = translator("en")
OPENED = "A new game is open in «Friday club»"


async def say(h: Harness, user: object, command: str, args: str = "") -> str:
    user.command(h.group, command, args, mention=True)  # type: ignore[attr-defined]
    await h.settle()
    return h.group_texts()[-1]


async def test_nextgame_is_kept_across_games_and_restarts(tmp_path: Path) -> None:
    sb = Sandbox()
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    async with running_bot(tmp_path, 3, sb=sb, database_url=url) as h:
        anna, boris, chloe = h.users
        # The bot must be able to write to them first.
        assert "open a private chat with me first" in await say(h, anna, "nextgame")
        for user in (anna, boris, chloe):
            user.start()
        await h.settle()
        assert "I will tell you in private" in await say(h, anna, "nextgame")
        assert "I will tell you in private" in await say(h, boris, "nextgame")
        assert "no longer" in await say(h, boris, "nextgame")  # asked again: off the list
        assert "I will tell you in private" in await say(h, chloe, "nextgame")
        # The first game: Anna and Chloé hear of it, with a Join button; not the opener's own.
        await say(h, chloe, "newgame")
        assert h.db.active_game(h.group.id) is not None
        told = [m for m in anna.view() if m.text and OPENED in m.text]
        assert len(told) == 1 and told[0].buttons == [[texts.button(T, "join")]]
        assert not any(OPENED in (m.text or "") for m in chloe.view())
        assert not any(OPENED in (m.text or "") for m in boris.view())
        await say(h, h.admin, "cancel")
        users, admin, group = h.users, h.admin, h.group
    # A restart: the list is still there for the next game.
    async with running_bot(tmp_path, 0, sb=sb, database_url=url) as h:
        h.users, h.admin, h.group = users, admin, group
        await say(h, h.admin, "newgame")
        assert sum(OPENED in (m.text or "") for m in anna.view()) == 2
        assert sum(OPENED in (m.text or "") for m in chloe.view()) == 1
        assert not any(OPENED in (m.text or "") for m in boris.view())
        # Joining from the message's link seats the player.
        anna.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
        await h.settle()
        lobby = h.db.active_game(h.group.id)
        assert lobby is not None and [p.user_id for p in lobby.players] == [anna.id]


async def test_extend_by_the_opener_or_an_admin_and_refused_to_others(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2, lobby_seconds=600) as h:
        opener, other = h.users
        assert "no open lobby" in await say(h, opener, "extend")
        await say(h, opener, "newgame")
        lobby = h.db.active_game(h.group.id)
        assert lobby is not None and lobby.stage_deadline is not None
        first = lobby.stage_deadline
        # Someone else: refused, nothing changes.
        assert await say(h, other, "extend") == texts.popup(T, "only_opener")
        assert h.db.active_game(h.group.id) == lobby
        # The opener: two more minutes, the lobby message shows the new time.
        assert "The lobby waits longer" in await say(h, opener, "extend")
        extended = h.db.active_game(h.group.id)
        assert extended is not None and extended.stage_deadline == first + EXTEND_SECONDS
        lobby_text = next(m for m in h.admin.view(h.group) if m.text and "Players (" in m.text)
        shown = {e["unix_time"] for e in lobby_text.entities if e["type"] == "date_time"}
        assert shown == {round(first + EXTEND_SECONDS)}
        # An administrator may too, by a number of seconds; a bad number is refused.
        assert "from 30 to 600" in await say(h, h.admin, "extend", "5")
        assert "The lobby waits longer" in await say(h, h.admin, "extend", "300")
        again = h.db.active_game(h.group.id)
        assert again is not None and again.stage_deadline == first + EXTEND_SECONDS + 300


async def fill(h: Harness, count: int) -> None:
    """The first `count` players join through the lobby's link."""
    for user in h.users[:count]:
        user.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
        await h.settle()


async def test_a_full_lobby_starts_by_itself_when_the_group_wants(tmp_path: Path) -> None:
    seats = find_variant("moscow").max_players
    async with running_bot(tmp_path, seats, scheduler=ManualScheduler()) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en")
        assert not h.db.get_settings(h.group.id).autostart  # off by default
        await say(h, h.admin, "newgame")
        await fill(h, seats)
        lobby = h.db.active_game(h.group.id)
        assert lobby is not None and lobby.status is GameStatus.LOBBY
        assert len(lobby.players) == seats  # full, and waiting for Start
        # The last player leaves; the group turns autostart on; their coming back
        # takes the last seat, and the game starts.
        last = h.users[-1]
        assert press(h, last, h.group.id, prefix(Kind.LOBBY, lobby, "leave"))
        await h.settle()
        h.db.save_settings(h.group.id, autostart=True)
        last.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
        await h.settle()
        started = h.db.get_game(lobby.id)
        assert started is not None and started.status is GameStatus.RUNNING
        assert len(started.players) == seats
        assert "The game has started" in "\n".join(h.group_texts())

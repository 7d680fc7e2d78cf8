"""The end of a game on the sandbox: the picture of the table sent with the
end screen, and the protocol (/protocol in the group, the end screen's
button in private), refused while the game runs, made from the stored log
(so after a restart too)."""

from __future__ import annotations

from pathlib import Path

from engine import GameState
from tests.bot.autoplay import AutoPlayers, prefix, press
from tests.bot.between import documents, image_size, messages, photos, protocol_documents
from tests.bot.harness import Harness, running_bot
from tests.database_ops import backlog
from tests.protocol.valid import assert_valid
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.render.pictures.layout import SIZE
from tg_mafia.render.pictures.table import render_table, winner_title
from tg_mafia.render.protocol import SCHEMA, SCHEMA_VERSION, build_protocol, table_snapshot
from tg_mafia.runtime import archive
from tg_mafia.sandbox import Sandbox
from tg_mafia.storage import GameRecord, GameStatus


async def play_to_the_end(
    h: Harness, scheduler: ManualScheduler, variant: str, language: str, seed: int
) -> GameRecord:
    h.db.save_settings(h.group.id, variant=variant, language=language)
    game_id = await h.open_and_fill()
    await h.press_start()
    record = await AutoPlayers(h, scheduler, seed).play(game_id)
    assert record.status is GameStatus.ENDED
    return record


async def test_the_end_screen_comes_with_the_picture_of_the_table(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        record = await play_to_the_end(h, scheduler, "moscow", "ru", seed=5)
        state = GameState.from_dict(record.state or {})
        t = translator("ru")
        (sent, png), *more = photos(h, h.group.id)
        assert more == []
        assert image_size(png) == (SIZE, SIZE)
        # The very picture the stored game draws: its seats, names, roles, the winner.
        expected = render_table(table_snapshot(build_protocol(record, h.db.actions(record.id))), t)
        assert png == expected.png
        names = [item.text for item in expected.of_kind("name")]
        assert names == [p.name for p in record.players]
        roles = [item.text for item in expected.of_kind("role")]
        assert roles == [
            texts.role_name(t, state.table.roles[str(p.user_id)]) for p in record.players
        ]
        winner = " ".join(item.text for item in expected.of_kind("winner"))
        assert winner == winner_title(t, state.outcome.winner)
        # It comes just before the end screen, whose buttons are New game and Protocol.
        after = [m for m in messages(h, h.group.id) if m.message_id > sent.message_id]
        end = next(m for m in after if m.reply_markup)
        assert (
            end.text is not None
            and texts.role_name(t, state.table.roles[str(record.players[0].user_id)]) in end.text
        )
        labels = [b["text"] for row in end.reply_markup["inline_keyboard"] for b in row]
        assert labels == [texts.button(t, "new_game"), texts.button(t, "protocol")]


async def test_protocol_refused_while_the_game_runs_and_given_after(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    sb = Sandbox()
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    async with running_bot(tmp_path, 8, sb=sb, database_url=url, scheduler=scheduler) as h:
        h.admin.command(h.group, "protocol", mention=True)
        await h.settle()
        assert "No game has been played to the end here yet" in h.group_texts()[-1]
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        # While it runs: refused, in private (the group's budget is the game's), and
        # through a (forged) protocol button.
        running = "The game is still running: its protocol comes when it ends."
        h.admin.start()
        h.admin.command(h.group, "protocol", mention=True)  # the chat is closed at night
        await h.settle()
        assert h.private_texts(h.admin)[-1] == running
        assert running not in h.group_texts()
        # The end screen's button asks by the game's id: refused too, nothing sent.
        assert archive.protocol_of_game(h.db, game_id, h.users[0].id, 0.0) == running
        assert backlog(h.db) == (0, None)
        assert documents(h, h.group.id) == []
        record = await AutoPlayers(h, scheduler, seed=3).play(game_id)
        users, admin, group = h.users, h.admin, h.group
        await h.crash()
    # A new process: the protocol comes from the stored log.
    async with running_bot(tmp_path, 0, sb=sb, database_url=url, scheduler=scheduler) as h:
        h.users, h.admin, h.group = users, admin, group
        await h.settle()
        h.admin.command(h.group, "protocol", mention=True)
        await h.settle()
        state = GameState.from_dict(record.state or {})
        group_text = "\n".join(h.group_texts())
        assert "Protocol of the game in «Friday club»" in group_text
        for player in record.players:
            assert player.name in group_text
        (protocol,) = protocol_documents(h, h.group.id)
        assert (protocol["schema"], protocol["version"]) == (SCHEMA, SCHEMA_VERSION)
        assert_valid(protocol)
        assert protocol["game"]["id"] == record.id
        assert protocol["result"]["winner"] == (
            state.outcome.winner.value if state.outcome.winner else None
        )
        assert [s["user_id"] for s in protocol["seats"]] == [p.user_id for p in record.players]
        assert [s["role"] for s in protocol["seats"]] == [
            state.table.roles[str(p.user_id)].value for p in record.players
        ]
        # The end screen's button: the protocol in the presser's private chat.
        reader = h.users[2]
        reader.start()
        await h.settle()
        assert press(h, reader, h.group.id, prefix(Kind.PROTOCOL, record))
        await h.settle()
        assert any("Protocol of the game" in m for m in h.private_texts(reader))
        assert len(protocol_documents(h, reader.id)) == 1

"""/forget on the sandbox: after a whole game, nothing of the user is left in
any table or in the SQLite file, the others keep their game (its protocol,
their results) and the leaderboard no longer lists them; refused while they
sit in a lobby or a running game; in a group, it points to the private chat."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa

from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import Harness, running_bot
from tests.storage.traces import file_traces, sqlite_file, table_traces
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.protocol import build_protocol
from tg_mafia.render.standings import standings
from tg_mafia.sandbox import Sandbox
from tg_mafia.storage import Forgotten, GameStatus, StillPlaying
from tg_mafia.telegram.handlers.privacy import forget_text, in_private

NAMES = ["Zoé Effacée", "Boris", "Chloé", "Dmitri", "Elena", "Fiodor", "Galina", "Hugo"]


async def private(h: Harness, user: object, command: str) -> str:
    user.command(user.private_chat, command)  # type: ignore[attr-defined]
    await h.settle()
    return h.private_texts(user)[-1]  # type: ignore[arg-type]


def kept_about(h: Harness, user_id: int) -> Forgotten:
    """What /forget should find, counted here with plain SQL."""

    def count(sql: str) -> int:
        with h.db.engine.connect() as connection:
            return int(connection.execute(sa.text(sql), {"u": user_id}).scalar_one())

    return Forgotten(
        games=count(
            "SELECT COUNT(*) FROM game WHERE status IN ('ended', 'aborted') AND (opened_by = :u"
            " OR host_user_id = :u OR id IN (SELECT game_id FROM seat WHERE user_id = :u))"
        ),
        results=count(
            "SELECT COUNT(*) FROM player_result JOIN pseudonym"
            " ON pseudonym.pseudonym = player_result.player WHERE pseudonym.user_id = :u"
        ),
        watches=count("SELECT COUNT(*) FROM next_game_watch WHERE user_id = :u"),
        messages=count(
            "SELECT (SELECT COUNT(*) FROM outbox WHERE chat_id = :u)"
            " + (SELECT COUNT(*) FROM living_message WHERE chat_id = :u)"
            " + (SELECT COUNT(*) FROM button_message WHERE chat_id = :u)"
        ),
    )


async def test_forget_after_a_game_leaves_nothing_of_the_user(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, names=NAMES, language="fr", scheduler=scheduler) as h:
        zoe, boris = h.users[0], h.users[1]
        h.db.save_settings(h.group.id, variant="classic", language="en")
        zoe.start()
        await h.settle()
        zoe.command(h.group, "nextgame", mention=True)
        await h.settle()
        game_id = await h.open_and_fill()
        await h.press_start()
        record = await AutoPlayers(h, scheduler, seed=4).play(game_id)
        assert record.status is GameStatus.ENDED
        assert record.players[0].user_id == zoe.id and record.players[0].name == NAMES[0]
        assert table_traces(h.db.engine, zoe.id, [NAMES[0]])  # she is there, of course
        before = build_protocol(record, h.db.actions(game_id))
        expected = kept_about(h, zoe.id)
        assert (expected.games, expected.results, expected.watches) == (1, 1, 1)

        answer = await private(h, zoe, "forget")

        assert answer == forget_text(translator("fr"), expected)
        assert "1 partie terminée" in answer and "ta cote a disparu" in answer
        # Nowhere: no table, no JSON column, not in the file's bytes.
        assert table_traces(h.db.engine, zoe.id, [NAMES[0]]) == []
        path = sqlite_file(h.db.engine.url.render_as_string(hide_password=False))
        assert path is not None or h.db.dialect == "postgresql"
        if path is not None:
            # The answer to /forget is addressed to her: a copy of its outbox row (her
            # chat id, no name) may wait in the write-ahead log until it is next emptied.
            in_file = file_traces(path, zoe.id, [NAMES[0]])
            assert [trace for trace in in_file if not trace.startswith(f"{path.name}-wal@")] == []
            h.db.empty_log()  # as the next /forget or the daily prune does
            assert file_traces(path, zoe.id, [NAMES[0]]) == []
        # The others keep the game: its protocol replays, seat 1 without a name.
        kept = h.db.get_game(game_id)
        assert kept is not None and kept.players[0].user_id == -1
        assert kept.players[1:] == record.players[1:]
        protocol = build_protocol(kept, h.db.actions(game_id))
        assert [s.name for s in protocol.seats] == ["", *NAMES[1:]]
        assert [s.role for s in protocol.seats] == [s.role for s in before.seats]
        assert [s.fate for s in protocol.seats] == [s.fate for s in before.seats]
        assert protocol.winner == before.winner and len(protocol.rounds) == len(before.rounds)
        # Their results stand; the leaderboard lists them, not her.
        ranked = standings(h.db.results_history(h.group.id))
        assert {p.user_id for p in ranked.board.players} == {u.id for u in h.users[1:]}
        assert h.db.player_stats(boris.id).games == 1
        assert h.db.player_stats(zoe.id).games == 0
        # Asked again: nothing left to erase.
        assert await private(h, zoe, "forget") == forget_text(translator("fr"), Forgotten())


async def test_forget_waits_for_the_game_and_works_in_private_only(tmp_path: Path) -> None:
    sb = Sandbox()
    async with running_bot(tmp_path, 7, sb=sb, names=NAMES, language="ru") as h:
        zoe = h.users[0]
        t = translator("ru")
        zoe.command(h.group, "forget", mention=True)
        await h.settle()
        assert h.group_texts()[-1] == in_private(translator("en"))  # the group's language
        game_id = await h.open_and_fill()
        lobby = h.db.get_game(game_id)
        assert lobby is not None
        answer = await private(h, zoe, "forget")
        assert answer == forget_text(t, StillPlaying("Friday club", GameStatus.LOBBY))
        assert "«Friday club»" in answer
        assert h.db.get_game(game_id) == lobby  # nothing changed: she still sits there
        assert h.db.game_of_user(zoe.id) == lobby
        await h.press_start()
        answer = await private(h, zoe, "forget")
        assert answer == forget_text(t, StillPlaying("Friday club", GameStatus.RUNNING))
        running = h.db.get_game(game_id)
        assert running is not None and running.players[0].user_id == zoe.id
        assert running.players[0].name == NAMES[0]


async def test_retention_leaves_nothing_of_the_players_of_an_old_game(tmp_path: Path) -> None:
    """RETENTION_DAYS (90 by default) after its end, a game keeps nothing of
    its players: the bot's own daily prune, on the sandbox."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 8, names=NAMES, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        record = await AutoPlayers(h, scheduler, seed=4).play(game_id)
        stats = h.db.chat_stats(h.group.id)
        await scheduler.fire("retention")
        await h.settle()
        for user, name in zip(h.users, NAMES, strict=True):  # a recent game: all kept
            assert table_traces(h.db.engine, user.id, [name])
        with h.db.engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE game SET ended_at = :when WHERE id = :id"),
                {
                    "when": (record.ended_at or record.created_at) - timedelta(days=91),
                    "id": game_id,
                },
            )
        await scheduler.fire("retention")
        await h.settle()
        path = sqlite_file(h.db.engine.url.render_as_string(hide_password=False))
        for user, name in zip(h.users, NAMES, strict=True):
            assert table_traces(h.db.engine, user.id, [name]) == [], name
            if path is not None:
                assert file_traces(path, user.id, [name]) == [], name
        # What the stats need stays.
        assert h.db.chat_stats(h.group.id).games_played == stats.games_played == 1
        assert h.db.chat_stats(h.group.id).wins_by_side == stats.wins_by_side
        assert len(h.db.results_history(h.group.id)[0].players) == 8

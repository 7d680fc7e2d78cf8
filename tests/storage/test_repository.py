"""The repository API on each backend: the action log, versions, one game per chat, results."""

from __future__ import annotations

import threading
from dataclasses import FrozenInstanceError

import pytest
import sqlalchemy as sa

from tests.database_ops import (
    abort_game,
    clear_saved_permissions,
    create_lobby,
    finish_game,
    pending_permission_restores,
    record_action,
    start_game,
    update_game,
)
from tg_mafia.storage import (
    Database,
    GameAlreadyRunningError,
    GameNotFoundError,
    GameRecord,
    GameStatus,
    GameStatusError,
    Player,
    PlayerOutcome,
    StaleGameError,
)

CHAT = -100_200_300_400  # supergroup ids exceed 32 bits
PLAYERS = (Player(2**40 + 1, "Ann"), Player(2, "Bob"), Player(3, "Cy"), Player(4, "Di"))


def running_game(db: Database, chat_id: int = CHAT) -> GameRecord:
    lobby = create_lobby(db, chat_id, opened_by=PLAYERS[0].user_id, players=PLAYERS, seed=42)
    return start_game(
        db, lobby.id, lobby.version, {"stage": "deal"}, stage_deadline=100.0, timer_token="deal"
    )


def test_settings_default_then_saved(db: Database) -> None:
    defaults = db.get_settings(CHAT)
    assert (defaults.language, defaults.variant, defaults.options) == ("en", "classic", {})
    assert defaults.updated_at is None
    db.save_settings(CHAT, language="vi", options={"night_seconds": 45}, title="Mafia club")
    saved = db.save_settings(CHAT, variant="club")
    assert (saved.language, saved.variant, saved.title) == ("vi", "club", "Mafia club")
    assert db.get_settings(CHAT) == saved
    # A new lobby takes the chat's settings unless told otherwise.
    lobby = create_lobby(db, CHAT, opened_by=1)
    assert (lobby.variant, lobby.language, lobby.options) == ("club", "vi", {"night_seconds": 45})


def test_lobby_changes_bump_the_version(db: Database) -> None:
    lobby = create_lobby(db, CHAT, opened_by=1, seed=7, title="Club", opener_name="Ann")
    assert (lobby.status, lobby.version, lobby.players, lobby.state) == (
        GameStatus.LOBBY,
        1,
        (),
        None,
    )
    joined = update_game(db, lobby.id, lobby.version, players=PLAYERS[:2], host_user_id=2)
    assert joined.version == 2
    assert joined.players == PLAYERS[:2]
    assert joined.host_user_id == 2
    assert (joined.title, joined.opener_name) == ("Club", "Ann")
    assert db.get_game(lobby.id) == joined
    with pytest.raises(FrozenInstanceError):
        joined.version = 9  # type: ignore[misc]


def test_record_action_appends_in_order_and_bumps_the_version(db: Database) -> None:
    game = running_game(db)
    assert game.status is GameStatus.RUNNING and game.state == {"stage": "deal"}
    version = game.version
    for n in range(1, 6):
        game = record_action(
            db,
            game.id,
            version,
            {"kind": "vote", "n": n},
            {"stage": "day", "step": n},
            stage_deadline=1_000.0 + n,
            timer_token=f"day-{n}",
            paused_left=float(n),
        )
        assert game.version == version + 1
        version = game.version
    stored = db.get_game(game.id)
    assert stored is not None
    assert stored.state == {"stage": "day", "step": 5}
    assert (stored.stage_deadline, stored.timer_token) == (1_005.0, "day-5")
    assert stored.paused_left == 5.0
    log = db.actions(game.id)
    assert [a.seq for a in log] == [1, 2, 3, 4, 5]
    assert [a.action["n"] for a in log] == [1, 2, 3, 4, 5]


def test_stale_version_is_refused_and_changes_nothing(db: Database) -> None:
    game = running_game(db)
    game = record_action(
        db, game.id, game.version, {"n": 1}, {"s": 1}, stage_deadline=5.0, timer_token="a"
    )
    with pytest.raises(StaleGameError):
        record_action(
            db, game.id, game.version - 1, {"n": 2}, {"s": 2}, stage_deadline=None, timer_token=None
        )
    with pytest.raises(StaleGameError):
        update_game(db, game.id, game.version + 1, host_name="x")
    assert db.get_game(game.id) == game
    assert [a.action for a in db.actions(game.id)] == [{"n": 1}]


def test_concurrent_writers_one_wins(db: Database) -> None:
    game = running_game(db)
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def write(n: int) -> None:
        barrier.wait()
        try:
            record_action(
                db, game.id, game.version, {"n": n}, {"s": n}, stage_deadline=None, timer_token=None
            )
            outcomes.append("ok")
        except StaleGameError:
            outcomes.append("stale")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "stale", "stale", "stale"]
    assert len(db.actions(game.id)) == 1
    stored = db.get_game(game.id)
    assert stored is not None and stored.version == game.version + 1


def test_status_rules(db: Database) -> None:
    lobby = create_lobby(db, CHAT, opened_by=1)
    with pytest.raises(GameStatusError):  # no actions before the game starts
        record_action(db, lobby.id, lobby.version, {}, {}, stage_deadline=None, timer_token=None)
    game = running_game(db, chat_id=CHAT + 1)
    with pytest.raises(GameStatusError):  # the rebuild inputs are frozen once running
        update_game(db, game.id, game.version, players=PLAYERS[:1])
    with pytest.raises(GameNotFoundError):
        record_action(db, 10_000, 1, {}, {}, stage_deadline=None, timer_token=None)
    assert db.get_game(10_000) is None


def test_one_active_game_per_chat(db: Database) -> None:
    first = create_lobby(db, CHAT, opened_by=1)
    with pytest.raises(GameAlreadyRunningError):
        create_lobby(db, CHAT, opened_by=2)
    other = create_lobby(db, CHAT + 1, opened_by=2)  # other chats are free
    assert {g.id for g in db.unfinished_games()} == {first.id, other.id}
    # The database itself refuses a second active game, whatever the code path.
    with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO game (chat_id, status, variant, language, options, seed, opened_by,"
                " players, version, created_at, updated_at) VALUES (:chat, 'running',"
                " 'classic', 'en', '{}', 1, 1, '[]', 1, :now, :now)"
            ),
            {"chat": CHAT, "now": first.created_at},
        )
    abort_game(db, first.id)
    again = create_lobby(db, CHAT, opened_by=3)
    active = db.active_game(CHAT)
    assert active is not None and active.id == again.id


def test_finish_game_and_stats(db: Database) -> None:
    roles = {1: ("don", "mafia"), 2: ("sheriff", "town"), 3: ("civilian", "town")}
    players = [Player(user_id, f"user{user_id}") for user_id in roles]
    winners = ["town", "mafia", "town"]
    for game_number, winner in enumerate(winners):
        lobby = create_lobby(db, CHAT, opened_by=1, players=players)
        game = start_game(db, lobby.id, lobby.version, {}, stage_deadline=None, timer_token=None)
        results = [
            PlayerOutcome(p.user_id, f"{p.name}-v{game_number}", *roles[p.user_id], won=False)
            for p in players
        ]
        results = [
            PlayerOutcome(r.user_id, r.name, r.role, r.side, r.side == winner) for r in results
        ]
        if game_number == 0:
            ended = finish_game(db, game.id, winner, results, expected_version=game.version)
        else:  # the last action and the end in one transaction
            ended = record_action(
                db,
                game.id,
                game.version,
                {"kind": "last"},
                {"over": True},
                stage_deadline=None,
                timer_token=None,
                final=(winner, results),
            )
        assert ended.status is GameStatus.ENDED and ended.winner == winner
        assert ended.ended_at is not None and ended.stage_deadline is None
    with pytest.raises(GameStatusError):
        finish_game(db, ended.id, "town", [])
    aborted = create_lobby(db, CHAT, opened_by=1)
    abort_game(db, aborted.id, expected_version=aborted.version)

    stats = db.chat_stats(CHAT)
    assert stats.games_played == 3  # the aborted lobby does not count
    assert stats.wins_by_side == {"town": 2, "mafia": 1}
    assert [(p.user_id, p.wins, p.games) for p in stats.top_players] == [
        (2, 2, 3),
        (3, 2, 3),
        (1, 1, 3),
    ]
    assert stats.top_players[0].name == "user2-v2"  # the latest name
    assert stats.top_players[0].win_rate == pytest.approx(2 / 3)
    assert db.chat_stats(CHAT, top=1).top_players[0].user_id == 2

    sheriff = db.player_stats(2)
    assert (sheriff.games, sheriff.wins) == (3, 2)
    assert sheriff.by_role["sheriff"].wins == 2
    assert db.player_stats(2, chat_id=CHAT + 5).games == 0
    assert db.chat_stats(CHAT + 5).games_played == 0


def test_saved_permissions_survive_until_restored(db: Database) -> None:
    game = running_game(db)
    permissions = {"can_send_messages": True, "can_invite_users": False}
    game = record_action(
        db,
        game.id,
        game.version,
        {"kind": "night"},
        {"stage": "night"},
        stage_deadline=50.0,
        timer_token="night-1",
        saved_permissions=permissions,
    )
    assert pending_permission_restores(db) == ()  # still running: the game restores them
    abort_game(db, game.id)
    pending = pending_permission_restores(db)
    assert [(g.id, g.saved_permissions) for g in pending] == [(game.id, permissions)]
    clear_saved_permissions(db, game.id)
    assert pending_permission_restores(db) == ()
    stored = db.get_game(game.id)
    assert stored is not None and stored.saved_permissions is None

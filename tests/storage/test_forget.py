"""/forget in the storage: everything about one user erased or made
anonymous (docs/privacy.md), the others' record whole; refused while the
user takes part in a game that has not ended."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from tests.database_ops import (
    abort_game,
    create_lobby,
    finish_game,
    record_action,
    start_game,
    update_game,
)
from tests.storage.test_retention import _everything
from tests.storage.traces import file_traces, sqlite_file, table_traces
from tg_mafia.storage import (
    Database,
    Forgotten,
    GameRecord,
    GameStatus,
    Player,
    PlayerOutcome,
    StillPlaying,
)
from tg_mafia.storage.erasure import replace_ids

CHAT = -1001
ZOE = Player(740_000_001, "Zoé Oubli")
YAN = Player(740_000_002, "Yan")
XIA = Player(740_000_003, "Xia")


def ended(db: Database, players: tuple[Player, ...], *, host: Player | None = None) -> GameRecord:
    """A game played to its end, its state and log naming the players as the engine does."""
    ids = [str(p.user_id) for p in players]
    lobby = create_lobby(
        db, CHAT, opened_by=players[0].user_id, players=players, opener_name=players[0].name
    )
    if host is not None:
        lobby = update_game(
            db, lobby.id, lobby.version, host_user_id=host.user_id, host_name=host.name
        )
    state = {
        "seats": ids,
        "roles": {ids[0]: "mafia", ids[1]: "citizen"},
        "choices": {f"{ids[0]}:kill": ids[1]},
        "learned": {ids[1]: {ids[0]: "mafia"}},
        "day": 3,
    }
    game = start_game(db, lobby.id, lobby.version, state, stage_deadline=None, timer_token=None)
    game = record_action(
        db,
        game.id,
        game.version,
        {"verb": "night", "actor": ids[0], "target": ids[1]},
        state,
        stage_deadline=None,
        timer_token=None,
    )
    results = [
        PlayerOutcome(p.user_id, p.name, "mafia" if i == 0 else "citizen", side, won)
        for i, p in enumerate(players)
        for side, won in [("mafia", False) if i == 0 else ("town", True)]
    ]
    return finish_game(db, game.id, "town", results)


def test_forget_leaves_no_trace_and_the_others_keep_their_games(
    db: Database, database_url: str
) -> None:
    first = ended(db, (ZOE, YAN, XIA))
    second = ended(db, (YAN, ZOE))
    hosted = ended(db, (YAN, XIA), host=ZOE)
    lobby = create_lobby(db, CHAT, opened_by=ZOE.user_id, players=(ZOE,), opener_name=ZOE.name)
    abort_game(db, lobby.id)
    now = datetime.now(UTC).timestamp()
    with db.transaction() as tx:
        tx.toggle_next_game(CHAT, 0, ZOE.user_id)
        tx.toggle_next_game(CHAT, 0, YAN.user_id)
        tx.set_living(first.id, ZOE.user_id, "prompt", 41)
        tx.set_buttons(ZOE.user_id, 41, first.id, [f"nt:{first.id}:3:kill:2"], now)
        tx.enqueue(ZOE.user_id, {"m": "send", "text": "Zoé Oubli, your role"}, now=now)
    yan_before = db.player_stats(YAN.user_id)

    outcome = db.forget(ZOE.user_id)

    assert outcome == Forgotten(games=4, results=2, watches=1, messages=3)
    assert table_traces(db.engine, ZOE.user_id, [ZOE.name]) == []
    path = sqlite_file(database_url)
    if path is not None:
        assert file_traces(path, ZOE.user_id, [ZOE.name]) == []
    # The others' record of each game stays whole: Zoé's seat is -seat, unnamed.
    game = db.get_game(first.id)
    assert game is not None
    assert game.players == (Player(-1, ""), YAN, XIA)
    assert (game.opened_by, game.opener_name) == (0, "")
    assert game.state is not None and game.state["roles"] == {
        "-1": "mafia",
        str(YAN.user_id): "citizen",
    }
    assert game.state["choices"] == {"-1:kill": str(YAN.user_id)}
    assert game.state["learned"] == {str(YAN.user_id): {"-1": "mafia"}}
    assert db.actions(first.id)[0].action == {
        "verb": "night",
        "actor": "-1",
        "target": str(YAN.user_id),
    }
    assert db.get_game(second.id).players == (YAN, Player(-2, ""))  # type: ignore[union-attr]
    host = db.get_game(hosted.id)
    assert host is not None and (host.host_user_id, host.host_name) == (-1, "")
    # Yan's results, rating and subscription are his as before; Zoé's are nobody's.
    assert db.player_stats(YAN.user_id) == yan_before
    assert db.player_stats(ZOE.user_id).games == 0
    history = db.results_history(CHAT)
    anonymous = [o for game in history for o in game.players if o.user_id < 0]
    assert len(anonymous) == 2 and {o.name for o in anonymous} == {""}
    assert len({o.user_id for o in anonymous}) == 2  # not even the same person twice
    assert {p.user_id for p in db.chat_stats(CHAT).top_players} == {YAN.user_id, XIA.user_id}
    with db.transaction() as tx:
        assert tx.next_game_watchers(CHAT, 0) == [YAN.user_id]
    # Asked again: nothing left.
    assert db.forget(ZOE.user_id) == Forgotten()


def test_forget_is_refused_while_the_user_is_in_a_game(db: Database) -> None:
    lobby = create_lobby(db, CHAT, opened_by=YAN.user_id, players=(YAN, ZOE))
    before = _everything(db)
    assert db.forget(ZOE.user_id) == StillPlaying("", GameStatus.LOBBY)
    assert _everything(db) == before
    running = start_game(db, lobby.id, lobby.version, {}, stage_deadline=None, timer_token=None)
    assert db.forget(ZOE.user_id) == StillPlaying("", GameStatus.RUNNING)
    abort_game(db, running.id)
    hosted = create_lobby(db, CHAT, opened_by=YAN.user_id, title="Club")
    update_game(db, hosted.id, hosted.version, host_user_id=ZOE.user_id, host_name=ZOE.name)
    assert db.forget(ZOE.user_id) == StillPlaying("Club", GameStatus.LOBBY)


def test_forget_of_a_stranger_erases_nothing(db: Database) -> None:
    ended(db, (YAN, XIA))
    before = _everything(db)
    assert db.forget(ZOE.user_id) == Forgotten()
    assert _everything(db) == before


def test_replace_ids_takes_whole_words_only() -> None:
    value = {"7": ["7", "77", "7:kill", "17", "a7b", "7_1"], "seat": 7}
    assert replace_ids(value, {"7": "-2"}) == {
        "-2": ["-2", "77", "-2:kill", "17", "a7b", "7_1"],
        "seat": 7,
    }


def test_results_carry_pseudonyms_not_user_ids(db: Database) -> None:
    ended(db, (YAN, XIA))
    ended(db, (XIA, YAN))
    with db.engine.connect() as connection:
        players = connection.execute(sa.text("SELECT player FROM player_result")).scalars().all()
        tied = dict(connection.execute(sa.text("SELECT user_id, pseudonym FROM pseudonym")).all())
    assert set(tied) == {YAN.user_id, XIA.user_id}
    assert sorted(players) == sorted(list(tied.values()) * 2)

"""One transaction's operations on games, seats, the action log, living
messages and the outbox: the runtime's unit of work. An action, its new
state, its deadline and the calls it causes are written together, or not
at all (`Database.transaction`). The messages' and the outbox's operations
are messages.py's and outbox.py's; the connection and the session,
transaction.py's."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from tg_mafia.records import (
    ACTIVE_STATUSES,
    DEFAULT_LANGUAGE,
    DEFAULT_VARIANT,
    UNSET,
    ActionRecord,
    GameRecord,
    GameStatus,
    JsonObject,
    Player,
    PlayerOutcome,
    Unset,
)
from tg_mafia.storage import erasure
from tg_mafia.storage.chats import ChatsTx
from tg_mafia.storage.direct import GAME_COLUMNS
from tg_mafia.storage.errors import (
    ChatTakenError,
    GameAlreadyRunningError,
    GameNotFoundError,
    GameStatusError,
    PlayerBusyError,
    StaleGameError,
)
from tg_mafia.storage.messages import MessagesTx
from tg_mafia.storage.models import (
    ChatSettings,
    Game,
    GameAction,
    NextGameWatch,
    PlayerResult,
    Seat,
    utc_now,
)
from tg_mafia.storage.outbox import OutboxTx
from tg_mafia.storage.rows import aware, check_seed, game_record, players_json

# Fields the engine rebuilds a game from: frozen once the game leaves the lobby.
LOBBY_ONLY_FIELDS: Final = frozenset({"players", "variant", "language", "options", "seed"})
SEED_BITS: Final = 63  # fits a signed BIGINT


class Tx(MessagesTx, OutboxTx, ChatsTx):
    """Every operation of one transaction: games, their seats, their action log and
    the next-game watches here; the messages', the outbox's and a chat's moves from
    its bases."""

    # -- reading games ---------------------------------------------------------------

    def game(self, game_id: int, *, for_update: bool = False) -> GameRecord | None:
        # FOR UPDATE on PostgreSQL: writers of one game queue, on any process.
        # SQLite has none (a write transaction locks the file).
        direct = self.direct
        sql = direct.game_for_update_sql if for_update else direct.game_sql
        rows = self._rows(sql, {"game_id": game_id})
        return direct.game(rows[0]) if rows else None

    def active_game(
        self, chat_id: int, topic: int = 0, *, for_update: bool = False, any_bot: bool = False
    ) -> GameRecord | None:
        """The chat's (topic's) lobby or running game: this transaction's bot's, or with
        `any_bot` whichever bot runs it (one game a chat, whichever bot runs it)."""
        direct = self.direct
        params: dict[str, Any] = {"chat_id": chat_id, "topic": topic}
        if self.bot_id is None or any_bot:
            sql = direct.active_game_for_update_sql if for_update else direct.active_game_sql
        else:
            sql = (
                direct.own_active_game_for_update_sql if for_update else direct.own_active_game_sql
            )
            params["bot_id"] = self.bot_id
        rows = self._rows(sql, params)
        return direct.game(rows[0]) if rows else None

    def last_ended_game(self, chat_id: int, topic: int = 0) -> GameRecord | None:
        """The chat's (or forum topic's) latest game played to its end."""
        row = self.session.exec(
            select(Game)
            .where(
                Game.chat_id == chat_id,
                Game.topic == topic,
                Game.status == GameStatus.ENDED.value,
            )
            .order_by(col(Game.id).desc())
        ).first()
        return game_record(row) if row else None

    def game_of_user(self, user_id: int) -> GameRecord | None:
        """The lobby or running game the user sits at (one at most, across every bot;
        this transaction's bot's only)."""
        sql = self.direct.text(
            f"SELECT {', '.join('game.' + name for name in GAME_COLUMNS)} FROM game"
            " JOIN seat ON seat.game_id = game.id WHERE seat.user_id = :user_id AND seat.active"
            + self.bot_sql("game"),
            key=("game_of_user", self.bot_id is None),
        )
        rows = self._rows(sql, self._with_bot({"user_id": user_id}))
        return self.direct.game(rows[0]) if rows else None

    # -- writing games -------------------------------------------------------------------

    def create_lobby(
        self,
        chat_id: int,
        *,
        opened_by: int,
        topic: int = 0,
        variant: str | None = None,
        language: str | None = None,
        options: Mapping[str, Any] | None = None,
        host_user_id: int | None = None,
        seed: int | None = None,
        players: Sequence[Player] = (),
        title: str = "",
        bot_rights: Mapping[str, bool] | None = None,
        opener_name: str = "",
        stage_deadline: float | None = None,
    ) -> GameRecord:
        """Variant, language and options default to the chat's settings.
        GameAlreadyRunningError if the chat (topic) has a lobby or running game;
        ChatTakenError if it is another bot's."""
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        check_seed(seed)
        self._check_free(chat_id, topic)
        settings = self.session.get(ChatSettings, chat_id)
        now = utc_now()
        row = Game(
            chat_id=chat_id,
            topic=topic,
            status=GameStatus.LOBBY.value,
            variant=variant or (settings.variant if settings else DEFAULT_VARIANT),
            language=language or (settings.language if settings else DEFAULT_LANGUAGE),
            options=dict(
                options if options is not None else (settings.options if settings else {})
            ),
            seed=seed,
            host_user_id=host_user_id,
            opened_by=opened_by,
            players=players_json(players),
            title=title[:255],
            bot_rights=dict(bot_rights or {}),
            opener_name=opener_name[:255],
            stage_deadline=stage_deadline,
            version=1,
            created_at=now,
            updated_at=now,
            bot_id=self.bot_id,
        )
        self._add_lobby(row)
        assert row.id is not None
        for player in players:
            self._sit(row.id, player.user_id)
        return game_record(row)

    def _check_free(self, chat_id: int, topic: int) -> None:
        """One game a chat (a forum topic), whichever bot runs it."""
        current = self.active_game(chat_id, topic, any_bot=True)
        if current is None:
            return
        if self.bot_id is not None and current.bot_id != self.bot_id:
            raise ChatTakenError(current.bot_id)
        raise GameAlreadyRunningError(f"chat {chat_id} already has a game")

    def _add_lobby(self, row: Game) -> None:
        self.session.add(row)
        try:
            self.session.flush()
        except IntegrityError as error:
            # The one-game-per-chat index: another lobby opened at the same moment (by
            # another replica or another bot); or a player sits at another table.
            if "seat" in str(error.orig).lower():
                raise PlayerBusyError("a player sits at another table") from error
            raise GameAlreadyRunningError(f"chat {row.chat_id} already has a game") from error

    def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        players: Sequence[Player] | Unset = UNSET,
        host_user_id: int | Unset | None = UNSET,
        host_name: str | Unset | None = UNSET,
        variant: str | Unset = UNSET,
        language: str | Unset = UNSET,
        options: Mapping[str, Any] | Unset = UNSET,
        seed: int | Unset = UNSET,
        saved_permissions: Mapping[str, Any] | Unset | None = UNSET,
        stage_deadline: float | Unset | None = UNSET,
        timer_token: str | Unset | None = UNSET,
        paused_left: float | Unset | None = UNSET,
    ) -> GameRecord:
        """Change a lobby or running game (not its status) and bump its version.

        players, variant, language, options and seed can change in the lobby only; the
        players' seats follow (PlayerBusyError: one of them sits at another table).
        """
        values: dict[str, Any] = {}
        if not isinstance(players, Unset):
            values["players"] = players_json(players)
        if not isinstance(seed, Unset):
            check_seed(seed)
            values["seed"] = seed
        for name, value in (
            ("host_user_id", host_user_id),
            ("host_name", host_name),
            ("variant", variant),
            ("language", language),
            ("stage_deadline", stage_deadline),
            ("timer_token", timer_token),
            ("paused_left", paused_left),
        ):
            if not isinstance(value, Unset):
                values[name] = value
        for name, mapping in (("options", options), ("saved_permissions", saved_permissions)):
            if not isinstance(mapping, Unset):
                values[name] = None if mapping is None else dict(mapping)
        lobby_only = LOBBY_ONLY_FIELDS & values.keys()
        statuses = (GameStatus.LOBBY.value,) if lobby_only else ACTIVE_STATUSES
        before = self.game(game_id)
        record = self._guarded_update(game_id, expected_version, statuses, values)
        if not isinstance(players, Unset) and before is not None:
            now = {p.user_id for p in players}
            for gone in {p.user_id for p in before.players} - now:
                self._unsit(game_id, gone)
            for player in players:
                self._sit(game_id, player.user_id)
        return record

    def start_game(
        self,
        game_id: int,
        expected_version: int,
        state: JsonObject,
        *,
        stage_deadline: float | None,
        timer_token: str | None,
    ) -> GameRecord:
        """Lobby -> running, storing the engine's first snapshot and the first stage's timer."""
        values: dict[str, Any] = {
            "status": GameStatus.RUNNING.value,
            "state": state,
            "stage_deadline": stage_deadline,
            "timer_token": timer_token,
        }
        return self._guarded_update(game_id, expected_version, (GameStatus.LOBBY.value,), values)

    def record_action(
        self,
        game_id: int,
        expected_version: int,
        action: JsonObject,
        state: JsonObject,
        *,
        stage_deadline: float | None,
        timer_token: str | None,
        paused_left: float | Unset | None = UNSET,
        saved_permissions: Mapping[str, Any] | Unset | None = UNSET,
        final: tuple[str | None, Sequence[PlayerOutcome]] | None = None,
        update_id: int | None = None,
    ) -> GameRecord:
        """Append `action` (made by the Telegram update `update_id`) with the next
        seq, store the engine snapshot `state` and the stage's deadline and timer,
        bump the version; `final=(winner, results)` also
        ends the game, so a decided game cannot be left running. StaleGameError (and
        nothing written) when the game is not at `expected_version`."""
        values: dict[str, Any] = {
            "state": state,
            "stage_deadline": stage_deadline,
            "timer_token": timer_token,
        }
        if not isinstance(paused_left, Unset):
            values["paused_left"] = paused_left
        if not isinstance(saved_permissions, Unset):
            values["saved_permissions"] = (
                None if saved_permissions is None else dict(saved_permissions)
            )
        record = self._guarded_update(
            game_id, expected_version, (GameStatus.RUNNING.value,), values
        )
        self._append_action(game_id, action, update_id)
        if final is not None:
            winner, results = final
            record = self.finish_game(record, winner, results)
        return record

    def finish_game(
        self, record: GameRecord, winner: str | None, results: Sequence[PlayerOutcome]
    ) -> GameRecord:
        """Running -> ended: the winning side (None: a draw) and one PlayerResult per player."""
        now = utc_now()
        finished = self._guarded_update(
            record.id,
            record.version,
            (GameStatus.RUNNING.value,),
            {
                "status": GameStatus.ENDED.value,
                "winner": winner,
                "ended_at": now,
                "stage_deadline": None,
                "timer_token": None,
            },
        )
        self._stand_up(record.id)
        # The results carry each player's pseudonym, never their id (erasure.py).
        players = erasure.pseudonyms(self.session, (result.user_id for result in results))
        self.session.add_all(
            PlayerResult(
                game_id=record.id,
                chat_id=record.chat_id,
                player=players[result.user_id],
                name=result.name,
                role=result.role,
                side=result.side,
                won=result.won,
                created_at=now,
            )
            for result in results
        )
        self.session.flush()
        return finished

    def abort_game(self, game_id: int, *, expected_version: int | None = None) -> GameRecord:
        """Lobby or running -> aborted (no results). Without a version it always applies."""
        values: dict[str, Any] = {
            "status": GameStatus.ABORTED.value,
            "ended_at": utc_now(),
            "stage_deadline": None,
            "timer_token": None,
        }
        if expected_version is None:
            current = self.game(game_id, for_update=True)
            if current is None:
                raise GameNotFoundError(f"no game {game_id}")
            expected_version = current.version
        record = self._guarded_update(game_id, expected_version, ACTIVE_STATUSES, values)
        self._stand_up(game_id)
        return record

    def clear_saved_permissions(self, game_id: int) -> None:
        """Forget the saved chat permissions once they are restored (any status)."""
        self.session.exec(
            update(Game)
            .where(col(Game.id) == game_id)
            .values(saved_permissions=None)
            .execution_options(synchronize_session=False)
        )

    def set_bot_rights(
        self, record: GameRecord, rights: Mapping[str, bool], saved: Mapping[str, Any] | None
    ) -> GameRecord:
        """The bot's rights changed in the game's chat (and, when it may now
        restrict members, the group's permissions as they are)."""
        values: dict[str, Any] = {"bot_rights": dict(rights)}
        if saved is not None:
            values["saved_permissions"] = dict(saved)
        return self._guarded_update(record.id, record.version, ACTIVE_STATUSES, values)

    def move_deadline(self, game_id: int, timer_token: str, deadline: float) -> bool:
        """The stage's deadline, moved (its message reached the chat late): only while
        the game still runs that timer. No version bump: the game did not change."""
        sql = self.direct.text(
            "UPDATE game SET stage_deadline = :deadline WHERE id = :game_id"
            " AND timer_token = :token AND status = 'running'",
            key="move_deadline",
        )
        params = {"deadline": deadline, "game_id": game_id, "token": timer_token}
        moved = bool(self._write(sql, params))
        if moved:
            self._notify(f"page:{game_id}")  # the Mini App's pages show the timer
        return moved

    def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        """The game's action log in order; `after`: only the actions after that seq."""
        rows = self.session.exec(
            select(GameAction)
            .where(GameAction.game_id == game_id, col(GameAction.seq) > after)
            .order_by(col(GameAction.seq))
        ).all()
        return [
            ActionRecord(
                game_id=row.game_id,
                seq=row.seq,
                action=row.action,
                created_at=aware(row.created_at),
            )
            for row in rows
        ]

    def forget_texts(self, game_id: int, keep: Mapping[int, str]) -> None:
        """Players' posts are kept only while the game runs: their texts in the
        action log are replaced by `keep` (the seq's stand-in, which replays the
        same: the thanks word or nothing)."""
        rows = self.session.exec(
            select(GameAction).where(GameAction.game_id == game_id, col(GameAction.seq).in_(keep))
        ).all()
        for row in rows:
            row.action = {**row.action, "text": keep[row.seq]}
            self.session.add(row)
        self.session.flush()

    # -- the next game ----------------------------------------------------------------

    def toggle_next_game(self, chat_id: int, topic: int, user_id: int) -> bool:
        """/nextgame: the user is told when the chat's next lobby opens (True),
        or, if they were already, no longer (False)."""
        row = self.session.exec(
            select(NextGameWatch).where(
                NextGameWatch.chat_id == chat_id,
                NextGameWatch.topic == topic,
                NextGameWatch.user_id == user_id,
            )
        ).first()
        if row is not None:
            self.session.delete(row)
            self.session.flush()
            return False
        self.session.add(
            NextGameWatch(chat_id=chat_id, topic=topic, user_id=user_id, created_at=utc_now())
        )
        self.session.flush()
        return True

    def next_game_watchers(self, chat_id: int, topic: int) -> list[int]:
        """Who waits for the chat's (topic's) next lobby, first asked first."""
        return list(
            self.session.exec(
                select(NextGameWatch.user_id)
                .where(NextGameWatch.chat_id == chat_id, NextGameWatch.topic == topic)
                .order_by(col(NextGameWatch.id))
            ).all()
        )

    # -- seats -------------------------------------------------------------------------

    def _sit(self, game_id: int, user_id: int) -> None:
        taken = self.session.exec(
            select(Seat.game_id).where(Seat.user_id == user_id, col(Seat.active))
        ).first()
        if taken is not None and taken != game_id:
            raise PlayerBusyError(f"user {user_id} plays in game {taken}")
        if taken is None:
            self.session.add(Seat(game_id=game_id, user_id=user_id, active=True))
            self.session.flush()

    def _unsit(self, game_id: int, user_id: int) -> None:
        self.session.exec(
            delete(Seat)
            .where(col(Seat.game_id) == game_id, col(Seat.user_id) == user_id)
            .execution_options(synchronize_session=False)
        )

    def _stand_up(self, game_id: int) -> None:
        """The game is over: its players are free to join another."""
        self.session.exec(
            update(Seat)
            .where(col(Seat.game_id) == game_id)
            .values(active=False)
            .execution_options(synchronize_session=False)
        )

    def _guarded_update(
        self,
        game_id: int,
        expected_version: int,
        statuses: Sequence[str],
        values: Mapping[str, Any],
    ) -> GameRecord:
        """Apply `values` and bump the version, only if the game is at `expected_version`
        and in one of `statuses`; otherwise raise and write nothing.

        One conditional UPDATE that hands back the row as written (RETURNING, on either
        database): the version check and the write cannot be separated by another writer.
        """
        names = tuple(values)
        # The state just written is not read back: its JSON is the row's largest.
        returned = ("NULL" if c == "state" and "state" in names else c for c in GAME_COLUMNS)
        sql = self.direct.text(
            "UPDATE game SET version = version + 1, updated_at = :updated_at"
            + "".join(f", {name} = :v_{name}" for name in names)
            + " WHERE id = :game_id AND version = :expected_version AND status IN ("
            + ", ".join(f":s{index}" for index in range(len(statuses)))
            + f") RETURNING {', '.join(returned)}",
            key=("guarded_update", names, len(statuses)),
        )
        converted = self.direct.values("game", {**values, "updated_at": utc_now()})
        params = {f"v_{name}": converted[name] for name in names}
        params.update({f"s{index}": status for index, status in enumerate(statuses)})
        params.update(
            updated_at=converted["updated_at"],
            game_id=game_id,
            expected_version=expected_version,
        )
        rows = self._rows(sql, params)
        if self._session is not None:
            self._session.expire_all()  # the ORM's copy of the game is stale
        if not rows:
            current = self.game(game_id)
            if current is None:
                raise GameNotFoundError(f"no game {game_id}")
            if current.version != expected_version:
                raise StaleGameError(
                    f"game {current.id} is at version {current.version}, not {expected_version}"
                )
            raise GameStatusError(
                f"game {game_id} is {current.status.value}; this needs {' or '.join(statuses)}"
            )
        self._notify(f"game:{game_id}")
        record = self.direct.game(rows[0])
        assert record is not None
        if "state" in names:
            record = replace(record, state=values["state"])
        return record

    def _append_action(self, game_id: int, action: JsonObject, update_id: int | None) -> None:
        # The version update before it holds the game's row lock, so seq cannot race.
        sql = self.direct.text(
            "INSERT INTO game_action (game_id, seq, action, update_id, created_at, bot_id)"
            " VALUES (:game_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM game_action"
            " WHERE game_id = :game_id), :action, :update_id, :created_at, :bot_id)",
            key="append_action",
        )
        values = {"action": action, "created_at": utc_now()}
        params = {**self.direct.values("game_action", values), "game_id": game_id}
        params["update_id"] = update_id
        params["bot_id"] = self.bot_id
        self._write(sql, params)

    def made_by_update(self, update_id: int) -> bool:
        """Whether a move was made by this Telegram update already (a bot's own: each
        bot numbers its updates on its own)."""
        sql = self.direct.text(
            "SELECT id FROM game_action WHERE update_id = :update_id" + self.bot_sql() + " LIMIT 1",
            key=("made_by_update", self.bot_id is None),
        )
        return bool(self._rows(sql, self._with_bot({"update_id": update_id})))

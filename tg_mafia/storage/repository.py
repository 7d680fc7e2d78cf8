"""The operations the bot calls. Each method is one transaction and returns plain records."""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Engine, Float, case, cast, func, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col, select

from tg_mafia.storage.errors import (
    DatabaseUnavailableError,
    GameAlreadyRunningError,
    GameNotFoundError,
    GameStatusError,
    StaleGameError,
)
from tg_mafia.storage.models import ChatSettings, Game, GameAction, PlayerResult, utc_now
from tg_mafia.storage.records import (
    ACTIVE_STATUSES,
    DEFAULT_LANGUAGE,
    DEFAULT_VARIANT,
    UNSET,
    ActionRecord,
    ChatSettingsRecord,
    ChatStats,
    GameRecord,
    GameStatus,
    JsonObject,
    Player,
    PlayerOutcome,
    PlayerStanding,
    PlayerStats,
    RoleStats,
    Unset,
)

FINISHED_STATUSES: Final = (GameStatus.ENDED.value, GameStatus.ABORTED.value)
# Fields the engine rebuilds a game from: frozen once the game leaves the lobby.
LOBBY_ONLY_FIELDS: Final = frozenset({"players", "variant", "language", "options", "seed"})
SEED_BITS: Final = 63  # fits a signed BIGINT


class Database:
    """Storage for games, their action logs, chat settings and results.

    Built by `open_database`, which has already migrated the schema.
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    @property
    def engine(self) -> Engine:
        return self._engine

    @property
    def dialect(self) -> str:
        return self._engine.dialect.name

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        try:
            with Session(self._engine, expire_on_commit=False) as session, session.begin():
                yield session
        except OperationalError as error:
            # Connection lost, server down, database locked past the busy timeout.
            raise DatabaseUnavailableError(
                f"database error ({self.dialect}): {str(error.orig).strip().splitlines()[0]}"
            ) from error

    # -- chat settings -------------------------------------------------------------------

    def get_settings(self, chat_id: int) -> ChatSettingsRecord:
        """The chat's settings, or the defaults (with updated_at None) if never saved."""
        with self._transaction() as session:
            row = session.get(ChatSettings, chat_id)
            return _settings_record(row) if row else ChatSettingsRecord(chat_id=chat_id)

    def save_settings(
        self,
        chat_id: int,
        *,
        language: str | Unset = UNSET,
        variant: str | Unset = UNSET,
        options: Mapping[str, Any] | Unset = UNSET,
        title: str | Unset | None = UNSET,
    ) -> ChatSettingsRecord:
        """Create or change a chat's settings; arguments not given keep their value."""
        for attempt in range(2):
            try:
                with self._transaction() as session:
                    row = session.get(ChatSettings, chat_id) or ChatSettings(chat_id=chat_id)
                    if not isinstance(language, Unset):
                        row.language = language
                    if not isinstance(variant, Unset):
                        row.variant = variant
                    if not isinstance(options, Unset):
                        row.options = dict(options)
                    if not isinstance(title, Unset):
                        row.title = title
                    row.updated_at = utc_now()
                    session.add(row)
                    session.flush()
                    return _settings_record(row)
            except IntegrityError:
                # Two first saves of one chat raced; the second now finds the row.
                if attempt:
                    raise
        raise AssertionError("unreachable")

    # -- games: reading ------------------------------------------------------------------

    def get_game(self, game_id: int) -> GameRecord | None:
        with self._transaction() as session:
            row = session.get(Game, game_id)
            return _game_record(row) if row else None

    def active_game(self, chat_id: int) -> GameRecord | None:
        """The chat's game in the lobby or running, if any."""
        with self._transaction() as session:
            row = session.exec(
                select(Game).where(Game.chat_id == chat_id, col(Game.status).in_(ACTIVE_STATUSES))
            ).first()
            return _game_record(row) if row else None

    def unfinished_games(self) -> tuple[GameRecord, ...]:
        """Every game in the lobby or running, oldest first: what to resume at start."""
        with self._transaction() as session:
            rows = session.exec(
                select(Game).where(col(Game.status).in_(ACTIVE_STATUSES)).order_by(col(Game.id))
            ).all()
            return tuple(_game_record(row) for row in rows)

    def pending_permission_restores(self) -> tuple[GameRecord, ...]:
        """Finished games whose chat permissions were saved and not yet restored."""
        with self._transaction() as session:
            rows = session.exec(
                select(Game)
                .where(
                    col(Game.status).in_(FINISHED_STATUSES),
                    col(Game.saved_permissions).is_not(None),
                )
                .order_by(col(Game.id))
            ).all()
            return tuple(_game_record(row) for row in rows)

    def actions(self, game_id: int) -> tuple[ActionRecord, ...]:
        """The game's action log in order."""
        with self._transaction() as session:
            rows = session.exec(
                select(GameAction)
                .where(GameAction.game_id == game_id)
                .order_by(col(GameAction.seq))
            ).all()
            return tuple(
                ActionRecord(
                    game_id=row.game_id,
                    seq=row.seq,
                    action=row.action,
                    created_at=_aware(row.created_at),
                )
                for row in rows
            )

    # -- games: writing ------------------------------------------------------------------

    def create_lobby(
        self,
        chat_id: int,
        *,
        opened_by: int,
        variant: str | None = None,
        language: str | None = None,
        options: Mapping[str, Any] | None = None,
        host_user_id: int | None = None,
        seed: int | None = None,
        players: Sequence[Player] = (),
        messages: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        """Open a lobby; variant, language and options default to the chat's settings.

        Raises GameAlreadyRunningError if the chat has a lobby or running game.
        """
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        _check_seed(seed)
        try:
            with self._transaction() as session:
                if _active_row(session, chat_id) is not None:
                    raise GameAlreadyRunningError(f"chat {chat_id} already has a game")
                settings = session.get(ChatSettings, chat_id)
                now = utc_now()
                row = Game(
                    chat_id=chat_id,
                    status=GameStatus.LOBBY.value,
                    variant=variant or (settings.variant if settings else DEFAULT_VARIANT),
                    language=language or (settings.language if settings else DEFAULT_LANGUAGE),
                    options=dict(
                        options if options is not None else (settings.options if settings else {})
                    ),
                    seed=seed,
                    host_user_id=host_user_id,
                    opened_by=opened_by,
                    players=_players_json(players),
                    messages=dict(messages or {}),
                    version=1,
                    created_at=now,
                    updated_at=now,
                )
                session.add(row)
                session.flush()
                return _game_record(row)
        except IntegrityError as error:
            # Another process opened a lobby between the check and the insert; the partial
            # unique index refused this one.
            raise GameAlreadyRunningError(f"chat {chat_id} already has a game") from error

    def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        players: Sequence[Player] | Unset = UNSET,
        host_user_id: int | Unset | None = UNSET,
        variant: str | Unset = UNSET,
        language: str | Unset = UNSET,
        options: Mapping[str, Any] | Unset = UNSET,
        seed: int | Unset = UNSET,
        messages: Mapping[str, Any] | Unset = UNSET,
        saved_permissions: Mapping[str, Any] | Unset | None = UNSET,
        stage_deadline: float | Unset | None = UNSET,
        timer_token: str | Unset | None = UNSET,
    ) -> GameRecord:
        """Change a lobby or running game (not its status) and bump its version.

        players, variant, language, options and seed can change in the lobby only.
        """
        values: dict[str, Any] = {}
        if not isinstance(players, Unset):
            values["players"] = _players_json(players)
        if not isinstance(seed, Unset):
            _check_seed(seed)
            values["seed"] = seed
        for name, value in (
            ("host_user_id", host_user_id),
            ("variant", variant),
            ("language", language),
            ("stage_deadline", stage_deadline),
            ("timer_token", timer_token),
        ):
            if not isinstance(value, Unset):
                values[name] = value
        for name, mapping in (
            ("options", options),
            ("messages", messages),
            ("saved_permissions", saved_permissions),
        ):
            if not isinstance(mapping, Unset):
                values[name] = None if mapping is None else dict(mapping)
        statuses = (
            (GameStatus.LOBBY.value,) if LOBBY_ONLY_FIELDS & values.keys() else ACTIVE_STATUSES
        )
        with self._transaction() as session:
            return _guarded_update(session, game_id, expected_version, statuses, values)

    def start_game(
        self,
        game_id: int,
        expected_version: int,
        state: JsonObject,
        *,
        stage_deadline: float | None,
        timer_token: str | None,
        messages: Mapping[str, Any] | Unset = UNSET,
    ) -> GameRecord:
        """Lobby -> running, storing the engine's first snapshot and the first stage's timer."""
        values: dict[str, Any] = {
            "status": GameStatus.RUNNING.value,
            "state": state,
            "stage_deadline": stage_deadline,
            "timer_token": timer_token,
        }
        if not isinstance(messages, Unset):
            values["messages"] = dict(messages)
        with self._transaction() as session:
            return _guarded_update(
                session, game_id, expected_version, (GameStatus.LOBBY.value,), values
            )

    def record_action(
        self,
        game_id: int,
        expected_version: int,
        action: JsonObject,
        state: JsonObject,
        *,
        stage_deadline: float | None,
        timer_token: str | None,
        saved_permissions: Mapping[str, Any] | Unset | None = UNSET,
        messages: Mapping[str, Any] | Unset = UNSET,
        final: tuple[str, Sequence[PlayerOutcome]] | None = None,
    ) -> GameRecord:
        """In one transaction: append `action` with the next seq, store the engine snapshot
        `state` and the stage's deadline and timer, bump the version.

        Raises StaleGameError (and writes nothing) if the game is not at `expected_version`.
        `final=(winner, results)` also ends the game, as finish_game does, in the same
        transaction: a crash cannot leave a decided game running.
        """
        values: dict[str, Any] = {
            "state": state,
            "stage_deadline": stage_deadline,
            "timer_token": timer_token,
        }
        if not isinstance(saved_permissions, Unset):
            values["saved_permissions"] = (
                None if saved_permissions is None else dict(saved_permissions)
            )
        if not isinstance(messages, Unset):
            values["messages"] = dict(messages)
        with self._transaction() as session:
            record = _guarded_update(
                session, game_id, expected_version, (GameStatus.RUNNING.value,), values
            )
            # The version update above holds the game's row lock, so seq cannot race.
            last = session.exec(
                select(func.max(GameAction.seq)).where(GameAction.game_id == game_id)
            ).one()
            session.add(
                GameAction(
                    game_id=game_id, seq=(last or 0) + 1, action=action, created_at=utc_now()
                )
            )
            if final is not None:
                winner, results = final
                record = _finish(session, record, winner, results)
            return record

    def finish_game(
        self,
        game_id: int,
        winner: str,
        results: Sequence[PlayerOutcome],
        *,
        expected_version: int | None = None,
    ) -> GameRecord:
        """Running -> ended: store the winning side and one PlayerResult per player."""
        with self._transaction() as session:
            record = _game_record(_load_for_update(session, game_id))
            if expected_version is not None and record.version != expected_version:
                raise StaleGameError(_stale_message(record, expected_version))
            if record.status is not GameStatus.RUNNING:
                raise GameStatusError(f"game {game_id} is {record.status.value}, not running")
            return _finish(session, record, winner, results)

    def abort_game(self, game_id: int, *, expected_version: int | None = None) -> GameRecord:
        """Lobby or running -> aborted (no results). Without a version it always applies."""
        values: dict[str, Any] = {
            "status": GameStatus.ABORTED.value,
            "ended_at": utc_now(),
            "stage_deadline": None,
            "timer_token": None,
        }
        with self._transaction() as session:
            if expected_version is None:
                expected_version = _load_for_update(session, game_id).version
            return _guarded_update(session, game_id, expected_version, ACTIVE_STATUSES, values)

    def clear_saved_permissions(self, game_id: int) -> GameRecord:
        """Forget the saved chat permissions once they are restored (any status)."""
        with self._transaction() as session:
            version = _load_for_update(session, game_id).version
            return _guarded_update(
                session,
                game_id,
                version,
                tuple(status.value for status in GameStatus),
                {"saved_permissions": None},
            )

    # -- statistics ----------------------------------------------------------------------

    def chat_stats(self, chat_id: int, *, top: int = 10) -> ChatStats:
        """Ended games of a chat, wins by side, and its best players (wins, then win rate)."""
        with self._transaction() as session:
            games_played = session.exec(
                select(func.count())
                .select_from(Game)
                .where(Game.chat_id == chat_id, Game.status == GameStatus.ENDED.value)
            ).one()
            by_side = session.exec(
                select(col(Game.winner), func.count())
                .where(
                    Game.chat_id == chat_id,
                    Game.status == GameStatus.ENDED.value,
                    col(Game.winner).is_not(None),
                )
                .group_by(col(Game.winner))
            ).all()
            games = func.count().label("games")
            wins = func.sum(case((col(PlayerResult.won), 1), else_=0)).label("wins")
            standings = session.exec(
                select(col(PlayerResult.user_id), games, wins)
                .where(PlayerResult.chat_id == chat_id)
                .group_by(col(PlayerResult.user_id))
                .order_by(
                    wins.desc(),
                    (cast(wins, Float) / games).desc(),
                    games.desc(),
                    col(PlayerResult.user_id),
                )
                .limit(top)
            ).all()
            names = _latest_names(session, chat_id, [user_id for user_id, _, _ in standings])
            return ChatStats(
                chat_id=chat_id,
                games_played=int(games_played),
                wins_by_side={str(side): int(count) for side, count in by_side},
                top_players=tuple(
                    PlayerStanding(
                        user_id=int(user_id),
                        name=names.get(int(user_id), ""),
                        games=int(n_games),
                        wins=int(n_wins or 0),
                    )
                    for user_id, n_games, n_wins in standings
                ),
            )

    def player_stats(self, user_id: int, *, chat_id: int | None = None) -> PlayerStats:
        """A player's games and wins, overall and by role; in one chat if `chat_id` is given."""
        with self._transaction() as session:
            query = select(
                col(PlayerResult.role),
                func.count(),
                func.sum(case((col(PlayerResult.won), 1), else_=0)),
            ).where(PlayerResult.user_id == user_id)
            if chat_id is not None:
                query = query.where(PlayerResult.chat_id == chat_id)
            rows = session.exec(query.group_by(col(PlayerResult.role))).all()
            by_role = {
                str(role): RoleStats(games=int(games), wins=int(wins or 0))
                for role, games, wins in rows
            }
            return PlayerStats(
                user_id=user_id,
                games=sum(stats.games for stats in by_role.values()),
                wins=sum(stats.wins for stats in by_role.values()),
                by_role=by_role,
            )


# -- helpers (module functions: they take the session, the Database holds no other state) --


def _active_row(session: Session, chat_id: int) -> Game | None:
    return session.exec(
        select(Game).where(Game.chat_id == chat_id, col(Game.status).in_(ACTIVE_STATUSES))
    ).first()


def _load_for_update(session: Session, game_id: int) -> Game:
    # FOR UPDATE on PostgreSQL; SQLite ignores it (a write transaction locks the file).
    row = session.exec(select(Game).where(Game.id == game_id).with_for_update()).first()
    if row is None:
        raise GameNotFoundError(f"no game {game_id}")
    return row


def _guarded_update(
    session: Session,
    game_id: int,
    expected_version: int,
    statuses: Sequence[str],
    values: dict[str, Any],
) -> GameRecord:
    """Apply `values` and bump the version, only if the game is at `expected_version` and in
    one of `statuses`; otherwise raise and write nothing.

    One conditional UPDATE: the version check and the write cannot be separated by another
    writer, on either database.
    """
    result = session.exec(
        update(Game)
        .where(
            col(Game.id) == game_id,
            col(Game.version) == expected_version,
            col(Game.status).in_(statuses),
        )
        .values(version=col(Game.version) + 1, updated_at=utc_now(), **values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        row = session.get(Game, game_id)
        if row is None:
            raise GameNotFoundError(f"no game {game_id}")
        record = _game_record(row)
        if record.version != expected_version:
            raise StaleGameError(_stale_message(record, expected_version))
        raise GameStatusError(
            f"game {game_id} is {record.status.value}; this needs {' or '.join(statuses)}"
        )
    session.expire_all()  # the UPDATE bypassed the identity map
    row = session.get(Game, game_id)
    assert row is not None
    return _game_record(row)


def _finish(
    session: Session, record: GameRecord, winner: str, results: Sequence[PlayerOutcome]
) -> GameRecord:
    now = utc_now()
    finished = _guarded_update(
        session,
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
    session.add_all(
        PlayerResult(
            game_id=record.id,
            chat_id=record.chat_id,
            user_id=result.user_id,
            name=result.name,
            role=result.role,
            side=result.side,
            won=result.won,
            created_at=now,
        )
        for result in results
    )
    session.flush()
    return finished


def _latest_names(session: Session, chat_id: int, user_ids: Sequence[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    rows = session.exec(
        select(col(PlayerResult.user_id), col(PlayerResult.name))
        .where(PlayerResult.chat_id == chat_id, col(PlayerResult.user_id).in_(user_ids))
        .order_by(col(PlayerResult.id))
    ).all()
    return {int(user_id): name for user_id, name in rows}  # later rows win


def _stale_message(record: GameRecord, expected_version: int) -> str:
    return f"game {record.id} is at version {record.version}, not {expected_version}"


def _check_seed(seed: int) -> None:
    if not -(2**63) <= seed < 2**63:
        raise ValueError(f"seed {seed} does not fit in 64 bits")


def _players_json(players: Sequence[Player]) -> list[dict[str, Any]]:
    return [{"user_id": player.user_id, "name": player.name} for player in players]


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _settings_record(row: ChatSettings) -> ChatSettingsRecord:
    return ChatSettingsRecord(
        chat_id=row.chat_id,
        language=row.language,
        variant=row.variant,
        options=dict(row.options),
        title=row.title,
        updated_at=_aware(row.updated_at),
    )


def _game_record(row: Game) -> GameRecord:
    assert row.id is not None
    return GameRecord(
        id=row.id,
        chat_id=row.chat_id,
        status=GameStatus(row.status),
        variant=row.variant,
        language=row.language,
        options=dict(row.options),
        seed=row.seed,
        host_user_id=row.host_user_id,
        opened_by=row.opened_by,
        players=tuple(Player(int(p["user_id"]), str(p["name"])) for p in row.players),
        state=row.state,
        version=row.version,
        stage_deadline=row.stage_deadline,
        timer_token=row.timer_token,
        saved_permissions=row.saved_permissions,
        messages=dict(row.messages),
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        ended_at=_aware(row.ended_at) if row.ended_at else None,
        winner=row.winner,
    )


__all__ = ["Database"]

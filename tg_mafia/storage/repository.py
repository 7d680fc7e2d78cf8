"""The operations the bot calls. Each method is one transaction and returns plain
records; `transaction()` groups several (tx.py) into one."""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, Engine, Float, case, cast, func, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col, select

from tg_mafia.records import (
    ACTIVE_STATUSES,
    UNSET,
    ActionRecord,
    ChatSettingsRecord,
    ChatStats,
    Forgotten,
    GameRecord,
    GameResult,
    GameStatus,
    PlayerOutcome,
    PlayerStanding,
    PlayerStats,
    Pruned,
    RoleStats,
    StillPlaying,
    Unset,
)
from tg_mafia.storage import erasure
from tg_mafia.storage.direct import Direct
from tg_mafia.storage.errors import (
    DatabaseUnavailableError,
)
from tg_mafia.storage.models import (
    ButtonMessage,
    ChatSettings,
    Game,
    GameAction,
    OutboxEntry,
    PlayerResult,
    Pseudonym,
    WaitingGroup,
    utc_now,
)
from tg_mafia.storage.rows import aware, game_record, settings_record
from tg_mafia.storage.tx import Tx

log = logging.getLogger(__name__)

# The tables whose rows belong to a bot (revision 0010).
ADOPTED: Final = (Game, GameAction, OutboxEntry, ButtonMessage, WaitingGroup)


class Database:
    """Storage for games, their action logs, chat settings and results.

    Built by `open_database`, which has already migrated the schema.
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._direct = Direct(engine.dialect)
        # The connection of the group commit this thread is inside, if any (`grouped`).
        self._group = threading.local()
        # The bot this handle works for (`for_bot`); None: every bot's rows.
        self.bot_id: int | None = None

    def for_bot(self, bot_id: int) -> Database:
        """This database as one bot (its Telegram id) sees it: its games, calls,
        messages with buttons and queue for a table, and what it writes stamped as its
        own (Tx's `bot_id`). The chats' settings, the results and the seats (one table
        a player, whichever bot runs it) are every bot's. It shares the engine and the
        group commit with this handle; closing either closes both."""
        scoped = copy.copy(self)
        scoped.bot_id = bot_id
        return scoped

    def adopt(self, bot_id: int) -> int:
        """The rows stored before there were several bots (bot_id NULL) become
        `bot_id`'s: the first token's, at its start (docs/storage.md). How many games
        it took."""
        with self._transaction() as session:
            counts = []
            for table in ADOPTED:
                unclaimed = update(table).where(col(table.bot_id).is_(None))
                taken = session.execute(unclaimed.values(bot_id=bot_id))
                counts.append(int(getattr(taken, "rowcount", 0)))
            return counts[0]  # ADOPTED's first: the games

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
    def transaction(self) -> Iterator[Tx]:
        """One transaction over several operations (the runtime's unit of work). Inside
        a group commit it is a savepoint of the group's, opened on the driver's
        connection (a move's hot path: benchmarks/move_cost.py)."""
        group: Connection | None = getattr(self._group, "connection", None)
        try:
            if group is None:
                with Session(self._engine, expire_on_commit=False) as session, session.begin():
                    yield Tx(session.connection(), self._direct, session, self.bot_id)
                return
            depth = self._group.depth = self._group.depth + 1
            name = f"tg_mafia_{depth}"
            direct = self._direct
            direct.run(group, f"SAVEPOINT {name}")
            tx = Tx(group, direct, bot_id=self.bot_id)
            try:
                yield tx
                tx.finish(ok=True)
            except BaseException:
                tx.finish(ok=False)
                direct.run(group, f"ROLLBACK TO SAVEPOINT {name}")
                direct.run(group, f"RELEASE SAVEPOINT {name}")
                raise
            finally:
                self._group.depth = depth - 1
            direct.run(group, f"RELEASE SAVEPOINT {name}")
        except OperationalError as error:
            raise self._unavailable(error) from error

    @contextmanager
    def grouped(self) -> Iterator[None]:
        """One transaction around every transaction this thread opens inside, each
        of which becomes a savepoint: it rolls back alone when it fails, and the
        whole group is committed at the end, with one fsync (the group commit of
        AsyncDb's SQLite writer). What the group wrote is durable only once this
        returns; DatabaseUnavailableError when its commit fails."""
        try:
            with self._engine.connect() as connection:
                if self.dialect == "sqlite":
                    # pysqlite would begin only at the first write, and a savepoint
                    # opened before it would commit on its release.
                    connection.exec_driver_sql("BEGIN IMMEDIATE")
                else:
                    connection.begin()
                self._group.connection = connection
                self._group.depth = 0
                self._group.after = []
                try:
                    yield
                finally:
                    self._group.connection = None
                connection.commit()
            after, self._group.after = self._group.after, []
            for call in after:
                call()
        except OperationalError as error:
            raise self._unavailable(error) from error

    def _after_commit(self, call: Callable[[], None]) -> None:
        """`call` once what this thread wrote is committed: now, or at the end
        of the group commit it is inside."""
        if getattr(self._group, "connection", None) is None:
            call()
        else:
            self._group.after.append(call)

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        group: Connection | None = getattr(self._group, "connection", None)
        try:
            if group is None:
                session = Session(self._engine, expire_on_commit=False)
            else:
                session = Session(
                    bind=group, expire_on_commit=False, join_transaction_mode="create_savepoint"
                )
            with session, session.begin():
                yield session
        except OperationalError as error:
            # Connection lost, server down, database locked past the busy timeout.
            raise self._unavailable(error) from error

    def _unavailable(self, error: OperationalError) -> DatabaseUnavailableError:
        return DatabaseUnavailableError(
            f"database error ({self.dialect}): {str(error.orig).strip().splitlines()[0]}"
        )

    # -- chat settings -------------------------------------------------------------------

    def get_settings(self, chat_id: int) -> ChatSettingsRecord:
        """The chat's settings, or the defaults (with updated_at None) if never saved."""
        with self._transaction() as session:
            row = session.get(ChatSettings, chat_id)
            return settings_record(row) if row else ChatSettingsRecord(chat_id=chat_id)

    def save_settings(
        self,
        chat_id: int,
        *,
        language: str | Unset = UNSET,
        variant: str | Unset = UNSET,
        options: Mapping[str, Any] | Unset = UNSET,
        title: str | Unset | None = UNSET,
        autostart: bool | Unset = UNSET,
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
                    if not isinstance(autostart, Unset):
                        row.autostart = autostart
                    row.updated_at = utc_now()
                    session.add(row)
                    session.flush()
                    return settings_record(row)
            except IntegrityError:
                # Two first saves of one chat raced; the second now finds the row.
                if attempt:
                    raise
        raise AssertionError("unreachable")

    # -- games: reading ------------------------------------------------------------------

    def get_game(self, game_id: int) -> GameRecord | None:
        with self.transaction() as tx:
            return tx.game(game_id)

    def active_game(self, chat_id: int, topic: int = 0) -> GameRecord | None:
        """The chat's (or forum topic's) game in the lobby or running, if any."""
        with self.transaction() as tx:
            return tx.active_game(chat_id, topic)

    def moved_to(self, chat_id: int) -> int:
        """The chat id a basic group took when it became a supergroup, or its own."""
        with self.transaction() as tx:
            return tx.moved_to(chat_id)

    def game_of_user(self, user_id: int) -> GameRecord | None:
        """The lobby or running game the user sits at (one at most), if any."""
        with self.transaction() as tx:
            return tx.game_of_user(user_id)

    def count_unfinished(self) -> int:
        with self.transaction() as tx:
            query = select(func.count()).select_from(Game)
            active = query.where(col(Game.status).in_(ACTIVE_STATUSES))
            return int(tx.session.exec(tx.mine(active, Game)).one())

    def unfinished_games(self) -> tuple[GameRecord, ...]:
        """Every game (of this handle's bot) in the lobby or running, oldest first: what
        to resume at start."""
        with self.transaction() as tx:
            active = select(Game).where(col(Game.status).in_(ACTIVE_STATUSES))
            rows = tx.session.exec(tx.mine(active, Game).order_by(col(Game.id))).all()
            return tuple(game_record(row) for row in rows)

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
                    created_at=aware(row.created_at),
                )
                for row in rows
            )

    # -- retention and erasure ------------------------------------------------------------

    def prune(self, ended_before: datetime, *, dry_run: bool = False) -> Pruned:
        """Retention (erasure.prune): what games that ended or were cancelled
        before `ended_before` keep of their players; with `dry_run`, only
        counted. Deleted rows do not linger in a SQLite file (secure_delete,
        and its write-ahead log emptied after)."""
        with self._transaction() as session:
            pruned = erasure.prune(session, ended_before, utc_now(), dry_run=dry_run)
        if pruned.total and not dry_run:
            self._after_commit(self.empty_log)
        return pruned

    def forget(self, user_id: int) -> Forgotten | StillPlaying:
        """/forget (erasure.forget), in one transaction; then the SQLite
        write-ahead log is emptied, so no copy of what went stays there."""
        with self._transaction() as session:
            outcome = erasure.forget(session, user_id)
        if isinstance(outcome, Forgotten) and outcome.total:
            self._after_commit(self.empty_log)
        return outcome

    def empty_log(self) -> None:
        """SQLite: the write-ahead log, which keeps copies of recently written
        pages (rows deleted since among them), is written into the database
        and cut to nothing. A reader still in a snapshot may keep it from being
        cut: then it is reused from its start, and cut the next time."""
        if self.dialect != "sqlite":
            return
        try:
            with self._engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        except OperationalError as error:  # what was written stands: only the log waits
            log.warning("the write-ahead log could not be emptied: %s", error.orig)

    def results_history(self, chat_id: int) -> tuple[GameResult, ...]:
        """The chat's ended games in order, each with every player's result (the
        rating). A player is their user id while a pseudonym ties them to their
        results, else the negative of the result's pseudonym (nobody's)."""
        with self._transaction() as session:
            rows = session.exec(
                select(Game.id, Game.variant, PlayerResult, Pseudonym.user_id)
                .join(PlayerResult, col(PlayerResult.game_id) == col(Game.id))
                .join(
                    Pseudonym,
                    col(Pseudonym.pseudonym) == col(PlayerResult.player),
                    isouter=True,
                )
                .where(Game.chat_id == chat_id, Game.status == GameStatus.ENDED.value)
                .order_by(col(Game.id), col(PlayerResult.id))
            ).all()
            games: dict[int, tuple[str, list[PlayerOutcome]]] = {}
            for game_id, variant, result, user_id in rows:
                player = int(user_id) if user_id is not None else -result.player
                games.setdefault(int(game_id or 0), (str(variant), []))[1].append(
                    PlayerOutcome(player, result.name, result.role, result.side, result.won)
                )
            return tuple(
                GameResult(game_id, variant, tuple(players))
                for game_id, (variant, players) in games.items()
            )

    def player_chats(self, user_id: int, *, limit: int = 3) -> tuple[tuple[int, str], ...]:
        """The chats the user finished games in, the latest first, each with its
        title (the settings', else the title of the user's latest game there)."""
        with self._transaction() as session:
            pseudonym = erasure.pseudonym_of(session, user_id)
            if pseudonym is None:
                return ()
            latest = func.max(PlayerResult.id).label("latest")
            rows = session.exec(
                select(col(PlayerResult.chat_id), latest)
                .where(PlayerResult.player == pseudonym)
                .group_by(col(PlayerResult.chat_id))
                .order_by(latest.desc())
                .limit(limit)
            ).all()
            found = []
            for chat_id, last in rows:
                settings = session.get(ChatSettings, chat_id)
                title = settings.title if settings is not None else None
                if not title:
                    game = session.exec(
                        select(Game.title)
                        .join(PlayerResult, col(PlayerResult.game_id) == col(Game.id))
                        .where(PlayerResult.id == last)
                    ).first()
                    title = game or ""
                found.append((int(chat_id), title))
            return tuple(found)

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
            named = func.sum(case((col(PlayerResult.name) != "", 1), else_=0))
            # The players a pseudonym ties to someone, and named here: within the retention.
            standings = session.exec(
                select(col(PlayerResult.player), col(Pseudonym.user_id), games, wins)
                .join(Pseudonym, col(Pseudonym.pseudonym) == col(PlayerResult.player))
                .where(PlayerResult.chat_id == chat_id)
                .group_by(col(PlayerResult.player), col(Pseudonym.user_id))
                .having(named > 0)
                .order_by(
                    wins.desc(),
                    (cast(wins, Float) / games).desc(),
                    games.desc(),
                    col(Pseudonym.user_id),
                )
                .limit(top)
            ).all()
            names = _latest_names(session, chat_id, [player for player, _, _, _ in standings])
            return ChatStats(
                chat_id=chat_id,
                games_played=int(games_played),
                wins_by_side={str(side): int(count) for side, count in by_side},
                top_players=tuple(
                    PlayerStanding(
                        user_id=int(user_id),
                        name=names.get(int(player), ""),
                        games=int(n_games),
                        wins=int(n_wins or 0),
                    )
                    for player, user_id, n_games, n_wins in standings
                ),
            )

    def player_stats(self, user_id: int, *, chat_id: int | None = None) -> PlayerStats:
        """A player's games and wins, overall and by role; in one chat if `chat_id` is given."""
        with self._transaction() as session:
            pseudonym = erasure.pseudonym_of(session, user_id)
            query = select(
                col(PlayerResult.role),
                func.count(),
                func.sum(case((col(PlayerResult.won), 1), else_=0)),
            ).where(PlayerResult.player == (pseudonym or 0))
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


# -- helpers --------------------------------------------------------------------------


def _latest_names(session: Session, chat_id: int, players: Sequence[int]) -> dict[int, str]:
    """Each player's latest name in the chat (by pseudonym); a blanked one is no name."""
    if not players:
        return {}
    rows = session.exec(
        select(col(PlayerResult.player), col(PlayerResult.name))
        .where(
            PlayerResult.chat_id == chat_id,
            col(PlayerResult.player).in_(players),
            PlayerResult.name != "",
        )
        .order_by(col(PlayerResult.id))
    ).all()
    return {int(player): name for player, name in rows}  # later rows win


__all__ = ["Database"]

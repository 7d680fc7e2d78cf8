"""Storage: games, their action logs, chat settings and results, on SQLite or PostgreSQL.

Every accepted game action is written (`Tx.record_action`, in a `Database.transaction`)
before anything is sent; at start `open_database` migrates the schema and
`Database.unfinished_games` lists what to resume. See docs/storage.md.
"""

from tg_mafia.records import (
    UNSET,
    ActionRecord,
    ButtonsRecord,
    ChatSettingsRecord,
    ChatStats,
    Forgotten,
    GameRecord,
    GameResult,
    GameStatus,
    JsonObject,
    OutboxRecord,
    Player,
    PlayerOutcome,
    PlayerStanding,
    PlayerStats,
    Pruned,
    RoleStats,
    StillPlaying,
    Unset,
)
from tg_mafia.storage.database import (
    DEFAULT_DATABASE_URL,
    create_database_engine,
    current_revision,
    head_revision,
    mask_url,
    migrate,
    open_database,
    parse_database_url,
)
from tg_mafia.storage.errors import (
    ChatTakenError,
    DatabaseConfigError,
    DatabaseUnavailableError,
    GameAlreadyRunningError,
    GameNotFoundError,
    GameStatusError,
    PlayerBusyError,
    StaleGameError,
    StorageError,
)
from tg_mafia.storage.repository import Database
from tg_mafia.storage.tx import Tx

__all__ = [
    "DEFAULT_DATABASE_URL",
    "UNSET",
    "ActionRecord",
    "ButtonsRecord",
    "ChatSettingsRecord",
    "ChatStats",
    "ChatTakenError",
    "Database",
    "DatabaseConfigError",
    "DatabaseUnavailableError",
    "Forgotten",
    "GameAlreadyRunningError",
    "GameNotFoundError",
    "GameRecord",
    "GameResult",
    "GameStatus",
    "GameStatusError",
    "JsonObject",
    "OutboxRecord",
    "Player",
    "PlayerBusyError",
    "PlayerOutcome",
    "PlayerStanding",
    "PlayerStats",
    "Pruned",
    "RoleStats",
    "StaleGameError",
    "StillPlaying",
    "StorageError",
    "Tx",
    "Unset",
    "create_database_engine",
    "current_revision",
    "head_revision",
    "mask_url",
    "migrate",
    "open_database",
    "parse_database_url",
]

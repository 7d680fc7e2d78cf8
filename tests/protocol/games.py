"""Finished games made with the engine's seeded random player, as the
storage would hand them back: a game record and its action log."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from engine import GameState, IllegalAction, apply, new_game
from engine.actions import Action, MafiaChat, Say, action_from_dict
from engine.simulation import random_action
from engine.variants import find_variant
from tg_mafia.storage import ActionRecord, GameRecord, GameStatus, Player

START = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)
NAMES = (
    "Anna", "Boris", "Chloé", "Dima", "Eva", "Farid", "Gleb", "Hana", "Ion", "Jules",
    "Kira", "Léa", "Mai", "Nico", "Olga", "Pavel", "Quang", "Rada", "Sasha", "Tudor",
)  # fmt: skip


def played(
    variant: str,
    players: int | None = None,
    seed: int = 1,
    *,
    finish: bool = True,
    host: bool = False,
    options: dict[str, object] | None = None,
    chatter: float = 0.02,
    family_talk: bool = False,
) -> tuple[GameRecord, list[ActionRecord], GameState]:
    """A game of `variant` played by random moves: to its end, or (finish
    False) about halfway."""
    rules = find_variant(variant)
    count = players or min(rules.min_players + 2, rules.max_players)
    seats = [Player(1000 + i, NAMES[i]) for i in range(count)]
    given = dict(options or {})
    given["host"] = "human" if host else "auto"
    ids = tuple(str(p.user_id) for p in seats)
    state, _ = new_game(variant, ids, given, seed, "en")
    rng = random.Random(seed)
    log: list[ActionRecord] = []
    greeted = 0  # the last day someone said good morning: the table is never abandoned
    while state.phase.value != "ended":
        if not finish and len(log) > 60 and state.stage.value != "confirm":
            break
        action = random_action(state, rng, chatter)
        if state.phase.value == "day" and state.day.number != greeted and not state.is_over:
            greeted = state.day.number  # a player acts each day: the game is not abandoned
            action = Say(state.table.alive[0], "good morning")
        elif family_talk and state.stage.value == "night":
            mafioso = next(
                p
                for p in state.table.seats
                if state.table.roles[p].is_mafia and state.table.is_alive(p)
            )
            talk = MafiaChat(mafioso, "psst")
            if not any(isinstance(a, MafiaChat) for a in _since_dusk(log)):
                try:
                    apply(state, talk)
                    action = talk
                except IllegalAction:
                    pass
        state, _ = apply(state, action)
        log.append(
            ActionRecord(1, len(log) + 1, action.to_dict(), START + timedelta(seconds=len(log)))
        )
        assert len(log) < 5000
    return record_of(variant, seats, given, seed, state, log), log, state


def record_of(
    variant: str,
    seats: list[Player],
    given: dict[str, object],
    seed: int,
    state: GameState,
    log: list[ActionRecord],
) -> GameRecord:
    """The game as the storage keeps it, after `log` brought it to `state`."""
    ended = state.phase.value == "ended"
    host = given.get("host") == "human"
    stored = dict(given)
    stored.pop("host")
    return GameRecord(
        id=1,
        chat_id=-100,
        topic=0,
        status=GameStatus.ENDED if ended else GameStatus.RUNNING,
        variant=variant,
        language="en",
        options=stored,
        seed=seed,
        host_user_id=999 if host else None,
        opened_by=1000,
        players=tuple(seats),
        state=state.to_dict(),
        version=len(log) + 2,
        stage_deadline=None,
        timer_token=None,
        saved_permissions=None,
        title="Friday club",
        bot_rights={},
        opener_name="Anna",
        host_name="Hosty" if host else None,
        paused_left=None,
        created_at=START - timedelta(minutes=5),
        updated_at=START,
        ended_at=START + timedelta(seconds=len(log)) if ended else None,
        winner=state.outcome.winner.value if state.outcome.winner else None,
    )


class Script:
    """A game played by hand, action by action, kept as the storage keeps its log."""

    def __init__(self, variant: str, players: int, seed: int = 1) -> None:
        self.variant, self.seed = variant, seed
        self.seats = [Player(1000 + i, NAMES[i]) for i in range(players)]
        # A timer that runs out stands for a turn used to its end: nobody is out as idle.
        self.given: dict[str, object] = {"host": "auto", "idle_limit": 0}
        ids = tuple(str(p.user_id) for p in self.seats)
        self.state, _ = new_game(variant, ids, self.given, seed, "en")
        self.log: list[ActionRecord] = []

    def seat(self, number: int) -> str:
        """The engine's id of the player in seat `number` (1-based)."""
        return self.state.table.seats[number - 1]

    def act(self, *actions: Action) -> None:
        for action in actions:
            self.state, _ = apply(self.state, action)
            stamp = START + timedelta(seconds=len(self.log))
            self.log.append(ActionRecord(1, len(self.log) + 1, action.to_dict(), stamp))

    def finish(self, seed: int = 1) -> None:
        """The rest of the game by random moves (a player greets each day, so
        that the table is never abandoned)."""
        rng = random.Random(seed)
        greeted = self.state.day.number
        while self.state.phase.value != "ended":
            action = random_action(self.state, rng)
            if self.state.phase.value == "day" and self.state.day.number != greeted:
                greeted = self.state.day.number
                action = Say(self.state.table.alive[0], "good morning")
            self.act(action)
            assert len(self.log) < 5000

    def record(self) -> GameRecord:
        return record_of(self.variant, self.seats, self.given, self.seed, self.state, self.log)


def _since_dusk(log: list[ActionRecord]) -> list[Action]:
    """The actions since the last timer (a night is ended by one)."""
    found: list[Action] = []
    for entry in reversed(log):
        if entry.action.get("verb") == "timeout":
            break
        found.append(action_from_dict(dict(entry.action)))
    return found

"""The errors of the engine: a refused move (with its reason) and a game that
cannot be dealt."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why the rules refuse a move: stable and machine-readable (the shell
    answers each with its own popup; scenario files name them)."""

    ALREADY_NOMINATED = "already_nominated"
    ALREADY_NOMINEE = "already_nominee"
    BAD_TARGET = "bad_target"
    BEST_MOVE_MADE = "best_move_made"
    BEST_MOVE_SIZE = "best_move_size"
    DEAD = "dead"
    EMPTY = "empty"
    FAMILY_ASLEEP = "family_asleep"
    GAME_OVER = "game_over"
    HAND_DOWN = "hand_down"
    HAND_UP = "hand_up"
    MAY_NOT_VOTE = "may_not_vote"
    NO_BEST_MOVE = "no_best_move"
    NO_COUNT = "no_count"
    NO_FLOOR = "no_floor"
    NO_LEAVING = "no_leaving"
    NO_SUCH_MOVE = "no_such_move"
    NO_TIMER = "no_timer"
    NO_VOTE_GIVEN = "no_vote_given"
    NO_VOTE_NOW = "no_vote_now"
    NO_WARNINGS = "no_warnings"
    NOT_A_PLAYER = "not_a_player"
    NOT_DECIDER = "not_decider"
    NOT_DON = "not_don"
    NOT_HOST = "not_host"
    NOT_MAFIA = "not_mafia"
    NOT_NIGHT = "not_night"
    NOT_NOW = "not_now"
    NOT_PAUSED = "not_paused"
    NOT_SUSPENDED = "not_suspended"
    NOT_YOUR_FLOOR = "not_your_floor"
    NOTHING_TO_CONFIRM = "nothing_to_confirm"
    PAUSED = "paused"
    SAME_HEAL = "same_heal"
    SELF_TARGET = "self_target"
    STALE_TIMER = "stale_timer"
    SUSPENDED = "suspended"
    VOTE_CANCELLED = "vote_cancelled"
    VOTED_ALREADY = "voted_already"


class IllegalAction(ValueError):
    """An action the rules refuse, for `code`; the game it was applied to is
    left unchanged."""

    def __init__(self, code: Reason, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class SetupError(ValueError):
    """A game that cannot be set up: wrong player count, deck, or options."""

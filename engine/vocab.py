"""The closed vocabularies the events speak in (engine/events.py), beside
those of the state (state.Stage, FloorMode, VoteRound, Cause) and of the
variants (variants.NightMove): a misspelt one is a type error, and a
renderer that forgets one fails mypy. Each value is the string stored in
protocols, scenario files and games saved before these were types."""

from __future__ import annotations

from enum import StrEnum


class CheckAnswer(StrEnum):
    """What a night's check tells the checker: the sheriff (detective, police)
    learns mafia or not, the Don sheriff or not."""

    MAFIA = "mafia"
    NOT_MAFIA = "not mafia"
    SHERIFF = "sheriff"
    NOT_SHERIFF = "not sheriff"


class MoveResult(StrEnum):
    """What came of a night move other than a check (a check's result is its
    CheckAnswer)."""

    KILLED = "killed"
    SAVED = "saved"  # a shot the doctor healed; a heal that saved a life
    MISSED = "missed"  # no agreement (or a tie): the family made no shot
    OUTVOTED = "outvoted"  # the family shot another
    GONE = "gone"  # the target had left the game
    NO_SHOT = "no_shot"  # a heal of a player nobody shot
    BLOCKED = "blocked"
    SKIPPED = "skipped"  # no target, chosen
    NO_CHOICE = "no_choice"  # no choice in time


class Breach(StrEnum):
    """Why a post was deleted (PostDeleted), or a player warned or fouled
    (Warned, Fouled): DEAD only deletes, HOST is a warning with no post."""

    DEAD = "dead"  # the dead do not post
    SILENT = "silent"  # on one's own silent floor
    NIGHT = "night"
    DURING_VOTE = "during_vote"
    BLOCKED = "blocked"  # blocked by the escort for the day
    AFTER_FLOOR = "after_floor"  # after one's own speech
    OUT_OF_TURN = "out_of_turn"  # on someone else's floor
    HOST = "host"  # the human host's warning


class FoulEffect(StrEnum):
    """sport: what a foul does besides counting."""

    NONE = ""
    SILENCED = "silenced"  # the third: the next speech is silent
    REMOVED = "removed"  # the limit: out at once


class CancelledVote(StrEnum):
    """sport: which vote a removal by fouls cancels."""

    NOW = "now"  # a count, a re-speech or the lift is running
    TODAY = "today"  # the day's voting is still to come
    NEXT_DAY = "next_day"


class NoVoteReason(StrEnum):
    NO_NOMINEE = "no_nominee"
    SINGLE_FIRST_DAY = "single_first_day"  # one nominee on the first day: no vote
    SINGLE = "single"  # one nominee: eliminated without a vote
    NO_DECIDER = "no_decider"  # nobody killed last night may break the tie
    NO_DECISION = "no_decision"  # the deciding vote did not come in time
    CANCELLED = "cancelled"  # sport: a removal by fouls cancelled it


class VoteOutcome(StrEnum):
    """How a vote ended (VoteResult)."""

    ELIMINATED = "eliminated"
    # moscow and club: the ties.
    REVOTE = "revote"  # more than two tied: a new vote among them
    LAST_WORDS = "last_words"  # two tied: last words, then the vote again
    DECIDE = "decide"  # tied again: the deciding vote
    DECIDED = "decided"  # the deciding vote fell
    NOBODY = "nobody"
    # sport: the ties.
    RESPEECHES = "respeeches"
    LIFT = "lift"  # the same players tied again: the lift vote
    TABLE_SPLIT = "table_split"  # every living player tied twice: nobody leaves
    # classic and party.
    NO_MAJORITY = "no_majority"  # classic: nobody reached a majority in time
    TIE = "tie"  # party: a tied ballot saves all


class TimerChange(StrEnum):
    PAUSED = "paused"  # by the human host
    RESUMED = "resumed"
    EXTENDED = "extended"
    UNPAUSED = "unpaused"  # the pause's limit ran out


class EndReason(StrEnum):
    """How a game ended (GameEnded)."""

    DECIDED = "decided"  # a side won, or sport's draw
    ABANDONED = "abandoned"  # nobody acted: unscored
    SUSPENDED = "suspended"  # the suspension's limit ran out: unscored
